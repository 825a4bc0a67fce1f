"""The Scrapy layer: the add-on (:mod:`.addon`), the middlewares that parse each HTML response
once (:mod:`.middlewares`), the item pipeline that writes the extraction into items
(:mod:`.pipelines`), the ``CETD_*`` settings (:mod:`.settings`), duplicate stories
(:mod:`.duplicates`), feed exporters (:mod:`.exporters`), the item log formatter
(:mod:`.logformatter`) and WARC archiving of a crawl (:mod:`.archive`).  See docs/scrapy.md."""

__all__: list[str] = []
