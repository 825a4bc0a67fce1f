"""``scrapy-cetd warc FILE... -o OUT``: re-extract WARC archives (:mod:`scrapy_cetd.warc`, docs/archives.md)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..api import DEFAULT_ALGORITHM
from ..limits import DEFAULT_MAX_SIZE
from ..outputs import OUTPUTS
from .common import PARAM_HELP, CommandError, checked_params, positive_int, size

__all__ = ["add_warc_command"]


def _fields(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    unknown = [name for name in names if name not in OUTPUTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown output(s) {', '.join(unknown)}; choose from {', '.join(OUTPUTS)}")
    return names


def add_warc_command(commands: Any) -> None:
    """Add the ``warc`` sub-command to the CLI's sub-parsers."""
    from ..warc.batch import DEFAULT_SPLIT_SIZE

    wa = commands.add_parser(
        "warc",
        help="extract the main content of every HTML response in WARC files",
        description="Re-extract WARC archives (gzip or plain): one item per HTML response record, written to "
        ".jsonl, .jsonl.gz or .parquet (by OUT's extension). Other records are skipped and counted by reason; "
        "damaged data is skipped to the next record, reported on stderr and makes the exit status 1.",
    )
    wa.add_argument("files", nargs="+", metavar="FILE", help="WARC file (.warc, .warc.gz)")
    wa.add_argument("-o", "--output", required=True, metavar="OUT", help="output file: .jsonl, .jsonl.gz, .parquet")
    wa.add_argument("-a", "--algorithm", default=DEFAULT_ALGORITHM, help=f"default {DEFAULT_ALGORITHM}")
    wa.add_argument("-c", "--threshold-coefficient", type=float, metavar="X", help="default: the algorithm's")
    wa.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE", help=PARAM_HELP)
    wa.add_argument(
        "--fields", type=_fields, default=("text", "title"), metavar="OUTPUT,...",
        help=f"extraction outputs per item, after url, warc_record_id, warc_date, status (default text,title; "
        f"any of {', '.join(OUTPUTS)})",
    )
    wa.add_argument("--diagnostics", action="store_true", help="add the diagnostics output")
    wa.add_argument(
        "--max-size", type=size, default=DEFAULT_MAX_SIZE, metavar="BYTES",
        help=f"skip records larger than this (default {DEFAULT_MAX_SIZE >> 20}m, as CETD_MAX_SIZE; 0: no limit)",
    )
    wa.add_argument("-j", "--jobs", type=positive_int, default=1, metavar="N", help="worker processes (default 1)")
    wa.add_argument(
        "--dask", metavar="tcp://HOST:PORT", help="run the units on this Dask distributed scheduler instead"
    )
    wa.add_argument(
        "--split-size", type=size, default=DEFAULT_SPLIT_SIZE, metavar="BYTES",
        help="unit of work: byte ranges of about this size of gzip-per-record files (default 16m; 0: whole files)",
    )
    wa.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress bar on stderr (default: when stderr is a terminal)")
    wa.set_defaults(handler=_warc_command)


def _warc_command(args: argparse.Namespace) -> int:
    from ..warc.batch import run_batch
    from ..warc.extract import WarcOptions

    params = checked_params(args)
    outputs = args.fields + (("diagnostics",) if args.diagnostics and "diagnostics" not in args.fields else ())
    options = WarcOptions(
        algorithm=args.algorithm,
        threshold_coefficient=args.threshold_coefficient,
        params=tuple(sorted(params.items())),
        outputs=outputs,
        max_size=args.max_size,
    )
    if not args.output.endswith((".jsonl", ".jsonl.gz", ".parquet")) and args.output != "-":
        raise CommandError(f"-o {args.output}: unknown output format; use .jsonl, .jsonl.gz or .parquet")
    from ..warc.reader import require_fastwarc

    try:
        require_fastwarc()
    except RuntimeError as exc:
        raise CommandError(str(exc)) from None
    if args.output.endswith(".parquet"):
        from ..parquet import require_pyarrow

        try:
            require_pyarrow()
        except RuntimeError as exc:
            raise CommandError(str(exc)) from None
    try:
        summary = run_batch(
            args.files, args.output, options, jobs=args.jobs, dask=args.dask,
            split_size=args.split_size, progress=args.progress,
        )
    except (RuntimeError, ValueError) as exc:
        raise CommandError(str(exc)) from None
    except BrokenPipeError:  # -o - and the reader went away (| head): the CLI stops quietly, as extract
        raise
    except OSError as exc:
        raise CommandError(f"{args.output}: {exc.strerror or exc}") from None
    for line in summary.lines():
        print(f"scrapy-cetd: {line}", file=sys.stderr)
    return 1 if summary.failed_files else 0
