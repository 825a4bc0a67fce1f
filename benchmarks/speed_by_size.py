"""The x lxml ratio by page size, from ``scrapy-cetd evaluate --json``'s per-page times.

    scrapy-cetd evaluate ../shared/benchmarks/wcxb-dev -a cetd-plus --split second-half --jobs 2 --json ev.json
    python benchmarks/speed_by_size.py ev.json [--page-type article]

Pages are put in four groups by lxml's parse time of the page (quartiles: the size lxml
sees); for each extractor in the file, the median of the per-page ratios (its CPU time
over lxml's parse of the same page, in the same worker) in each group and overall.  An
extraction has a fixed cost per call (the NumPy calls of the densities, the renderer's
set-up) besides its cost per element, so its ratio falls as pages grow: a set of large
pages (news sites) gets a lower ratio than the dev split's median page.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path


def quartile_table(pages: list[dict], extractors: list[str]) -> str:
    """A Markdown table: median per-page ratio by quartile of lxml's parse time."""
    pages = sorted(pages, key=lambda page: page["lxml_cpu_ms"])
    n = len(pages)
    groups = [pages[n * q // 4 : n * (q + 1) // 4] for q in range(4)]
    header = ["pages (by lxml's parse)", "pages", "lxml median ms", *extractors]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for label, group in zip(("smallest quarter", "second", "third", "largest quarter"), groups):
        lines.append(_row(label, group, extractors))
    lines.append(_row("all", pages, extractors))
    return "\n".join(lines)


def _row(label: str, group: list[dict], extractors: list[str]) -> str:
    lxml_ms = statistics.median(page["lxml_cpu_ms"] for page in group)
    ratios = []
    for name in extractors:
        values = [
            page["extractors"][name]["cpu_ms"] / page["lxml_cpu_ms"]
            for page in group
            if name in page["extractors"] and page["lxml_cpu_ms"] > 0
        ]
        ratios.append(f"{statistics.median(values):.1f}x" if values else "-")
    return f"| {label} | {len(group)} | {lxml_ms:.2f} | " + " | ".join(ratios) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", type=Path, help="the file of scrapy-cetd evaluate --json")
    parser.add_argument("--page-type", action="append", help="only pages of this type (repeat)")
    args = parser.parse_args()
    run = json.loads(args.json.read_text())
    pages = [page for page in run["per_page"] if not args.page_type or page["page_type"] in args.page_type]
    if not pages:
        raise SystemExit("no pages")
    extractors = list(dict.fromkeys(name for page in pages for name in page["extractors"]))
    print(quartile_table(pages, extractors))


if __name__ == "__main__":
    main()
