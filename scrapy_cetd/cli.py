"""The ``scrapy-cetd`` command line.

- ``scrapy-cetd extract FILE...``: print the main content of HTML files (``.gz`` too, ``-``
  for stdin) as text, cleaned HTML or JSON, with every option of :func:`scrapy_cetd.extract`.
- ``scrapy-cetd evaluate DATASET_DIR``: score algorithms (and installed peers) on a WCXB or
  article-extraction-benchmark directory; prints a markdown table, ``--json`` keeps all.
- ``scrapy-cetd tradeoff DATASET_DIR --out plot.png``: precision/recall/F1 against the
  threshold coefficient, plotted (needs matplotlib: the ``plot`` extra).
- ``scrapy-cetd warc FILE... -o OUT``: re-extract WARC archives to JSON Lines or Parquet
  (``scrapy_cetd.warc``, docs/archives.md).
- ``scrapy-cetd algorithms``: the registered algorithms with their options.
"""

from __future__ import annotations

import argparse
import errno
import gzip
import json
import math
import re
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .api import DEFAULT_ALGORITHM, extract
from .extraction import Extraction
from .parsing import storable_url
from .registry import algorithm_names, get_algorithm

__all__ = ["main"]

PROG = "scrapy-cetd"
# Extraction reasons that mean the input held no HTML at all (see parsing.EmptyDocument).
_BAD_INPUT_REASONS = ("empty", "unparsable", "binary")


class CommandError(Exception):
    """A user error: printed as one line on stderr, exit status 2."""


def _error(message: str) -> None:
    print(f"{PROG}: error: {message}", file=sys.stderr)


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise CommandError(f"{text!r} is not a number") from None
    if math.isnan(value):
        raise CommandError(f"{text!r} is not a number")
    return value


def _parse_param(text: str) -> tuple[str | None, str, int | float]:
    """``[ALGORITHM:]name=value`` -> ``(algorithm or None, name, number)``."""
    target, sep, value = text.partition("=")
    if not sep or not target:
        raise CommandError(f"--param {text!r}: expected name=value")
    algorithm, colon, name = target.rpartition(":")
    try:
        number = _number(value)
    except CommandError as exc:
        raise CommandError(f"--param {text!r}: {exc}") from None
    return (algorithm if colon else None), name, number


# --- extract -----------------------------------------------------------------------------


class _TooLarge(zlib.error):
    """Input, or gzip input once expanded, past the crawl's size limit (``CETD_MAX_SIZE``'s default)."""


def _gunzip(data: bytes, limit: int) -> bytes:
    """Decompress every gzip member of ``data``, stopping once the output passes ``limit``
    bytes (a small file can expand to gigabytes)."""
    out = bytearray()
    while data:
        member = zlib.decompressobj(wbits=31)
        out += member.decompress(data, limit + 1 - len(out))
        if len(out) > limit:
            raise _TooLarge(f"gzip data expands to more than {limit:,} bytes (the crawl's CETD_MAX_SIZE)")
        if not member.eof:
            raise EOFError("Compressed file ended before the end-of-stream marker was reached")
        data = member.unused_data
    return bytes(out)


def _read_input(name: str) -> bytes:
    """The bytes of a file (``-``: stdin), gunzipped when they are gzip; either is read up to
    the crawl's size limit and no further (``/dev/zero`` is too large, not a memory error)."""
    from .settings import DEFAULT_MAX_SIZE

    if name == "-":
        if sys.stdin is None:  # started with its standard input closed
            raise OSError(errno.EBADF, "no standard input (it is closed)")
        data = sys.stdin.buffer.read(DEFAULT_MAX_SIZE + 1)
    else:
        with open(name, "rb") as file:
            data = file.read(DEFAULT_MAX_SIZE + 1)
    if len(data) > DEFAULT_MAX_SIZE:
        raise _TooLarge(f"larger than {DEFAULT_MAX_SIZE:,} bytes (the crawl's CETD_MAX_SIZE)")
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, DEFAULT_MAX_SIZE)
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


