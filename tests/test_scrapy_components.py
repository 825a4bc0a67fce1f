"""The Scrapy components driven directly (no reactor): settings, meta overrides, item types, errors."""

from __future__ import annotations

import asyncio
import gc
import os
from typing import Any

import pytest
from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.http import HtmlResponse, Request, Response, TextResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

import scrapy_cetd
from scrapy_cetd import DEFAULT_ALGORITHM, Page
from scrapy_cetd.crawl.addon import Addon
from scrapy_cetd.crawl.middlewares import (
    ANNOTATION_META_KEY,
    RESPONSE_FLAG,
    ContentAnnotationMiddleware,
    ContentSpiderMiddleware,
    get_page,
)
from scrapy_cetd.crawl.pipelines import ContentExtractionPipeline, ExtractionPool
from scrapy_cetd.crawl.settings import CetdConfig, InvalidSetting
from tests.scrapy_items import RIVER_FIRST, SITE, ArticleAttrs, ArticleData, ArticleItem

RIVER = (SITE / "article-river.html").read_bytes()




class Components:
    """The three components of one crawler, and a way to push a response and an item through."""

    def __init__(self, settings: dict[str, Any] | None = None) -> None:
        self.crawler = get_crawler(settings_dict={"CETD_WORKERS": 0, **(settings or {})})
        self.downloader_mw = build_from_crawler(ContentAnnotationMiddleware, self.crawler)
        self.spider_mw = build_from_crawler(ContentSpiderMiddleware, self.crawler)
        self.pipeline = build_from_crawler(ContentExtractionPipeline, self.crawler)

    @property
    def stats(self) -> dict[str, Any]:
        return {k: v for k, v in self.crawler.stats.get_stats().items() if k.startswith("scrapy_cetd/")}

    def download(self, url: str, body: bytes, meta: dict[str, Any] | None = None, **kwargs: Any) -> Response:
        request = Request(url, meta=meta or {})
        cls = kwargs.pop("cls", HtmlResponse)
        response = cls(url, body=body, request=request, **kwargs)
        return self.downloader_mw.process_response(request=request, response=response)

    def scrape(self, response: Response | None, item: Any) -> Any:
        item = self.spider_mw.get_processed_item(item, response)
        return asyncio.run(self.pipeline.process_item(item))


# --- settings -----------------------------------------------------------------------------


