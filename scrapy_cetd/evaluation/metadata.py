"""Scoring the article metadata (title, author, publish date) against a dataset's labels
(WCXB's ``title``, ``author``, ``publish_date``; trafilatura's ``title``, ``author``, ``date``;
Readability's ``title`` and ``byline``, and no date: see :mod:`.datasets`).

The definitions are the benchmark's "metadata anchors" (``benchmarks/README.md``):

- **title**: both sides lower-cased and reduced to their word tokens; *exact* when the
  token sequences are equal, *token F1* from the overlap of the two bags of tokens;
- **author**: correct when one name contains the other (word tokens, lower case); a list
  of names is compared whole (names joined) and by its first name, so "A; B" matches the
  label "A" and the label "A and B" matches the list ["A", "B"] through its first name;
- **date**: correct on the same calendar day.

Shares are over the pages whose label has a value; a *false positive* is a value given for
a page whose label has none (a field the set does not label at all counts neither).
Trafilatura (``trafilatura.extract_metadata``) and htmldate (``find_date``, dates only), when
installed, are scored side by side on the same pages.  Time is CPU time, shown as a ratio
to lxml's parse of the same page in the same run, as for the text.
"""

from __future__ import annotations

import importlib
import json
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from statistics import median
from typing import Any

from ..workers import interruptible_pool, sigint_blocked

__all__ = [
    "MetadataScores",
    "evaluate_metadata",
    "metadata_report",
    "read_labels",
    "score_author",
    "score_date",
    "score_title",
    "write_metadata_json",
]

_WORD = re.compile(r"\w+")


def _tokens(text: str | None) -> list[str]:
    return _WORD.findall(text.lower()) if text else []


def score_title(predicted: str | None, gold: str) -> tuple[bool, float]:
    """``(exact, token F1)`` of a predicted title against its label."""
    p, g = _tokens(predicted), _tokens(gold)
    if not p or not g:
        return (p == g, float(p == g))
    overlap = sum((Counter(p) & Counter(g)).values())
    f1 = 2 * overlap / (len(p) + len(g))
    return p == g, f1


def _contains(a: list[str], b: list[str]) -> bool:
    """Whether token list ``b`` occurs in ``a`` as a contiguous run."""
    n = len(b)
    return n > 0 and any(a[i : i + n] == b for i in range(len(a) - n + 1))


def score_author(predicted: Sequence[str], gold: str) -> bool:
    """Whether predicted names and the label contain one another (whole or first name)."""
    names = [n for n in predicted if _tokens(n)]
    if not names:
        return False
    g = _tokens(gold)
    for candidate in (_tokens(" ".join(names)), _tokens(names[0])):
        if _contains(candidate, g) or _contains(g, candidate):
            return True
    return False


def score_date(predicted: str | None, gold: str) -> bool:
    """Whether a predicted ISO date or datetime falls on the label's calendar day."""
    return bool(predicted) and predicted[:10] == gold.strip()[:10]


@dataclass
class FieldScores:
    """Counts for one extractor."""

    pages: int = 0
    title_labelled: int = 0
    title_exact: int = 0
    title_f1: float = 0.0
    author_labelled: int = 0
    author_correct: int = 0
    author_fp: int = 0
    author_pages: int = 0
    date_labelled: int = 0
    date_correct: int = 0
    date_fp: int = 0
    date_pages: int = 0
    seconds: list[float] = field(default_factory=list)

    def add(self, record: dict[str, Any], labels: dict[str, str | None], seconds: float) -> None:
        """Count one page; a field ``record`` does not give (htmldate's title) or the set does
        not label (``labels`` has no such key) is not counted."""
        self.pages += 1
        self.seconds.append(seconds)
        if labels.get("title") and "title" in record:
            self.title_labelled += 1
            exact, f1 = score_title(record["title"], labels["title"])
            self.title_exact += exact
            self.title_f1 += f1
        if "authors" in record and "author" in labels:
            self.author_pages += 1
            if labels["author"]:
                self.author_labelled += 1
                self.author_correct += score_author(record["authors"], labels["author"])
            elif record["authors"]:
                self.author_fp += 1
        if "date" in record and "publish_date" in labels:
            self.date_pages += 1
            if labels["publish_date"]:
                self.date_labelled += 1
                self.date_correct += score_date(record["date"], labels["publish_date"])
            elif record["date"]:
                self.date_fp += 1

    def summary(self, parse_seconds: list[float]) -> dict[str, Any]:
        ratios = [s / p for s, p in zip(self.seconds, parse_seconds) if p > 0]
        return {
            "pages": self.pages,
            "title_exact": self.title_exact / self.title_labelled if self.title_labelled else None,
            "title_token_f1": self.title_f1 / self.title_labelled if self.title_labelled else None,
            "author": self.author_correct / self.author_labelled if self.author_labelled else None,
            "author_false_positives": self.author_fp if self.author_pages else None,
            "date": self.date_correct / self.date_labelled if self.date_labelled else None,
            "date_false_positives": self.date_fp if self.date_pages else None,
            "median_ms": 1000 * median(self.seconds) if self.seconds else None,
            "median_x_lxml_parse": median(ratios) if ratios else None,
        }


