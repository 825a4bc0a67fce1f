"""Which items the Scrapy layer fills, and what it leaves alone: fields the spider set,
items of other classes, the raw HTML source field, items replaced by an earlier pipeline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import scrapy
from scrapy.utils.test import get_crawler

from scrapy_cetd.crawl.settings import CetdConfig, InvalidSetting
from tests.conftest import run_crawl
from tests.scrapy_items import RIVER_FIRST, ArticleData, ArticleItem
from tests.test_scrapy_components import RIVER, Components

RIVER_TITLE = "Volunteers pull two tonnes of rubbish from the Elm"


# --- fields the spider set itself ---------------------------------------------------------


def test_fields_the_spider_set_are_kept() -> None:
    components = Components()
    response = components.download("http://site.test/river", RIVER)
    own: dict[str, Any] = {"url": "https://canonical.example/river", "title": "My own title", "authors": ["Spider Set"]}
    item = components.scrape(response, dict(own))
    assert {key: item[key] for key in own} == own  # not overwritten
    assert item["text"].startswith(RIVER_FIRST) and item["language"] == "en"  # the rest filled
    assert components.stats["scrapy_cetd/fields/kept"] == 3
    assert components.stats["scrapy_cetd/items/extracted"] == 1


def test_fields_holding_none_are_filled() -> None:
    components = Components()
    response = components.download("http://site.test/river", RIVER)
    item = components.scrape(response, ArticleData(url=response.url, title=None))
    assert item.title == RIVER_TITLE and item.authors == ["Maria Okafor"]
    typed = components.scrape(response, ArticleItem(title=None, text="Own text"))
    assert typed["title"] == RIVER_TITLE and typed["text"] == "Own text"
    assert components.stats["scrapy_cetd/fields/kept"] == 1  # ArticleItem's text (the same URL: not counted)


# --- which items get the page's content ----------------------------------------------------


class TeaserItem(scrapy.Item):
    headline = scrapy.Field()
    link = scrapy.Field()


def test_only_the_item_classes_named_are_filled() -> None:
    components = Components({"CETD_ITEM_CLASSES": ["tests.scrapy_items.ArticleItem", ArticleData]})
    response = components.download("http://site.test/river", RIVER)
    teaser = components.scrape(response, TeaserItem(headline="Elm", link="http://site.test/elm"))
    assert dict(teaser) == {"headline": "Elm", "link": "http://site.test/elm"}
    assert components.scrape(response, {"headline": "Elm"}) == {"headline": "Elm"}
    assert components.scrape(response, ArticleItem())["title"] == RIVER_TITLE
    assert components.scrape(response, ArticleData(url=response.url)).text.startswith(RIVER_FIRST)
    assert components.stats["scrapy_cetd/items/other_class"] == 2
    assert components.stats["scrapy_cetd/items/extracted"] == 2
    assert "scrapy_cetd/items/error" not in components.stats


def test_item_classes_from_the_command_line_and_invalid_ones() -> None:
    command_line = {"CETD_ITEM_CLASSES": "dict,tests.scrapy_items.ArticleItem"}
    assert CetdConfig.from_settings(get_crawler(settings_dict=command_line).settings).item_classes == (
        dict, ArticleItem,
    )
    invalid = (("tests.scrapy_items.Nope", "cannot import"), (["tests.scrapy_items.RIVER_FIRST"], "expected item"))
    for value, message in invalid:
        with pytest.raises(InvalidSetting, match=f"CETD_ITEM_CLASSES: {message}"):
            CetdConfig.from_settings(get_crawler(settings_dict={"CETD_ITEM_CLASSES": value}).settings)


def test_a_filled_class_without_an_output_field_is_an_error(caplog: pytest.LogCaptureFixture) -> None:
    components = Components()  # every class: TeaserItem is filled and cannot hold the outputs
    response = components.download("http://site.test/river", RIVER)
    components.scrape(response, TeaserItem(headline="Elm"))
    assert components.stats["scrapy_cetd/items/error"] == 1 and "TeaserItem has no field" in caplog.text


def test_a_disabled_request_flags_only_items_that_can_hold_the_flag() -> None:
    components = Components()
    response = components.download("http://site.test/river", RIVER, meta={"cetd_enabled": False})
    assert dict(components.scrape(response, TeaserItem(headline="Elm"))) == {"headline": "Elm"}
    assert components.scrape(response, {"headline": "Elm"})["cetd_flag"] == "disabled"
    assert components.scrape(response, ArticleItem())["cetd_flag"] == "disabled"
    assert "scrapy_cetd/errors/undeclared_field" not in components.stats


# --- the raw HTML source field -------------------------------------------------------------


def test_the_source_field_leaves_the_item_after_extraction() -> None:
    components = Components()
    item = components.scrape(None, {"url": "stored:1", "raw_html": RIVER})  # bytes
    assert "raw_html" not in item and item["text"].startswith(RIVER_FIRST)
    json.dumps(item)  # a JSON feed can write it
    kept = Components({"CETD_SOURCE_FIELD": "html", "CETD_OUTPUT_FIELDS": {"text": "text", "html": "html"}})
    item = kept.scrape(None, {"html": RIVER})
    assert item["html"].startswith("<") and "Related stories" not in item["html"]  # the output replaced it


# --- an earlier pipeline that replaces the item ---------------------------------------------


class CopyingPipeline:
    """Returns a new item object (a common pattern): the copy is not tied to the page."""

    def process_item(self, item: Any) -> Any:
        if item.get("copy"):
            return dict(item)
        if item.get("drop"):
            raise scrapy.exceptions.DropItem("not wanted")
        return item


class RiverSpider(scrapy.Spider):
    name = "river"

    def __init__(self, site_url: str, flags: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.site_url, self.flags = site_url, flags.split(",")

    async def start(self):  # type: ignore[override]
        yield scrapy.Request(f"{self.site_url}/article-river.html")

    def parse(self, response, **kwargs):  # type: ignore[override]
        for flag in self.flags:
            yield {"url": response.url, flag: True}


@pytest.mark.parametrize("flags", ["copy,copy", "drop,keep"])
def test_an_item_replaced_by_an_earlier_pipeline_is_reported(tmp_path: Path, site_url: str, flags: str) -> None:
    settings = {"ITEM_PIPELINES": {"tests.test_scrapy_items.CopyingPipeline": 50}}
    result = run_crawl("tests.test_scrapy_items.RiverSpider", tmp_path, settings, site_url=site_url, flags=flags)
    warnings = [line for line in result.log.splitlines() if "never reached ContentExtractionPipeline" in line]
    if flags == "copy,copy":
        assert len(warnings) == 1 and "WARNING" in warnings[0] and "returned a new item" in warnings[0]
        assert result.stats["scrapy_cetd/items/not_reached"] == 2
        assert all("text" not in item for item in result.items)
    else:  # dropped before the pipeline: nothing lost
        assert warnings == [] and "scrapy_cetd/items/not_reached" not in result.stats
        assert result.items[0]["text"].startswith(RIVER_FIRST)


# --- XML feeds -------------------------------------------------------------------------------


def test_xml_feeds_write_none_as_an_absent_element() -> None:
    import io

    from scrapy.settings import Settings

    from scrapy_cetd.crawl.addon import Addon
    from scrapy_cetd.crawl.exporters import XmlItemExporter

    out = io.BytesIO()
    exporter = XmlItemExporter(out)
    exporter.start_exporting()
    exporter.export_item({"title": "Elm", "date_published": None, "diagnostics": {"reason": None, "threshold": 1}})
    exporter.finish_exporting()
    xml = out.getvalue().decode()
    assert "None" not in xml and "date_published" not in xml and "<title>Elm</title>" in xml
    assert "<diagnostics><threshold>1</threshold></diagnostics>" in xml
    settings = Settings()
    Addon().update_settings(settings)
    assert settings.getwithbase("FEED_EXPORTERS")["xml"] == "scrapy_cetd.crawl.exporters.XmlItemExporter"
