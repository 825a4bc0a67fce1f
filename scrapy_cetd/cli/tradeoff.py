"""``scrapy-cetd tradeoff DATASET_DIR --out plot.png``: precision, recall and F1 against the
threshold coefficient, plotted (needs matplotlib: the ``plot`` extra)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..api import DEFAULT_ALGORITHM
from ..registry import get_algorithm
from .common import PARAM_HELP, CommandError, algorithm_params, load_pages, number, selection_options

__all__ = ["add_tradeoff_command"]


def _check_plot_path(path: Path) -> None:
    """Fail before the sweep, not after it, when the plot cannot be written."""
    from matplotlib.figure import Figure

    formats = Figure().canvas.get_supported_filetypes()
    if path.suffix.lstrip(".").lower() not in formats:
        raise CommandError(f"--out {path}: unknown image format; use one of: {', '.join(sorted(formats))}")
    if not path.parent.is_dir():
        raise CommandError(f"--out {path}: no such directory {path.parent}")


def _tradeoff_command(args: argparse.Namespace) -> int:
    from ..evaluation.datasets import DatasetError
    from ..evaluation.tradeoff import DEFAULT_COEFFICIENTS, plot_tradeoff, require_matplotlib, sweep

    try:
        require_matplotlib()
    except RuntimeError as exc:
        raise CommandError(str(exc)) from None
    _check_plot_path(Path(args.out))
    try:
        spec = get_algorithm(args.algorithm)
    except ValueError as exc:
        raise CommandError(f"{exc} (tradeoff takes one algorithm)") from None
    params = algorithm_params([spec.name], args.param)[spec.name]
    if args.coefficients:
        try:
            coefficients = [float(number(c)) for c in args.coefficients.split(",") if c.strip()]
        except CommandError as exc:
            raise CommandError(f"--coefficients: {exc}") from None
    else:
        coefficients = [c for c in DEFAULT_COEFFICIENTS if c <= spec.max_coefficient]
    try:
        for coefficient in coefficients:
            spec.resolve(coefficient, params)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    dataset, pages = load_pages(args, args.dataset)
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



def add_tradeoff_command(commands: Any) -> None:
    """Add the ``tradeoff`` sub-command to the CLI's sub-parsers."""
    tr = commands.add_parser(
        "tradeoff",
        parents=[selection_options()],
        help="plot precision/recall/F1 against the threshold coefficient",
        description="Precision/recall/F1 against the threshold coefficient (papers' Figures 5, 6, 9).",
    )
    tr.add_argument("dataset", metavar="DATASET_DIR")
    tr.add_argument("-a", "--algorithm", default=DEFAULT_ALGORITHM, help=f"default {DEFAULT_ALGORITHM}")
    tr.add_argument("-o", "--out", required=True, metavar="PLOT", help="image file to write (.png, .svg, ...)")
    tr.add_argument("--coefficients", metavar="X,Y,...", help="default 0,0.1,...,2 (up to the algorithm's maximum)")
    tr.add_argument(
        "--metric", choices=("dataset", "lcs"), default="dataset",
        help="the dataset's own metric (default) or the papers' LCS word-sequence metric",
    )
    tr.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE", help=PARAM_HELP)
    tr.add_argument("--json", metavar="OUT", help="also write the points as JSON")
    tr.set_defaults(handler=_tradeoff_command)
