"""The ``news`` spider, distributed: N processes share one frontier in Redis (scrapy-redis).

Used through ``news_corpus.distributed_settings`` (which points ``SPIDER_MODULES`` here), so
``scrapy crawl news`` runs this class instead of the single-process one::

    SCRAPY_SETTINGS_MODULE=news_corpus.distributed_settings \\
        scrapy crawl news -a start_url=https://www.example-news.com/ -s REDIS_URL=redis://host:6379

on every machine, then seed the frontier once (``redis-cli lpush news:start_urls
'{"url": "https://www.example-news.com/"}'``); ``run_distributed.py`` does all of this on
loopback.  What scrapy-redis needs handled on Scrapy >= 2.16 (seeds fetched twice, no
start requests, the idle clock, its deprecation warnings, a malformed ``REDIS_URL``) is in
the library's base class, :class:`scrapy_cetd.cluster.spider.RedisSpider`.
"""

from __future__ import annotations

import time
from typing import Any

import scrapy
from scrapy import signals

from scrapy_cetd.cluster.spider import RedisSpider

from .spiders.news import NewsSpider

__all__ = ["DistributedNewsSpider"]


class DistributedNewsSpider(RedisSpider, NewsSpider):
    """:class:`~news_corpus.spiders.news.NewsSpider` reading its seeds from ``news:start_urls``.

    ``start_url`` (a spider argument, as for ``news``) names the site to stay within; the
    crawl starts from the URLs pushed to Redis, as JSON ``{"url": ...}`` or a bare URL.
    """

    name = "news"

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> DistributedNewsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider._busy, signal=signals.response_received)
        return spider

    def _busy(self) -> None:
        now = time.time()
        stats = self.crawler.stats
        stats.min_value("distributed/first_response_time", now)  # for pages/s across workers
        stats.set_value("distributed/last_response_time", now)

    def make_request_from_data(self, data: bytes) -> scrapy.Request | list[scrapy.Request]:
        request = super().make_request_from_data(data)  # filtered: the seed is fetched once
        return request.replace(callback=self.parse_start) if isinstance(request, scrapy.Request) else request