def test_defaults() -> None:
    config = CetdConfig.from_settings(get_crawler().settings)
    assert config.enabled
    assert config.options.algorithm == scrapy_cetd.DEFAULT_ALGORITHM
    assert config.options.threshold_coefficient == scrapy_cetd.get_algorithm(
        scrapy_cetd.DEFAULT_ALGORITHM
    ).default_coefficient
    assert dict(config.output_fields) == {
        name: name
        for name in ("url", "title", "text", "authors", "date_published", "language", "canonical_url")
    }
    assert not config.options.html and config.options.metadata
    assert (config.flag_field, config.error_field, config.source_field) == ("cetd_flag", "cetd_error", "raw_html")
    assert (config.on_short_text, config.on_error, config.options.min_text_length) == ("flag", "keep", 0)
    assert config.workers == min(2, os.cpu_count() or 1)
    assert config.max_size == 16 * 1024 * 1024


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"CETD_ENABLED": "maybe"}, "CETD_ENABLED: "),
        ({"CETD_ALGORITHM": "nope"}, "CETD_ALGORITHM: unknown algorithm 'nope'"),
        ({"CETD_ALGORITHM": ""}, "CETD_ALGORITHM: expected an algorithm name"),
        ({"CETD_THRESHOLD_COEFFICIENT": "high"}, "CETD_THRESHOLD_COEFFICIENT: expected a number, got 'high'"),
        ({"CETD_THRESHOLD_COEFFICIENT": -1}, "CETD_THRESHOLD_COEFFICIENT: "),
        ({"CETD_PARAMS": {"no_such_param": 1}}, f"CETD_PARAMS: {DEFAULT_ALGORITHM}: unknown parameter(s) no_such"),
        ({"CETD_PARAMS": "[1, 2]"}, "CETD_PARAMS: "),
        ({"CETD_OUTPUT_FIELDS": {"summary": "summary"}}, "CETD_OUTPUT_FIELDS: unknown output 'summary'"),
        ({"CETD_OUTPUT_FIELDS": {"text": "body", "html": "body"}}, "CETD_OUTPUT_FIELDS: two outputs write to"),
        ({"CETD_OUTPUT_FIELDS": {"text": 3}}, "CETD_OUTPUT_FIELDS['text']: expected an item field name"),
        ({"CETD_MIN_TEXT_LENGTH": -5}, "CETD_MIN_TEXT_LENGTH: expected a whole number >= 0, got -5"),
        ({"CETD_MIN_TEXT_LENGTH": 2.5}, "CETD_MIN_TEXT_LENGTH: expected a whole number >= 0, got 2.5"),
        ({"CETD_ON_SHORT_TEXT": "skip"}, "CETD_ON_SHORT_TEXT: expected one of 'flag', 'drop', got 'skip'"),
        ({"CETD_ON_ERROR": "ignore"}, "CETD_ON_ERROR: expected one of 'keep', 'drop', got 'ignore'"),
        ({"CETD_FLAG_FIELD": 7}, "CETD_FLAG_FIELD: expected an item field name"),
        ({"CETD_FLAG_FIELD": "text"}, "CETD_FLAG_FIELD: 'text' is already the item field of CETD_OUTPUT_FIEL"),
        ({"CETD_FLAG_FIELD": "x", "CETD_ERROR_FIELD": "x"}, "CETD_ERROR_FIELD: 'x' is already the item field of CE"),
        ({"CETD_MAX_SIZE": "big"}, "CETD_MAX_SIZE: expected a whole number >= 0, got 'big'"),
        ({"CETD_WORKERS": -1}, "CETD_WORKERS: expected a whole number >= 0, got -1"),
    ],
)
def test_invalid_settings_name_the_setting(settings: dict[str, Any], message: str) -> None:
    crawler = get_crawler(settings_dict=settings)
    for component in (ContentAnnotationMiddleware, ContentSpiderMiddleware, ContentExtractionPipeline):
        with pytest.raises(InvalidSetting) as error:
            build_from_crawler(component, crawler)
        assert str(error.value).startswith(message)


def test_settings_from_the_command_line_are_strings() -> None:
    crawler = get_crawler(
        settings_dict={
            "CETD_ALGORITHM": "cetd-ds",
            "CETD_THRESHOLD_COEFFICIENT": "0.5",
            "CETD_OUTPUT_FIELDS": '{"text": "body", "title": null}',
            "CETD_MIN_TEXT_LENGTH": "100",
            "CETD_ENABLED": "true",
        }
    )
    config = CetdConfig.from_settings(crawler.settings)
    assert (config.options.algorithm, config.options.threshold_coefficient) == ("cetd-ds", 0.5)
    assert dict(config.output_fields) == {"text": "body"}
    assert config.options.min_text_length == 100
    assert not config.options.html  # no field takes the cleaned HTML: it is not rendered
    assert config.options.keywords()["with_html"] is False


def test_disabled_components_are_not_configured() -> None:
    crawler = get_crawler(settings_dict={"CETD_ENABLED": False})
    for component in (ContentAnnotationMiddleware, ContentSpiderMiddleware, ContentExtractionPipeline):
        with pytest.raises(NotConfigured, match="CETD_ENABLED is False"):
            build_from_crawler(component, crawler)


def test_addon_registers_components_and_keeps_existing_orders() -> None:
    crawler = get_crawler(settings_dict={"ADDONS": {Addon: 0}})
    assert crawler.settings.getdict("DOWNLOADER_MIDDLEWARES") == {ContentAnnotationMiddleware: 585}
    assert crawler.settings.getdict("SPIDER_MIDDLEWARES") == {ContentSpiderMiddleware: 25}
    assert crawler.settings.getdict("ITEM_PIPELINES") == {ContentExtractionPipeline: 100}
    custom = get_crawler(
        settings_dict={
            "ADDONS": {"scrapy_cetd.Addon": 0},
            "ITEM_PIPELINES": {"scrapy_cetd.ContentExtractionPipeline": 700},
        }
    )
    assert custom.settings.getdict("ITEM_PIPELINES") == {"scrapy_cetd.ContentExtractionPipeline": 700}
    # Below HttpCompressionMiddleware, so process_response sees decompressed bodies.
    base = crawler.settings.getdict("DOWNLOADER_MIDDLEWARES_BASE")
    assert base["scrapy.downloadermiddlewares.httpcompression.HttpCompressionMiddleware"] == 590


