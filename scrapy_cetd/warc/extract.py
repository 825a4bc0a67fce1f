"""One WARC record to one item: the function Spark, Ray or any other engine maps over records.

    from scrapy_cetd.warc.extract import WarcOptions, extract_record

    options = WarcOptions(algorithm="cetd-plus", outputs=("text", "title"))
    item, skip = extract_record(warc_headers, block, options)   # block: the HTTP message bytes

An HTML response is recognised exactly as the crawl's annotation middleware recognises it
(:func:`scrapy_cetd.middlewares.response_skip_reason`: Content-Type, then sniffing; the
charset from the HTTP header, corrected as the crawl corrects it), and extracted with the
same call the crawl's pipeline makes, so a page archived by a crawl gives the crawl's text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..api import DEFAULT_ALGORITHM, extract
from ..extraction import Extraction
from ..fingerprint import text_fingerprint
from ..settings import DEFAULT_MAX_SIZE, METADATA_OUTPUTS, OUTPUTS
from .reader import BodyDecodeError, decode_body, parse_http_response

__all__ = ["ITEM_FIELDS", "WarcOptions", "error_item", "extract_record", "output_value"]

#: Fields every item has, before the extraction outputs; ``reason`` (last) says why the text is empty.
ITEM_FIELDS = ("url", "warc_record_id", "warc_date", "status")


@dataclass(frozen=True)
class WarcOptions:
    """Extraction options for records (as ``scrapy-cetd extract``'s) and the outputs to keep.

    ``outputs`` are names from :data:`scrapy_cetd.settings.OUTPUTS`, the pipeline's
    ``CETD_OUTPUT_FIELDS`` keys; ``max_size`` skips larger bodies (0: no limit).
    """

    algorithm: str = DEFAULT_ALGORITHM
    threshold_coefficient: float | None = None
    params: tuple[tuple[str, Any], ...] = ()
    outputs: tuple[str, ...] = ("text", "title")
    max_size: int = DEFAULT_MAX_SIZE

    def __post_init__(self) -> None:
        unknown = [name for name in self.outputs if name not in OUTPUTS]
        if unknown:
            raise ValueError(f"unknown output(s) {', '.join(unknown)}; choose from {', '.join(OUTPUTS)}")

    @property
    def fields(self) -> tuple[str, ...]:
        """The item's fields, in order, each once (the ``url`` output is the item's ``url``)."""
        return tuple(dict.fromkeys((*ITEM_FIELDS, *self.outputs, "reason")))


def output_value(result: Extraction, name: str) -> Any:
    """An output of an extraction by its ``OUTPUTS`` name: a field of the result, or of its
    metadata (so outputs added to ``OUTPUTS`` later flow through unchanged)."""
    if name == "diagnostics":
        from ..pipelines import _diagnostics

        return _diagnostics(result)
    if name == "fingerprint":  # as the pipeline: the SimHash of the text
        return text_fingerprint(result.text)
    if hasattr(result, name):
        return getattr(result, name)
    metadata = getattr(result, "metadata", None)
    return getattr(metadata, name, None)


def extract_record(headers: Mapping[str, str], block: bytes, options: WarcOptions) -> tuple[dict[str, Any] | None, str]:
    """The item for one WARC record, or ``(None, reason)`` when it is skipped.

    ``headers`` are the record's WARC headers, ``block`` its content (the HTTP message).
    The body is decoded first as the crawl's HTTP client and Scrapy decode it (chunks
    joined, gzip/deflate/br/zstd undone: :func:`scrapy_cetd.warc.reader.decode_body`).
    Reasons: ``record/<WARC-Type>`` (not a response), ``not_http``, ``http_header`` (broken),
    ``content_encoding`` (corrupt compressed data), and the middleware's ``non_html``,
    ``status``, ``too_large`` (also: decompresses past ``max_size``), ``empty``, ``binary``.
    The second element of a returned item is ``"item"``.  A record the extraction cannot
    handle raises (e.g. a charset Python cannot decode text with, ``charset=base64``):
    :func:`scrapy_cetd.warc.batch.process_unit` makes it an :func:`error_item`, as the crawl
    keeps such an item with its error.
    """
    from scrapy.http import Headers
    from scrapy.responsetypes import responsetypes

    from ..middlewares import decoded_html, response_skip_reason

    record_type = headers.get("WARC-Type", "")
    if record_type != "response":
        return None, f"record/{record_type or 'untyped'}"
    if headers.get("X-Skipped") == "too_large":
        return None, "too_large"
    if not headers.get("Content-Type", "application/http").lower().startswith("application/http"):
        return None, "not_http"
    parsed = parse_http_response(block)
    if parsed is None:
        return None, "http_header"
    status, http_headers, body = parsed
    try:
        http_headers, body = decode_body(http_headers, body, options.max_size)
    except BodyDecodeError as exc:
        return None, exc.reason
    url = headers.get("WARC-Target-URI", "").strip("<>")
    scrapy_headers = Headers(http_headers)
    try:
        response_class = responsetypes.from_args(headers=scrapy_headers, url=url, body=body)
        response = response_class(url=url, status=status, headers=scrapy_headers, body=body)
    except (TypeError, ValueError):  # e.g. a URL Scrapy refuses
        return None, "http_header"
    reason = response_skip_reason(response, options.max_size)
    if reason is not None:
        return None, reason
    result = extract(
        decoded_html(response),  # type: ignore[arg-type]
        algorithm=options.algorithm,
        url=url,
        threshold_coefficient=options.threshold_coefficient,
        diagnostics="diagnostics" in options.outputs,
        # The renderings and readings the outputs need, as the crawl's settings choose them.
        with_html="html" in options.outputs,
        with_markdown="markdown" in options.outputs,
        with_metadata=any(name == "title" or name in METADATA_OUTPUTS for name in options.outputs),
        with_comments="comments" in options.outputs,
        max_size=0,  # response_skip_reason applied the crawl's CETD_MAX_SIZE
        **dict(options.params),
    )
    if result.reason and result.reason.startswith(_UNPARSED):
        # the decoded text is no page (control characters the byte sniff lets through):
        # skipped by the prefix of its reason, as the crawl's annotation skips it
        return None, result.reason.split(":", 1)[0]
    item: dict[str, Any] = {
        "url": url,
        "warc_record_id": headers.get("WARC-Record-ID"),
        "warc_date": headers.get("WARC-Date"),
        "status": status,
    }
    for name in options.outputs:
        item[name] = output_value(result, name)
    item["reason"] = None if result.text else result.reason
    return item, "item"


#: The reasons of a page the parser refuses (:class:`scrapy_cetd.parsing.EmptyDocument`).
_UNPARSED = ("empty", "binary", "unparsable")


def error_item(headers: Mapping[str, str], block: bytes, options: WarcOptions) -> dict[str, Any]:
    """The item of a response record whose extraction raised: its WARC fields and HTTP
    status, every output ``None`` (nothing extracted) and ``reason`` ``"error"`` (the crawl's
    ``errors/annotation``: the item is kept, the error logged with the URL and counted)."""
    parsed = parse_http_response(block)
    item: dict[str, Any] = {
        "url": headers.get("WARC-Target-URI", "").strip("<>"),
        "warc_record_id": headers.get("WARC-Record-ID"),
        "warc_date": headers.get("WARC-Date"),
        "status": parsed[0] if parsed is not None else None,
    }
    for name in options.outputs:
        item.setdefault(name, None)
    item["reason"] = "error"
    return item
