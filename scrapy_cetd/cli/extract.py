"""``scrapy-cetd extract FILE...``: print the main content of HTML files (``.gz`` too, ``-``
for stdin) as text, cleaned HTML, Markdown or JSON, with every option of
:func:`scrapy_cetd.extract`."""

from __future__ import annotations

import argparse
import errno
import gzip
import json
import re
import sys
import zlib
from typing import Any

from ..api import DEFAULT_ALGORITHM, extract
from ..extraction import Extraction
from ..limits import DEFAULT_MAX_SIZE
from ..parsing import storable_url
from ..registry import get_algorithm
from .common import PARAM_HELP, PROG, CommandError, checked_params, error, size

__all__ = ["EXIT_STATUS", "add_extract_command"]

_BAD_INPUT_REASONS = ("empty", "unparsable", "binary")


class _TooLarge(zlib.error):
    """Input, or gzip input once expanded, past ``--max-size``."""


def _gunzip(data: bytes, limit: int) -> bytes:
    """Decompress every gzip member of ``data``, stopping once the output passes ``limit``
    bytes (0: no limit; a small file can expand to gigabytes)."""
    out = bytearray()
    while data:
        member = zlib.decompressobj(wbits=31)
        out += member.decompress(data, limit + 1 - len(out) if limit else 0)
        if limit and len(out) > limit:
            raise _TooLarge(f"gzip data expands to more than {limit:,} bytes (--max-size {limit})")
        if not member.eof:
            raise EOFError("Compressed file ended before the end-of-stream marker was reached")
        data = member.unused_data
    return bytes(out)


def _read_input(name: str, limit: int) -> bytes:
    """The bytes of a file (``-``: stdin), gunzipped when they are gzip; either is read up to
    ``limit`` bytes and no further (``/dev/zero`` is too large, not a memory error; 0: no limit)."""
    if name == "-":
        if sys.stdin is None:  # started with its standard input closed
            raise OSError(errno.EBADF, "no standard input (it is closed)")
        data = sys.stdin.buffer.read(limit + 1 if limit else -1)
    else:
        with open(name, "rb") as file:
            data = file.read(limit + 1 if limit else -1)
    if limit and len(data) > limit:
        raise _TooLarge(f"larger than {limit:,} bytes (--max-size {limit})")
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, limit)
    return data


#: What a file name holds for bytes that are not UTF-8 (Python's ``surrogateescape``).
_UNDECODED_BYTES = re.compile("[\ud800-\udfff]")


def _shown_name(name: str) -> str:
    """``name`` as the output shows it: each byte that is not UTF-8 as U+FFFD, as in the
    page's outputs (a UTF-8 stdout cannot write it; a JSON line must be UTF-8)."""
    return _UNDECODED_BYTES.sub("\ufffd", name)


def _read_error(exc: Exception) -> str:
    if isinstance(exc, _TooLarge):
        return str(exc)
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    if isinstance(exc, (EOFError, zlib.error, gzip.BadGzipFile)):
        return f"broken gzip data ({exc})"
    return str(exc) or type(exc).__name__


# Why an HTML page gave no text, by Extraction.reason (api._run), for the stderr note.
_EMPTY_REASONS = {
    "no-text": "the page's <body> holds no text (a head-only page, or one whose text a script writes)",
    "frameset": "a frameset page: its content is in the frame documents, extract those",
    "nothing-selected": "the algorithm selected nothing on this page; "
    "try another --algorithm or a lower --threshold-coefficient",
}


def _why_empty(reason: str | None) -> str:
    return _EMPTY_REASONS.get(reason or "", "the extraction is empty")



_REQUESTED_OUTPUTS = {"diagnostics": "diagnostics", "markdown": "with_markdown", "comments": "with_comments"}


def _json_record(label: str, result: Extraction, args: argparse.Namespace, error: str | None = None) -> str:
    record = {"file": label, **result.to_dict()}
    for key, option in _REQUESTED_OUTPUTS.items():
        if not getattr(args, option):
            del record[key]
    if error is not None:
        record["error"] = error
    return json.dumps(record, ensure_ascii=False)


def _failed(label: str, reason: str, message: str, coefficient: float, args: argparse.Namespace) -> int:
    """An input that gave no extraction: one error line, and in JSON its record (every input
    gets one) with the reason and the error; the exit status (1)."""
    error(f"{label}: {message}")
    if args.format == "json":
        empty = Extraction(
            text="", html="", title=None, algorithm=args.algorithm, threshold=None,
            threshold_coefficient=coefficient, url=storable_url(args.url), reason=reason,
        )
        print(_json_record(label, empty, args, message))
    return 1