def test_meta_overrides() -> None:
    config = CetdConfig.from_settings(
        get_crawler(settings_dict={"CETD_THRESHOLD_COEFFICIENT": 0.5, "CETD_MIN_TEXT_LENGTH": 10}).settings
    )
    assert config.options_for({}) is config.options
    same = config.options_for({"cetd_min_text_length": 3})
    assert (same.algorithm, same.threshold_coefficient, same.min_text_length) == (
        config.options.algorithm, 0.5, 3,
    )
    # Switching algorithm starts from that algorithm's own defaults.
    other = config.options_for({"cetd_algorithm": "cetd-ds"})
    assert other.algorithm == "cetd-ds"
    assert other.threshold_coefficient == scrapy_cetd.get_algorithm("cetd-ds").default_coefficient
    assert other.min_text_length == 10
    with pytest.raises(InvalidSetting, match=r"^meta\['cetd_algorithm'\]: unknown algorithm 'x'"):
        config.options_for({"cetd_algorithm": "x"})
    with pytest.raises(InvalidSetting, match=r"^meta\['cetd_params'\]: "):
        config.options_for({"cetd_params": {"bogus": 1}})
    with pytest.raises(InvalidSetting, match=r"^meta\['cetd_enabled'\]: expected True or False"):
        config.request_enabled({"cetd_enabled": "no"})


# --- the response -> item -> pipeline path ------------------------------------------------


@pytest.mark.parametrize("item_type", [dict, ArticleItem, ArticleData, ArticleAttrs])
def test_every_item_type_gets_the_content(item_type: type) -> None:
    components = Components()
    response = components.download("http://site.test/river", RIVER)
    item = components.scrape(response, item_type(url=response.url))
    adapter = ItemAdapter(item)
    assert adapter["title"] == "Volunteers pull two tonnes of rubbish from the Elm"
    assert adapter["text"].startswith(RIVER_FIRST)  # the headline is in the title only
    assert RIVER_FIRST in adapter["text"]
    assert "Garden centre" not in adapter["text"] and "Related stories" not in adapter["text"]
    assert not adapter.get("html")  # not among the default outputs
    assert adapter["url"] == response.url and adapter["language"] == "en"
    assert adapter["date_published"] == "2026-11-14" and adapter["authors"] == ["Maria Okafor"]
    assert adapter.get("cetd_flag") is None and adapter.get("cetd_error") is None
    assert components.stats == {"scrapy_cetd/pages/annotated": 1, "scrapy_cetd/items/extracted": 1}


def test_annotation_is_small_meta_a_flag_and_a_page() -> None:
    components = Components()
    response = components.download("http://site.test/river", RIVER)
    assert response.meta[ANNOTATION_META_KEY] == {"status": "annotated"}
    assert RESPONSE_FLAG in response.flags
    page = get_page(response)
    assert isinstance(page, Page) and page.title.startswith("Volunteers pull")
    assert get_page(response) is page  # parsed once
    result = scrapy_cetd.extract_tree(page)
    assert RIVER_FIRST in result.text