@dataclass
class MetadataScores:
    """The scores of every extractor on the selected pages, and the per-page records."""

    dataset: str
    extractors: dict[str, dict[str, Any]]
    pages: list[dict[str, Any]]


def _ours(html: bytes, url: str | None) -> dict[str, Any]:
    from ..api import extract

    result = extract(html, url=url, with_html=False, with_page_type=False)  # the crawl's default outputs
    meta = result.metadata
    if meta is None:
        return {"title": result.title, "authors": [], "date": None}
    return {"title": meta.title, "authors": meta.authors, "date": meta.date_published}


def _metadata_seconds(html: bytes, url: str | None) -> tuple[float, float]:
    """CPU times of the metadata alone, on a page model already built and extracted from
    (its text given, for language detection): its fields as the crawl's default outputs
    read them (:func:`~scrapy_cetd.metadata.read_metadata`, no page type), and the page
    type's classification after them (:func:`~scrapy_cetd.metadata.page_type.classify_page`)."""
    from ..api import extract_tree
    from ..metadata import read_metadata
    from ..metadata.metas import _metas
    from ..metadata.page_type import classify_page, declared_types
    from ..page import Page
    from ..parsing import parse_html

    page = Page(parse_html(html), url)
    text = extract_tree(page, with_html=False, with_metadata=False).text
    (metadata, _), fields = _cpu(partial(read_metadata, with_declared_types=False), page, text)
    declared = declared_types(page.declared_objects(), _metas(page.root))  # read_metadata's, untimed
    return fields, _cpu(classify_page, page, metadata, declared)[1]


def _trafilatura(html: bytes, url: str | None) -> dict[str, Any]:
    from trafilatura import extract_metadata

    from ..parsing import decode_html

    doc = extract_metadata(decode_html(html)[1], default_url=url)
    if doc is None:
        return {"title": None, "authors": [], "date": None}
    authors = [a.strip() for a in (doc.author or "").split(";") if a.strip()]
    return {"title": doc.title, "authors": authors, "date": doc.date}


def _htmldate(html: bytes, url: str | None) -> dict[str, Any]:
    from htmldate import find_date

    from ..parsing import decode_html

    return {"date": find_date(decode_html(html)[1], url=url, original_date=True)}


EXTRACTORS: dict[str, Callable[[bytes, str | None], dict[str, Any]]] = {
    "scrapy_cetd": _ours,
    "trafilatura": _trafilatura,
    "htmldate": _htmldate,
}
#: The module each peer needs (it is scored only when installed).
_PEER_MODULES = {"trafilatura": "trafilatura", "htmldate": "htmldate"}


