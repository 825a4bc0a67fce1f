"""WARC archives: write them from a crawl (:mod:`.archive`, :mod:`.writer`), re-extract them
(:mod:`.reader`, :mod:`.batch`; the ``scrapy-cetd warc`` command).  See docs/archives.md."""

__all__: list[str] = []
