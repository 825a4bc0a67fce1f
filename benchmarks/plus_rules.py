"""Ablations of cetd-plus's news rules (issue 14) on a split of the WCXB dev pages.

    python benchmarks/plus_rules.py ../shared/benchmarks/wcxb-dev [--split first-half]
        [--folds] [--comment-stems a,b] [--noise-stems a,b] [--off RULE,RULE]
        [--set MODULE.NAME=JSON ...] [--json OUT] [--peer NAME] [--time] [--jobs 2]

Prints the mean per-page word precision, recall and F1 (WCXB's metric, as
``scrapy-cetd evaluate`` computes it) of ``cetd-plus``, overall, for articles and for the
other pages, and for articles also the article-extraction-benchmark's 4-gram shingle
precision, recall and F1 (``shingle_means``: the metric of the founders' news set).
``--folds`` adds the same rows for the odd and the even pages of the split (2-fold
cross-validation: a rule is kept only if it helps both).  ``--json`` writes the per-page
rows (id, type, word and shingle scores) for error analysis; ``--peer trafilatura`` scores
an installed peer the same way, for reference; ``--time`` also times ``extract()`` (text
only, the least CPU time of three calls per page) against lxml's parse of the same page
in the same worker, as ``scrapy-cetd evaluate`` does.  The other options replace the label
stems (``--noise-stems ''`` switches noise labels off), turn rules off by name (``--off
stock_lines,author_bio``: :data:`scrapy_cetd.algorithms.plus.rules.RULES`) or set a constant
of a module of :mod:`scrapy_cetd.algorithms.plus` (``--set pruning.NOISE_MAX_SHARE=1.0``,
``--set 'data.LABELLED_TAGS=["div","section"]'``; a name without a module is in ``data``).
Every number in ``docs/cetd-plus.md``'s rule tables comes from this command; tune on
``first-half`` only.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import time
from collections.abc import Callable
from multiprocessing import Pool
from typing import Any

from lxml import etree

from scrapy_cetd import extract
from scrapy_cetd.algorithms import labels, plus
from scrapy_cetd.algorithms.plus import rules
from scrapy_cetd.evaluation.datasets import GoldPage, load_dataset, read_page_html, select_pages
from scrapy_cetd.evaluation.metrics import ShingleCounts, shingle_counts, shingle_means, word_scores
from scrapy_cetd.evaluation.peers import run_peer

_PEER: str | None = None
_TIME = False


def _configure(
    comment: tuple[str, ...],
    noise: tuple[str, ...],
    article: tuple[str, ...],
    constants: dict[str, Any],
    off: frozenset[str],
    peer: str | None,
    timed: bool,
) -> None:
    global _PEER, _TIME
    _PEER, _TIME = peer, timed
    labels.set_stems(comment, noise, article)
    rules.OFF = off
    for name, value in constants.items():
        module, constant = name.rsplit(".", 1)
        setattr(importlib.import_module(f"{plus.__name__}.{module}"), constant, value)


def _cpu_ms(function: Callable[[], object]) -> float:
    """The least CPU time of three calls, in ms."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return 1000 * best


def _score(page: GoldPage) -> tuple[Any, ...]:
    html = read_page_html(page)
    text = run_peer(_PEER, html, page.url) if _PEER else extract(html, with_html=False).text
    scores = word_scores(text, page.gold)
    shingles = shingle_counts(text, page.gold)
    counts = (shingles.tp, shingles.fp, shingles.fn)
    times = (0.0, 0.0)
    if _TIME:
        times = (
            _cpu_ms(lambda: extract(html, with_html=False)),
            _cpu_ms(lambda: etree.fromstring(html, etree.HTMLParser())),
        )
    return page.page_type, scores.precision, scores.recall, scores.f1, counts, page.page_id, times


def _print_rows(name: str, results: list[Any]) -> None:
    groups = (
        ("all", results),
        ("article", [r for r in results if r[0] == "article"]),
        ("other", [r for r in results if r[0] != "article"]),
    )
    for label, chosen in groups:
        n = len(chosen)
        if not n:
            continue
        p, r, f = (sum(row[i] for row in chosen) / n for i in (1, 2, 3))
        line = f"{name:5s} {label:8s} pages {n:4d}  F1 {f:.4f}  P {p:.4f}  R {r:.4f}"
        if label == "article":
            sh = shingle_means(ShingleCounts(*row[4]) for row in chosen)
            line += f"  shingle F1 {sh.f1:.4f}  P {sh.precision:.4f}  R {sh.recall:.4f}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset")
    parser.add_argument("--split", default="first-half", choices=("first-half", "second-half"))
    parser.add_argument("--comment-stems", default=",".join(labels.COMMENT_STEMS))
    parser.add_argument("--noise-stems", default=",".join(labels.NOISE_STEMS))
    parser.add_argument("--article-stems", default=",".join(labels.ARTICLE_NOISE_STEMS))
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=JSON")
    parser.add_argument("--off", default="", metavar="RULE,RULE", help="turn these rules off (rules.RULES)")
    parser.add_argument("--peer", help="score this installed peer (trafilatura, readability, ...) instead")
    parser.add_argument(
        "--time", action="store_true", help="also time extract() against lxml's parse (least CPU of 3, per page)"
    )
    parser.add_argument("--folds", action="store_true", help="also score the odd and the even pages")
    parser.add_argument("--json", metavar="OUT", help="write the per-page rows to this JSON file")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    comment = tuple(filter(None, args.comment_stems.split(",")))
    noise = tuple(filter(None, args.noise_stems.split(",")))
    article = tuple(filter(None, args.article_stems.split(",")))
    constants = {}
    for assignment in args.set:
        name, value = assignment.split("=", 1)
        module, _, constant = name.rpartition(".")
        if not hasattr(importlib.import_module(f"{plus.__name__}.{module or 'data'}"), constant):
            parser.error(f"--set: {plus.__name__}.{module or 'data'} has no {constant}")
        constants[f"{module or 'data'}.{constant}"] = json.loads(value)
    off = frozenset(filter(None, args.off.split(",")))
    if not off <= set(rules.RULES):
        parser.error(f"--off: no rule {', '.join(sorted(off - set(rules.RULES)))}; valid: {', '.join(rules.RULES)}")
    pages = select_pages(load_dataset(args.dataset).pages, split=args.split)
    setup = (comment, noise, article, constants, off, args.peer, args.time)
    with Pool(args.jobs, initializer=_configure, initargs=setup) as pool:
        results = pool.map(_score, pages, chunksize=8)
    _print_rows("split", results)
    if args.folds:
        _print_rows("odd", results[0::2])
        _print_rows("even", results[1::2])
    if args.time:
        ratios = sorted(row[6][0] / max(row[6][1], 1e-6) for row in results)
        total = sum(row[6][0] for row in results) / max(sum(row[6][1] for row in results), 1e-6)
        median = statistics.median(row[6][0] for row in results)
        middle = ratios[len(ratios) // 2]
        print(f"time: median {median:.2f} ms/page, x lxml: total {total:.2f}, median page {middle:.2f}")
    if args.json:
        keys = ("page_type", "precision", "recall", "f1", "shingles", "id", "cpu_ms_and_lxml_ms")
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([dict(zip(keys, row)) for row in results], out)


if __name__ == "__main__":
    main()
