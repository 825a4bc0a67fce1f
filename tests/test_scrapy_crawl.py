"""Real crawls (one fresh process each) against the loopback test site, read back from the feed."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import scrapy
from scrapy.http import TextResponse

import scrapy_cetd
from scrapy_cetd.crawl.settings import DEFAULT_OUTPUT_FIELDS
from tests.charset_pages import UNDECLARED_PAGES
from tests.conftest import HUGE_PARAGRAPHS, CrawlResult, run_crawl, serve_routes
from tests.scrapy_items import RIVER_FIRST, SITE, ArticleAttrs, ArticleData, ArticleItem

NO_PAGE_FIELDS = ("title", "text", "html")




# Which item type the spider yields for a page: all four kinds travel through one crawl.
ITEM_TYPES: dict[str, Any] = {
    "/article-library.html": ArticleItem,
    "/moved-article.html": ArticleData,
    "/latin1.html": ArticleAttrs,
}


class SiteSpider(scrapy.Spider):
    """Yields ``{"url": ...}`` (or a typed item) for every response, follows the index only."""

    name = "site"
    # The default news-corpus fields plus the cleaned HTML.
    custom_settings = {"CETD_OUTPUT_FIELDS": {**DEFAULT_OUTPUT_FIELDS, "html": "html"}}
    handle_httpstatus_list = [404]

    def __init__(self, site_url: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.site_url = site_url

    async def start(self):  # type: ignore[override]
        # A start item carrying stored HTML: re-processing pages crawled earlier.
        yield {"url": "stored://river", "raw_html": (SITE / "article-river.html").read_text(encoding="utf-8")}
        yield scrapy.Request(f"{self.site_url}/index.html")

    def parse(self, response, **kwargs):  # type: ignore[override]
        path = urlsplit(response.url).path
        yield ITEM_TYPES.get(path, dict)(url=response.url)
        if path == "/index.html":
            for href in response.css("a::attr(href)").getall():
                yield response.follow(href)


class OverrideSpider(scrapy.Spider):
    """Per-spider settings plus per-request ``cetd_*`` meta overrides."""

    name = "override"
    custom_settings = {
        "CETD_ALGORITHM": "cetd-ds",
        "CETD_OUTPUT_FIELDS": {"text": "body", "algorithm": "algorithm", "diagnostics": "diagnostics"},
    }
    META = {
        "/article-river.html": {},
        "/article-library.html": {"cetd_algorithm": "cectd-s"},
        "/moved-article.html": {"cetd_enabled": False},
        "/latin1.html": {"cetd_params": {"bogus": 1}},
        "/plain-html.txt": {"cetd_threshold_coefficient": 0.25},
    }

    def __init__(self, site_url: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.site_url = site_url

    async def start(self):  # type: ignore[override]
        for path, meta in self.META.items():
            yield scrapy.Request(f"{self.site_url}{path}", meta=meta)

    def parse(self, response, **kwargs):  # type: ignore[override]
        assert isinstance(response, TextResponse)
        yield {"url": response.url}


def check_site_crawl(result: CrawlResult) -> None:
    """Every response gives exactly one item, checked field by field; the stats add up."""
    assert result.errors == [] and result.warnings == []
    items = result.by_path()
    assert sorted(items) == sorted(
        [
            "stored://river", "/index.html", "/article-river.html", "/article-library.html", "/latin1.html",
            "/wrong-charset.html", "/plain-html.txt", "/moved-article.html", "/huge.html", "/empty.html",
            "/pdf-as-html", "/image.png", "/doc.pdf", "/data.json", "/missing.html", "/about.html", "/contact.html",
            "/gzipped.html",
        ]
    )
    expected = {
        "/article-river.html": ("Volunteers pull two tonnes of rubbish from the Elm", RIVER_FIRST),
        "stored://river": ("Volunteers pull two tonnes of rubbish from the Elm", RIVER_FIRST),
        "/article-library.html": (
            "The old library reopens as a reading garden",
            "The Victorian library on Church Street, closed for eleven years",
        ),
        "/latin1.html": ("Café owners meet the council", "Owners of six cafés on the Quay"),
        "/wrong-charset.html": ("Visiting coach praises the youth league", "Načelnik Đoković, the visiting coach"),
        "/plain-html.txt": ("Letters to the editor", "Sir, the new cycle lane on Mill Road"),
        "/moved-article.html": (
            "Bridge works: the new timetable",
            "Repairs to the Market Street bridge will close one lane",
        ),
        "/gzipped.html": (
            "Compressed: bridge works: the new timetable",
            "Repairs to the Market Street bridge will close one lane",
        ),
    }
    for path, (title, sentence) in expected.items():
        item = items[path]
        assert item["title"] == title, path
        assert sentence in item["text"], path
        assert item["text"].startswith(sentence), path  # the story, the headline in the title only
        assert title.split(" | ")[0] not in item["text"].splitlines(), path
        for boilerplate in ("Environment", "Culture", "About", "Related stories", "Most read", "Garden centre"):
            assert boilerplate not in item["text"], (path, boilerplate)
        assert item["html"].startswith("<html") and sentence in item["html"].replace("&#233;", "é"), path
        assert not item.get("cetd_flag") and not item.get("cetd_error"), path
    assert items["stored://river"]["text"] == items["/article-river.html"]["text"]
    assert "raw_html" not in items["stored://river"]  # the source field leaves the item once processed
    huge = items["/huge.html"]["text"].splitlines()
    assert huge[0].startswith("Item 0: the committee") and len(huge) == HUGE_PARAGRAPHS  # headline: the title's
    assert huge[-1].startswith(f"Item {HUGE_PARAGRAPHS - 1}: the committee noted")
    assert items["/index.html"]["title"] == "Riverside Courier - Local news"  # the <h1> disagrees
    flags = {
        "/empty.html": "empty", "/pdf-as-html": "binary", "/image.png": "non_html", "/doc.pdf": "non_html",
        "/data.json": "non_html", "/missing.html": "status", "/about.html": "status", "/contact.html": "status",
    }
    for path, flag in flags.items():
        assert items[path]["cetd_flag"] == flag, path
        assert not any(items[path].get(name) for name in NO_PAGE_FIELDS), path
    stats = {key: value for key, value in result.stats.items() if key.startswith("scrapy_cetd/")}
    assert stats == {
        "scrapy_cetd/pages/annotated": 9,
        "scrapy_cetd/skipped/non_html": 3,
        "scrapy_cetd/skipped/status": 3,
        "scrapy_cetd/skipped/empty": 1,
        "scrapy_cetd/skipped/binary": 1,
        "scrapy_cetd/items/extracted": 10,
        "scrapy_cetd/items/from_source_field": 1,
        "scrapy_cetd/items/skipped/non_html": 3,
        "scrapy_cetd/items/skipped/status": 3,
        "scrapy_cetd/items/skipped/empty": 1,
        "scrapy_cetd/items/skipped/binary": 1,
    }
    assert result.stats["item_scraped_count"] == 18
    assert "item_dropped_count" not in result.stats
    assert result.stats["downloader/response_status_count/301"] == 1


@pytest.mark.parametrize(
    ("workers", "reactor"),
    [(0, None), (1, None), (1, "twisted.internet.selectreactor.SelectReactor")],
    ids=["in-process", "1-worker", "1-worker-non-asyncio-reactor"],
)
def test_site_crawl(site_url: str, tmp_path: Path, workers: int, reactor: str | None) -> None:
    settings: dict[str, Any] = {"CETD_WORKERS": workers}
    if reactor:
        settings["TWISTED_REACTOR"] = reactor
    result = run_crawl("tests.test_scrapy_crawl.SiteSpider", tmp_path, settings, site_url=site_url)
    check_site_crawl(result)


def test_manual_registration_spider_settings_and_meta_overrides(site_url: str, tmp_path: Path) -> None:
    settings = {
        "ADDONS": {},
        "DOWNLOADER_MIDDLEWARES": {"scrapy_cetd.ContentAnnotationMiddleware": 585},
        "SPIDER_MIDDLEWARES": {"scrapy_cetd.ContentSpiderMiddleware": 25},
        "ITEM_PIPELINES": {"scrapy_cetd.ContentExtractionPipeline": 100},
    }
    result = run_crawl("tests.test_scrapy_crawl.OverrideSpider", tmp_path, settings, site_url=site_url)
    assert result.errors == [] and result.warnings == []
    items = result.by_path()
    assert len(items) == 5
    river = items["/article-river.html"]
    assert river["algorithm"] == "cetd-ds" and RIVER_FIRST in river["body"]  # custom_settings
    assert "text" not in river and "title" not in river
    assert items["/article-library.html"]["algorithm"] == "cectd-s"  # meta cetd_algorithm
    assert items["/moved-article.html"] == {"url": f"{site_url}/moved-article.html", "cetd_flag": "disabled"}
    assert items["/latin1.html"]["cetd_error"].startswith("meta['cetd_params']: cetd-ds: unknown parameter(s) bogus")
    assert items["/plain-html.txt"]["diagnostics"]["threshold_coefficient"] == 0.25
    default = scrapy_cetd.get_algorithm("cetd-ds").default_coefficient
    assert items["/article-river.html"]["diagnostics"]["threshold_coefficient"] == default
    assert result.stats["scrapy_cetd/errors/options"] == 1
    assert result.stats["scrapy_cetd/items/error"] == 1
    assert result.stats["item_scraped_count"] == 5
    assert "Invalid content extraction options for" in result.log


class PathsSpider(scrapy.Spider):
    """Yields ``{"url": ...}`` for each of ``paths`` under ``site_url``."""

    name = "paths"

    def __init__(self, site_url: str, paths: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.urls = [site_url + path for path in paths]

    async def start(self):  # type: ignore[override]
        for url in self.urls:
            yield scrapy.Request(url)

    def parse(self, response, **kwargs):  # type: ignore[override]
        yield {"url": response.url}


def test_pages_in_legacy_encodings_that_declare_none_are_read_in_them(tmp_path: Path) -> None:
    """The crawl reads a body that declares no charset as ``extract()`` reads the bytes."""
    routes = {f"/{name}.html": (200, {"Content-Type": "text/html"}, page) for name, _, page, _ in UNDECLARED_PAGES}
    with serve_routes(routes) as url:
        result = run_crawl("tests.test_scrapy_crawl.PathsSpider", tmp_path, site_url=url, paths=list(routes))
    assert result.errors == []
    texts = {urlsplit(item["url"]).path: item["text"] for item in result.items}
    for name, _, page, sentence in UNDECLARED_PAGES:
        assert sentence in texts[f"/{name}.html"]
        assert texts[f"/{name}.html"] == scrapy_cetd.extract(page).text


def test_invalid_setting_stops_the_crawl_with_its_name(site_url: str, tmp_path: Path) -> None:
    result = run_crawl(
        "tests.test_scrapy_crawl.SiteSpider", tmp_path, {"CETD_ALGORITHM": "tfidf"}, site_url=site_url
    )
    assert len(result.errors) == 1
    assert result.errors[0].startswith("InvalidSetting: CETD_ALGORITHM: unknown algorithm 'tfidf'; choose one of:")
    assert "response_received_count" not in result.stats
