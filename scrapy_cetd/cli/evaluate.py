"""``scrapy-cetd evaluate DATASET_DIR``: score algorithms (and installed peers) on a labelled
dataset; prints a Markdown table, ``--json`` keeps everything (docs/evaluation.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..api import DEFAULT_ALGORITHM
from ..registry import algorithm_names, get_algorithm
from .common import PROG, CommandError, algorithm_params, load_pages, selection_options

__all__ = ["add_evaluate_command"]


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



def _json_path(args: argparse.Namespace, dataset: Any) -> str | None:
    """``--json OUT`` for one dataset; with several, one file each: ``OUT`` with the set's name
    before its suffix (``scores.json`` -> ``scores.wcxb-dev.json``)."""
    if not args.json or len(args.dataset) == 1:
        return args.json
    out = Path(args.json)
    return str(out.with_name(f"{out.stem}.{dataset.name}{out.suffix}"))


def _evaluate_metadata(args: argparse.Namespace) -> int:
    """``evaluate --metadata``: title, author and date against the labels, beside the peers."""
    from ..evaluation.metadata import evaluate_metadata, metadata_report, write_metadata_json

    loaded = [load_pages(args, path) for path in args.dataset]
    for dataset, _ in loaded:
        if dataset.layout == "aeb":
            raise CommandError(f"{dataset.root}: --metadata needs metadata labels (this layout has none)")
    for dataset, pages in loaded:
        scores = evaluate_metadata(dataset.root, pages, peers=args.peers or bool(args.peer), jobs=args.jobs)
        sys.stdout.write(metadata_report(scores))
        json_path = _json_path(args, dataset)
        if json_path:
            write_metadata_json(scores, json_path)
    return 0


def _evaluate_command(args: argparse.Namespace) -> int:
    if args.metadata:
        return _evaluate_metadata(args)
    from ..evaluation.datasets import DatasetError
    from ..evaluation.peers import PEERS, available_peers
    from ..evaluation.report import markdown_report, sets_report, write_json
    from ..evaluation.runner import Extractor, run_evaluation

    names = _algorithm_list(args.algorithm)
    params = algorithm_params(names, args.param)
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
    loaded = [load_pages(args, path) for path in args.dataset]
    selection = {
        key: getattr(args, key)
        for key in ("ids_from", "ids_to", "split", "page_type", "limit")
        if getattr(args, key) not in (None, [])
    }
    runs = []
    for dataset, pages in loaded:
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
        runs.append(run)
        sys.stdout.write(markdown_report(run) + ("\n" if len(loaded) > 1 else ""))
        json_path = _json_path(args, dataset)
        if json_path:
            write_json(run, json_path)
    if len(runs) > 1:
        sys.stdout.write(sets_report(runs))
    return 0


def _markdown_evaluation(args: argparse.Namespace, names: list[str], params: dict[str, dict[str, Any]]) -> int:
    """``evaluate --markdown``: the Markdown output's headings, list items and table rows
    against the gold ``main_content_markdown`` (:mod:`scrapy_cetd.evaluation.markdown`)."""
    from ..evaluation.markdown import markdown_report, score_markdown

    if args.threshold_coefficient is not None:
        params = {name: {**p, "threshold_coefficient": args.threshold_coefficient} for name, p in params.items()}
    dataset, pages = load_pages(args, args.dataset[0])
    if len(args.dataset) > 1 or dataset.layout != "wcxb":
        raise CommandError("--markdown scores one WCXB dataset (its gold main_content_markdown)")
    selection = {key: getattr(args, key) for key in ("split", "page_type", "limit") if getattr(args, key)}
    scores = score_markdown(pages, [(name, params[name]) for name in names], jobs=args.jobs)
    sys.stdout.write(markdown_report(scores, str(dataset.root), selection))
    if args.json:
        Path(args.json).write_text(json.dumps([s.to_dict() for s in scores], indent=2), encoding="utf-8")
    return 0



def add_evaluate_command(commands: Any) -> None:
    """Add the ``evaluate`` sub-command to the CLI's sub-parsers."""
    ev = commands.add_parser(
        "evaluate",
        parents=[selection_options()],
        help="score algorithms on a labelled dataset",
        description="Score algorithms on labelled dataset directories: WCXB, trafilatura's evaluation pages, "
        "Readability's test pages or the article-extraction benchmark (the layout is detected). With several "
        "directories, each gets its report and a last table shows them side by side.",
    )
    ev.add_argument("dataset", nargs="+", metavar="DATASET_DIR")
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
