"""One WARC record to one item: the function Spark, Ray or any other engine maps over records.

    from scrapy_cetd.warc.extract import WarcOptions, extract_record

    options = WarcOptions(algorithm="cetd-plus", outputs=("text", "title"))
    item, skip = extract_record(warc_headers, block, options)   # block: the HTTP message bytes

An HTML response is recognised and decoded as the crawl's annotation middleware recognises
and decodes it (:mod:`scrapy_cetd.responses`: Content-Type, then sniffing; the body decoded
as ``extract()`` decodes bytes), and extracted with the same call the
crawl's pipeline makes, so a page archived by a crawl gives the crawl's text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..api import DEFAULT_ALGORITHM, extract
from ..limits import DEFAULT_MAX_SIZE
from ..outputs import OUTPUTS, extraction_keywords, output_value
from ..responses import page_text, response_kind, skip_reason
from .reader import BodyDecodeError, decode_body, parse_http_response

__all__ = ["ITEM_FIELDS", "WarcOptions", "error_item", "extract_record"]

#: Fields every item has, before the extraction outputs; ``reason`` (last) says why the text is empty.
ITEM_FIELDS = ("url", "warc_record_id", "warc_date", "status")


@dataclass(frozen=True)
class WarcOptions:
    """Extraction options for records (as ``scrapy-cetd extract``'s) and the outputs to keep.

    ``outputs`` are names from :data:`scrapy_cetd.outputs.OUTPUTS`, the pipeline's
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
    # Header names in lower case; of a repeated header the last value, as Scrapy's Headers give it.
    named = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in http_headers}
    try:
        kind = response_kind(named, url, body)
    except ValueError:  # a URL the type lookup cannot read
        return None, "http_header"
    reason = skip_reason(kind, status, body, options.max_size)
    if reason is not None:
        return None, reason
    result = extract(
        page_text(body, named.get("content-type")),
        algorithm=options.algorithm,
        url=url,
        threshold_coefficient=options.threshold_coefficient,
        **extraction_keywords(options.outputs),  # the renderings the outputs need, as the crawl's settings
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