def _checked_params(args: argparse.Namespace) -> dict[str, Any]:
    """The ``--param`` values of a one-algorithm command (``extract``, ``warc``), checked
    against ``--algorithm`` and ``--threshold-coefficient`` before any input is read."""
    params: dict[str, Any] = {}
    for text in args.param:
        algorithm, name, value = _parse_param(text)
        if algorithm not in (None, args.algorithm):
            raise CommandError(f"--param {text!r} names another algorithm than {args.algorithm!r}")
        params[name] = value
    try:
        get_algorithm(args.algorithm).resolve(args.threshold_coefficient, params)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    return params


#: Outputs a JSON record has only when asked for, by the option that asks (``--diagnostics``,
#: ``--with-markdown``, ``--with-comments``): a key with an empty value would read as "none found".
_REQUESTED_OUTPUTS = {"diagnostics": "diagnostics", "markdown": "with_markdown", "comments": "with_comments"}


def _json_record(label: str, result: Extraction, args: argparse.Namespace, error: str | None = None) -> str:
    record = {"file": label, **result.to_dict()}
    for key, option in _REQUESTED_OUTPUTS.items():
        if not getattr(args, option):
            del record[key]
    if error is not None:
        record["error"] = error
    return json.dumps(record, ensure_ascii=False)


def _failed(label: str, reason: str, error: str, coefficient: float, args: argparse.Namespace) -> int:
    """An input that gave no extraction: one error line, and in JSON its record (every input
    gets one) with the reason and the error; the exit status (1)."""
    _error(f"{label}: {error}")
    if args.format == "json":
        empty = Extraction(
            text="", html="", title=None, algorithm=args.algorithm, threshold=None,
            threshold_coefficient=coefficient, url=storable_url(args.url), reason=reason,
        )
        print(_json_record(label, empty, args, error))
    return 1


def _extract_command(args: argparse.Namespace) -> int:
    params = _checked_params(args)
    if args.format != "json" and (args.with_markdown or args.with_comments):
        raise CommandError("--with-markdown and --with-comments add fields to --format json records")
    coefficient, _ = get_algorithm(args.algorithm).resolve(args.threshold_coefficient, params)
    status = 0
    headers = len(args.files) > 1 and args.format != "json"
    printed = False
    for name in args.files:
        label = "<stdin>" if name == "-" else _shown_name(name)
        try:
            data = _read_input(name)
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
                max_size=0,  # the file was read up to the crawl's CETD_MAX_SIZE
                **params,
            )
        except Exception as exc:  # one page's failure is its own: the next file is read
            status = _failed(label, "error", f"extraction failed ({type(exc).__name__}: {exc})", coefficient, args)
            continue
        if result.reason and result.reason.startswith(_BAD_INPUT_REASONS):
            _error(f"{label}: no HTML to extract from ({result.reason})")
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


# --- evaluate and tradeoff -----------------------------------------------------------------


def _load_pages(args: argparse.Namespace) -> tuple[Any, list[Any]]:
    from .evaluation.datasets import DatasetError, load_dataset, select_pages

    try:
        dataset = load_dataset(args.dataset)
    except (DatasetError, OSError, json.JSONDecodeError) as exc:
        raise CommandError(str(exc)) from None
    if dataset.missing_html:
        shown = ", ".join(dataset.missing_html[:5]) + (" ..." if len(dataset.missing_html) > 5 else "")
        print(f"{PROG}: warning: {len(dataset.missing_html)} page(s) without HTML skipped: {shown}", file=sys.stderr)
    try:
        pages = select_pages(
            dataset.pages,
            ids_from=args.ids_from,
            ids_to=args.ids_to,
            split=args.split,
            page_types=args.page_type,
            limit=args.limit,
        )
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    if not pages:
        raise CommandError(f"{args.dataset}: no pages selected")
    return dataset, pages


