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
import warnings
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet.task import LoopingCall
from twisted.internet.threads import deferToThread

from ..crawl.settings import (
    DEFAULTS,
    InvalidSetting,
    ServiceUnreachable,
    invalid_setting_reported,
    read_setting,
    seconds_setting,
    uses_scrapy_redis,
)

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["DEFAULT_LOST_CLOSE", "FINISH_REASON", "RedisWatch", "check_redis", "quiet_scrapy_redis_deprecations"]

logger = logging.getLogger(__name__)

#: Seconds without Redis before the spider is closed: long enough for a restart of the
#: server (or a failover) to go unnoticed, short enough that an operator sees the crawl end.
DEFAULT_LOST_CLOSE: float = DEFAULTS["CETD_REDIS_LOST_CLOSE"]
#: The spider's finish reason (``finish_reason`` in the stats) when Redis was lost.
FINISH_REASON = "redis_unreachable"
#: The longest wait between pings, and the socket timeouts of each (and of the check at start).
MAX_PING_INTERVAL = 5.0


def _shown(url: str) -> str:
    """``url`` with its password hidden (the docs put it there: ``redis://:secret@host``)."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        netloc = f"{parts.username or ''}:***@{parts.netloc.rsplit('@', 1)[1]}"
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "<not shown: it has a password>" if "@" in url else url


def check_redis(settings: Any, *, ping: bool = True) -> None:
    """At start: the crawl's Redis (scrapy-redis's ``REDIS_URL``, or ``REDIS_HOST`` and
    ``REDIS_PORT``) can be connected to and, with ``ping``, answers within
    :data:`MAX_PING_INTERVAL` seconds.  Else :class:`~scrapy_cetd.crawl.settings.InvalidSetting`
    (a malformed URL) or :class:`~scrapy_cetd.crawl.settings.ServiceUnreachable`, naming the
    setting: under ``scrapy crawl`` one line and exit status 1, where scrapy-redis's own
    failure was some 70 lines of traceback ending in "Engine slot not assigned"."""
    from redis.exceptions import RedisError
    from scrapy_redis.connection import get_redis_from_settings

    url = settings.get("REDIS_URL")
    if url:
        name, where = "REDIS_URL", _shown(str(url))
    else:
        name = "REDIS_HOST/REDIS_PORT"
        where = f"{settings.get('REDIS_HOST') or 'localhost'}:{settings.get('REDIS_PORT') or 6379}"
    try:
        server = get_redis_from_settings(settings)
    except (TypeError, ValueError) as exc:
        raise InvalidSetting(f"{name}: {exc}, got {where!r}") from None
    if not ping:
        return
    server.connection_pool.connection_kwargs.update(
        socket_timeout=MAX_PING_INTERVAL, socket_connect_timeout=MAX_PING_INTERVAL
    )
    try:
        server.ping()
    except RedisError as exc:
        raise ServiceUnreachable(f"{name}: no answer from Redis at {where} ({type(exc).__name__}: {exc})") from None
    finally:
        server.connection_pool.disconnect()


def quiet_scrapy_redis_deprecations() -> None:
    """scrapy-redis 0.9.1 passes ``spider=`` to the stats collector, which Scrapy 2.15+
    deprecates: a ``ScrapyDeprecationWarning`` in every crawl's log that the project cannot
    act on.  Those warnings are ignored for calls from the ``scrapy_redis`` modules only."""
    from scrapy.exceptions import ScrapyDeprecationWarning

    warnings.filterwarnings("ignore", category=ScrapyDeprecationWarning, module=r"scrapy_redis\.")


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
            value = read_setting(settings, "CETD_REDIS_LOST_CLOSE")
            lost_close = seconds_setting("CETD_REDIS_LOST_CLOSE", value)
            if not lost_close or not uses_scrapy_redis(settings):
                raise NotConfigured  # without a message: Scrapy logs none for a component switched off
            check_redis(settings)  # before the spider opens: one line if Redis is not there
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
