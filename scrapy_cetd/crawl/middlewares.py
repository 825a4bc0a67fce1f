"""Scrapy middlewares: annotate HTML responses with the page model, and tie items to their page.

How a page gets from the downloader to the item pipeline, without HTML in meta or items:

1. :class:`ContentAnnotationMiddleware` (downloader middleware, order 585, below the
   decompression middleware at 590 so it sees decoded bodies) recognises HTML responses,
   decodes them as ``extract()`` decodes bytes (:func:`scrapy_cetd.responses.page_text`),
   parses them once and
   builds the :class:`~scrapy_cetd.page.Page`.  The page is kept in a weak mapping keyed by
   the response's request (``Request`` and ``Response`` have ``__slots__``, so nothing can
   be attached to them); it lives exactly as long as the response.  ``response.meta`` gets
   only a small status dict under ``"cetd_annotation"`` and annotated responses the
   ``"cetd"`` flag (shown in the crawl log).  :func:`get_page` returns the page in a
   spider callback.
2. :class:`ContentSpiderMiddleware` (spider middleware) sees every item a callback
   yields together with its response (``BaseSpiderMiddleware.get_processed_item``) and
   records which page the item came from and the request's ``cetd_*`` options.  The
   record is keyed by the item's identity and forgotten when the response is released.
3. :class:`~scrapy_cetd.crawl.pipelines.ContentExtractionPipeline` takes the record for the
   item, runs the algorithm on the page and writes the outputs into the item.

With ``CETD_WORKERS > 0`` step 1 only classifies and decodes; the HTML text is parsed once,
in a worker process, by the pipeline (lxml trees cannot be pickled).
"""

from __future__ import annotations

import logging
import weakref
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, Response, TextResponse
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.utils.misc import load_object

from ..page import Page
from ..parsing import EmptyDocument, parse_html
from ..responses import page_text, skip_reason
from .settings import STATS_PREFIX, CetdConfig, ExtractionOptions, InvalidSetting

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

    from ..extraction import Extraction

__all__ = [
    "ANNOTATION_META_KEY",
    "RESPONSE_FLAG",
    "ContentAnnotationMiddleware",
    "ContentSpiderMiddleware",
    "get_page",
]

logger = logging.getLogger(__name__)

#: ``response.meta`` key of the annotation status dict.
ANNOTATION_META_KEY = "cetd_annotation"
#: Flag added to ``response.flags`` of annotated responses.
RESPONSE_FLAG = "cetd"

@dataclass(eq=False)
class Annotation:
    """What the annotation middleware learnt about one response.

    ``page`` is the page model (in-process mode); ``text`` the decoded HTML to parse in a
    worker (``CETD_WORKERS > 0``).  ``reason`` is set when the response was skipped or
    failed (``non_html``, ``status``, ``empty``, ``binary``, ``too_large``, ``disabled``,
    ``unparsable``, ``error``), with ``error`` describing a failure.  ``results`` caches
    extractions per options, for callbacks that yield several items from one page.
    """

    url: str
    page: Page | None = None
    text: str | None = None
    reason: str | None = None
    error: str | None = None
    results: dict[ExtractionOptions, Extraction] = field(default_factory=dict)


# Request -> Annotation.  Weak keys: an entry goes when its request (held by the response) goes.
_ANNOTATIONS: weakref.WeakKeyDictionary[Request, Annotation] = weakref.WeakKeyDictionary()


@dataclass(eq=False)
class PendingItem:
    """An item on its way from a callback to the pipeline, with the page it came from."""

    item: Any
    annotation: Annotation | None
    options: ExtractionOptions | None
    error: str | None = None


# id(item) -> PendingItem.  The entry holds the item, so the id cannot be reused while it exists.
_PENDING: dict[int, PendingItem] = {}


def take_pending(item: Any) -> PendingItem | None:
    """Remove and return the record :class:`ContentSpiderMiddleware` made for ``item``."""
    entry = _PENDING.get(id(item))
    if entry is None or entry.item is not item:
        return None
    del _PENDING[id(item)]
    return entry


#: The extraction pipeline, by name: its module imports this one, so this one does not import it.
_EXTRACTION_PIPELINE = "scrapy_cetd.crawl.pipelines.ContentExtractionPipeline"


def _pipeline_order(crawler: Crawler) -> int | None:
    """The order of ContentExtractionPipeline in ``ITEM_PIPELINES``; ``None``: not enabled."""
    pipelines = crawler.settings.get_component_priority_dict_with_base("ITEM_PIPELINES")
    for path, order in pipelines.items():
        component = load_object(path)
        name = f"{getattr(component, '__module__', '')}.{getattr(component, '__qualname__', '')}"
        if order is not None and name == _EXTRACTION_PIPELINE:
            return order
    return None


def get_page(response: Response) -> Page | None:
    """The page model of an annotated response, or ``None`` (not HTML, skipped, failed).

    In worker mode (``CETD_WORKERS > 0``) the page is built here, in the calling process,
    on first use.
    """
    annotation = _ANNOTATIONS.get(response.request) if response.request is not None else None
    if annotation is None or annotation.reason:
        return None
    if annotation.page is None and annotation.text is not None:
        try:
            annotation.page = Page.from_tree(parse_html(annotation.text), annotation.url)
        except EmptyDocument:
            annotation.text = None
    return annotation.page


def _decoded_text(response: TextResponse) -> str:
    """The body decoded by :func:`scrapy_cetd.responses.page_text`, as ``extract()`` decodes
    bytes (not ``response.text``: for a body that declares no charset, Scrapy has a guess
    of its own)."""
    content_type = response.headers.get(b"Content-Type")
    return page_text(response.body, content_type.decode("latin-1") if content_type else None)