def _algorithm_list(values: Sequence[str]) -> list[str]:
    names: list[str] = []
    for value in values:
        for name in value.split(","):
            name = name.strip()
            if not name:
                continue
            for resolved in algorithm_names() if name == "all" else [name]:
                if resolved not in names:
                    names.append(resolved)
    for name in names:
        try:
            get_algorithm(name)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
    return names


def _algorithm_params(names: Sequence[str], texts: Sequence[str]) -> dict[str, dict[str, int | float]]:
    """``--param`` values per algorithm: ``ALGO:name=value`` for one, ``name=value`` for
    every selected algorithm that has a parameter of that name."""
    params: dict[str, dict[str, int | float]] = {name: {} for name in names}
    for text in texts:
        algorithm, name, value = _parse_param(text)
        targets = [algorithm] if algorithm else [a for a in names if name in get_algorithm(a).params]
        if algorithm and algorithm not in params:
            raise CommandError(f"--param {text!r}: {algorithm!r} is not among the evaluated algorithms")
        if not targets:
            raise CommandError(f"--param {text!r}: no evaluated algorithm has a parameter {name!r}")
        for target in targets:
            params[target][name] = value
    return params


def _evaluate_metadata(args: argparse.Namespace) -> int:
    """``evaluate --metadata``: title, author and date against the labels, beside trafilatura."""
    from .evaluation.metadata import evaluate_metadata, metadata_report, write_metadata_json

    dataset, pages = _load_pages(args)
    if dataset.layout != "wcxb":
        raise CommandError(f"{args.dataset}: --metadata needs a WCXB dataset (title, author, publish_date labels)")
    scores = evaluate_metadata(dataset.root, pages, peers=args.peers or "trafilatura" in args.peer, jobs=args.jobs)
    sys.stdout.write(metadata_report(scores))
    if args.json:
        write_metadata_json(scores, args.json)
    return 0


def _evaluate_command(args: argparse.Namespace) -> int:
    if args.metadata:
        return _evaluate_metadata(args)
    from .evaluation.datasets import DatasetError
    from .evaluation.peers import PEERS, available_peers
    from .evaluation.report import markdown_report, write_json
    from .evaluation.runner import Extractor, run_evaluation

    names = _algorithm_list(args.algorithm)
    params = _algorithm_params(names, args.param)
    if args.markdown:
        return _markdown_evaluation(args, names, params)
    try:
        extractors = [Extractor.algorithm(n, args.threshold_coefficient, params[n], args.with_html) for n in names]
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    unknown = [p for p in args.peer if p not in PEERS]
    if unknown:
        raise CommandError(f"unknown peer(s) {', '.join(unknown)}; choose from: {', '.join(PEERS)}")
    wanted = list(PEERS) if args.peers else list(dict.fromkeys(args.peer))
    if wanted:
        installed = available_peers()
        for peer in wanted:
            if peer in installed:
                extractors.append(Extractor.peer(peer))
            else:
                print(f"{PROG}: note: peer {peer} is not installed; skipped", file=sys.stderr)
    if not extractors:
        raise CommandError("nothing to evaluate")
    dataset, pages = _load_pages(args)
    selection = {
        key: getattr(args, key)
        for key in ("ids_from", "ids_to", "split", "page_type", "limit")
        if getattr(args, key) not in (None, [])
    }
    try:
        run = run_evaluation(
            pages,
            extractors,
            metric=dataset.metric,
            dataset=str(dataset.root),
            layout=dataset.layout,
            jobs=args.jobs,
            timer=args.timer,
            selection=selection,
        )
    except DatasetError as exc:
        raise CommandError(str(exc)) from None
    sys.stdout.write(markdown_report(run))
    if args.json:
        write_json(run, args.json)
    return 0


