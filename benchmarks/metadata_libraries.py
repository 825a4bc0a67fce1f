"""The metadata libraries we considered, measured against our own reading of the tree.

    pip install htmldate extruct py3langid
    python benchmarks/metadata_libraries.py ../shared/benchmarks/wcxb-dev --split first-half

On each page (CPU time, as a ratio to lxml's parse of the same bytes, median over pages):

- dates: ours (:func:`scrapy_cetd.metadata.extract_metadata`, all fields) against
  ``htmldate.find_date(tree, url=..., original_date=True)`` with and without
  ``extensive_search`` (trafilatura's date library; given an ``lxml.html`` tree of the
  decoded page, so its own parse is not timed): same calendar day as the label, and false
  positives (a date where the label has none);
- JSON-LD, microdata and OpenGraph: ``extruct.extract`` on the decoded page against our
  reading of the JSON-LD texts the page model kept;
- language: ``py3langid.classify`` on the first 1000 characters of the extracted text,
  its agreement with ``<html lang>`` where the page declares one.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from collections.abc import Callable
from typing import Any

import extruct
import htmldate
import lxml.html
import py3langid

from scrapy_cetd.api import extract_tree
from scrapy_cetd.evaluation.datasets import load_dataset, read_page_html, select_pages
from scrapy_cetd.evaluation.metadata import read_labels, score_date
from scrapy_cetd.metadata import extract_metadata
from scrapy_cetd.metadata.language import _language
from scrapy_cetd.page import Page, json_ld_objects
from scrapy_cetd.parsing import decode_html, parse_html


def cpu(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, float]:
    start = time.process_time()
    value = function(*args, **kwargs)
    return value, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dataset")
    parser.add_argument("--split", choices=("first-half", "second-half"))
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # htmldate and extruct log every odd page
    dataset = load_dataset(args.dataset)
    rows = []
    for gold in select_pages(dataset.pages, split=args.split):
        html = read_page_html(gold)
        label = read_labels(dataset.root / "ground-truth" / f"{gold.page_id}.json")["publish_date"]
        root, parse = cpu(parse_html, html)
        page = Page(root, gold.url)
        text = extract_tree(page, with_html=False, with_metadata=False).text
        meta, ours = cpu(extract_metadata, page, text)
        source = decode_html(html)[1]
        row = {"label": label, "ours": meta.date_published, "parse": parse, "t_ours": ours}
        for key, extensive in (("htmldate", False), ("htmldate_extensive", True)):
            try:
                tree = lxml.html.document_fromstring(source)
                row[key], row[f"t_{key}"] = cpu(
                    htmldate.find_date, tree, url=gold.url, original_date=True, extensive_search=extensive
                )
            except Exception:  # a library's failure is its result on that page
                row[key], row[f"t_{key}"] = None, float("nan")
        try:
            _, row["t_extruct"] = cpu(
                extruct.extract, source, base_url=gold.url, syntaxes=["json-ld", "microdata", "opengraph"]
            )
        except Exception:
            row["t_extruct"] = float("nan")
        _, row["t_json_ld"] = cpu(lambda texts: [json_ld_objects(text) for text in texts], page.json_ld)
        row["declared"] = _language(root.get("lang"))
        if len(text) >= 50:
            (row["detected"], _), row["t_langid"] = cpu(py3langid.classify, text[:1000])
        else:
            row["detected"], row["t_langid"] = None, float("nan")
        rows.append(row)

    def ratio(key: str) -> float:
        values = [r[key] / r["parse"] for r in rows if r["parse"] > 0 and r[key] == r[key]]
        return statistics.median(values)

    labelled = [r for r in rows if r["label"]]
    print(f"{len(rows)} pages, {len(labelled)} with a date label")
    for key in ("ours", "htmldate", "htmldate_extensive"):
        same_day = sum(score_date(r[key], r["label"]) for r in labelled) / len(labelled)
        false_positives = sum(bool(r[key]) for r in rows if not r["label"])
        print(f"date {key}: same day {same_day:.3f}, false positives {false_positives}, "
              f"{ratio('t_' + key):.2f}x lxml parse")
    print(f"extruct (JSON-LD, microdata, OpenGraph): {ratio('t_extruct'):.2f}x lxml parse; "
          f"our JSON-LD reading: {ratio('t_json_ld'):.3f}x")
    declared = [r for r in rows if r["declared"] and r["detected"]]
    agree = sum(r["detected"] == r["declared"].split("-")[0] for r in declared)
    print(f"py3langid: agrees with <html lang> on {agree}/{len(declared)} pages, {ratio('t_langid'):.2f}x lxml "
          f"parse; pages without <html lang>: {sum(not r['declared'] for r in rows)}")


if __name__ == "__main__":
    main()
