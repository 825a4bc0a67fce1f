"""Two-fold cross-validation of the metadata rules inside one split (odd and even pages).

    python benchmarks/metadata_folds.py ../shared/benchmarks/wcxb-dev --split first-half
    python benchmarks/metadata_folds.py ../shared/benchmarks/wcxb-dev --split first-half --htmldate
    python benchmarks/metadata_folds.py ../shared/benchmarks/wcxb-dev --split first-half --json rows.json

``--json`` writes every page's values and labels (for error analysis on the split tuned
on).  A rule is kept when it helps both folds (docs/metadata.md): fold 1 is the split's 1st,
3rd, 5th, ... page, fold 2 the 2nd, 4th, ...  Scores are ``scrapy-cetd evaluate
--metadata``'s (:mod:`scrapy_cetd.evaluation.metadata`), per fold and for the split.

``--htmldate`` (``pip install htmldate``) also scores htmldate as the last date fallback:
``htmldate.find_date(..., original_date=True, extensive_search=False)`` on the pages where
our rules find no date; its CPU time includes the ``lxml.html`` parse it needs (our page
model's tree is not an ``HtmlElement``), added to the metadata's time on those pages.
With htmldate installed, our metadata already falls back to it
(:func:`scrapy_cetd.metadata.dates._htmldate`), so this option scores it a second time on
nothing: it is for an environment without it.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import time
from pathlib import Path
from typing import Any

from scrapy_cetd.evaluation.datasets import load_dataset, read_page_html, select_pages
from scrapy_cetd.evaluation.metadata import FieldScores, evaluate_metadata
from scrapy_cetd.parsing import decode_html


def htmldate_fallback(rows: list[dict[str, Any]], pages: list[Any]) -> None:
    """Fill ``row["htmldate"]`` (a date or ``None``) and ``row["htmldate_s"]`` where ours has none."""
    import htmldate
    import lxml.html

    logging.disable(logging.WARNING)  # htmldate logs every odd page
    for row, gold in zip(rows, pages):
        row["htmldate"], row["htmldate_s"] = None, 0.0
        if row["scrapy_cetd"]["date"]:
            continue
        source = decode_html(read_page_html(gold))[1]
        start = time.process_time()
        try:
            value = htmldate.find_date(
                lxml.html.document_fromstring(source), url=gold.url, original_date=True, extensive_search=False
            )
        except Exception:  # a library's failure is its result on that page
            value = None
        row["htmldate"], row["htmldate_s"] = value, time.process_time() - start


def summary(rows: list[dict[str, Any]], with_htmldate: bool) -> str:
    scores = FieldScores()
    ratios = []
    for row in rows:
        record = dict(row["scrapy_cetd"])
        seconds = row["metadata_s"]
        if with_htmldate:
            record["date"] = record["date"] or row["htmldate"]
            seconds += row["htmldate_s"]
        scores.add(record, row["labels"], seconds)
        if row["parse_s"] > 0:
            ratios.append(seconds / row["parse_s"])
    s = scores.summary([row["parse_s"] for row in rows])
    return (
        f"title exact {s['title_exact']:.3f}, token F1 {s['title_token_f1']:.3f}; author {s['author']:.3f} "
        f"({s['author_false_positives']} FP); date {s['date']:.3f} ({s['date_false_positives']} FP); "
        f"metadata {statistics.median(ratios):.2f}x lxml parse"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dataset")
    parser.add_argument("--split", choices=("first-half", "second-half"), default="first-half")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--htmldate", action="store_true", help="also score htmldate as the last date fallback")
    parser.add_argument("--json", type=Path, help="write every page's values and labels (for error analysis)")
    args = parser.parse_args()
    dataset = load_dataset(args.dataset)
    pages = select_pages(dataset.pages, split=args.split)
    rows = evaluate_metadata(Path(args.dataset), pages, peers=False, jobs=args.jobs).pages
    if args.htmldate:
        htmldate_fallback(rows, pages)
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1))
    folds = {"fold 1": rows[0::2], "fold 2": rows[1::2], args.split: rows}
    for variant in (False, True) if args.htmldate else (False,):
        print("ours, htmldate as the last date fallback" if variant else "ours")
        for name, selected in folds.items():
            print(f"  {name} ({len(selected)} pages): {summary(selected, variant)}")


if __name__ == "__main__":
    main()