def _markdown_evaluation(args: argparse.Namespace, names: list[str], params: dict[str, dict[str, Any]]) -> int:
    """``evaluate --markdown``: the Markdown output's headings, list items and table rows
    against the gold ``main_content_markdown`` (:mod:`scrapy_cetd.evaluation.markdown`)."""
    from .evaluation.markdown import markdown_report, score_markdown

    if args.threshold_coefficient is not None:
        params = {name: {**p, "threshold_coefficient": args.threshold_coefficient} for name, p in params.items()}
    dataset, pages = _load_pages(args)
    selection = {key: getattr(args, key) for key in ("split", "page_type", "limit") if getattr(args, key)}
    scores = score_markdown(pages, [(name, params[name]) for name in names], jobs=args.jobs)
    sys.stdout.write(markdown_report(scores, str(dataset.root), selection))
    if args.json:
        Path(args.json).write_text(json.dumps([s.to_dict() for s in scores], indent=2), encoding="utf-8")
    return 0


def _check_plot_path(path: Path) -> None:
    """Fail before the sweep, not after it, when the plot cannot be written."""
    from matplotlib.figure import Figure

    formats = Figure().canvas.get_supported_filetypes()
    if path.suffix.lstrip(".").lower() not in formats:
        raise CommandError(f"--out {path}: unknown image format; use one of: {', '.join(sorted(formats))}")
    if not path.parent.is_dir():
        raise CommandError(f"--out {path}: no such directory {path.parent}")


def _tradeoff_command(args: argparse.Namespace) -> int:
    from .evaluation.datasets import DatasetError
    from .evaluation.tradeoff import DEFAULT_COEFFICIENTS, plot_tradeoff, require_matplotlib, sweep

    try:
        require_matplotlib()
    except RuntimeError as exc:
        raise CommandError(str(exc)) from None
    _check_plot_path(Path(args.out))
    try:
        spec = get_algorithm(args.algorithm)
    except ValueError as exc:
        raise CommandError(f"{exc} (tradeoff takes one algorithm)") from None
    params = _algorithm_params([spec.name], args.param)[spec.name]
    if args.coefficients:
        try:
            coefficients = [float(_number(c)) for c in args.coefficients.split(",") if c.strip()]
        except CommandError as exc:
            raise CommandError(f"--coefficients: {exc}") from None
    else:
        coefficients = [c for c in DEFAULT_COEFFICIENTS if c <= spec.max_coefficient]
    try:
        for coefficient in coefficients:
            spec.resolve(coefficient, params)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    dataset, pages = _load_pages(args)
    use_lcs = args.metric == "lcs"
    try:
        points = sweep(
            pages, spec.name, coefficients, params=params, metric=dataset.metric, use_lcs=use_lcs, jobs=args.jobs
        )
    except DatasetError as exc:
        raise CommandError(str(exc)) from None
    metric_name = "LCS word-sequence" if use_lcs else {"word": "word-bag", "shingle": "4-gram shingle"}[dataset.metric]
    options = "".join(f", {k}={v}" for k, v in sorted(params.items()))
    kinds = f"{'/'.join(args.page_type)} " if args.page_type else ""
    title = f"{spec.name}{options}: {metric_name} P/R/F1, {Path(dataset.root).name} ({len(pages)} {kinds}pages)"
    plot_tradeoff(points, args.out, title=title, default_coefficient=spec.default_coefficient)
    print(title)
    print()
    print("| coefficient | P | R | F1 |")
    print("| ---: | ---: | ---: | ---: |")
    for point in points:
        s = point.scores
        print(f"| {point.coefficient:g} | {s.precision:.3f} | {s.recall:.3f} | {s.f1:.3f} |")
    if args.json:
        data = {
            "dataset": str(dataset.root),
            "algorithm": spec.name,
            "params": params,
            "metric": "lcs" if use_lcs else dataset.metric,
            "pages": len(pages),
            "points": [{"coefficient": p.coefficient, **vars(p.scores)} for p in points],
        }
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"\nplot written to {args.out}", file=sys.stderr)
    return 0


