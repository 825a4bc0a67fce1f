"""Turning bytes or text into an lxml tree, robustly.

Bytes are decoded with w3lib's HTML encoding detection (BOM, HTTP header, ``<meta>``
charset: a declaration wins, as in a browser), then, with nothing declared,
:func:`_undeclared_encoding` (UTF-16 without a BOM, UTF-8, else the legacy encoding chardet
detects in the page's text: :func:`detected_encoding`, ``docs/charsets.md``).  A declared charset that
does not fit the bytes (it produces replacement characters where strict UTF-8 decoding
succeeds) is overridden by UTF-8.  UTF-8 bytes (declared so, or valid UTF-8 with nothing
declared) skip the decode: libxml2 reads them directly.

libxml2 silently drops everything nested deeper than 2048 elements.  When it reports that
limit, the page is rebuilt with the standard library's tokenizer feeding lxml's
``TreeBuilder``, which has no depth limit, so no content is lost to deep nesting.
"""

from __future__ import annotations

import html.parser
import re
import threading
from collections import Counter
from functools import lru_cache
from urllib.parse import urljoin, urlsplit

import numpy as np
from lxml import etree
from w3lib.encoding import html_body_declared_encoding, html_to_unicode, http_content_type_encoding, resolve_encoding

__all__ = [
    "EmptyDocument",
    "correct_declared_encoding",
    "absolute_url",
    "decode_html",
    "detected_encoding",
    "detection_sample",
    "displayed_text",
    "document_base_url",
    "markup_argument",
    "parse_html",
    "sniff_binary",
    "storable_url",
    "xpath",
]

# Magic numbers of formats that are sometimes served as text/html.
_BINARY_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "pdf"),
    (b"\x89PNG", "png"),
    (b"GIF8", "gif"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"PK\x03\x04", "zip"),
    (b"\x1f\x8b", "gzip"),
    (b"RIFF", "riff"),
    (b"\x00\x00\x01\x00", "ico"),
    (b"OggS", "ogg"),
    (b"ID3", "mp3"),
    (b"wOFF", "font"),
    (b"wOF2", "font"),
)
#: The control bytes a binary file holds and text does not (not tab, line feed, vertical tab,
#: form feed, carriage return or escape), counted by :func:`sniff_binary` as the bytes
#: ``bytes.translate`` deletes (in C, a quarter of the time of a regular expression's
#: ``findall`` on a 1 kB head).
_CONTROL_BYTES = bytes((*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20)))
#: Bytes are binary when more than 1/20 of their first kB are control bytes: random bytes
#: hold 26/256 (10%: at 1/10, 44% of random 1 kB heads passed as text), and not one of the
#: 2,617 pages of the three dev sets holds one in its first kB, in any charset.
_BINARY_ONE_IN = 20
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
#: What lxml cannot store: XML-incompatible control characters (removed, as browsers do
#: not render them; libxml2's parser keeps them, lxml's setters refuse them) and lone
#: surrogates (from text decoded with ``surrogateescape`` or JSON ``\ud800`` escapes;
#: replaced by U+FFFD; libxml2 drops the rest of the text after one).
_UNSTORABLE_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
#: Elements that have no end tag.
VOID_TAGS = frozenset(
    "area base br col embed hr img input link meta param source track wbr".split()
)


