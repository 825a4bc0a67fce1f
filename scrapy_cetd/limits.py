"""The size limits a page is held to, written once for the crawl (``CETD_MAX_SIZE``,
``CETD_MAX_ELEMENTS``: :mod:`scrapy_cetd.crawl.settings`), ``scrapy-cetd extract`` and
``scrapy-cetd warc``."""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_ELEMENTS", "DEFAULT_MAX_SIZE"]

#: Bodies larger than this many bytes are skipped (``too_large``): 16 MiB.
DEFAULT_MAX_SIZE = 16 * 1024 * 1024
#: Pages with more elements are skipped (``too_many_elements``): a page model costs about
#: 1.5 KB per element (1,000,000 ``<p>`` elements: 1.2 GB of RSS; 200,000: 0.3 GB), and the
#: largest of the 1497 WCXB dev pages has 15,793.
DEFAULT_MAX_ELEMENTS = 100_000