def response_skip_reason(response: Response, max_size: int) -> str | None:
    """Why a response is not parsed (:func:`scrapy_cetd.responses.skip_reason`), by the
    class Scrapy gave it; ``None`` for an HTML page."""
    kind = "html" if isinstance(response, HtmlResponse) else "text" if isinstance(response, TextResponse) else "other"
    return skip_reason(kind, response.status, response.body, max_size)


class _Annotator:
    """The annotation step shared by both middlewares (the spider middleware annotates a
    response itself when it reaches the spider without an annotation)."""

    def __init__(self, crawler: Crawler) -> None:
        self.config = CetdConfig.from_crawler(crawler)
        if not self.config.enabled:
            raise NotConfigured("CETD_ENABLED is False")
        self.stats: StatsCollector = crawler.stats  # type: ignore[assignment]

    def annotate(self, request: Request, response: Response) -> Annotation:
        annotation = Annotation(url=response.url)
        try:
            annotation.reason = self._skip_reason(request, response)
        except InvalidSetting as exc:
            annotation.reason, annotation.error = "error", str(exc)
            self.stats.inc_value(f"{STATS_PREFIX}/errors/options")
            logger.error("Invalid content extraction options for %s: %s", response.url, exc)
        if annotation.reason is None:
            self._build(annotation, response)  # type: ignore[arg-type]
        _ANNOTATIONS[request] = annotation
        status: dict[str, Any]
        if annotation.reason == "error":
            status = {"status": "error", "error": annotation.error}
        elif annotation.reason:
            status = {"status": "skipped", "reason": annotation.reason}
            self.stats.inc_value(f"{STATS_PREFIX}/skipped/{annotation.reason}")
        else:
            status = {"status": "annotated" if annotation.page is not None else "decoded"}
            self.stats.inc_value(f"{STATS_PREFIX}/pages/annotated")
            if RESPONSE_FLAG not in response.flags:
                response.flags.append(RESPONSE_FLAG)
        request.meta[ANNOTATION_META_KEY] = status
        return annotation

    def _skip_reason(self, request: Request, response: Response) -> str | None:
        if not self.config.request_enabled(request.meta):
            return "disabled"
        return response_skip_reason(response, self.config.max_size)

    def _build(self, annotation: Annotation, response: TextResponse) -> None:
        try:
            text = _decoded_text(response)
            if self.config.workers:
                annotation.text = text
                return
            annotation.page = Page.from_tree(parse_html(text, max_elements=self.config.max_elements), response.url)
        except EmptyDocument as exc:
            annotation.reason = exc.reason.split(":", 1)[0]
        except Exception as exc:
            annotation.reason, annotation.error = "error", f"{type(exc).__name__}: {exc}"
            self.stats.inc_value(f"{STATS_PREFIX}/errors/annotation")
            logger.error("Could not build the page model of %s: %s", response.url, annotation.error, exc_info=True)


class ContentAnnotationMiddleware:
    """Downloader middleware: parse each HTML response once and attach its page model.

    Put it below ``HttpCompressionMiddleware`` (590): the default order is 585.
    """

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.annotator = _Annotator(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentAnnotationMiddleware:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        self.annotator.annotate(request, response)
        return response


class ContentSpiderMiddleware(BaseSpiderMiddleware):
    """Spider middleware: remember which page (and which ``cetd_*`` options) each item came from.

    Nothing is written into the item here; the pipeline looks the record up by the item's
    identity.  Use a low order (default 25) so it sees items after other spider middlewares.
    """

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.annotator = _Annotator(crawler)

    @cached_property
    def _extraction_pipeline_order(self) -> int | None:
        return _pipeline_order(self.crawler)

    def _lost(self, key: int, entry: PendingItem) -> None:
        """The response is released and its item never reached the extraction pipeline (nor
        was it dropped): most likely a pipeline before it returned a new item object."""
        if _PENDING.get(key) is not entry:
            return
        del _PENDING[key]
        if self._extraction_pipeline_order is None:
            return
        self.annotator.stats.inc_value(f"{STATS_PREFIX}/items/not_reached")
        if self.annotator.stats.get_value(f"{STATS_PREFIX}/items/not_reached") == 1:
            logger.warning(
                "An item yielded from %s never reached ContentExtractionPipeline as the same object, "
                "so it got no content: items are tied to their page by identity, and a pipeline "
                "ordered before it (ITEM_PIPELINES below %s) probably returned a new item (e.g. "
                "dict(item)) instead of the one it received; change that pipeline to modify and "
                "return the item, or order it after ContentExtractionPipeline",
                entry.annotation.url if entry.annotation is not None else "a response",
                self._extraction_pipeline_order,
            )

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if not isinstance(response, Response) or response.request is None:
            return item  # start items: only a raw HTML field can be processed
        annotation = _ANNOTATIONS.get(response.request)
        if annotation is None:
            annotation = self.annotator.annotate(response.request, response)
        options, error = None, None
        if annotation.reason is None:
            try:
                options = self.annotator.config.options_for(response.meta)
            except InvalidSetting as exc:
                error = str(exc)
                self.annotator.stats.inc_value(f"{STATS_PREFIX}/errors/options")
                logger.error("Invalid content extraction options for %s: %s", response.url, error)
        entry = PendingItem(item, annotation, options, error)
        _PENDING[id(item)] = entry
        weakref.finalize(response, self._lost, id(item), entry)
        return item