class EmptyDocument(ValueError):
    """Raised by :func:`parse_html` when the input holds no HTML to extract from.

    ``reason`` is a short machine-readable code: ``empty``, ``binary:<kind>``,
    ``unparsable``, ``too_many_elements``.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _storable_char(match: re.Match[str]) -> str:
    return "\ufffd" if match.group() >= "\ud800" else ""


def storable_text(text: str) -> str:
    """``text`` without what an lxml tree cannot hold (:data:`_UNSTORABLE_CHARS`)."""
    if _UNSTORABLE_CHARS.search(text) is None:
        return text
    return _UNSTORABLE_CHARS.sub(_storable_char, text)


#: What a URL cannot hold as it is: control characters, spaces and lone surrogates.
_URL_UNSAFE_CHARS = re.compile(r"[\x00-\x20\x7f\ud800-\udfff]")


#: Control characters that a page's text keeps from its markup (libxml2 keeps them where it
#: parses bytes, and a ``str`` page may carry them): a browser displays none of them.  The
#: outputs drop them, except vertical tab and form feed, which separate words (as Python's
#: ``str.split`` reads them) and become spaces, so text, HTML and Markdown keep the same words.
#: The noncharacters U+FDD0-U+FDEF, U+FFFE and U+FFFF go too (no text holds them; an XML
#: feed cannot), the five C1 controls windows-1252 leaves undefined, and the soft hyphen
#: (``&shy;``): a browser shows it only where it breaks a line, and in a word it splits
#: the word for every tokenizer ("inter\xadnational"); no label of the first dev half holds
#: one, though 9 of its pages do (trafilatura drops it too).
_OUTPUT_DROPPED = r"\x00-\x08\x0e-\x1f\x7f\x81\x8d\x8f\x90\x9d\xad\ufdd0-\ufdef\ufffe\uffff"
#: The other C1 controls, U+0080-U+009F: a page's ``&#150;`` (libxml2 reads it as U+0096; a
#: browser, by the HTML standard, as windows-1252's en dash) or UTF-8 read as Latin-1 and
#: encoded again ("Youâ\x80\x99re", :data:`_UTF8_READ_AS_LATIN1`).  No text means them.
_C1_CONTROLS = r"\x80-\x9f"
_OUTPUT_CONTROLS = re.compile(rf"[\x0b\x0c{_OUTPUT_DROPPED}{_C1_CONTROLS}]")
#: A UTF-8 character's bytes read one by one as Latin-1 characters: a lead (U+00C2-U+00F4)
#: and its continuations (U+0080-U+00BF).  Repaired where a continuation is a C1 control
#: (the bytes 0x80-0x9F, as in every curly quote, dash and euro sign so read): no text
#: holds those, while "Ã©" may be meant.  Not where one is U+0085, which the text output
#: has already read as a space, as Python does (so "Ã\x85" is "Ã " in every output).
_UTF8_READ_AS_LATIN1 = re.compile(r"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
_C1 = re.compile(f"[{_C1_CONTROLS}]")


def _utf8_character(match: re.Match[str]) -> str:
    """The character whose UTF-8 bytes :data:`_UTF8_READ_AS_LATIN1` matched, where a
    continuation is a C1 control and the bytes decode; else the match as it is."""
    characters = match.group()
    if _C1.search(characters) is None or "\x85" in characters:
        return characters
    try:
        return characters.encode("latin-1").decode("utf-8")
    except UnicodeDecodeError:
        return characters


#: What each control of :data:`_OUTPUT_CONTROLS` is displayed as: a C1 control as the
#: windows-1252 character of its byte (as a browser reads ``&#150;``; nothing for the five
#: it leaves undefined), vertical tab, form feed and U+0085 as a space (Python's
#: ``str.split`` reads them so, and the text output collapses them), the rest as nothing.
_DISPLAYED_CHARS = {code: bytes([code]).decode("cp1252", "ignore") for code in range(0x80, 0xA0)} | {
    0x0B: " ",
    0x0C: " ",
    0x85: " ",
}


def _displayed_char(match: re.Match[str]) -> str:
    return _DISPLAYED_CHARS.get(ord(match.group()), "")


#: A run of dropped characters between two spaces: it goes with one of them, so "a \ufffe b"
#: is "a b" in every output (the text's lines are collapsed again; the Markdown's were not).
_SPACED_DROPS = re.compile(rf" [{_OUTPUT_DROPPED}]+(?= )")


#: The characters of :data:`_OUTPUT_CONTROLS`, one by one.
_OUTPUT_CONTROL_CHARS = "".join(
    map(chr, (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0), *range(0xFDD0, 0xFDF0)))
) + "\xad\ufffe\uffff"
#: From this length on, :func:`_has_output_control` looks for each character in turn.
_LONG_TEXT = 1000


def _has_output_control(text: str) -> bool:
    """Whether ``text`` holds a character of :data:`_OUTPUT_CONTROLS`.  A long text is
    searched for each character in turn (``in``: a scan in C at memory speed, immediate for
    a character beyond the string's widest), not by the expression, which tests every
    position: on the median text output of the first dev half (7.8 kB), 15 us instead of
    39 us.  On texts under some 1000 characters (titles, metadata) the expression is faster."""
    if len(text) < _LONG_TEXT:
        return _OUTPUT_CONTROLS.search(text) is not None
    return any(char in text for char in _OUTPUT_CONTROL_CHARS)


def displayed_text(text: str) -> str:
    """``text`` as a reader should see it: without the control characters a browser does not
    display (see :data:`_OUTPUT_CONTROLS`), UTF-8 read as Latin-1 repaired and the other C1
    controls read as windows-1252 (:data:`_C1_CONTROLS`); the string itself when it has
    none of them (one search)."""
    if not _has_output_control(text):
        return text
    if _C1.search(text) is not None:
        text = _UTF8_READ_AS_LATIN1.sub(_utf8_character, text)
    return _OUTPUT_CONTROLS.sub(_displayed_char, _SPACED_DROPS.sub("", text))


def _percent_encoded(match: re.Match[str]) -> str:
    return "".join(f"%{byte:02X}" for byte in match.group().encode("utf-8", "surrogatepass"))


#: An absolute URL with a host: a scheme, "//" and a first host character.
_WITH_HOST = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#\s]")
#: Characters no host holds (WHATWG URL, "forbidden domain code point"): controls, space,
#: ``#%/:<>?@[\]^|`` and DEL (an IPv6 address's brackets are gone from ``hostname``).
_FORBIDDEN_IN_HOST = re.compile(r"[\x00-\x20#%/<>?@\[\\\]^|\x7f]")


def url_has_host(url: str | None) -> bool:
    """Whether ``url`` is absolute, with a host a browser would accept and a port that is
    one: not ``http://ex ample.com/``, ``http://a<b>.com/``, ``http://a.com:99999/``."""
    if not url or not _WITH_HOST.match(url):
        return False
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError on a port that is not one: ":99999", ":port")
    except ValueError:
        return False
    host = parts.hostname or ""
    return bool(host) and (":" in host or _FORBIDDEN_IN_HOST.search(host) is None)


