"""scrapy-redis's ``RedisSpider`` and ``RedisCrawlSpider`` with what Scrapy >= 2.16 needs.

A distributed crawl's spider reads its seeds from Redis (``<name>:start_urls``)::

    from scrapy_cetd.cluster.spider import RedisSpider

    class PagesSpider(RedisSpider):
        name = "pages"

        def parse(self, response): ...

then ``redis-cli lpush pages:start_urls '{"url": "https://www.example.com/"}'`` (or the bare
URL).  What these classes change in scrapy-redis's (checked with scrapy-redis 0.9.1 on
Scrapy 2.19; ``docs/scaling.md``):

- **Seeds are filtered requests.**  scrapy-redis builds them with ``dont_filter=True``, so
  the seen set never records the seed, and the start page, linked from its own pages, is
  fetched a second time.  A bare URL is taken as ``{"url": ...}`` without scrapy-redis's
  "String request is deprecated" warning.
- **No start requests.**  ``start()`` yields nothing: seeds come only from Redis, when the
  ``spider_idle`` signal pops them (scrapy-redis's ``start_requests()`` is no longer
  called).
- **Idle clock.**  A worker closes after ``MAX_IDLE_TIME_BEFORE_CLOSE`` seconds without
  work, counted from its start and its last response.  scrapy-redis counts from the last
  time it saw seeds waiting or, before that, from its import: a worker that started slowly
  closed at its first idle check, before the seed's links were queued (2 of 4 workers
  crawled nothing).
- **Warnings.**  scrapy-redis's calls that Scrapy deprecates are not reported (for the
  ``scrapy_redis`` modules only).
- **A malformed Redis URL** stops the crawl with one line naming ``REDIS_URL`` (scrapy-redis:
  a traceback from the spider's constructor).
"""

from __future__ import annotations

import json
import time
from typing import Any

import scrapy
from scrapy import signals
from scrapy_redis import spiders

from ..crawl.settings import invalid_setting_reported
from .watch import check_redis, quiet_scrapy_redis_deprecations

__all__ = ["RedisCrawlSpider", "RedisSeedsMixin", "RedisSpider"]

quiet_scrapy_redis_deprecations()


class RedisSeedsMixin:
    """The changes above, on top of scrapy-redis's ``RedisMixin`` (list it first)."""

    redis_encoding: str | None
    redis_key: str | None

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> Any:
        with invalid_setting_reported():
            check_redis(crawler.settings, ping=False)  # the scheduler pings it later
        spider = super().from_crawler(crawler, *args, **kwargs)  # type: ignore[misc]
        crawler.signals.connect(spider._restart_idle_clock, signal=signals.spider_opened)
        crawler.signals.connect(spider._restart_idle_clock, signal=signals.response_received)
        return spider

    def _restart_idle_clock(self) -> None:
        self.spider_idle_start_time = time.time()

    async def start(self) -> Any:
        return
        yield  # an async generator that yields nothing: seeds come from Redis

    def make_request_from_data(self, data: bytes) -> Any:
        """scrapy-redis's request for a JSON seed (``url``, ``meta``, ``method``, form data),
        or a GET of a bare URL; either one the dupefilter records."""
        text = data.decode(self.redis_encoding or "utf-8").strip()
        if not text.startswith("{"):
            return scrapy.Request(text) if text else []
        try:
            json.loads(text)
        except ValueError as exc:
            self.logger.warning("Seed in %s is not JSON (%s): %r", self.redis_key, exc, text[:200])  # type: ignore[attr-defined]
            return []
        request = super().make_request_from_data(data)  # type: ignore[misc]
        return request.replace(dont_filter=False) if isinstance(request, scrapy.Request) else request


class RedisSpider(RedisSeedsMixin, spiders.RedisSpider):
    """scrapy-redis's ``RedisSpider`` with the changes of this module."""


class RedisCrawlSpider(RedisSeedsMixin, spiders.RedisCrawlSpider):
    """scrapy-redis's ``RedisCrawlSpider`` with the changes of this module."""