def test_result_is_shared_by_items_of_one_page_and_records_are_released() -> None:
    from scrapy_cetd.crawl import middlewares

    components = Components()
    response = components.download("http://site.test/river", RIVER)
    first = components.scrape(response, {"url": response.url, "part": 1})
    second = components.scrape(response, {"url": response.url, "part": 2})
    assert first["text"] == second["text"] and RIVER_FIRST in first["text"]
    item = components.spider_mw.get_processed_item({"url": "never processed"}, response)
    assert middlewares._PENDING[id(item)].item is item
    del response
    gc.collect()
    assert id(item) not in middlewares._PENDING  # forgotten with the response


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"cls": TextResponse, "body": b'{"html": "<html>no</html>"}', "headers": {"Content-Type": "application/json"}},
         "non_html"),
        ({"cls": Response, "body": b"\x89PNG\r\n\x1a\n", "headers": {"Content-Type": "image/png"}}, "non_html"),
        ({"body": b""}, "empty"),
        ({"body": b"   \n  "}, "empty"),
        ({"body": b"%PDF-1.4 binary"}, "binary"),
        ({"body": RIVER, "status": 404}, "status"),
        ({"body": RIVER, "meta": {"cetd_enabled": False}}, "disabled"),
    ],
)
def test_skipped_responses_are_counted_and_their_items_flagged(kwargs: dict[str, Any], reason: str) -> None:
    components = Components()
    meta = kwargs.pop("meta", None)
    response = components.download("http://site.test/x", kwargs.pop("body"), meta=meta, **kwargs)
    assert response.meta[ANNOTATION_META_KEY] == {"status": "skipped", "reason": reason}
    assert RESPONSE_FLAG not in response.flags and get_page(response) is None
    item = components.scrape(response, {"url": response.url})
    assert item == {"url": "http://site.test/x", "cetd_flag": reason}
    assert components.stats == {f"scrapy_cetd/skipped/{reason}": 1, f"scrapy_cetd/items/skipped/{reason}": 1}


def test_html_is_sniffed_in_text_responses() -> None:
    components = Components()
    text = b"Sniffed article text. " * 20
    body = b"<!-- generated -->\n<!DOCTYPE html><html><body><p>" + text + b"</p></body></html>"
    response = components.download("http://site.test/a.txt", body, cls=TextResponse,
                                   headers={"Content-Type": "text/plain"})
    assert components.scrape(response, {})["text"].startswith("Sniffed article text.")


def test_too_large_pages_are_skipped() -> None:
    components = Components({"CETD_MAX_SIZE": 1000})
    response = components.download("http://site.test/river", RIVER)
    assert components.scrape(response, {})["cetd_flag"] == "too_large"


def test_declared_charset_that_breaks_utf8_is_overridden() -> None:
    components = Components()
    body = "<html><body><p>Načelnik Đoković spoke at the café for an hour.</p></body></html>".encode()
    response = components.download("http://site.test/c", body, headers={"Content-Type": "text/html; charset=cp1252"})
    assert "\ufffd" in response.text  # what Scrapy's decoding gives
    assert components.scrape(response, {})["text"] == "Načelnik Đoković spoke at the café for an hour."


def test_a_latin1_label_over_utf8_text_is_overridden() -> None:
    """No U+FFFD here: windows-1252 reads every byte of "’" and "é", as mojibake."""
    components = Components()
    body = "<html><body><p>It’s the café’s hour, said the otters’ keeper.</p></body></html>".encode()
    headers = {"Content-Type": "text/html; charset=iso-8859-1"}
    response = components.download("http://site.test/c", body, headers=headers)
    assert "â€™" in response.text  # what Scrapy's decoding gives
    assert components.scrape(response, {})["text"] == "It’s the café’s hour, said the otters’ keeper."


def test_raw_html_field_and_items_without_source() -> None:
    components = Components()
    item = components.scrape(None, ArticleData(url="stored:1"))
    assert item.text is None and components.stats == {"scrapy_cetd/items/no_source": 1}
    stored = {"url": "stored:2", "raw_html": RIVER.decode()}
    item = components.scrape(None, stored)
    assert RIVER_FIRST in item["text"] and "raw_html" not in item
    assert components.stats["scrapy_cetd/items/from_source_field"] == 1


def test_output_fields_and_diagnostics() -> None:
    components = Components(
        {"CETD_OUTPUT_FIELDS": {"text": "body", "algorithm": "algo", "diagnostics": "why"}, "CETD_ALGORITHM": "cetd-ds"}
    )
    response = components.download("http://site.test/river", RIVER)
    item = components.scrape(response, {})
    assert set(item) == {"body", "algo", "why"}
    assert item["algo"] == "cetd-ds" and RIVER_FIRST in item["body"]
    spec = scrapy_cetd.get_algorithm("cetd-ds")
    assert item["why"]["threshold_coefficient"] == spec.default_coefficient
    assert item["why"]["reason"] is None and item["why"]["threshold"] > 0
    assert "nodes" not in item["why"]