def storable_url(url: str | None) -> str | None:
    """A page's URL as the library keeps it: stripped, its control characters, spaces and
    lone surrogates percent-encoded (as a browser's address bar does; neither an lxml tree
    nor UTF-8 output can hold the raw characters); ``None`` when empty."""
    if url is not None and not isinstance(url, str):
        raise TypeError(f"url must be str or None, not {type(url).__name__}")
    if not url or not url.strip():
        return None
    url = url.strip()
    return _URL_UNSAFE_CHARS.sub(_percent_encoded, url) if _URL_UNSAFE_CHARS.search(url) else url


def absolute_url(base: str | None, value: str) -> str:
    """``value`` resolved against ``base``, control characters percent-encoded (as it is
    when there is no base, it is a fragment-only, ``data:``, ``javascript:`` or
    ``mailto:`` URL, or it cannot be parsed)."""
    value = value.strip()
    if not base or not value or value.startswith(("#", "data:", "javascript:", "mailto:")):
        return value
    try:
        return storable_url(urljoin(base, value)) or value
    except ValueError:
        return value


def _parses(url: str | None) -> bool:
    if not url:
        return False
    try:
        urlsplit(url)
    except ValueError:
        return False
    return True


def document_base_url(root: etree._Element, url: str | None) -> str | None:
    """What a page's relative links resolve against (HTML standard, "document base URL"):
    the first non-empty ``<base href>`` of its ``<head>`` joined to its URL, else its URL.
    A base that gives no URL with a host where the page's URL has one (``http://ex
    ample.com/``, ``javascript:``) is passed over, as browsers do; without a URL, an
    absolute base is the base.  ``None`` when there is none, or the page's URL does not
    parse (``http://[``: links then stay as written)."""
    if url is not None and not _parses(url):
        return None
    head = next(root.iterchildren("head"), None)  # root.find("head/base"), without ElementPath
    for base in head.iterchildren("base") if head is not None else ():
        href = (base.get("href") or "").strip()
        if href:
            joined = absolute_url(url, href)
            if url_has_host(joined) if url is None or url_has_host(url) else _parses(joined):
                return joined
            break
    return url