def _cpu(function: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    start = time.process_time()
    value = function(*args)
    return value, time.process_time() - start


def _parse_only(html: bytes) -> None:
    from ..parsing import parse_html

    parse_html(html)


def _one_page(task: tuple[str, str, str | None, dict[str, str | None], tuple[str, ...]]) -> dict[str, Any]:
    from .datasets import read_html

    page_id, path, url, labels, names = task
    html = read_html(Path(path))
    _, parse = _cpu(_parse_only, html)
    row: dict[str, Any] = {"id": page_id, "labels": labels, "parse_s": parse}
    row["metadata_s"], row["page_type_s"] = _metadata_seconds(html, url)
    for name in names:
        try:
            record, seconds = _cpu(EXTRACTORS[name], html, url)
        except Exception as exc:  # a peer's crash is its result on that page, not ours
            record, seconds = {"title": None, "authors": [], "date": None, "error": repr(exc)}, 0.0
            record = {key: value for key, value in record.items() if key == "error" or key in _FIELDS[name]}
        row[name] = {**record, "seconds": seconds}
    return row


#: The fields each extractor gives.
_FIELDS = {
    "scrapy_cetd": ("title", "authors", "date"),
    "trafilatura": ("title", "authors", "date"),
    "htmldate": ("date",),
}


#: The label each field is scored against.
_LABELS = {"title": "title", "authors": "author", "date": "publish_date"}


def read_labels(path: Path) -> dict[str, str | None]:
    """The ``title``, ``author`` and ``publish_date`` labels of a WCXB ground-truth file."""
    truth = json.loads(path.read_text(encoding="utf-8")).get("ground_truth") or {}
    return {key: truth.get(key) or None for key in ("title", "author", "publish_date")}


def _installed(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def evaluate_metadata(
    dataset_root: str | Path, pages: Sequence[Any], peers: bool = True, jobs: int = 1
) -> MetadataScores:
    """Score our metadata (and the peers', when installed and ``peers``) on ``pages``
    (:class:`~scrapy_cetd.evaluation.datasets.GoldPage`, with their labels)."""
    root = Path(dataset_root)
    names = ["scrapy_cetd"]
    if peers:  # a peer that gives no field the set labels (htmldate on Readability's pages) is not run
        labelled = {key for page in pages for key in page.labels}
        names += [
            name
            for name, module in _PEER_MODULES.items()
            if any(_LABELS[field] in labelled for field in _FIELDS[name]) and _installed(module)
        ]
    tasks = [(p.page_id, str(p.html_path), p.url, dict(p.labels), tuple(names)) for p in pages]
    if jobs > 1:  # workers that ignore SIGINT, stopped at once by a Ctrl-C (as map_pages's)
        with interruptible_pool(jobs) as pool:
            with sigint_blocked():  # workers start here (map submits every task at once)
                results = pool.map(_one_page, tasks, chunksize=8)
            rows = list(results)
    else:
        rows = list(map(_one_page, tasks))
    parse = [row["parse_s"] for row in rows]
    summaries = {}
    for name in names:
        scores = FieldScores()
        for row in rows:
            scores.add(row[name], row["labels"], row[name]["seconds"])
        summaries[name] = scores.summary(parse)
    timed = [row for row in rows if row["parse_s"] > 0]
    for key, seconds in (("metadata_only", "metadata_s"), ("page_type", "page_type_s")):
        ratios = [row[seconds] / row["parse_s"] for row in timed]
        summaries["scrapy_cetd"][f"{key}_median_x_lxml_parse"] = median(ratios) if ratios else None
    return MetadataScores(dataset=str(root), extractors=summaries, pages=rows)


def _cell(value: Any, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def metadata_report(scores: MetadataScores) -> str:
    """A Markdown table of the scores."""
    lines = [
        f"Metadata on {scores.dataset} ({next(iter(scores.extractors.values()))['pages']} pages; "
        "'-': the set labels no such field, or the extractor gives none)",
        "",
        "| extractor | title exact | title token F1 | author | author FP | date | date FP | median ms | x lxml parse |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, s in scores.extractors.items():
        lines.append(
            f"| {name} | {_cell(s['title_exact'])} | {_cell(s['title_token_f1'])} | {_cell(s['author'])} | "
            f"{_cell(s['author_false_positives'])} | {_cell(s['date'])} | {_cell(s['date_false_positives'])} | "
            f"{_cell(s['median_ms'], 1)} | {_cell(s['median_x_lxml_parse'])} |"
        )
    ours = scores.extractors["scrapy_cetd"]
    lines += [
        "",
        "scrapy_cetd's time is the whole extraction (text and metadata); the metadata alone adds "
        f"{_cell(ours['metadata_only_median_x_lxml_parse'])}x lxml's parse time (median over pages; the "
        f"crawl's default outputs), and classifying the page type "
        f"{_cell(ours['page_type_median_x_lxml_parse'])}x more where it is asked for.",
        "",
    ]
    return "\n".join(lines)


def write_metadata_json(scores: MetadataScores, path: str | Path) -> None:
    """Everything, per page included, as JSON."""
    Path(path).write_text(
        json.dumps({"dataset": scores.dataset, "extractors": scores.extractors, "pages": scores.pages}, indent=1),
        encoding="utf-8",
    )