# --- algorithms --------------------------------------------------------------------------


def _algorithms_command(args: argparse.Namespace) -> int:
    for name in algorithm_names():
        spec = get_algorithm(name)
        limit = "" if math.isinf(spec.max_coefficient) else f", at most {spec.max_coefficient:g}"
        default = " (default)" if name == DEFAULT_ALGORITHM else ""
        print(f"{name}{default}: {spec.summary}")
        print(f"    paper: {spec.paper}")
        print(f"    --threshold-coefficient: default {spec.default_coefficient:g}{limit}")
        for param_name, param in spec.params.items():
            kind = "whole number" if param.integer else "number"
            print(f"    --param {param_name}=VALUE: {kind} in [{param.minimum:g}, {param.maximum:g}], "
                  f"default {param.default:g}. {param.doc}".rstrip())
    return 0


# --- parser ------------------------------------------------------------------------------


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _selection_options() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    group = parent.add_argument_group("page selection (pages in sorted id order, steps applied in this order)")
    group.add_argument("--ids-from", metavar="ID", help="first page id to include")
    group.add_argument("--ids-to", metavar="ID", help="last page id to include")
    group.add_argument("--page-type", action="append", default=[], metavar="TYPE", help="only this page type (repeat)")
    group.add_argument(
        "--split", choices=("first-half", "second-half"), help="first ceil(n/2) pages selected so far, or the rest"
    )
    group.add_argument("--limit", type=_positive_int, metavar="N", help="the first N pages selected so far")
    parent.add_argument("-j", "--jobs", type=_positive_int, default=1, metavar="N", help="worker processes (default 1)")
    return parent


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