def test_per_request_algorithm_and_invalid_options() -> None:
    components = Components({"CETD_OUTPUT_FIELDS": {"text": "text", "algorithm": "algorithm"}})
    response = components.download("http://site.test/river", RIVER, meta={"cetd_algorithm": "cectd-s"})
    assert components.scrape(response, {})["algorithm"] == "cectd-s"
    response = components.download("http://site.test/bad", RIVER, meta={"cetd_params": {"bogus": 2}})
    item = components.scrape(response, {"url": "http://site.test/bad"})
    assert item["cetd_error"].startswith("meta['cetd_params']: ") and "text" not in item
    assert components.stats["scrapy_cetd/errors/options"] == 1
    assert components.stats["scrapy_cetd/items/error"] == 1


def test_short_text_is_flagged_or_dropped() -> None:
    flagging = Components({"CETD_MIN_TEXT_LENGTH": 5000})
    item = flagging.scrape(flagging.download("http://site.test/river", RIVER), {})
    assert item["cetd_flag"] == "short_text" and RIVER_FIRST in item["text"]
    assert flagging.stats["scrapy_cetd/items/short_text"] == 1
    dropping = Components({"CETD_MIN_TEXT_LENGTH": 5000, "CETD_ON_SHORT_TEXT": "drop"})
    response = dropping.download("http://site.test/river", RIVER)
    with pytest.raises(DropItem, match=r"shorter than CETD_MIN_TEXT_LENGTH \(\d+ < 5000\)"):
        dropping.scrape(response, {})
    assert dropping.stats["scrapy_cetd/items/dropped/short_text"] == 1
    per_request = dropping.download("http://site.test/river2", RIVER, meta={"cetd_min_text_length": 10})
    assert RIVER_FIRST in dropping.scrape(per_request, {})["text"]


def test_page_types_keep_only_those_types() -> None:
    """CETD_PAGE_TYPES keeps the listed types; another type is dropped (default), flagged or
    kept, and counted."""
    keeping = Components({"CETD_PAGE_TYPES": ["article"]})
    item = keeping.scrape(keeping.download("http://site.test/river", RIVER), {})
    assert RIVER_FIRST in item["text"] and "cetd_flag" not in item
    assert keeping.stats["scrapy_cetd/page_types/article"] == 1
    dropping = Components({"CETD_PAGE_TYPES": ["forum", "product"]})
    with pytest.raises(DropItem, match=r"river is classified article, not one of CETD_PAGE_TYPES"):
        dropping.scrape(dropping.download("http://site.test/river", RIVER), {})
    assert dropping.stats["scrapy_cetd/items/dropped/page_type"] == 1
    assert dropping.stats["scrapy_cetd/items/other_page_type"] == 1
    flagging = Components({"CETD_PAGE_TYPES": ["forum"], "CETD_ON_OTHER_PAGE_TYPE": "flag",
                           "CETD_OUTPUT_FIELDS": {"text": "text", "page_type": "kind"}})
    item = flagging.scrape(flagging.download("http://site.test/river", RIVER), {})
    assert item["cetd_flag"] == "page_type" and item["kind"] == "article" and RIVER_FIRST in item["text"]
    assert flagging.pipeline.config.options.metadata  # read for the page type, not for an output
    assert flagging.pipeline.config.options.page_type and keeping.pipeline.config.options.page_type
    default = Components()
    assert default.pipeline.config.options.metadata and not default.pipeline.config.options.page_type
    with_output = Components({"CETD_OUTPUT_FIELDS": {"text": "text", "page_type": "kind"}})
    item = with_output.scrape(with_output.download("http://site.test/river", RIVER), {})
    assert item["kind"] == "article"  # the page_type output asks for the classification
    kept = Components({"CETD_PAGE_TYPES": ["forum"], "CETD_ON_OTHER_PAGE_TYPE": "keep"})
    item = kept.scrape(kept.download("http://site.test/river", RIVER), {})
    assert "cetd_flag" not in item and kept.stats["scrapy_cetd/items/other_page_type"] == 1
    with pytest.raises(InvalidSetting, match=r"CETD_PAGE_TYPES: unknown page type 'news'; choose from article, "):
        CetdConfig.from_settings(get_crawler(settings_dict={"CETD_PAGE_TYPES": ["news"]}).settings)
    with pytest.raises(InvalidSetting, match=r"CETD_ON_OTHER_PAGE_TYPE: expected one of 'keep', 'flag', 'drop'"):
        CetdConfig.from_settings(get_crawler(settings_dict={"CETD_ON_OTHER_PAGE_TYPE": "hide"}).settings)