def utf16_without_bom(head: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` if ``head`` looks like markup in that encoding
    without a BOM (mostly ASCII: every other byte NUL), else ``None``."""
    sample = head[:1024]
    if len(sample) < 8:
        return None
    for name, zeros, chars in (("utf-16-le", sample[1::2], sample[0::2]), ("utf-16-be", sample[0::2], sample[1::2])):
        if zeros.count(0) >= 0.9 * len(zeros) and chars.count(0) <= 0.1 * len(chars) and b"<" in chars:
            return name
    return None


#: The byte order marks of UTF-16 and UTF-32 (UTF-32-LE's starts as UTF-16-LE's; UTF-32-BE's
#: with two NULs).
_UTF16_32_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")


def sniff_binary(data: bytes | str) -> str | None:
    """Return the kind of binary content ``data`` looks like, or ``None`` for text."""
    head = data[:1024]
    if isinstance(head, str):
        if _CONTROL_CHARS.search(head) and len(_CONTROL_CHARS.findall(head)) > len(head) // 10:
            return "binary"
        return None
    if head.startswith((b"\xef\xbb\xbf", *_UTF16_32_BOMS)) or utf16_without_bom(head):
        return None  # a BOM, or UTF-16 without one: text
    for signature, kind in _BINARY_SIGNATURES:
        if head.startswith(signature):
            return kind
    if head and len(head) - len(head.translate(None, _CONTROL_BYTES)) > len(head) // _BINARY_ONE_IN:
        return "binary"
    return None


#: How much of a page :func:`detection_sample` reads, and how much text it keeps.
_SAMPLE_SCAN = 256 * 1024
_SAMPLE_SIZE = 16 * 1024
_SCRIPT_OR_STYLE = re.compile(rb"<(script|style)\b")
#: A tag: from "<" to the next ">", with no "<" between (linear: a "<" never closed ends
#: its match attempt at the next "<", not at the end of the page).
_TAG_BYTES = re.compile(rb"<[^<>]*>")
_SPACE_BYTES = re.compile(rb"\s+")


def detection_sample(data: bytes) -> bytes:
    """What a charset detector reads of a page: of its first 256 kB, outside scripts and
    styles, the texts between tags that hold a byte beyond ASCII, then as many bytes of its
    ASCII texts, whitespace collapsed; at most 16 kB (the page's first 16 kB when no text
    holds a byte beyond ASCII).  Markup, code and ASCII text read the same in every
    encoding a page uses: left in, a long menu pushed a Russian story out of the detector's
    first 4 kB, and chardet took the page for windows-1257; some ASCII context stays, as a
    few symbols alone (``®``, ``×``) are misread (``benchmarks/charsets.py``)."""
    head = data[:_SAMPLE_SCAN]
    lowered = head.lower()
    pieces = []
    position = 0
    while (match := _SCRIPT_OR_STYLE.search(lowered, position)) is not None:
        pieces.append(head[position : match.start()])
        close = lowered.find(b"</" + match.group(1), match.end())
        position = len(head) if close < 0 else close
    pieces.append(head[position:])
    texts = _TAG_BYTES.split(b" ".join(pieces))
    beyond_ascii = [text for text in texts if not text.isascii()]
    if not beyond_ascii:
        return data[:_SAMPLE_SIZE]
    sample = _SPACE_BYTES.sub(b" ", b" ".join(beyond_ascii)).strip()
    context = _SPACE_BYTES.sub(b" ", b" ".join(text for text in texts if text.isascii())).strip()
    sample += b" " + context[: len(sample)]
    return sample[:_SAMPLE_SIZE] if sample else data[:_SAMPLE_SIZE]


def _undeclared_encoding(data: bytes) -> str:
    """The encoding of bytes that declare none: UTF-16 without a BOM when every other byte
    is NUL; UTF-8 when they are valid UTF-8, or when they hold more valid UTF-8 characters
    beyond ASCII than invalid bytes (a page with a damaged sequence); else the legacy
    encoding :func:`detected_encoding` finds."""
    utf16 = utf16_without_bom(data)
    if utf16:
        return utf16
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", "replace")
        invalid = text.count("\ufffd")
        beyond_ascii = len(text) - len(text.encode("ascii", "ignore")) - invalid
        return "utf-8" if beyond_ascii > invalid else detected_encoding(data)
    return "utf-8"


#: How much of :func:`detection_sample` the detector reads: on the pages of
#: ``benchmarks/charsets.py``, 2, 4 and 16 kB decide alike (``docs/charsets.md``).
_DETECTION_BYTES = 4096


def detected_encoding(data: bytes) -> str:
    """The legacy encoding of a page that declares none and is not UTF-8, as chardet finds
    it in the page's text (:func:`detection_sample`), among the encodings of the web and of
    ISO 8859, each read as its superset, as browsers read them (GB2312 as GB18030,
    Shift_JIS as windows-31j, ISO-8859-1 as windows-1252); windows-1252, the HTML
    standard's fallback, when chardet finds none, or only ASCII or UTF-8.  The most accurate
    and the slowest of the three detectors measured in ``docs/charsets.md``; it runs only
    on such pages (one of the 2,617 dev pages)."""
    import chardet  # only here: 0.2 s to import, for pages that few crawls meet

    era = chardet.EncodingEra.MODERN_WEB | chardet.EncodingEra.LEGACY_ISO
    sample = detection_sample(data)[:_DETECTION_BYTES]
    found = chardet.detect(sample, encoding_era=era)["encoding"]
    encoding = resolve_encoding(found) if found else None
    if not encoding or encoding in ("ascii", "utf-8") or not _ascii_compatible(encoding):
        return "cp1252"
    return encoding


def decode_html(data: bytes, content_type: str | None = None) -> tuple[str, str]:
    """Decode HTML bytes; return ``(encoding, text)``.  A charset label that names a Python
    codec but no text encoding (``hex``, ``base64``, ``rot13``; ``idna`` and ``punycode``,
    which fail on markup) is ignored, as the HTML standard ignores a label it does not know:
    the bytes are read as declaring none (it raised ``LookupError`` or ``UnicodeError``)."""
    try:
        encoding, text = html_to_unicode(content_type, data, auto_detect_fun=_undeclared_encoding)
    except (LookupError, UnicodeError):
        return _read_as_undeclared(data)
    return correct_declared_encoding(data, encoding, text)


def _read_as_undeclared(data: bytes) -> tuple[str, str]:
    """``(encoding, text)`` of bytes whose declared charset is passed over."""
    encoding = _undeclared_encoding(data)
    return encoding, data.decode(encoding, "replace")


def correct_declared_encoding(data: bytes, encoding: str, text: str) -> tuple[str, str]:
    """Check ``text``, decoded from ``data`` with a declared ``encoding``; return
    ``(encoding, text)``, re-decoded as UTF-8 where the declaration does not fit the bytes."""
    label = encoding.lower().replace("-", "").replace("_", "")
    if label.startswith("utf16") and not data.startswith(_UTF16_32_BOMS):
        utf16 = utf16_without_bom(data)
        if utf16:  # UTF-16 without a BOM: the label is right, the byte order is the bytes'
            return utf16, data.decode(utf16, "replace")
    if label.startswith(("utf16", "utf32")) and not data.startswith(_UTF16_32_BOMS):
        # A UTF-16/32 label on bytes without a BOM is wrong (markup in those encodings
        # starts with one); the HTML standard reads such pages as UTF-8.
        return "utf-8", data.decode("utf-8", "replace")
    if not label.startswith(("utf16", "utf32")) and not _ascii_compatible(encoding):
        # EBCDIC (cp500, cp037) and the like: a page's markup is ASCII, so such a label
        # cannot be its encoding (the HTML standard knows none of them and ignores the label).
        # UTF-16 and UTF-32, read by their BOM here, are no such label.
        return _read_as_undeclared(data)
    if label != "utf8" and ("\ufffd" in text or not data.isascii()):
        # Bytes beyond ASCII that are valid UTF-8 throughout are UTF-8, whatever the label
        # says: a page in a legacy encoding is almost never valid UTF-8 (a Latin-1 "é" is
        # one byte that UTF-8 refuses), while templates that declare iso-8859-1 around
        # UTF-8 text are common (3 of the 749 pages of the WCXB dev set's first half; read
        # as declared, "’" came out as "â€™" and "•" as "Â•").
        try:
            return "utf-8", data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    return encoding, text


#: Markup every HTML page starts with, for :func:`_ascii_compatible`, and a backslash
#: escape as scripts and text hold them.
_MARKUP_PROBE = b'<!DOCTYPE html><html lang="en"><meta charset=x><p>\\u003c\\n'


@lru_cache(maxsize=64)
def _ascii_compatible(encoding: str) -> bool:
    """Whether ``encoding`` reads ASCII markup as ASCII (not so: EBCDIC code pages, and
    Python's escape codecs, ``unicode-escape``, which read ``\\u003c`` as ``<``)."""
    try:
        return _MARKUP_PROBE.decode(encoding) == _MARKUP_PROBE.decode("ascii")
    except (LookupError, UnicodeDecodeError):
        return True  # not ours to judge: the decoding already happened


#: What ``bytes.lstrip()`` removes: ASCII whitespace.
_LEADING_SPACE = re.compile(rb"[ \t\n\r\x0b\x0c]*")


def _utf8_for_libxml2(data: bytes, content_type: str | None) -> bool:
    """Whether ``data`` can go to libxml2 undecoded, as UTF-8, with the result
    :func:`decode_html` would give (saving a decode and lxml's re-encoding of a ``str``):
    no BOM, no XML declaration, and either UTF-8 declared by the HTTP header or else the
    ``<meta>`` charset (invalid bytes then become U+FFFD both ways, so the bytes need no
    check; libxml2 replaces a truncated sequence byte by byte where Python replaces it
    once), or nothing declared and the bytes valid UTF-8 (what :func:`decode_html` detects)."""
    start = _LEADING_SPACE.match(data).end()  # data.lstrip(), without copying the page
    if data.startswith((b"\xef\xbb\xbf", *_UTF16_32_BOMS)) or data[start : start + 5].lower() == b"<?xml":
        return False
    declared = (content_type and http_content_type_encoding(content_type)) or html_body_declared_encoding(data)
    if declared is not None:
        return declared == "utf-8"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return utf16_without_bom(data) is None


#: The parsers of this thread, by encoding: one parse at a time per thread, so each
#: thread reuses its own (lxml parsers are not to be shared between threads).  Reuse saves
#: setting up libxml2's parser context on every page, 3% of the parse on the WCXB dev
#: pages; each parse starts with an empty error log.
_PARSERS = threading.local()


def _parser(encoding: str | None = None) -> etree.HTMLParser:
    parsers: dict[str | None, etree.HTMLParser] = _PARSERS.__dict__
    parser = parsers.get(encoding)
    if parser is None:
        parser = parsers[encoding] = etree.HTMLParser(
            encoding=encoding,
            remove_comments=True,
            remove_pis=True,
            huge_tree=True,
            no_network=True,
            default_doctype=False,
            collect_ids=False,
        )
    return parser


class _TreeBuilderFeeder(html.parser.HTMLParser):
    """Stdlib tokenizer feeding lxml's TreeBuilder: no depth limit, no recursion."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.builder = etree.TreeBuilder()
        self.open: list[str] = ["html"]
        self.open_count: Counter[str] = Counter()  # open elements by tag, "html" excluded
        self.builder.start("html", {})

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "html" or not _is_xml_name(tag):
            return  # a name lxml cannot hold (``<o:p>``, ``<fb:like>``): its content stays
        clean = {k: (v or "") for k, v in attrs if _is_xml_name(k)}
        self.builder.start(tag, clean)
        if tag in VOID_TAGS:
            self.builder.end(tag)
        else:
            self.open.append(tag)
            self.open_count[tag] += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID_TAGS and tag != "html":
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open_count[tag]:
            return  # stray end tag
        while len(self.open) > 1:
            name = self.open.pop()
            self.open_count[name] -= 1
            self.builder.end(name)
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        self.builder.data(data)

    def close_tree(self) -> etree._Element:
        self.close()
        while self.open:
            self.builder.end(self.open.pop())
        return self.builder.close()


_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>")
_XML_NAME = re.compile(r"^[A-Za-z_][\w.\-]*$")


def _is_xml_name(name: str) -> bool:
    return bool(_XML_NAME.match(name))


def _parse_without_depth_limit(text: str) -> etree._Element:
    feeder = _TreeBuilderFeeder()
    feeder.feed(storable_text(text))
    return feeder.close_tree()


def _adopt_content_after_html(root: etree._Element) -> None:
    """Move what follows ``</html>`` into ``<body>``, as a browser does (HTML's "after
    after body" insertion mode hands it to "in body").  libxml2 instead puts it in a
    second ``<html>`` beside the first, out of the page: 19 of the 749 pages of the WCXB
    dev set's first half have one, and on some (a ``</body></html>`` after the site's
    header) it holds the whole article."""
    body = root.find("body")
    if body is None:
        body = etree.SubElement(root, "body")
    for sibling in list(root.itersiblings()):
        if not isinstance(sibling.tag, str):
            continue  # comments and processing instructions after the document
        if sibling.tag == "html":
            _append_text(body, sibling.text)  # text straight after "</html>"
            for part in list(sibling):
                if part.tag in ("head", "body"):  # containers only: their content goes in
                    _append_text(body, part.text)
                    body.extend(list(part))
                else:
                    body.append(part)
        else:
            body.append(sibling)


def _append_text(element: etree._Element, text: str | None) -> None:
    """Add ``text`` at the end of ``element``'s content (its last child's tail); made
    storable, as libxml2's parser keeps control characters that lxml's setters refuse."""
    if not text:
        return
    if len(element):
        last = element[-1]
        last.tail = storable_text((last.tail or "") + text)
    else:
        element.text = storable_text((element.text or "") + text)


def xpath(expression: str, *, smart_strings: bool = True) -> etree.XPath:
    """``expression`` compiled by lxml without EXSLT's regular-expression functions
    (``regexp=False``: no expression of ours uses them), which lxml otherwise registers at
    every evaluation: ``string()`` of a paragraph in 1.28 us instead of 1.79 us."""
    return etree.XPath(expression, smart_strings=smart_strings, regexp=False)


def _count_elements(root: etree._Element) -> int:
    return int(_COUNT_ELEMENTS(root))


def _tag_openings(source: str | bytes) -> int:
    """How many "<" the markup holds: at least one a parsed element.  Bytes are counted
    over a NumPy view, a third of ``bytes.count``'s time (every second first-half dev
    page, 350 kB on average: 21-33 ms against 65-96 ms in all)."""
    if isinstance(source, bytes):
        return int(np.count_nonzero(np.frombuffer(source, np.uint8) == ord("<")))
    return source.count("<")


_COUNT_ELEMENTS = xpath("count(//*)")


def markup_argument(value: object, function: str, argument: str) -> str | bytes:
    """``value`` as markup: a ``str``, or ``bytes`` (a ``bytearray`` or ``memoryview`` is
    copied to ``bytes``); ``TypeError`` naming ``function``'s ``argument`` for anything else."""
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise TypeError(
        f"{function}() argument {argument!r} must be str or a bytes-like object (bytes, bytearray, memoryview), "
        f"not {type(value).__name__}"
    )


def _blank(data: str | bytes) -> bool:
    """``not data.strip()``, without copying ``data``."""
    return not data or data.isspace()


def parse_html(
    data: str | bytes | bytearray | memoryview, *, content_type: str | None = None, max_elements: int = 0
) -> etree._Element:
    """Parse a page into the root ``<html>`` element of an lxml tree.

    Raises :class:`EmptyDocument` for empty, whitespace-only or binary input, and for a
    page of more than ``max_elements`` elements (``too_many_elements``; ``0``: no limit;
    crawls set ``CETD_MAX_ELEMENTS``); ``TypeError`` for input that is neither text nor
    bytes-like.
    """
    data = markup_argument(data, "parse_html", "data")
    kind = sniff_binary(data)
    if kind:
        raise EmptyDocument(f"binary:{kind}")
    source = data
    # ``isspace`` rather than ``strip``: the same test (both read the same whitespace),
    # stopping at the first other character, where ``strip`` copies the page.
    if isinstance(source, bytes) and not _blank(source) and not _utf8_for_libxml2(source, content_type):
        source = decode_html(source, content_type)[1]
    if _blank(source):
        raise EmptyDocument("empty")
    if isinstance(source, str):
        source = _XML_DECLARATION.sub("", source, count=1)
    parser = _parser("utf-8" if isinstance(source, bytes) else None)
    try:
        root = etree.fromstring(source, parser)
    except (etree.XMLSyntaxError, ValueError):
        root = None
    if isinstance(source, str) and any(entry.type_name == "ERR_INVALID_ENCODING" for entry in parser.error_log):
        # A lone surrogate: libxml2 drops the rest of the text after it.  Parse again
        # without them (a scan of every page for them would cost a tenth of the parse).
        source = storable_text(source)
        parser = _parser()
        try:
            root = etree.fromstring(source, parser)
        except (etree.XMLSyntaxError, ValueError):
            root = None
    if any(entry.type_name == "ERR_RESOURCE_LIMIT" for entry in parser.error_log):
        text = source.decode("utf-8") if isinstance(source, bytes) else source
        root = _parse_without_depth_limit(text)
    if root is None:
        raise EmptyDocument("unparsable")
    if root.getnext() is not None:
        _adopt_content_after_html(root)
    # The tree is counted (in C, before the page model is built) only where the markup
    # holds more "<" than the limit (no page of the dev set), and these are counted only
    # where it is longer than twice the limit: an element takes three characters at least
    # ("<a>"; libxml2 creates none for a "<" not closed, and for no markup more than one
    # per three characters), so shorter markup cannot hold more elements than the limit.
    if max_elements and len(source) > 2 * max_elements and _tag_openings(source) > max_elements:
        if _count_elements(root) > max_elements:
            raise EmptyDocument("too_many_elements")
    return root
