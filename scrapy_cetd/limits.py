"""The size limits a page is held to, written once for the crawl (``CETD_MAX_SIZE``,
``CETD_MAX_ELEMENTS``: :mod:`scrapy_cetd.crawl.settings`), ``scrapy-cetd extract``,
``scrapy-cetd warc`` and the library's :func:`scrapy_cetd.extract` (``max_size``,
``max_elements``)."""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_ELEMENTS", "DEFAULT_MAX_SIZE", "EXTRACT_MAX_SIZE"]

#: Bodies larger than this many bytes are skipped (``too_large``): 16 MiB.
DEFAULT_MAX_SIZE = 16 * 1024 * 1024
#: :func:`scrapy_cetd.extract` gives an empty result (``too_large``) for longer markup:
#: 8 MiB, over the largest page of the three dev sets (5.3 MB), and the parse of any markup
#: of that size stays within a few hundred MB (``tests/test_api.py``: under 512 MB for
#: nested ``<div>``, bare ``<p>`` and paragraphs).
EXTRACT_MAX_SIZE = 8 * 1024 * 1024
#: Pages with more elements are skipped (``too_many_elements``), in crawls and in
#: :func:`scrapy_cetd.extract`: the parse, page model and algorithm cost 1.0-2.9 KB per
#: element (docs/operating.md, ``benchmarks/memory_per_element.py``: 100,000 took
#: 215-400 MB), and the largest of the 1497 WCXB dev pages has 15,793.
DEFAULT_MAX_ELEMENTS = 100_000
