"""The item pipeline: run the configured algorithm on an item's page and write the outputs.

Items reach this pipeline without their response; :class:`~scrapy_cetd.crawl.middlewares.
ContentSpiderMiddleware` recorded which page each item came from (see
:mod:`scrapy_cetd.crawl.middlewares`).  An item without such a record is processed from the raw
HTML in its ``CETD_SOURCE_FIELD`` (default ``raw_html``), e.g. when re-processing stored pages.
Any item type works: fields are written through :class:`itemadapter.ItemAdapter`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import MutableMapping
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.asyncio import is_asyncio_available

from ..api import extract_tree
from ..extraction import Extraction
from ..fingerprint import text_fingerprint
from ..outputs import diagnostics_output
from ..workers import WorkerError, WorkerPool, extract_limited
from .middlewares import Annotation, ContentSpiderMiddleware, take_pending
from .settings import STATS_PREFIX, CetdConfig, ExtractionOptions

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

__all__ = ["ContentExtractionPipeline"]

logger = logging.getLogger(__name__)


async def _wait(future: Future[Extraction]) -> Extraction:
    """Await a worker pool's future under either Twisted reactor (or none).

    Only an :class:`Exception` comes out: anything else a future could hold (a worker's
    ``KeyboardInterrupt``, ``SystemExit``) becomes a :class:`WorkerError`, so it cannot
    escape the pipeline and stop the reactor."""

    def outcome(done: Future[Extraction]) -> tuple[Extraction | None, Exception | None]:
        if done.cancelled():
            return None, WorkerError("error", "the extraction was cancelled")
        error = done.exception()
        if error is None:
            return done.result(), None
        if not isinstance(error, Exception):
            return None, WorkerError("error", f"{type(error).__name__} in an extraction worker")
        return None, error

    if is_asyncio_available():
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[Extraction] = loop.create_future()

        def settle_asyncio(done: Future[Extraction]) -> None:
            if waiter.done():
                return
            result, error = outcome(done)
            if error is None:
                waiter.set_result(result)  # type: ignore[arg-type]
            else:
                waiter.set_exception(error)

        future.add_done_callback(lambda done: loop.call_soon_threadsafe(settle_asyncio, done))
        return await waiter
    from twisted.internet import reactor
    from twisted.internet.defer import Deferred

    deferred: Deferred[Extraction] = Deferred()

    def settle(done: Future[Extraction]) -> None:
        result, error = outcome(done)
        if error is None:
            deferred.callback(result)
        else:
            deferred.errback(error)

    future.add_done_callback(lambda done: reactor.callFromThread(settle, done))  # type: ignore[attr-defined]
    return await deferred


def _error_of(exc: Exception) -> tuple[str, str]:
    """The error field's text and the stat's name for an extraction that failed."""
    if isinstance(exc, WorkerError):
        if exc.kind in ("timeout", "worker_died"):
            return str(exc), exc.kind
        return str(exc), "extraction"
    return f"{type(exc).__name__}: {exc}", "extraction"


class ExtractionPool(WorkerPool):
    """The worker pool running :func:`~scrapy_cetd.workers.extract_limited` for a crawl."""

    def __init__(self, config: CetdConfig) -> None:
        super().__init__(config.workers, config.timeout)
        self.max_elements = config.max_elements

    async def extract(self, html: str | bytes, url: str | None, options: ExtractionOptions) -> Extraction:
        return await _wait(self.submit(html, url, self.max_elements, options.keywords()))


def _spider_middleware_enabled(crawler: Crawler) -> bool:
    from scrapy.utils.conf import build_component_list
    from scrapy.utils.misc import load_object

    paths = build_component_list(crawler.settings.get_component_priority_dict_with_base("SPIDER_MIDDLEWARES"))
    return any(load_object(path) is ContentSpiderMiddleware for path in paths)


class ContentExtractionPipeline:
    """Item pipeline writing the main content (``CETD_OUTPUT_FIELDS``) into each item.

    With ``CETD_WORKERS = N > 0`` the HTML text is parsed and extracted in a pool of N
    processes, so the reactor thread only decodes; otherwise extraction runs in-process on
    the page the annotation middleware built.
    """

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.config = CetdConfig.from_crawler(crawler)
        if not self.config.enabled:
            raise NotConfigured("CETD_ENABLED is False")
        self.stats: StatsCollector = crawler.stats  # type: ignore[assignment]
        self._pool: ExtractionPool | None = None
        self._warned: set[tuple[type, str]] = set()
        # An item dropped (or failed) before it reached this pipeline is not "lost" (middlewares).
        crawler.signals.connect(self._item_gone, signal=signals.item_dropped)
        crawler.signals.connect(self._item_gone, signal=signals.item_error)
        if not _spider_middleware_enabled(crawler):
            logger.warning(
                "ContentSpiderMiddleware is not enabled: items yielded from responses get no content "
                "(only items carrying raw HTML do); add it to SPIDER_MIDDLEWARES or use the add-on"
            )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentExtractionPipeline:
        return cls(crawler)

    def _item_gone(self, item: Any) -> None:
        take_pending(item)

    def open_spider(self) -> None:
        if self.config.workers:
            self._pool = ExtractionPool(self.config)
            logger.info(
                "Content extraction runs in %d worker process%s (%s), at most %s per page (CETD_TIMEOUT)",
                self.config.workers,
                "" if self.config.workers == 1 else "es",
                "CETD_WORKERS"
                if self.crawler.settings.get("CETD_WORKERS") is not None
                else "the default: real-size pages parse faster off the reactor thread, within a time limit",
                f"{self.config.timeout:g} s" if self.config.timeout else "no limit",
            )
        else:
            logger.info("Content extraction runs in the crawling process (CETD_WORKERS = 0): no per-page time limit")

    def close_spider(self) -> None:
        if self._pool is not None:
            self._pool.close()
            if self._pool.restarts:
                self.stats.set_value(f"{STATS_PREFIX}/workers/restarts", self._pool.restarts)
            self._pool = None

    async def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        entry = take_pending(item)
        if not self.config.fills(item):  # another class than CETD_ITEM_CLASSES: not about the page
            self.stats.inc_value(f"{STATS_PREFIX}/items/other_class")
            return item
        if entry is None or entry.annotation is None:
            return await self._process_source(item, adapter)
        annotation = entry.annotation
        if annotation.reason == "error" or entry.error:
            return self._failed(item, adapter, annotation.url, annotation.error or entry.error or "", "page")
        if annotation.reason:
            self.stats.inc_value(f"{STATS_PREFIX}/items/skipped/{annotation.reason}")
            if annotation.reason != "disabled" or self._has_field(adapter, self.config.flag_field):
                self._set(item, adapter, self.config.flag_field, annotation.reason)
            return item
        assert entry.options is not None
        try:
            result = await self._extract_annotation(annotation, entry.options)
        except Exception as exc:
            return self._failed(item, adapter, annotation.url, *_error_of(exc))
        return self._write(item, adapter, result, entry.options)

    async def _process_source(self, item: Any, adapter: ItemAdapter) -> Any:
        """An item not tied to a response: extract from its raw HTML field, if any."""
        field_name = self.config.source_field
        source = adapter.get(field_name) if field_name else None
        if not source:
            self.stats.inc_value(f"{STATS_PREFIX}/items/no_source")
            return item
        url = adapter.get("url")
        options = self.config.options
        self.stats.inc_value(f"{STATS_PREFIX}/items/from_source_field")
        # The raw HTML leaves the item (bytes break JSON feeds; the outputs replace it), unless
        # an output writes to that field.
        if isinstance(item, MutableMapping):
            del adapter[field_name]
        else:  # dataclass, attrs: the field stays declared
            adapter[field_name] = None
        try:
            if self._pool is not None:
                result = await self._pool.extract(source, url, options)
            else:
                result = extract_limited(source, url, self.config.max_elements, options.keywords())
        except Exception as exc:
            return self._failed(item, adapter, url, *_error_of(exc))
        return self._write(item, adapter, result, options)

    @staticmethod
    def _has_field(adapter: ItemAdapter, field_name: str | None) -> bool:
        """Whether the item can hold ``field_name`` (any name for a dict)."""
        if field_name is None:
            return False
        declared = ItemAdapter.get_field_names_from_class(type(adapter.item))
        return declared is None or field_name in declared

    async def _extract_annotation(self, annotation: Annotation, options: ExtractionOptions) -> Extraction:
        result = annotation.results.get(options)
        if result is None:
            if annotation.page is not None:
                result = extract_tree(annotation.page, **options.keywords())
            elif self._pool is not None and annotation.text is not None:
                result = await self._pool.extract(annotation.text, annotation.url, options)
            else:  # decoded for workers, but the pool is gone (crawl closing)
                limit = self.config.max_elements
                result = extract_limited(annotation.text or "", annotation.url, limit, options.keywords())
            annotation.results[options] = result
        return result

    def _write(self, item: Any, adapter: ItemAdapter, result: Extraction, options: ExtractionOptions) -> Any:
        page_type = result.metadata.page_type if result.metadata else None
        if self.config.page_types and page_type:  # CETD_PAGE_TYPES: each type counted
            self.stats.inc_value(f"{STATS_PREFIX}/page_types/{page_type}")
        if self.config.page_types and page_type not in self.config.page_types:
            self.stats.inc_value(f"{STATS_PREFIX}/items/other_page_type")
            if self.config.on_other_page_type == "drop":
                self.stats.inc_value(f"{STATS_PREFIX}/items/dropped/page_type")
                raise DropItem(f"{result.url} is classified {page_type}, not one of CETD_PAGE_TYPES", log_level="INFO")
            if self.config.on_other_page_type == "flag":
                self._set(item, adapter, self.config.flag_field, "page_type")
        if len(result.text) < options.min_text_length:
            if self.config.on_short_text == "drop":
                self.stats.inc_value(f"{STATS_PREFIX}/items/dropped/short_text")
                raise DropItem(
                    f"Extracted text of {result.url} is shorter than CETD_MIN_TEXT_LENGTH "
                    f"({len(result.text)} < {options.min_text_length})"
                )
            self.stats.inc_value(f"{STATS_PREFIX}/items/short_text")
            self._set(item, adapter, self.config.flag_field, "short_text")
        elif not result.text and result.reason:
            self.stats.inc_value(f"{STATS_PREFIX}/items/no_content")
            if result.reason == "too_many_elements":  # found in a worker (in-process: by the middleware)
                self.stats.inc_value(f"{STATS_PREFIX}/skipped/too_many_elements")
            self._set(item, adapter, self.config.flag_field, result.reason)
        values = {
            **(result.metadata.to_dict() if result.metadata else {}),
            "text": result.text,
            "html": result.html,
            "title": result.title,
            "algorithm": result.algorithm,
            "markdown": result.markdown,
            "url": result.url,
            "comments": result.comments,
        }
        if "fingerprint" in self.config.output_fields:  # SimHash of the text, for duplicate stories
            values["fingerprint"] = text_fingerprint(result.text)
        written = True
        for output, field_name in self.config.output_fields.items():
            value = diagnostics_output(result) if output == "diagnostics" else values.get(output)
            held = adapter.get(field_name)
            if held is not None:  # the spider's own value (a canonical URL, its own title) wins
                if held != value:
                    self.stats.inc_value(f"{STATS_PREFIX}/fields/kept")
                continue
            written = self._set(item, adapter, field_name, value) and written
        # An output the item cannot hold is an error (errors/undeclared_field), not an extraction.
        self.stats.inc_value(f"{STATS_PREFIX}/items/{'extracted' if written else 'error'}")
        return item

    def _failed(self, item: Any, adapter: ItemAdapter, url: str | None, error: str, stage: str) -> Any:
        """An error never loses an item silently: log it with the URL, count it, keep or drop.

        ``stage``: ``page`` (the page could not be annotated), ``extraction`` (the
        extraction raised), ``timeout`` or ``worker_died`` (worker mode)."""
        if stage != "page":
            logger.error("Content extraction failed for %s: %s", url, error)
            self.stats.inc_value(f"{STATS_PREFIX}/errors/{stage}")
        if self.config.on_error == "drop":
            self.stats.inc_value(f"{STATS_PREFIX}/items/dropped/error")
            raise DropItem(f"Content extraction failed for {url}: {error}")
        self.stats.inc_value(f"{STATS_PREFIX}/items/error")
        self._set(item, adapter, self.config.error_field, error)
        return item

    def _set(self, item: Any, adapter: ItemAdapter, field_name: str | None, value: Any) -> bool:
        """Write one field; ``False`` when the item has no such field."""
        if field_name is None:
            return True
        try:
            adapter[field_name] = value
            return True
        except KeyError:
            self.stats.inc_value(f"{STATS_PREFIX}/errors/undeclared_field")
            if (type(item), field_name) not in self._warned:
                self._warned.add((type(item), field_name))
                logger.error(
                    "%s has no field %r: declare it or map the output elsewhere "
                    "(CETD_OUTPUT_FIELDS, CETD_FLAG_FIELD, CETD_ERROR_FIELD)",
                    type(item).__name__,
                    field_name,
                )
            return False