EXAMPLES = f"""\
examples:
  scrapy-cetd extract page.html                     the main text of a saved page
  scrapy-cetd extract page.html.gz -f html          cleaned HTML (gzip is detected)
  scrapy-cetd extract *.html -f json > pages.jsonl  one JSON record per file
  curl -s https://example.com/a | scrapy-cetd extract - --url https://example.com/a
  scrapy-cetd extract page.html -a cepr-setpr -c 0.8 -p beta=2
  scrapy-cetd warc crawl.warc.gz -o corpus.parquet  re-extract the pages of a WARC archive
  scrapy-cetd algorithms                            the algorithms, their options, the default
  scrapy-cetd evaluate wcxb-dev -a cetd-plus cectd-ds --peers --jobs 2
  scrapy-cetd tradeoff wcxb-dev -a cectd-ds -o tradeoff.png

The default algorithm is {DEFAULT_ALGORITHM}. 'scrapy-cetd COMMAND --help' gives each command's options.

{EXIT_STATUS}"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Main-content extraction: the article text (or cleaned HTML) of web pages,\n"
        "without menus, ads, related links and footers.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    param_help = "an algorithm parameter (repeat); see 'scrapy-cetd algorithms'"
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
    ex.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE", help=param_help)
    ex.add_argument("-f", "--format", choices=("text", "html", "markdown", "json"), default="text", help="default text")
    ex.add_argument("--url", help="the page's URL (kept in the result)")
    ex.add_argument("--content-type", help="HTTP Content-Type header, for the charset")
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
    ex.set_defaults(handler=_extract_command)

    selection = _selection_options()
    ev = commands.add_parser(
        "evaluate",
        parents=[selection],
        help="score algorithms on a labelled dataset",
        description="Score algorithms on a WCXB or article-extraction-benchmark directory (detected).",
    )
    ev.add_argument("dataset", metavar="DATASET_DIR")
    ev.add_argument(
        "-a", "--algorithm", nargs="+", default=[DEFAULT_ALGORITHM], metavar="A",
        help="algorithm names (or 'all' for every registered one)",
    )
    ev.add_argument(
        "--peers", action="store_true",
        help="add every installed peer: trafilatura, readability(-lxml), justext, resiliparse",
    )
    ev.add_argument("--peer", action="append", default=[], metavar="PEER", help="add this peer if installed (repeat)")
    ev.add_argument("-c", "--threshold-coefficient", type=float, metavar="X", help="for every algorithm")
    ev.add_argument(
        "-p", "--param", action="append", default=[], metavar="[ALGO:]NAME=VALUE",
        help="a parameter for ALGO, or for every evaluated algorithm that has it (repeat)",
    )
    ev.add_argument(
        "--timer", choices=("cpu", "wall"), default="cpu",
        help="time shown in the table: CPU time of the worker (default; robust to a busy machine) or wall time; "
        "the JSON has both",
    )
    ev.add_argument(
        "--with-html",
        action="store_true",
        help="time each algorithm with its cleaned HTML rendered too (default: the text only, which is what is "
        "scored and what the peers produce)",
    )
    ev.add_argument(
        "--markdown",
        action="store_true",
        help="score the Markdown output's structure instead: headings, list items and table rows against the "
        "gold main_content_markdown (precision and recall; WCXB)",
    )
    ev.add_argument(
        "--metadata", action="store_true",
        help="score the metadata (title, author, date) instead of the text; with --peers, beside trafilatura's",
    )
    ev.add_argument("--json", metavar="OUT", help="write everything, per page included, to this JSON file")
    ev.set_defaults(handler=_evaluate_command)

    tr = commands.add_parser(
        "tradeoff",
        parents=[selection],
        help="plot precision/recall/F1 against the threshold coefficient",
        description="Precision/recall/F1 against the threshold coefficient (seed papers' Figures 5, 6, 9).",
    )
    tr.add_argument("dataset", metavar="DATASET_DIR")
    tr.add_argument("-a", "--algorithm", default=DEFAULT_ALGORITHM, help=f"default {DEFAULT_ALGORITHM}")
    tr.add_argument("-o", "--out", required=True, metavar="PLOT", help="image file to write (.png, .svg, ...)")
    tr.add_argument("--coefficients", metavar="X,Y,...", help="default 0,0.1,...,2 (up to the algorithm's maximum)")
    tr.add_argument(
        "--metric", choices=("dataset", "lcs"), default="dataset",
        help="the dataset's own metric (default) or the seed papers' LCS word-sequence metric",
    )
    tr.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE", help=param_help)
    tr.add_argument("--json", metavar="OUT", help="also write the points as JSON")
    tr.set_defaults(handler=_tradeoff_command)

    from .warc.command import add_warc_command  # the warc sub-command (docs/archives.md)

    add_warc_command(commands, _positive_int, param_help)

    al = commands.add_parser(
        "algorithms", help="list the registered algorithms, their papers and options; marks the default"
    )
    al.set_defaults(handler=_algorithms_command)
    return parser


def _take_files_after_options(parser: argparse.ArgumentParser, args: argparse.Namespace, rest: list[str]) -> None:
    """``extract page.html --format json other.html``: argparse gives the files before the
    options to ``files`` and leaves the ones after them over; they are files too.  Anything
    else left over is a usage error, as ``parse_args`` makes it."""
    if args.command == "extract" and not any(arg.startswith("-") and arg != "-" for arg in rest):
        args.files.extend(rest)
    else:
        parser.error("unrecognized arguments: " + " ".join(rest))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 some input failed, 2 usage)."""
    parser = build_parser()
    try:
        args, rest = parser.parse_known_args(argv)
        if rest:
            _take_files_after_options(parser, args, rest)
    except SystemExit as exc:  # --help, --version, usage errors
        return exc.code if isinstance(exc.code, int) else 0
    try:
        return int(args.handler(args))
    except CommandError as exc:
        _error(str(exc))
        return 2
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. | head): stop quietly
        return 1
    except KeyboardInterrupt:
        return 130
