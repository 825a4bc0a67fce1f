"""HTTP responses as pages, without Scrapy: which are HTML, why one is skipped, and its text.

The crawl's annotation middleware (:mod:`scrapy_cetd.crawl.middlewares`) gets responses
typed by Scrapy; ``scrapy-cetd warc`` reads the same responses from archived records.
Both skip a response by :func:`skip_reason` and decode its body by :func:`page_text` (as
``extract()`` decodes bytes), and :func:`response_kind` types a record as Scrapy 2.13+
types a downloaded response (``scrapy.responsetypes.ResponseTypes.from_args``), so a page
archived by a crawl gives the crawl's text (tests/test_responses.py compares them).  One
difference: a URL's file extension is looked up in Python's table of types, where Scrapy
reads a larger one of its own; it only counts for a response whose headers name no type
(or ``application/octet-stream``).
"""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Mapping

from .parsing import decode_html, sniff_binary

__all__ = ["page_text", "response_kind", "skip_reason"]

# An HTML document's start: optional BOM, XML declaration and comments, then a doctype or <html>.
_HTML_START = re.compile(
    rb"^(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html[\s>])",
    re.IGNORECASE | re.DOTALL,
)
#: Media types by the kind of response Scrapy makes of them (HtmlResponse: ``html``;
#: TextResponse, XmlResponse, JsonResponse: ``text``); another ``text/*`` is ``text``.
_KINDS = {
    "text/html": "html", "application/xhtml+xml": "html", "application/vnd.wap.xhtml+xml": "html",
    "application/atom+xml": "text", "application/rdf+xml": "text", "application/rss+xml": "text",
    "application/xml": "text", "text/xml": "text", "application/json": "text", "application/x-json": "text",
    "application/json-amazonui-streaming": "text", "application/javascript": "text",
    "application/x-javascript": "text",
}
#: Python's own table of file extensions, without the machine's (``/etc/mime.types``): the same everywhere.
_EXTENSIONS = mimetypes.MimeTypes()
#: Control characters that make bytes binary to Scrapy's ``from_body`` (NUL, tab, CR, LF do not).
_BINARY_CHARS = frozenset(set(range(32)) - {0, 9, 10, 13})


def _from_media_type(media_type: str) -> str | None:
    kind = _KINDS.get(media_type)
    if kind is None and media_type.split("/", 1)[0] == "text":
        kind = "text"
    return kind


def _from_filename(name: str) -> str | None:
    media_type, encoding = _EXTENSIONS.guess_type(name)
    return _from_media_type(media_type) if media_type and not encoding else None


def _from_body(body: bytes) -> str | None:
    chunk = body[:5000]
    if any(byte in _BINARY_CHARS for byte in chunk):
        return None
    lowered = chunk.lower()
    if b"<html>" in lowered or (b"<?xml" not in lowered and b"<!doctype html>" in lowered):
        return "html"
    return "text"


def response_kind(headers: Mapping[str, str], url: str, body: bytes) -> str:
    """``"html"``, ``"text"`` or ``"other"``: the kind of response Scrapy makes of these
    headers (names in lower case), URL and body.  Tried in turn until one gives a kind: the
    ``Content-Type`` (none if ``Content-Encoding`` is left: an encoding Scrapy does not undo),
    the file name of ``Content-Disposition``, the URL's extension, then the body."""
    kind = None
    if "content-type" in headers and not headers.get("content-encoding"):
        kind = _from_media_type(headers["content-type"].split(";")[0].strip().lower())
    if kind is None and "content-disposition" in headers:
        try:
            kind = _from_filename(headers["content-disposition"].split(";")[1].split("=")[1].strip("\"'"))
        except IndexError:
            pass
    if kind is None:
        kind = _from_filename(url) or _from_body(body)
    return kind or "other"


def skip_reason(kind: str, status: int, body: bytes, max_size: int) -> str | None:
    """Why a response of ``kind`` (:func:`response_kind`) is not parsed (``non_html``,
    ``status``, ``too_large``, ``empty``, ``binary``), or ``None`` for an HTML page.  A
    ``text`` response is HTML when it starts as an HTML document does (HTML served as
    ``text/plain``, XML or without a useful ``Content-Type``)."""
    if kind != "html" and not (kind == "text" and _HTML_START.match(body[:1024])):
        return "non_html"
    if not 200 <= status < 300:
        return "status"
    if max_size and len(body) > max_size:
        return "too_large"
    if not body.strip():
        return "empty"
    if sniff_binary(body):
        return "binary"
    return None


def page_text(body: bytes, content_type: str | None) -> str:
    """The HTML text of a response, decoded as :func:`scrapy_cetd.parsing.decode_html`
    decodes the bytes given to ``extract()``: a declared charset first (BOM,
    ``Content-Type``, ``<meta>``), corrected where it does not fit the body; with none,
    UTF-8 or the legacy encoding detected in the page's text (``docs/charsets.md``), where
    Scrapy's ``TextResponse.text`` has a guess of its own."""
    return decode_html(body, content_type)[1]
