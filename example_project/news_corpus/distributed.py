"""The ``news`` spider, distributed: N processes share one frontier in Redis (scrapy-redis).

Used through ``news_corpus.distributed_settings`` (which points ``SPIDER_MODULES`` here), so
``scrapy crawl news`` runs this class instead of the single-process one::

    SCRAPY_SETTINGS_MODULE=news_corpus.distributed_settings \\
        scrapy crawl news -a start_url=https://www.example-news.com/ -s REDIS_URL=redis://host:6379

on every machine, then seed the frontier once (``redis-cli lpush news:start_urls
'{"url": "https://www.example-news.com/"}'``); ``run_distributed.py`` does all of this on
loopback.  What scrapy-redis needs handled on Scrapy >= 2.16 (checked with scrapy-redis 0.9.1):

- ``start_requests()`` is gone, so a ``RedisSpider`` starts only from the ``spider_idle``
  signal, which pops the seeds from ``news:start_urls``; :meth:`start` yields nothing.
- ``make_request_from_data`` builds seeds with ``dont_filter=True``, so the request
  dupefilter never records them and the start page, linked from its own pages, is fetched
  a second time.  :meth:`make_request_from_data` here builds a filtered request.
- scrapy-redis's calls that Scrapy deprecates warn; those warnings are silenced for the
  ``scrapy_redis`` modules only.
- A worker closes after ``MAX_IDLE_TIME_BEFORE_CLOSE`` seconds without work, counted from
  its start or its last response (scrapy-redis counts from the last time it saw seeds
  waiting, or from its import: a worker that started slowly closed before the seed's links
  reached the queue).
"""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import AsyncIterator
from typing import Any

import scrapy
from scrapy import signals
from scrapy.exceptions import ScrapyDeprecationWarning
from scrapy_redis.spiders import RedisSpider

from .spiders.news import NewsSpider

__all__ = ["DistributedNewsSpider"]

# scrapy-redis 0.9.1 still passes ``spider=`` to the stats collector (deprecated in Scrapy
# 2.15); silenced for calls from scrapy_redis modules only.
warnings.filterwarnings("ignore", category=ScrapyDeprecationWarning, module=r"scrapy_redis\.")


class DistributedNewsSpider(RedisSpider, NewsSpider):
    """:class:`~news_corpus.spiders.news.NewsSpider` reading its seeds from ``news:start_urls``.

    ``start_url`` (a spider argument, as for ``news``) names the site to stay within; the
    crawl starts from the URLs pushed to Redis, as JSON ``{"url": ...}`` or a bare URL.
    """

    name = "news"

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> DistributedNewsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider._opened, signal=signals.spider_opened)
        crawler.signals.connect(spider._busy, signal=signals.response_received)
        return spider

    def _opened(self) -> None:
        self.spider_idle_start_time = time.time()

    def _busy(self) -> None:
        now = time.time()
        self.spider_idle_start_time = now
        stats = self.crawler.stats
        stats.min_value("distributed/first_response_time", now)  # for pages/s across workers
        stats.set_value("distributed/last_response_time", now)

    async def start(self) -> AsyncIterator[scrapy.Request]:
        return
        yield  # an async generator that yields nothing: seeds come from Redis

    def make_request_from_data(self, data: bytes) -> scrapy.Request | None:
        text = data.decode(self.redis_encoding or "utf-8").strip()
        url = json.loads(text).get("url") if text.startswith("{") else text
        if not url:
            self.logger.warning("Seed without a URL in %s: %r", self.redis_key, text[:200])
            return None
        # Not dont_filter: the dupefilter records the seed, so it is fetched once.
        return scrapy.Request(url, callback=self.parse_start)
