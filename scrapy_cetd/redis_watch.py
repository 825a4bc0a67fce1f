"""Close a distributed crawl whose Redis is gone, instead of retrying it for ever.

scrapy-redis keeps the frontier (request queue and seen requests) in Redis.  When the
server dies, every scheduler call raises ``ConnectionError``; Scrapy logs it and asks
again, so a worker never stops by itself (``docs/scaling.md``, Faults: both workers still
running 480 s after redis-server was killed).  :class:`RedisWatch` pings the crawl's Redis
every few seconds and, once it has answered no ping for ``CETD_REDIS_LOST_CLOSE`` seconds,
closes the spider with the finish reason ``redis_unreachable``: the requests in flight
finish, the feeds are closed, the process exits.  A Redis that answers again within that
time only costs log lines.

The ping runs in a thread with short socket timeouts: a dead remote host would otherwise
hold the reactor for the connection timeout.  The add-on enables the extension when
``SCHEDULER`` is scrapy-redis's; ``CETD_REDIS_LOST_CLOSE = 0`` switches it off.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet.task import LoopingCall
from twisted.internet.threads import deferToThread

from .settings import invalid_setting_reported, seconds_setting, uses_scrapy_redis

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["DEFAULT_LOST_CLOSE", "FINISH_REASON", "RedisWatch"]

logger = logging.getLogger(__name__)

#: Seconds without Redis before the spider is closed: long enough for a restart of the
#: server (or a failover) to go unnoticed, short enough that an operator sees the crawl end.
DEFAULT_LOST_CLOSE = 60.0
#: The spider's finish reason (``finish_reason`` in the stats) when Redis was lost.
FINISH_REASON = "redis_unreachable"
#: The longest wait between pings, and the socket timeouts of each.
MAX_PING_INTERVAL = 5.0


class RedisWatch:
    """Closes the spider once the crawl's Redis (``REDIS_URL``, scrapy-redis's connection
    settings) has answered no ping for ``CETD_REDIS_LOST_CLOSE`` seconds."""

    def __init__(self, crawler: Crawler, lost_close: float) -> None:
        from scrapy_redis.connection import get_redis_from_settings

        self.crawler = crawler
        self.lost_close = lost_close
        self.interval = min(MAX_PING_INTERVAL, lost_close / 3)
        self.server = get_redis_from_settings(crawler.settings)
        # Its own connections, with timeouts of one interval: a ping never waits long.
        self.server.connection_pool.connection_kwargs.update(
            socket_timeout=self.interval, socket_connect_timeout=self.interval
        )
        self.lost_since: float | None = None
        self.closing = False
        self.pinging = False
        self.task = LoopingCall(self.check)
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RedisWatch:
        settings = crawler.settings
        with invalid_setting_reported():
            value = settings.get("CETD_REDIS_LOST_CLOSE", DEFAULT_LOST_CLOSE)
            lost_close = seconds_setting("CETD_REDIS_LOST_CLOSE", value)
        if not lost_close or not uses_scrapy_redis(settings):
            raise NotConfigured  # without a message: Scrapy logs none for a component switched off
        return cls(crawler, lost_close)

    def spider_opened(self) -> None:
        self.task.start(self.interval, now=False)

    def spider_closed(self) -> None:
        if self.task.running:
            self.task.stop()
        self.server.connection_pool.disconnect()

    def check(self) -> None:
        """Ping in a thread (one at a time); a ping still running counts as unanswered."""
        if self.pinging:
            self.lost(RuntimeError(f"no answer to a ping within {self.interval:g} s"))
            return
        self.pinging = True
        deferred = deferToThread(self.server.ping)
        deferred.addCallbacks(self.answered, self.lost)
        deferred.addBoth(self._ping_done)

    def _ping_done(self, _: Any) -> None:
        self.pinging = False

    def answered(self, _: Any) -> None:
        if self.lost_since is not None:
            logger.warning("Redis answers again, after %.0f s", time.monotonic() - self.lost_since)
            self.lost_since = None

    def lost(self, failure: Any) -> None:
        error = getattr(failure, "value", failure)
        now = time.monotonic()
        if self.lost_since is None:
            self.lost_since = now
            logger.warning(
                "Redis unreachable (%s: %s); the spider closes if it stays so for %g s",
                type(error).__name__, error, self.lost_close,
            )
        elif now - self.lost_since >= self.lost_close and not self.closing:
            self.closing = True
            logger.error("Redis unreachable for %.0f s: closing the spider (%s)", now - self.lost_since, FINISH_REASON)
            self._close_spider()

    def _close_spider(self) -> None:
        engine = self.crawler.engine
        if engine is None:
            return
        if hasattr(engine, "close_spider_async"):  # Scrapy >= 2.14
            from scrapy.utils.defer import deferred_from_coro

            deferred_from_coro(engine.close_spider_async(reason=FINISH_REASON))
        else:
            engine.close_spider(self.crawler.spider, FINISH_REASON)
