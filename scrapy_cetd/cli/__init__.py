"""The ``scrapy-cetd`` command line: one module per command, the shared helpers in
:mod:`scrapy_cetd.cli.common`.

- ``scrapy-cetd extract FILE...``: print the main content of HTML files (:mod:`.extract`).
- ``scrapy-cetd evaluate DATASET_DIR``: score algorithms on a labelled dataset (:mod:`.evaluate`).
- ``scrapy-cetd tradeoff DATASET_DIR --out plot.png``: precision/recall/F1 against the
  threshold coefficient, plotted (:mod:`.tradeoff`).
- ``scrapy-cetd warc FILE... -o OUT``: re-extract WARC archives to JSON Lines or Parquet
  (:mod:`.warc`, docs/archives.md).
- ``scrapy-cetd algorithms``: the registered algorithms with their options (:mod:`.algorithms`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__
from ..api import DEFAULT_ALGORITHM
from .algorithms import add_algorithms_command
from .common import PROG, CommandError, error
from .evaluate import add_evaluate_command
from .extract import EXIT_STATUS, add_extract_command
from .tradeoff import add_tradeoff_command
from .warc import add_warc_command

__all__ = ["build_parser", "main"]

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
  scrapy-cetd evaluate wcxb-dev trafilatura-eval readability-pages --jobs 2
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

    add_extract_command(commands)
    add_evaluate_command(commands)
    add_tradeoff_command(commands)
    add_warc_command(commands)
    add_algorithms_command(commands)
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
        error(str(exc))
        return 2
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. | head): stop quietly
        return 1
    except KeyboardInterrupt:
        return 130

