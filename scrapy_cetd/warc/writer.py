"""Writing WARC/1.1 files: one gzip member per record, rotation by size.

Records follow the WARC/1.1 specification (ISO 28500:2017): a ``warcinfo`` record opens
each file; each HTTP exchange is a ``request`` record and a ``response`` record linked by
``WARC-Concurrent-To``, with ``WARC-Block-Digest`` and ``WARC-Payload-Digest`` (SHA-1,
base32, as wget and warcio write them).  Each record is its own gzip member, so a reader
can seek to any record and a damaged member costs only that record.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import gzip
import hashlib
import os
import time
import uuid
from collections.abc import Iterable
from datetime import datetime, timezone
from http import HTTPStatus
from pathlib import Path
from typing import BinaryIO
from urllib.parse import urlsplit

from .. import __version__

try:
    import fcntl
except ImportError:  # Windows: no lock (docs/scaling.md)
    fcntl = None  # type: ignore[assignment]

__all__ = ["WarcFileWriter", "exchange_records", "http_request_block", "http_response_block", "warc_record"]

CRLF = b"\r\n"


def _digest(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


def warc_date(moment: datetime | None = None) -> str:
    """``WARC-Date`` in WARC/1.1's form: UTC, ISO 8601, microseconds."""
    moment = moment or datetime.now(timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def record_id() -> str:
    return f"<urn:uuid:{uuid.uuid4()}>"


def warc_record(
    record_type: str,
    block: bytes,
    *,
    content_type: str,
    target_uri: str | None = None,
    date: str | None = None,
    id_: str | None = None,
    payload_offset: int | None = None,
    extra: Iterable[tuple[str, str]] = (),
) -> bytes:
    """One uncompressed WARC/1.1 record (header, block, two CRLFs).

    ``payload_offset`` is where the HTTP payload starts in ``block`` (after the HTTP header),
    for ``WARC-Payload-Digest``.
    """
    headers = [
        ("WARC-Type", record_type),
        ("WARC-Record-ID", id_ or record_id()),
        ("WARC-Date", date or warc_date()),
    ]
    if target_uri is not None:
        headers.append(("WARC-Target-URI", target_uri))
    headers.extend(extra)
    headers.append(("WARC-Block-Digest", _digest(block)))
    if payload_offset is not None:
        headers.append(("WARC-Payload-Digest", _digest(block[payload_offset:])))
    headers += [("Content-Type", content_type), ("Content-Length", str(len(block)))]
    head = b"WARC/1.1\r\n" + b"".join(f"{name}: {value}".encode() + CRLF for name, value in headers)
    return head + CRLF + block + CRLF + CRLF


def _header_lines(headers: Iterable[tuple[bytes, bytes]]) -> bytes:
    return b"".join(name + b": " + value + CRLF for name, value in headers)


def http_request_block(method: str, target: str, headers: Iterable[tuple[bytes, bytes]], body: bytes) -> bytes:
    """An HTTP/1.1 request message (``target``: path and query)."""
    return f"{method} {target} HTTP/1.1".encode() + CRLF + _header_lines(headers) + CRLF + body


#: Headers that describe the bytes on the wire, not the decoded payload the archive holds.
#: They are kept under ``X-Crawler-`` names, as Common Crawl's WARC files do.
WIRE_HEADERS = (b"content-encoding", b"transfer-encoding", b"content-length")


def http_response_block(
    status: int, headers: Iterable[tuple[bytes, bytes]], body: bytes, protocol: str = "HTTP/1.1"
) -> tuple[bytes, int]:
    """An HTTP response message for a decoded ``body``; returns it and the payload's offset.

    ``Content-Encoding``, ``Transfer-Encoding`` and ``Content-Length`` are renamed
    ``X-Crawler-...`` and a ``Content-Length`` of the decoded body is added, so readers
    (warcio, FastWARC, pywb) read the payload as it is stored, without decoding it again.
    """
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = ""
    kept: list[tuple[bytes, bytes]] = []
    for name, value in headers:
        if name.lower() in WIRE_HEADERS:
            name = b"X-Crawler-" + name
        kept.append((name, value))
    kept.append((b"Content-Length", str(len(body)).encode()))
    head = f"{protocol} {status} {reason}".rstrip().encode() + CRLF + _header_lines(kept) + CRLF
    return head + body, len(head)


def exchange_records(
    url: str,
    status: int,
    response_headers: Iterable[tuple[bytes, bytes]],
    body: bytes,
    *,
    method: str = "GET",
    request_headers: Iterable[tuple[bytes, bytes]] = (),
    request_body: bytes = b"",
    protocol: str = "HTTP/1.1",
    ip_address: str | None = None,
) -> tuple[bytes, bytes]:
    """The ``request`` and ``response`` records of one HTTP exchange (``body`` decoded)."""
    date = warc_date()
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    headers = [(b"Host", parts.netloc.encode())] + [(n, v) for n, v in request_headers if n.lower() != b"host"]
    request_id = record_id()
    request = warc_record(
        "request",
        http_request_block(method, target, headers, request_body),
        content_type="application/http;msgtype=request",
        target_uri=url,
        date=date,
        id_=request_id,
    )
    block, payload_offset = http_response_block(status, response_headers, body, protocol)
    extra = [("WARC-Concurrent-To", request_id)]
    if ip_address:
        extra.append(("WARC-IP-Address", ip_address))
    response = warc_record(
        "response",
        block,
        content_type="application/http;msgtype=response",
        target_uri=url,
        date=date,
        payload_offset=payload_offset,
        extra=extra,
    )
    return request, response


class WarcFileWriter:
    """Writes gzipped records to ``path``; past ``max_size`` bytes it opens the next file.

    Files are ``path`` itself, then ``name-00001.warc.gz``, ``name-00002.warc.gz``, ...
    beside it (``max_size`` 0: one file).  Each file starts with a ``warcinfo`` record.

    Two processes never write one file: a writer holds an exclusive lock (``flock``) on the
    file it writes, from the moment it takes it to its close, and passes over a name that
    is locked (another crawl is writing it) or was written since this writer was made
    (another crawl wrote it and has finished): its records go to the first of these names
    that is free.  An older file (a previous crawl's) is replaced, unless ``keep_existing``
    (a crawl resumed from its job directory): then every existing file is passed over.  A
    file taken is emptied only when the first record is written to it, so a crawl that
    archives nothing leaves an existing file as it was (and removes an empty one it made).
    """

    def __init__(
        self, path: str | Path, max_size: int = 0, info: dict[str, str] | None = None, *, keep_existing: bool = False
    ) -> None:
        self.path = Path(path)
        self.max_size = max_size
        self.keep_existing = keep_existing
        self.info = {"software": f"scrapy-cetd/{__version__}", "format": "WARC File Format 1.1", **(info or {})}
        self._serial = 0
        #: Files written to (the one taken but not yet written to is not among them).
        self.files: list[Path] = []
        #: The names passed over to take the last file (in use by, or written by, another crawl).
        self.passed_over: list[Path] = []
        self.records = 0
        self.bytes_written = 0
        self._file: BinaryIO | None = None
        self._taken: Path | None = None
        self._written = False
        self._size = 0
        #: A file written since this moment is another crawl's: never replaced.
        self._started_ns = time.time_ns()

    def _name(self, serial: int) -> Path:
        if serial == 0:
            return self.path
        name = self.path.name
        for suffix in (".warc.gz", ".warc"):
            if name.endswith(suffix):
                return self.path.with_name(f"{name[: -len(suffix)]}-{serial:05d}{suffix}")
        return self.path.with_name(f"{name}-{serial:05d}")

    def _claim(self, path: Path) -> BinaryIO | None:
        """``path`` opened (not emptied) and locked, or ``None`` if another crawl has it."""
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o666)
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(fd)
                    return None
                except OSError:  # a file system without locks: go on unlocked
                    pass
            state = os.fstat(fd)
            try:
                current = os.stat(path)
            except FileNotFoundError:
                current = None
            if current is None or (current.st_dev, current.st_ino) != (state.st_dev, state.st_ino):
                os.close(fd)  # removed or replaced between the open and the lock: try again
                return self._claim(path)
            if state.st_size and (self.keep_existing or state.st_mtime_ns >= self._started_ns):
                os.close(fd)
                return None
            return os.fdopen(fd, "wb")
        except BaseException:
            with contextlib.suppress(OSError):
                os.close(fd)
            raise

    def open(self) -> Path:
        """Take the next free file now (locked, not yet written to) and return it; a path
        that cannot be written raises ``OSError`` here.  :meth:`write` calls it when needed."""
        self.close()
        self.passed_over = []
        while True:
            path = self._name(self._serial)
            self._serial += 1
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except FileExistsError as exc:  # a file where a folder should be
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), exc.filename) from None
            file = self._claim(path)
            if file is not None:
                break
            self.passed_over.append(path)
        self._file, self._taken, self._written, self._size = file, path, False, 0
        return path

    def check(self) -> None:
        """Take the first free file and let it go again, unchanged (an empty one it made is
        removed): a path that cannot be written raises ``OSError`` now, not at the first
        record.  The next :meth:`write` takes the first free file again."""
        self.open()
        self.close()
        self._serial = 0
        self.passed_over = []

    def _start_file(self) -> None:
        """The first record goes to the file taken: empty it, then its ``warcinfo`` record."""
        assert self._file is not None and self._taken is not None
        self._file.truncate(0)
        self._written = True
        self.files.append(self._taken)
        fields = "".join(f"{key}: {value}\r\n" for key, value in self.info.items()).encode()
        self._append(warc_record("warcinfo", fields, content_type="application/warc-fields", extra=[
            ("WARC-Filename", self._taken.name),
        ]))

    def _append(self, record: bytes) -> None:
        assert self._file is not None
        member = gzip.compress(record, compresslevel=6, mtime=0)
        self._file.write(member)
        self._size += len(member)
        self.bytes_written += len(member)

    def write(self, *records: bytes) -> None:
        """Write records (e.g. a request and its response) together, in the same file."""
        if self._file is None or (self.max_size and self._size >= self.max_size):
            self.open()
        if not self._written:
            self._start_file()
        for record in records:
            self._append(record)
            self.records += 1

    def close(self) -> None:
        """Close the file (its lock goes with it); an empty file taken and never written to is removed."""
        if self._file is None:
            return
        file, self._file = self._file, None
        try:
            if not self._written and self._taken is not None and os.fstat(file.fileno()).st_size == 0:
                with contextlib.suppress(OSError):
                    self._taken.unlink()  # still locked: nobody else has taken it
        finally:
            file.close()
