"""scrapy_cetd.cluster.spider (the base spider of a distributed crawl) and docs/scaling.md's
settings, as a new project would take them; the crawls with a real Redis are in
tests/test_distributed.py."""

from __future__ import annotations

import asyncio
import re
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("scrapy_redis")

import scrapy  # noqa: E402
from scrapy import signals  # noqa: E402
from scrapy.exceptions import ScrapyDeprecationWarning  # noqa: E402
from scrapy.http import HtmlResponse  # noqa: E402
from scrapy.settings import Settings  # noqa: E402
from scrapy.utils.test import get_crawler  # noqa: E402

from scrapy_cetd.cluster.spider import RedisSpider  # noqa: E402
from scrapy_cetd.cluster.watch import quiet_scrapy_redis_deprecations  # noqa: E402
from scrapy_cetd.crawl.settings import CetdConfig  # noqa: E402

DOCS = Path(__file__).resolve().parent.parent / "docs" / "scaling.md"


class PagesSpider(RedisSpider):
    name = "pages"

    def parse(self, response: Any) -> Any:
        yield {"url": response.url}


def _spider(**settings: Any) -> PagesSpider:
    crawler = get_crawler(PagesSpider, {"REDIS_URL": "redis://127.0.0.1:9/0", **settings})
    crawler.spider = crawler._create_spider()
    return crawler.spider  # type: ignore[return-value]


def test_seeds_are_requests_the_dupefilter_records() -> None:
    spider = _spider()
    json_seed = spider.make_request_from_data(b'{"url": "https://example.org/", "meta": {"job": 1}}')
    bare_seed = spider.make_request_from_data(b"https://example.org/b")
    assert isinstance(json_seed, scrapy.Request) and isinstance(bare_seed, scrapy.Request)
    assert (json_seed.url, json_seed.meta["job"], json_seed.dont_filter) == ("https://example.org/", 1, False)
    assert (bare_seed.url, bare_seed.dont_filter) == ("https://example.org/b", False)
    assert spider.make_request_from_data(b"{not json") == []


def test_start_yields_nothing_seeds_come_from_redis() -> None:
    async def collect() -> list[Any]:
        return [request async for request in _spider().start()]

    assert asyncio.run(collect()) == []


def test_the_idle_clock_counts_from_the_start_and_the_last_response() -> None:
    spider = _spider()
    spider.spider_idle_start_time = 0  # scrapy-redis: set when the module was imported
    before = time.time()
    spider.crawler.signals.send_catch_log(signals.spider_opened, spider=spider)
    assert spider.spider_idle_start_time >= before
    spider.spider_idle_start_time = 0
    response = HtmlResponse("https://example.org/", body=b"<html></html>")
    spider.crawler.signals.send_catch_log(
        signals.response_received, response=response, request=response.request, spider=spider
    )
    assert spider.spider_idle_start_time >= before


def test_scrapy_redis_deprecations_are_not_reported() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("error")  # as pytest runs; the module's filter is re-installed first
        quiet_scrapy_redis_deprecations()
        warnings.warn_explicit("spider=", ScrapyDeprecationWarning, "scheduler.py", 1, module="scrapy_redis.scheduler")
        with pytest.raises(ScrapyDeprecationWarning):  # others' still are
            warnings.warn_explicit("spider=", ScrapyDeprecationWarning, "x.py", 1, module="myproject.x")
    assert caught == []


def test_the_docs_settings_block_works_in_a_new_project() -> None:
    """docs/scaling.md's block, pasted into a new project's settings.py: it used to need the
    example's settings (NameError: CETD_OUTPUT_FIELDS)."""
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## The settings"):text.index("## Several workers on one machine")]
    settings_block, spider_block = re.findall(r"```python\n(.*?)```", section, re.S)
    namespace: dict[str, Any] = {}
    exec(settings_block, namespace)  # noqa: S102
    assert namespace["SCHEDULER_PERSIST"] is True
    CetdConfig.from_settings(Settings({k: v for k, v in namespace.items() if k.isupper()}))
    exec(spider_block, {})  # noqa: S102