def test_htmldate_is_asked_when_the_setting_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """CETD_HTMLDATE passes ``with_htmldate`` to the extraction (off by default); without
    htmldate installed the crawl stops at start, naming the setting and the extra."""
    from scrapy_cetd.crawl import pipelines, settings

    asked: list[bool] = []
    extract_tree = pipelines.extract_tree

    def recording(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs["with_htmldate"])
        return extract_tree(*args, **kwargs)

    monkeypatch.setattr(pipelines, "extract_tree", recording)
    for value in (False, True):
        components = Components({"CETD_HTMLDATE": value} if value else {})
        assert RIVER_FIRST in components.scrape(components.download("http://site.test/river", RIVER), {})["text"]
    assert asked == [False, True]
    monkeypatch.setattr(settings.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(InvalidSetting, match=r"CETD_HTMLDATE: htmldate is not installed; pip install"):
        CetdConfig.from_settings(get_crawler(settings_dict={"CETD_HTMLDATE": True}).settings)


def test_extraction_errors_keep_the_item_or_drop_it(monkeypatch: pytest.MonkeyPatch, caplog) -> None:
    from scrapy_cetd.crawl import pipelines

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("algorithm exploded")

    monkeypatch.setattr(pipelines, "extract_tree", broken)
    keeping = Components()
    item = keeping.scrape(keeping.download("http://site.test/river", RIVER), ArticleItem(url="u"))
    assert item["cetd_error"] == "RuntimeError: algorithm exploded" and "text" not in item
    assert keeping.stats["scrapy_cetd/errors/extraction"] == 1
    assert "Content extraction failed for http://site.test/river: RuntimeError: algorithm exploded" in caplog.text
    dropping = Components({"CETD_ON_ERROR": "drop"})
    with pytest.raises(DropItem, match="Content extraction failed for http://site.test/river"):
        dropping.scrape(dropping.download("http://site.test/river", RIVER), {})
    assert dropping.stats["scrapy_cetd/items/dropped/error"] == 1


def test_undeclared_output_field_is_reported_not_fatal(caplog) -> None:
    components = Components({"CETD_OUTPUT_FIELDS": {"text": "body"}})
    response = components.download("http://site.test/river", RIVER)
    item = components.scrape(response, ArticleItem(url="u"))
    assert dict(item) == {"url": "u"}
    assert components.stats["scrapy_cetd/errors/undeclared_field"] == 1
    assert "ArticleItem has no field 'body'" in caplog.text


def test_worker_pool_replaces_a_worker_that_died() -> None:
    crawler = get_crawler(settings_dict={"CETD_WORKERS": 1})
    config = CetdConfig.from_settings(crawler.settings)
    pool = ExtractionPool(config)

    async def extract_river() -> str:
        return (await pool.extract(RIVER.decode(), "http://site.test/river", config.options)).text

    try:
        assert RIVER_FIRST in asyncio.run(extract_river())
        for thread_worker in list(pool._workers):
            thread_worker.process.kill()
            thread_worker.process.join()
        assert RIVER_FIRST in asyncio.run(extract_river())  # the page went to a fresh worker
        assert pool.restarts == 1
    finally:
        pool.close()


def test_pipeline_without_the_spider_middleware_warns(caplog) -> None:
    build_from_crawler(ContentExtractionPipeline, get_crawler(settings_dict={"CETD_WORKERS": 0}))
    assert "ContentSpiderMiddleware is not enabled" in caplog.text
    caplog.clear()
    Components({"ADDONS": {"scrapy_cetd.Addon": 0}})
    assert "ContentSpiderMiddleware is not enabled" not in caplog.text


def test_annotation_corrects_a_charset_label_that_does_not_fit_the_body() -> None:
    from scrapy_cetd.crawl.middlewares import _decoded_text

    body = "<html><head><meta charset='utf-16'></head><body><p>Grüße aus Köln</p></body></html>".encode()
    response = HtmlResponse("https://example.com/", body=body)
    assert response.encoding.startswith("utf-16")  # Scrapy believes the label
    assert "Grüße aus Köln" in _decoded_text(response)
