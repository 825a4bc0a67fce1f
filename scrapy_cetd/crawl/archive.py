"""The Scrapy side: archive the responses a crawl receives to WARC files.

Enabled by ``CETD_WARC_PATH`` (the add-on registers the middleware when it is set)::

    CETD_WARC_PATH = "output/crawl.warc.gz"
    CETD_WARC_MAX_SIZE = 1024**3     # rotate past 1 GiB; 0: one file

A path that cannot be written stops the crawl at start, with one line naming the setting.
A file another crawl is writing (two workers on one machine with the same settings) is
passed over for the next free name (``crawl-00001.warc.gz``), said in the line that names
the archive.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.http import Request, Response

from ..warc.writer import WarcFileWriter, exchange_records
from .settings import DEFAULTS, InvalidSetting, count_setting, invalid_setting_reported, read_setting

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["DEFAULT_WARC_MAX_SIZE", "WARC_MIDDLEWARE_ORDER", "WarcArchiveMiddleware"]

logger = logging.getLogger(__name__)

#: Just below ``HttpCompressionMiddleware`` (590), above the annotation middleware (585):
#: the archive holds the decoded body the extraction reads.
WARC_MIDDLEWARE_ORDER = 589
DEFAULT_WARC_MAX_SIZE: int = DEFAULTS["CETD_WARC_MAX_SIZE"]
STATS_PREFIX = "scrapy_cetd/warc"


class WarcArchiveMiddleware:
    """Downloader middleware writing a WARC/1.1 ``request`` and ``response`` record per response.

    At order 589 it sees every response the spider and the annotation middleware see:
    decoded by ``HttpCompressionMiddleware`` and after redirects were followed (3xx
    responses that ``RedirectMiddleware`` turned into new requests are not archived;
    retried errors are).  The body is stored decoded, with the wire headers
    (``Content-Encoding``, ``Transfer-Encoding``, ``Content-Length``) kept as
    ``X-Crawler-...`` and a ``Content-Length`` of the stored body: Common Crawl's practice,
    which warcio and FastWARC read without decoding anything again.
    """

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        path = settings.get("CETD_WARC_PATH")
        if not path:
            raise NotConfigured
        if not isinstance(path, str):
            raise InvalidSetting(f"CETD_WARC_PATH: expected a file path, got {path!r}")
        max_size = count_setting("CETD_WARC_MAX_SIZE", read_setting(settings, "CETD_WARC_MAX_SIZE"))
        self.stats = crawler.stats
        info = {
            "robots": "obey" if settings.getbool("ROBOTSTXT_OBEY") else "ignore",
            "http-header-user-agent": str(settings.get("USER_AGENT", "")),
        }
        # A crawl with a job directory may be a resumed one: it keeps the archive it resumes.
        self.writer = WarcFileWriter(path, max_size, info=info, keep_existing=bool(settings.get("JOBDIR")))
        try:
            self.writer.check()  # at start, not as an error per response
        except OSError as exc:
            reason = f"{exc.strerror} ({exc.filename})" if exc.strerror and exc.filename else str(exc)
            raise InvalidSetting(f"CETD_WARC_PATH: cannot write the archive {path!r}: {reason}") from None
        crawler.signals.connect(self.close, signal=signals.spider_closed)

    def _log_file(self, path: Path) -> None:
        taken = self.writer.passed_over
        if taken:
            others = ", ".join(map(str, taken))
            logger.info("Archiving responses to %s (%s: in use or written by another crawl)", path, others)
        else:
            logger.info("Archiving responses to %s", path)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcArchiveMiddleware:
        with invalid_setting_reported():
            return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        records = exchange_records(
            response.url,
            response.status,
            [(name, value) for name, values in response.headers.items() for value in values],
            response.body,
            method=request.method,
            request_headers=[(name, value) for name, values in request.headers.items() for value in values],
            request_body=request.body,
            protocol=response.protocol or "HTTP/1.1",
            ip_address=str(response.ip_address) if response.ip_address is not None else None,
        )
        files = len(self.writer.files)
        self.writer.write(*records)
        if len(self.writer.files) != files:
            self._log_file(self.writer.files[-1])
        if self.stats is not None:
            self.stats.inc_value(f"{STATS_PREFIX}/responses")
        return response

    def close(self) -> None:
        self.writer.close()
        if self.stats is not None and self.writer.files:
            self.stats.set_value(f"{STATS_PREFIX}/files", len(self.writer.files))
            self.stats.set_value(f"{STATS_PREFIX}/bytes", self.writer.bytes_written)