def _extract_command(args: argparse.Namespace) -> int:
    params = checked_params(args)
    if args.format != "json" and (args.with_markdown or args.with_comments):
        raise CommandError("--with-markdown and --with-comments add fields to --format json records")
    coefficient, _ = get_algorithm(args.algorithm).resolve(args.threshold_coefficient, params)
    status = 0
    headers = len(args.files) > 1 and args.format != "json"
    printed = False
    for name in args.files:
        label = "<stdin>" if name == "-" else _shown_name(name)
        try:
            data = _read_input(name, args.max_size)
        except (OSError, EOFError, zlib.error) as exc:
            status = _failed(label, "unreadable", _read_error(exc), coefficient, args)
            continue
        try:
            result = extract(
                data,
                algorithm=args.algorithm,
                url=args.url,
                threshold_coefficient=args.threshold_coefficient,
                content_type=args.content_type,
                diagnostics=args.diagnostics,
                with_markdown=args.format == "markdown" or args.with_markdown,
                with_comments=args.with_comments,
                with_htmldate=args.htmldate,
                max_size=0,  # the file was read up to --max-size
                **params,
            )
        except Exception as exc:  # one page's failure is its own: the next file is read
            status = _failed(label, "error", f"extraction failed ({type(exc).__name__}: {exc})", coefficient, args)
            continue
        if result.reason and result.reason.startswith(_BAD_INPUT_REASONS):
            error(f"{label}: no HTML to extract from ({result.reason})")
            status = 1
        elif not result.text:
            print(f"{PROG}: {label}: nothing extracted ({result.reason}): {_why_empty(result.reason)}", file=sys.stderr)
            status = 1
        if args.format == "json":  # JSON gets every record, an empty one with its reason
            print(_json_record(label, result, args))
            continue
        if not result.text:
            continue
        if headers:
            print(("\n" if printed else "") + f"==> {label} <==")
            printed = True
        output = {"text": result.text, "html": result.html, "markdown": result.markdown}[args.format]
        if output:
            print(output)
    return status



EXIT_STATUS = """\
exit status of extract:
  0  every file gave text
  1  some file gave none: unreadable, too large, not HTML (empty, binary, broken gzip),
     its extraction failed, or nothing extracted; one line on stderr says which file and
     why, the other files are still processed (with --format json every file still gets
     its record, "text" empty, "reason" saying why, and "error" for a file that could not
     be read or extracted)
  2  usage error (unknown algorithm, option out of range, ...)"""

JSON_RECORD = """\
--format json: one record (a line) per file, in order: "file", "text", "html",
  "title", "algorithm", "threshold", "threshold_coefficient", "url", "reason" (why
  "text" is empty, else null; "unreadable" with "error" for a file that could not be
  read) and "metadata"; "diagnostics", "markdown" and "comments" only when asked for
  (--diagnostics, --with-markdown, --with-comments)."""


def add_extract_command(commands: Any) -> None:
    """Add the ``extract`` sub-command to the CLI's sub-parsers."""
    ex = commands.add_parser(
        "extract",
        help="print the main content of HTML files",
        description="Print the main content of HTML files (gzip or not; - reads stdin) as text,\n"
        "cleaned HTML or JSON.",
        epilog="examples:\n"
        "  scrapy-cetd extract page.html other.html.gz\n"
        "  scrapy-cetd extract page.html --format json --diagnostics\n\n" + JSON_RECORD + "\n\n" + EXIT_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ex.add_argument("files", nargs="+", metavar="FILE", help="HTML file, gzip or not; - for stdin")
    ex.add_argument("-a", "--algorithm", default=DEFAULT_ALGORITHM, help=f"default {DEFAULT_ALGORITHM}")
    ex.add_argument("-c", "--threshold-coefficient", type=float, metavar="X", help="default: the algorithm's")
    ex.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE", help=PARAM_HELP)
    ex.add_argument("-f", "--format", choices=("text", "html", "markdown", "json"), default="text", help="default text")
    ex.add_argument("--url", help="the page's URL (kept in the result)")
    ex.add_argument("--content-type", help="HTTP Content-Type header, for the charset")
    ex.add_argument(
        "--max-size", type=size, default=DEFAULT_MAX_SIZE, metavar="BYTES",
        help=f"refuse a file larger than this, or gzip data that expands past it (default {DEFAULT_MAX_SIZE >> 20}m, "
        "as a crawl's CETD_MAX_SIZE; 0: no limit)",
    )
    ex.add_argument(
        "--diagnostics", action="store_true", help="add the algorithm's numbers and per-node table to the JSON record"
    )
    ex.add_argument(
        "--with-markdown", action="store_true", help="add the Markdown (\"markdown\") to the JSON record"
    )
    ex.add_argument(
        "--with-comments", action="store_true",
        help="add the page's comment section (\"comments\", never part of the text; found by cetd-plus) "
        "to the JSON record",
    )
    ex.add_argument(
        "--htmldate", action="store_true",
        help="ask htmldate (the 'metadata' extra) for the publish date where the metadata's own sources find none",
    )
    ex.set_defaults(handler=_extract_command)
