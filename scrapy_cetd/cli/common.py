"""What the commands share: the user error, the ``--param`` parsing and checking, page
selection for the commands that read a labelled dataset."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from typing import Any

from ..registry import get_algorithm

__all__ = [
    "PARAM_HELP",
    "PROG",
    "CommandError",
    "algorithm_params",
    "checked_params",
    "error",
    "load_pages",
    "number",
    "parse_param",
    "positive_int",
    "selection_options",
    "size",
]

PROG = "scrapy-cetd"
PARAM_HELP = "an algorithm parameter (repeat); see 'scrapy-cetd algorithms'"


class CommandError(Exception):
    """A user error: printed as one line on stderr, exit status 2."""


def error(message: str) -> None:
    """One error line on stderr, as argparse writes its own."""
    print(f"{PROG}: error: {message}", file=sys.stderr)


def number(text: str) -> int | float:
    """An option's number: whole if it reads as one, else a float (not NaN)."""
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


def parse_param(text: str) -> tuple[str | None, str, int | float]:
    """``[ALGORITHM:]name=value`` -> ``(algorithm or None, name, number)``."""
    target, sep, value = text.partition("=")
    if not sep or not target:
        raise CommandError(f"--param {text!r}: expected name=value")
    algorithm, colon, name = target.rpartition(":")
    try:
        parsed = number(value)
    except CommandError as exc:
        raise CommandError(f"--param {text!r}: {exc}") from None
    return (algorithm if colon else None), name, parsed


def checked_params(args: argparse.Namespace) -> dict[str, Any]:
    """The ``--param`` values of a one-algorithm command (``extract``, ``warc``), checked
    against ``--algorithm`` and ``--threshold-coefficient`` before any input is read."""
    params: dict[str, Any] = {}
    for text in args.param:
        algorithm, name, value = parse_param(text)
        if algorithm not in (None, args.algorithm):
            raise CommandError(f"--param {text!r} names another algorithm than {args.algorithm!r}")
        params[name] = value
    try:
        get_algorithm(args.algorithm).resolve(args.threshold_coefficient, params)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    return params



def algorithm_params(names: Sequence[str], texts: Sequence[str]) -> dict[str, dict[str, int | float]]:
    """``--param`` values per algorithm: ``ALGO:name=value`` for one, ``name=value`` for
    every selected algorithm that has a parameter of that name."""
    params: dict[str, dict[str, int | float]] = {name: {} for name in names}
    for text in texts:
        algorithm, name, value = parse_param(text)
        targets = [algorithm] if algorithm else [a for a in names if name in get_algorithm(a).params]
        if algorithm and algorithm not in params:
            raise CommandError(f"--param {text!r}: {algorithm!r} is not among the evaluated algorithms")
        if not targets:
            raise CommandError(f"--param {text!r}: no evaluated algorithm has a parameter {name!r}")
        for target in targets:
            params[target][name] = value
    return params


def load_pages(args: argparse.Namespace, path: str) -> tuple[Any, list[Any]]:
    """The dataset at ``path`` and its pages chosen by the selection options."""
    from ..evaluation.datasets import DatasetError, load_dataset, select_pages

    try:
        dataset = load_dataset(path)
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
        raise CommandError(f"{path}: no pages selected")
    return dataset, pages


def positive_int(text: str) -> int:
    """An option's whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def selection_options() -> argparse.ArgumentParser:
    """The page selection options of the commands that read a labelled dataset (a parent parser)."""
    parent = argparse.ArgumentParser(add_help=False)
    group = parent.add_argument_group("page selection (pages in sorted id order, steps applied in this order)")
    group.add_argument("--ids-from", metavar="ID", help="first page id to include")
    group.add_argument("--ids-to", metavar="ID", help="last page id to include")
    group.add_argument("--page-type", action="append", default=[], metavar="TYPE", help="only this page type (repeat)")
    group.add_argument(
        "--split", choices=("first-half", "second-half"), help="first ceil(n/2) pages selected so far, or the rest"
    )
    group.add_argument("--limit", type=positive_int, metavar="N", help="the first N pages selected so far")
    parent.add_argument("-j", "--jobs", type=positive_int, default=1, metavar="N", help="worker processes (default 1)")
    return parent



def size(text: str) -> int:
    """A size in bytes for an option: a whole number, or one with k, m or g (binary: 16m is 16 MiB)."""
    units = {"k": 1024, "m": 1024**2, "g": 1024**3}
    digits, factor = text.strip().lower(), 1
    if digits[-1:] in units:
        digits, factor = digits[:-1], units[digits[-1]]
    try:
        value = int(float(digits) * factor)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (e.g. 16m)") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 0")
    return value
