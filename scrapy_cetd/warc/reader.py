"""Reading WARC files record by record, with recovery from damaged data, and splitting
them into units of work (a file, or a byte range of its gzip members).

FastWARC parses the WARC framing (gzip or plain; measured about twice as fast as warcio
on the dev pages, docs/archives.md); the HTTP message inside a record is parsed here, so
a broken HTTP header is one skipped record.  A damaged gzip member (a corrupt or cut
deflate stream) costs that record only: reading resumes at the next member that
decompresses to a WARC record; in a plain WARC file, a record whose Content-Length is wrong
costs that record only: reading resumes at the next line starting ``WARC/1.``.
"""

from __future__ import annotations

import io
import os
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from gzip import GzipFile
from pathlib import Path
from typing import Any, BinaryIO

__all__ = [
    "BodyDecodeError", "ReadIssue", "Record", "Unit", "WarcFileError", "decode_body", "iter_records",
    "require_fastwarc", "split_units",
]

GZIP_MAGIC = b"\x1f\x8b\x08"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_DIGITS = re.compile(r"[0-9]+\Z")
#: A WARC header longer than this is damaged data (FastWARC refuses long ones too).
_MAX_HEADER = 16 * 1024 * 1024
_STATUS_LINE = re.compile(rb"^HTTP/\d(?:\.\d)? +(\d{3})(?: .*)?$")
_HEADER_NAME = re.compile(rb"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
#: A member is accepted as a resume point after this much of it decompresses to a WARC header.
_PROBE = 256 * 1024
#: The first read when looking for something near an offset; reads then double (so damaged
#: data among small records costs reads of about their size, not a megabyte each).
_FIRST_READ = 4096
_CHUNK_SIZE_LINE = re.compile(rb"^([0-9A-Fa-f]{1,16})[ \t]*(?:;.*)?$")
#: Decompressed bodies are read in pieces this large (Scrapy's ``_CHUNK_SIZE``).
_PIECE = 64 * 1024
#: Bound of a decompressed body when there is no ``max_size``: Scrapy's ``DOWNLOAD_MAXSIZE`` default.
DECOMPRESSED_MAX_SIZE = 1024**3


class WarcFileError(Exception):
    """A file that cannot be read as WARC at all (missing, empty, not a WARC)."""


@dataclass(frozen=True)
class Unit:
    """A unit of work: the records of ``path`` whose gzip member starts in ``[start, end)``
    (``end`` ``None``: to the end of the file)."""

    path: str
    start: int = 0
    end: int | None = None


@dataclass
class Record:
    """One WARC record: its WARC headers and its block (for HTTP records, the HTTP message)."""

    offset: int
    headers: dict[str, str]
    block: bytes

    @property
    def type(self) -> str:
        return self.headers.get("WARC-Type", "")


@dataclass
class ReadIssue:
    """Damaged data met while reading: ``kind`` is ``corrupt_gzip`` (gzip data that does not
    decompress), ``corrupt`` (a WARC record that does not parse, in sound gzip data or a
    plain file) or ``truncated`` (the file ends in a record)."""

    kind: str
    offset: int
    message: str


def require_fastwarc() -> None:
    """``RuntimeError`` saying how to install FastWARC when it is missing."""
    try:
        import fastwarc  # noqa: F401
    except ImportError:
        raise RuntimeError("reading WARC files needs FastWARC: pip install 'scrapy-cetd[warc]'") from None


def is_gzip(path: str | Path) -> bool:
    with open(path, "rb") as file:
        return file.read(3) == GZIP_MAGIC


def _member_is_record(data: bytes) -> bool:
    """Whether ``data`` starts a gzip member that decompresses (as far as given) to a WARC header."""
    try:
        out = zlib.decompressobj(31).decompress(data, 16)
    except zlib.error:
        return False
    return out.startswith(b"WARC/")


def _inflate_member(file: BinaryIO, offset: int) -> tuple[bytes, int | None]:
    """The first bytes (up to 5) that the gzip member at ``offset`` decompresses to, and the
    offset where it ends (``None``: cut short, corrupt, or not a WARC record)."""
    file.seek(offset)
    inflater = zlib.decompressobj(31)
    head = b""
    read = 0
    size = _FIRST_READ
    try:
        while not inflater.eof:
            chunk = file.read(size)
            size = min(2 * size, _PROBE)
            if not chunk:
                return head, None
            read += len(chunk)
            while chunk and not inflater.eof:  # in bounded pieces, as _record_stream
                out = inflater.decompress(chunk, _PIECE)
                chunk = inflater.unconsumed_tail
                if len(head) < 5:
                    head += out[: 5 - len(head)]
                    if len(head) == 5 and not head.startswith(b"WARC/"):
                        return head, None
    except zlib.error:
        return head, None
    return head, offset + read - len(inflater.unused_data)


def _member_decompresses(file: BinaryIO, offset: int) -> bool:
    """Whether the gzip member at ``offset`` decompresses to its end, into a WARC record."""
    head, end = _inflate_member(file, offset)
    return end is not None and head.startswith(b"WARC/")


def _record_end(file: BinaryIO, start: int, content_length: int, gzipped: bool) -> int | None:
    """Where the record at ``start`` ends: its gzip member's end, or (plain WARC) its header,
    the blank line, the block and the two line ends after it; ``None`` when it is cut."""
    if gzipped:
        return _inflate_member(file, start)[1]
    file.seek(start)
    header, size = b"", _FIRST_READ
    while True:
        chunk = file.read(size)
        header += chunk
        blank = header.find(b"\r\n\r\n")
        if blank >= 0:
            return start + blank + 4 + content_length + 4
        if not chunk or len(header) >= _PROBE:
            return None
        size = min(2 * size, _PROBE)


def next_member(file: BinaryIO, offset: int, verify: bool = True) -> int | None:
    """The offset of the first gzip member at or after ``offset`` that holds a WARC record."""
    position = offset
    size = _FIRST_READ  # growing: a member nearby costs a small read
    while True:
        file.seek(position)
        window = file.read(size)
        if not window:
            return None
        index = window.find(GZIP_MAGIC)
        while index != -1:
            candidate = position + index
            file.seek(candidate)
            if _member_is_record(file.read(4096)) and (not verify or _member_decompresses(file, candidate)):
                return candidate
            index = window.find(GZIP_MAGIC, index + 1)
        if len(window) < size:
            return None
        position += len(window) - len(GZIP_MAGIC) + 1
        size = min(2 * size, 1 << 20)


def _unread_tail(
    file: BinaryIO, unit: Unit, empty_from: int | None, last: tuple[int, int] | None, gzipped: bool
) -> ReadIssue | None:
    """Damaged data at the end of a unit that FastWARC ends on without a word: bytes after
    the last whole record (or, in a unit without records, from ``empty_from``) that do not
    make a record, such as a gzip member cut within its first line."""
    end = unit.end if unit.end is not None else os.fstat(file.fileno()).st_size
    if empty_from is not None:
        tail = empty_from
    elif last is not None:
        record_end = _record_end(file, last[0], last[1], gzipped)
        if record_end is None:
            return None  # the last record's own end is cut (its gzip trailer): it was read whole
        tail = record_end
    else:
        return None  # the unit ended in damaged data, already reported
    file.seek(tail)
    position = tail
    while position < end:  # whitespace after the last record is no damage
        chunk = file.read(min(end - position, 1 << 16))
        if not chunk:
            break
        if chunk.strip():
            return ReadIssue("truncated", tail, f"{end - tail} bytes after the last record are no whole record")
        position += len(chunk)
    return None


def split_units(path: str | Path, size: int) -> list[Unit]:
    """``path`` as units of about ``size`` bytes, cut at gzip member boundaries (a plain WARC
    file is one unit)."""
    path = str(path)
    total = Path(path).stat().st_size
    if size <= 0 or total <= size or not is_gzip(path):
        return [Unit(path)]
    starts = [0]
    with open(path, "rb") as file:
        for cut in range(size, total, size):
            if cut <= starts[-1]:
                continue
            start = next_member(file, cut, verify=False)
            if start is None:
                break
            if start > starts[-1]:
                starts.append(start)
    return [Unit(path, start, end) for start, end in zip(starts, [*starts[1:], None])]


def parse_http_response(block: bytes) -> tuple[int, list[tuple[bytes, bytes]], bytes] | None:
    """``(status, headers, body)`` of an HTTP response message, ``None`` if its header is broken."""
    end = block.find(b"\r\n\r\n")
    skip = 4
    if end == -1:
        end, skip = block.find(b"\n\n"), 2
        if end == -1:
            return None
    lines = block[:end].replace(b"\r\n", b"\n").split(b"\n")
    match = _STATUS_LINE.match(lines[0])
    if match is None:
        return None
    headers: list[tuple[bytes, bytes]] = []
    for line in lines[1:]:
        if line[:1] in (b" ", b"\t") and headers:  # obsolete line folding
            name, value = headers[-1]
            headers[-1] = (name, value + b" " + line.strip())
            continue
        name, colon, value = line.partition(b":")
        if not colon or not _HEADER_NAME.match(name):
            return None
        headers.append((name, value.strip()))
    return int(match.group(1)), headers, block[end + skip :]


def _next_plain_record(file: BinaryIO, offset: int) -> int | None:
    """The offset of the first line at or after ``offset`` that starts a WARC/1.x record
    header in a plain WARC file (one pass over the bytes, in windows)."""
    marker = b"\nWARC/1."
    position = max(offset - 1, 0)
    size = _FIRST_READ  # growing: a record nearby costs a small read
    while True:
        file.seek(position)
        window = file.read(size)
        index = window.find(marker)
        if index != -1:
            return position + index + 1
        if len(window) < size:
            return None
        position += len(window) - len(marker) + 1
        size = min(2 * size, 1 << 20)


def _record_stream(file: BinaryIO, start: int, gzipped: bool) -> Iterator[bytes]:
    """The bytes of the record at ``start`` and on: the file's (plain), or its gzip member's,
    decompressed in pieces of at most :data:`_PIECE` bytes (a megabyte of deflate data can
    hold a gigabyte)."""
    file.seek(start)
    inflater = zlib.decompressobj(31) if gzipped else None
    size = _FIRST_READ
    while True:
        raw = file.read(size)
        size = min(2 * size, 1 << 20)
        if not raw:
            return
        if inflater is None:
            yield raw
            continue
        while raw:
            yield inflater.decompress(raw, _PIECE)
            if inflater.eof:
                return
            raw = inflater.unconsumed_tail


def _ends_as_declared(file: BinaryIO, start: int, length: int, gzipped: bool) -> bool:
    """Whether the record at ``start`` ends where its Content-Length says: its block is
    followed by the two line ends (inside its gzip member).  A record in the middle of a
    gzip stream (no member starts at ``start``) cannot be checked and counts as ending so."""
    if gzipped:
        file.seek(start)
        if not _member_is_record(file.read(4096)):
            return True
    head = bytearray()
    block_end: int | None = None  # offset of the block's end in the record
    offset = 0  # record bytes before ``piece``
    trailer = b""
    try:
        for piece in _record_stream(file, start, gzipped):
            if block_end is None:
                head += piece
                header_end = head.find(b"\r\n\r\n")
                if header_end < 0:
                    if len(head) > _MAX_HEADER:
                        return False
                    continue
                block_end = header_end + 4 + length
                piece, head = bytes(head), bytearray()
            if offset + len(piece) > block_end:
                trailer += piece[max(block_end - offset, 0) : block_end + 4 - offset]
                if len(trailer) >= 4:
                    return trailer == b"\r\n\r\n"
            offset += len(piece)
    except zlib.error:
        pass
    return False


def iter_records(unit: Unit, max_size: int = 0) -> Iterator[Record | ReadIssue]:
    """The records of a unit, in order, and :class:`ReadIssue` for damaged data.

    Raises :class:`WarcFileError` when the file cannot be opened or does not start as a
    WARC file.  A record whose block is larger than ``max_size`` (0: no limit) comes with
    an empty block and ``headers["X-Skipped"] = "too_large"``: its body is never read.

    A record is handed on once the record after it parses (or the unit ends): a record
    whose Content-Length is wrong (the next record's header is then not where it says) is
    reported ``corrupt``, never an item holding bytes of the next record.  After damaged
    data, reading resumes at the next gzip member holding a WARC record, or (plain WARC)
    at the next line starting ``WARC/1.``.
    """
    from fastwarc import ArchiveIterator

    path = unit.path
    try:
        file = open(path, "rb")  # noqa: SIM115 (closed below)
    except OSError as exc:
        raise WarcFileError(f"{path}: {exc.strerror or exc}") from None
    with file:
        if unit.start == 0:
            head = file.read(64)
            if not head:
                raise WarcFileError(f"{path}: empty file, not a WARC file")
            if head.startswith(GZIP_MAGIC):
                if not _member_is_record(head + file.read(4096)):
                    raise WarcFileError(f"{path}: gzip data that is not a WARC file")
            elif head.startswith(ZSTD_MAGIC):
                raise WarcFileError(f"{path}: zstd-compressed data, which is not supported: "
                                    "decompress it first (zstd -d), or recompress it with gzip")
            elif not head.startswith(b"WARC/"):
                raise WarcFileError(f"{path}: not a WARC file (it starts with {head[:16]!r})")
        gzipped = is_gzip(path)
        position = unit.start
        seen = 0
        #: The last record read whole, as (offset, content length); None after damaged data.
        last: tuple[int, int] | None = None
        while True:
            file.seek(position)
            current = position
            produced = False  # a record or an issue since reading (re)started at ``position``
            pending: Record | None = None  # read whole; handed on once the next record parses
            cut = False  # the failure: a block shorter than its Content-Length
            try:
                for record in ArchiveIterator(file, parse_http=False):
                    if pending is not None:
                        yield pending
                        pending = None
                    current = record.stream_pos  # absolute: FastWARC counts from the file's start
                    if unit.end is not None and current >= unit.end:
                        return
                    produced = True
                    last = None
                    if "Content-Length" not in record.headers:
                        # FastWARC yields a record whose header was cut (the file ends in it)
                        # with what it read: no Content-Length, which every record has.
                        yield ReadIssue("truncated", current, "record header cut short (no Content-Length)")
                        continue
                    declared = record.headers["Content-Length"].strip()
                    length = record.content_length
                    if not _DIGITS.match(declared) or int(declared) != length:
                        failure = f"invalid Content-Length {declared[:40]!r}"
                        break
                    headers = dict(record.headers)
                    if max_size and length > max_size:
                        headers["X-Skipped"] = "too_large"
                        block = b""
                    else:
                        block = record.reader.read()
                        if len(block) < length:
                            failure, cut = f"record cut short ({len(block)} of {length} bytes)", True
                            break
                    seen += 1
                    last = (current, length)
                    pending = Record(current, headers, block)
                else:
                    # A block skipped unread (too large) may claim more bytes than the file has.
                    if pending is None or "X-Skipped" not in pending.headers or _ends_as_declared(
                        file, pending.offset, last[1] if last is not None else 0, gzipped
                    ):
                        if pending is not None:
                            yield pending
                        issue = _unread_tail(file, unit, None if produced else position, last, gzipped)
                        if issue is not None:
                            yield issue
                        return
                    failure, cut = f"Content-Length {last[1] if last else 0} runs past the end of the file", True
                    pending = None
            except OSError as exc:
                if current == unit.start and seen == 0 and unit.start == 0 and not gzipped:
                    raise WarcFileError(f"{path}: not a WARC file ({exc})") from None
                failure = str(exc)
            # Damaged data: the record at ``current``, or what follows the whole record before it.
            at = current
            if pending is not None:
                length = last[1] if last is not None else 0
                if _ends_as_declared(file, pending.offset, length, gzipped):
                    yield pending
                    at = _record_end(file, pending.offset, length, gzipped) or pending.offset
                else:
                    failure = f"Content-Length {length} does not end the record ({failure})"
                pending = None
            last = None
            resume = next_member(file, at + 1) if gzipped else _next_plain_record(file, at + 1)
            if resume is not None and unit.end is not None and resume >= unit.end:
                resume = None
            if cut and resume is None:
                kind = "truncated"  # the file ends in the record
            elif gzipped and not _member_decompresses(file, at):
                kind = "corrupt_gzip"
            else:
                kind = "corrupt"  # the gzip data is sound, the WARC record in it is not
            skipped = f"resumed at byte {resume}" if resume is not None else "rest of the file skipped"
            yield ReadIssue(kind, at, f"{failure}; {skipped}")
            if resume is None:
                return
            position = resume


class BodyDecodeError(Exception):
    """A body whose ``Content-Encoding`` cannot be undone: ``reason`` is ``too_large`` (it
    decompresses past the size limit) or ``content_encoding`` (corrupt compressed data)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def dechunk(body: bytes) -> bytes:
    """The payload of a body sent with ``Transfer-Encoding: chunked`` (RFC 9112, 7.1).

    Lenient as warcio's reader is: a body that does not start with a chunk-size line was
    stored de-chunked (some archivers keep the header) and is returned as it is; a chunk-size
    line that does not parse later ends de-chunking, the rest is kept as it is; a body cut
    short gives the chunks it holds.  Chunk extensions and trailer fields are dropped.
    """
    parts: list[bytes] = []
    position, size = 0, len(body)
    while position < size:
        line_end = body.find(b"\n", position, position + 1024)
        match = _CHUNK_SIZE_LINE.match(body[position:line_end].rstrip(b"\r")) if line_end != -1 else None
        if match is None:
            if not parts:
                return body
            parts.append(body[position:])
            break
        length = int(match.group(1), 16)
        if length == 0:
            break
        start = line_end + 1
        parts.append(body[start : start + length])
        position = start + length
        if body.startswith(b"\r\n", position):
            position += 2
        elif body.startswith(b"\n", position):
            position += 1
    return b"".join(parts)


def _checked(size: int, max_size: int) -> None:
    if size > max_size:
        raise BodyDecodeError("too_large", f"decompresses to more than {max_size} bytes")


def _gunzip(data: bytes, max_size: int) -> bytes:
    """As Scrapy's ``scrapy.utils.gz.gunzip``: every member, and what decompressed before a
    corrupt or cut end (a CRC error included)."""
    source = GzipFile(fileobj=io.BytesIO(data))
    out = io.BytesIO()
    while True:
        try:
            piece = source.read1(_PIECE)
        except (OSError, EOFError, zlib.error):
            if out.tell():
                break
            raise
        if not piece:
            break
        out.write(piece)
        _checked(out.tell(), max_size)
    return out.getvalue()


def _inflate(data: bytes, max_size: int) -> bytes:
    """As Scrapy's ``_inflate``: zlib-wrapped deflate, else raw deflate (some servers send it)."""
    inflater = zlib.decompressobj()
    try:
        piece = inflater.decompress(data, _PIECE)
    except zlib.error:
        inflater = zlib.decompressobj(-15)
        piece = inflater.decompress(data, _PIECE)
    out = io.BytesIO()
    out.write(piece)
    _checked(out.tell(), max_size)
    while inflater.unconsumed_tail and not inflater.eof:
        out.write(inflater.decompress(inflater.unconsumed_tail, _PIECE))
        _checked(out.tell(), max_size)
    return out.getvalue()


def _unbrotli(data: bytes, max_size: int) -> bytes:
    try:
        import brotli
    except ImportError:
        import brotlicffi as brotli  # type: ignore[no-redef]
    decompressor = brotli.Decompressor()
    out = io.BytesIO()
    out.write(decompressor.process(data, output_buffer_limit=_PIECE))
    _checked(out.tell(), max_size)
    while not decompressor.is_finished():
        piece = decompressor.process(b"", output_buffer_limit=_PIECE)
        if not piece:
            break
        out.write(piece)
        _checked(out.tell(), max_size)
    return out.getvalue()


def _zstd_module() -> Any:
    try:
        from compression import zstd  # type: ignore[import-not-found]  # Python 3.14
    except ImportError:
        from backports import zstd  # type: ignore[import-not-found,no-redef]
    return zstd


def _unzstd(data: bytes, max_size: int) -> bytes:
    source = _zstd_module().ZstdFile(io.BytesIO(data))
    out = io.BytesIO()
    while True:
        try:
            piece = source.read(_PIECE)
        except EOFError:  # cut short: what decompressed so far, as Scrapy
            break
        if not piece:
            break
        out.write(piece)
        _checked(out.tell(), max_size)
    return out.getvalue()


def _importable(*names: str) -> bool:
    for name in names:
        try:
            __import__(name)
        except ImportError:
            continue
        return True
    return False


_DECODERS = {b"gzip": _gunzip, b"x-gzip": _gunzip, b"deflate": _inflate, b"br": _unbrotli, b"zstd": _unzstd}
_MODULES = {b"br": ("brotli", "brotlicffi"), b"zstd": ("compression.zstd", "backports.zstd")}
#: The content codings undone: Scrapy's ``HttpCompressionMiddleware``'s (``br`` and ``zstd``
#: when their modules are installed, as Scrapy 2.19 installs them).
CONTENT_CODINGS = tuple(name for name in _DECODERS if name not in _MODULES or _importable(*_MODULES[name]))


def _codings(headers: list[tuple[bytes, bytes]], name: bytes) -> list[bytes]:
    """The codings a header lists (every instance, comma separated), lower case, in order."""
    return [
        coding.strip().lower()
        for header, value in headers
        if header.lower() == name
        for coding in value.split(b",")
        if coding.strip()
    ]


def decode_body(
    headers: list[tuple[bytes, bytes]], body: bytes, max_size: int = 0
) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of an HTTP response as the crawl's HTTP client and Scrapy's
    ``HttpCompressionMiddleware`` hand them on, from the wire bytes that wget, warcprox and
    warcio store: chunks joined (:func:`dechunk`), then content codings undone from the last
    one applied while they are known (:data:`CONTENT_CODINGS`), each bounded by ``max_size``
    bytes of output (0: :data:`DECOMPRESSED_MAX_SIZE`).  ``Transfer-Encoding`` is dropped
    once de-chunked, ``Content-Encoding`` keeps the codings not undone.

    A body that does not decompress but is text was stored decoded by its archiver (with
    the header kept): it is taken as it is, as warcio takes a body that does not decompress.
    Raises :class:`BodyDecodeError` for a body past the bound or corrupt compressed data.
    """
    if _codings(headers, b"transfer-encoding")[-1:] == [b"chunked"]:
        body = dechunk(body)
        headers = [(n, v) for n, v in headers if n.lower() != b"transfer-encoding"]
    codings = [coding for coding in _codings(headers, b"content-encoding") if coding != b"identity"]
    if not codings:
        return headers, body
    limit = max_size or DECOMPRESSED_MAX_SIZE
    while codings and codings[-1] in CONTENT_CODINGS:
        coding = codings.pop()
        try:
            body = _DECODERS[coding](body, limit)
        except BodyDecodeError:
            raise
        except Exception as exc:  # zlib.error, OSError, EOFError, brotli.error, zstd's ZstdError, ...
            from ..parsing import sniff_binary

            if body.strip() and not sniff_binary(body):
                codings = []  # stored decoded
                break
            raise BodyDecodeError("content_encoding", f"{coding.decode()}: {exc}") from None
    headers = [(n, v) for n, v in headers if n.lower() != b"content-encoding"]
    if codings:
        headers.append((b"Content-Encoding", b", ".join(codings)))
    return headers, body
