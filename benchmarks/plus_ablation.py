"""Each cetd-plus rule off, against all on, on several dev sets at once (one parse a page).

    python benchmarks/plus_ablation.py ../shared/benchmarks/wcxb-dev \\
        ../shared/benchmarks/trafilatura-eval ../shared/benchmarks/readability-pages [--jobs 2]
        [--configs all | on,stock_lines,datelines+author_bio]

Every page is parsed once into a :class:`~scrapy_cetd.page.Page`; the text is extracted
(``extract_tree(..., with_html=False, with_metadata=False)``) with all rules on, then with
each configuration's rules off (``rules.OFF``; ``a+b``: both off).  Each set is scored with
its own metric, as ``scrapy-cetd evaluate`` scores it: mean word-bag F1 on WCXB and
Readability's pages, F1 of the with/without snippet counts summed over trafilatura's
pages.  Prints one row per configuration: the scores with all rules on, then each
configuration's difference (rule off minus on: a positive number is what the rule costs).
"""

from __future__ import annotations

import argparse
from multiprocessing import Pool
from typing import Any

from scrapy_cetd.algorithms.plus import rules
from scrapy_cetd.api import extract_tree
from scrapy_cetd.evaluation.datasets import GoldPage, gold_text, load_dataset, read_page_html
from scrapy_cetd.evaluation.metrics import snippet_counts, word_scores
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import EmptyDocument, parse_html

_CONFIGS: list[str] = []


def _configure(configs: list[str]) -> None:
    global _CONFIGS
    _CONFIGS = configs


def _texts(html: bytes) -> dict[str, str]:
    """The text of ``html`` under each configuration, from one parse."""
    try:
        page = Page.from_tree(parse_html(html))
    except EmptyDocument:
        return dict.fromkeys(_CONFIGS, "")
    texts = {}
    for config in _CONFIGS:
        rules.OFF = frozenset() if config == "on" else frozenset(config.split("+"))
        texts[config] = extract_tree(page, with_html=False, with_metadata=False).text
    rules.OFF = frozenset()
    return texts


def _score(job: tuple[int, GoldPage, str]) -> tuple[int, dict[str, Any]]:
    index, page, metric = job
    texts = _texts(read_page_html(page))
    if metric == "snippet":
        counts = {c: snippet_counts(t, page.with_snippets, page.without_snippets) for c, t in texts.items()}
        return index, {c: (n.tp, n.fp, n.fn) for c, n in counts.items()}
    gold = gold_text(page)
    return index, {c: word_scores(t, gold).f1 for c, t in texts.items()}


def _summary(rows: list[dict[str, Any]], metric: str, config: str) -> float:
    if metric == "snippet":
        tp, fp, fn = (sum(row[config][k] for row in rows) for k in range(3))
        return 2 * tp / (2 * tp + fp + fn)
    return sum(row[config] for row in rows) / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="+")
    parser.add_argument("--configs", default="all", help="'all' (each rule alone) or a comma-separated list")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    configs = ["on", *rules.RULES] if args.configs == "all" else args.configs.split(",")
    if "on" not in configs:
        configs.insert(0, "on")
    for config in configs:
        unknown = set(config.split("+")) - set(rules.RULES) - {"on"}
        if unknown:
            parser.error(f"no rule {', '.join(sorted(unknown))}; valid: {', '.join(rules.RULES)}")
    datasets = [load_dataset(path) for path in args.datasets]
    jobs = [(i, page, d.metric) for i, d in enumerate(datasets) for page in d.pages]
    with Pool(args.jobs, initializer=_configure, initargs=(configs,)) as pool:
        results = pool.map(_score, jobs, chunksize=16)
    by_set: list[list[dict[str, Any]]] = [[] for _ in datasets]
    for index, row in results:
        by_set[index].append(row)
    print("config".ljust(40) + "".join(f"{d.name[:18]:>20}" for d in datasets))
    on = [_summary(rows, d.metric, "on") for rows, d in zip(by_set, datasets)]
    print("all rules on".ljust(40) + "".join(f"{value:20.4f}" for value in on))
    for config in configs[1:]:
        values = [_summary(rows, d.metric, config) - base for rows, d, base in zip(by_set, datasets, on)]
        print(f"{config} off"[:40].ljust(40) + "".join(f"{value:+20.4f}" for value in values))


if __name__ == "__main__":
    main()
