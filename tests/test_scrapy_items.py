"""Which items the Scrapy layer fills, and what it leaves alone: fields the spider set,
items of other classes, the raw HTML source field, items replaced by an earlier pipeline."""

from __future__ import annotations

from typing import Any

from itemadapter import ItemAdapter

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
