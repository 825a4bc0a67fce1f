"""One-line enablement: ``ADDONS = {"scrapy_cetd.Addon": 0}``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.settings import SETTINGS_PRIORITIES

from ..cluster.watch import RedisWatch, quiet_scrapy_redis_deprecations
from .duplicates import DuplicateStoryPipeline
from .middlewares import ContentAnnotationMiddleware, ContentSpiderMiddleware
from .pipelines import ContentExtractionPipeline
from .settings import read_setting, uses_scrapy_redis

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["DOWNLOADER_MIDDLEWARE_ORDER", "ITEM_PIPELINE_ORDER", "LOG_FORMATTER", "SPIDER_MIDDLEWARE_ORDER", "Addon"]

#: Below ``HttpCompressionMiddleware`` (590): ``process_response`` sees the decoded body.
DOWNLOADER_MIDDLEWARE_ORDER = 585
#: Low: its output hook runs after other spider middlewares, so it sees the items pipelines get.
SPIDER_MIDDLEWARE_ORDER = 25
#: Early: pipelines that validate or store items (usually 300+) see the extracted content.
ITEM_PIPELINE_ORDER = 100
#: Logs items with long fields (the page's text and HTML) shortened; see :mod:`scrapy_cetd.crawl.logformatter`.
LOG_FORMATTER = "scrapy_cetd.crawl.logformatter.ShortItemLogFormatter"
#: Extensions run in any order; 500 is where Scrapy's own sit.
REDIS_WATCH_ORDER = 500
#: Right after extraction: duplicate stories are flagged or dropped before other pipelines store them.
DUPLICATE_PIPELINE_ORDER = 110


class Addon:
    """Registers the three components (and, in scrapy-redis crawls,
    :class:`~scrapy_cetd.cluster.watch.RedisWatch`); an order already set for any of them is kept.

    The ``CETD_*`` settings keep their defaults unless the project, the spider's
    ``custom_settings`` or the command line set them.

    It also sets ``LOG_FORMATTER`` to :class:`~scrapy_cetd.crawl.logformatter.ShortItemLogFormatter`
    at add-on priority: the add-on is what puts each page's text and cleaned HTML into the
    items, and Scrapy's default formatter then logs all of it for every item at DEBUG.  A
    ``LOG_FORMATTER`` set by the project, a spider, the command line or an earlier add-on wins.
    """

    def update_settings(self, settings: BaseSettings) -> None:
        settings.setdefault_in_component_priority_dict(
            "DOWNLOADER_MIDDLEWARES", ContentAnnotationMiddleware, DOWNLOADER_MIDDLEWARE_ORDER
        )
        settings.setdefault_in_component_priority_dict(
            "SPIDER_MIDDLEWARES", ContentSpiderMiddleware, SPIDER_MIDDLEWARE_ORDER
        )
        settings.setdefault_in_component_priority_dict("ITEM_PIPELINES", ContentExtractionPipeline, ITEM_PIPELINE_ORDER)
        if settings.getpriority("LOG_FORMATTER") < SETTINGS_PRIORITIES["addon"]:
            settings.set("LOG_FORMATTER", LOG_FORMATTER, priority="addon")
        # WARC archiving (docs/archives.md) when CETD_WARC_PATH is set; Parquet feeds.
        if settings.get("CETD_WARC_PATH"):
            from .archive import WARC_MIDDLEWARE_ORDER, WarcArchiveMiddleware

            settings.setdefault_in_component_priority_dict(
                "DOWNLOADER_MIDDLEWARES", WarcArchiveMiddleware, WARC_MIDDLEWARE_ORDER
            )
        exporters = settings["FEED_EXPORTERS"]  # a BaseSettings: the project's own entries stay
        if hasattr(exporters, "setdefault"):
            exporters.setdefault("parquet", "scrapy_cetd.crawl.exporters.ParquetItemExporter", "addon")
            exporters.setdefault("xml", "scrapy_cetd.crawl.exporters.XmlItemExporter", "addon")  # None: no element
        # Local feed files are written item by item: a crawl stopped at once (Ctrl-C twice,
        # SIGKILL) keeps every item it exported, each line whole.
        storages = settings["FEED_STORAGES"]
        if hasattr(storages, "setdefault"):
            for scheme in ("", "file"):
                storages.setdefault(scheme, "scrapy_cetd.crawl.exporters.ItemByItemFileFeedStorage", "addon")
        # Distributed crawls (scrapy-redis): the spider closes once Redis is lost for good.
        if uses_scrapy_redis(settings):
            settings.setdefault_in_component_priority_dict("EXTENSIONS", RedisWatch, REDIS_WATCH_ORDER)
            quiet_scrapy_redis_deprecations()  # scrapy-redis's calls that Scrapy deprecates
        if read_setting(settings, "CETD_ON_DUPLICATE") != "keep":  # duplicate stories: flag or drop
            settings.setdefault_in_component_priority_dict(
                "ITEM_PIPELINES", DuplicateStoryPipeline, DUPLICATE_PIPELINE_ORDER
            )
