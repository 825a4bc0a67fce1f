"""How well the Markdown output's structure matches a WCXB page's ``main_content_markdown``.

The structure lines of a Markdown document are its headings (``#`` to ``######``), list
items (``-``, ``*``, ``+``, ``1.``, ``1)``; nested or not) and table rows (``| ... |``, the
``---`` separator row left out; also two or more consecutive lines with cells separated by
`` | `` but no leading pipe, as some of the gold's tables are written), each read inside
block quotes too.  A line is its kind and
its words (lower case ``\\w+``, link URLs, images and backslash escapes left out), so a
heading found with the wrong level or other emphasis still counts, a heading found as a
paragraph does not.  Per kind and in all: precision (the share of the output's structure
lines that are in the gold, as multisets) and recall (the share of the gold's found), each
summed over the pages (micro average); pages whose ground truth has no
``main_content_markdown`` are left out.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..api import extract
from .datasets import GoldPage, read_page_html

__all__ = ["KINDS", "MarkdownScores", "markdown_report", "score_markdown", "structure_lines"]

KINDS = ("heading", "list item", "table row")

_QUOTE = re.compile(r"^(?:\s*>)+")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)(?:\s+#+)?\s*$")
_LIST_ITEM = re.compile(r"^(?:[-*+]|\d{1,9}[.)])\s+(.*)$")
_TABLE_SEPARATOR = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_IMAGE = re.compile(r"!\[(?:\\.|[^\]\\])*\]\([^)]*\)")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_ESCAPE = re.compile(r"\\(.)")
_WORD = re.compile(r"\w+")


def _words(text: str) -> str:
    text = _ESCAPE.sub(r"\1", _LINK_TARGET.sub("]", _IMAGE.sub(" ", text)))
    return " ".join(_WORD.findall(text.lower()))


def structure_lines(markdown: str) -> Counter[tuple[str, str]]:
    """The ``(kind, words)`` of each heading, list item and table row of ``markdown``.
    Lines inside fenced code blocks are not structure."""
    lines: Counter[tuple[str, str]] = Counter()
    fence = ""
    stripped = [_QUOTE.sub("", raw).strip() for raw in markdown.splitlines()]
    piped = [" | " in line for line in stripped]
    for i, line in enumerate(stripped):
        if line.startswith(("```", "~~~")):
            marker = line[:3]
            fence = "" if fence == marker else fence or marker
            continue
        if fence or not line:
            continue
        kind = text = None
        if match := _HEADING.match(line):
            kind, text = "heading", match.group(1)
        elif match := _LIST_ITEM.match(line):
            kind, text = "list item", match.group(1)
        elif (
            line.startswith("|") or piped[i] and (i and piped[i - 1] or i + 1 < len(piped) and piped[i + 1])
        ) and not _TABLE_SEPARATOR.match(line):
            kind, text = "table row", line
        if kind and text is not None and (words := _words(text)):
            lines[kind, words] += 1
    return lines


@dataclass
class MarkdownScores:
    """Structure lines of one extractor over the pages: per kind, how many the output has
    (``found``), the gold has (``gold``), and both have (``matched``)."""

    label: str
    pages: int
    found: dict[str, int]
    gold: dict[str, int]
    matched: dict[str, int]

    def precision(self, kind: str | None = None) -> float | None:
        found = self.found[kind] if kind else sum(self.found.values())
        matched = self.matched[kind] if kind else sum(self.matched.values())
        return matched / found if found else None

    def recall(self, kind: str | None = None) -> float | None:
        gold = self.gold[kind] if kind else sum(self.gold.values())
        matched = self.matched[kind] if kind else sum(self.matched.values())
        return matched / gold if gold else None

    def f1(self, kind: str | None = None) -> float | None:
        p, r = self.precision(kind), self.recall(kind)
        return 2 * p * r / (p + r) if p is not None and r is not None and p + r else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "pages": self.pages,
            **{
                kind or "all": {"precision": self.precision(kind), "recall": self.recall(kind), "f1": self.f1(kind)}
                for kind in (*KINDS, None)
            },
            "found": self.found,
            "gold": self.gold,
            "matched": self.matched,
        }


def _gold_markdown(page: GoldPage) -> str | None:
    path = Path(page.html_path).parent.parent / "ground-truth" / f"{page.page_id}.json"
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    value = (record.get("ground_truth") or {}).get("main_content_markdown")
    return value if isinstance(value, str) else None


def _score_chunk(pages: Sequence[GoldPage], algorithms: Sequence[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The worker: per page with a gold Markdown, per algorithm, the counts per kind."""
    results = []
    for page in pages:
        gold_markdown = _gold_markdown(page)
        if gold_markdown is None:
            continue
        gold = structure_lines(gold_markdown)
        html = read_page_html(page)
        row: dict[str, Any] = {}
        for name, params in algorithms:
            try:
                markdown = extract(html, algorithm=name, url=page.url, with_html=False, with_markdown=True, **params)
                found = structure_lines(markdown.markdown)
            except Exception:  # noqa: BLE001 - a failing extraction finds nothing
                found = Counter()
            row[name] = {
                kind: (
                    sum(c for (k, _), c in found.items() if k == kind),
                    sum(c for (k, _), c in gold.items() if k == kind),
                    sum(min(c, gold[key]) for key, c in found.items() if key[0] == kind),
                )
                for kind in KINDS
            }
        results.append(row)
    return results


def score_markdown(
    pages: Sequence[GoldPage], algorithms: Sequence[tuple[str, dict[str, Any]]], jobs: int = 1
) -> list[MarkdownScores]:
    """Score each ``(algorithm, params)``'s Markdown structure on ``pages``."""
    from .runner import map_pages

    rows = map_pages(_score_chunk, pages, (list(algorithms),), jobs, "markdown")
    scores = []
    for name, params in algorithms:
        options = ", ".join(f"{k}={v}" for k, v in sorted(params.items()))
        totals = {part: dict.fromkeys(KINDS, 0) for part in ("found", "gold", "matched")}
        for row in rows:
            for kind, counts in row[name].items():
                for part, count in zip(("found", "gold", "matched"), counts):
                    totals[part][kind] += count
        label = f"{name} ({options})" if options else name
        scores.append(MarkdownScores(label, len(rows), totals["found"], totals["gold"], totals["matched"]))
    return scores


def markdown_report(scores: Sequence[MarkdownScores], dataset: str, selection: dict[str, Any]) -> str:
    """A Markdown table: per extractor, precision and recall per kind, and in all."""

    def cell(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    chosen = ", ".join(f"{k}={v}" for k, v in selection.items())
    pages = scores[0].pages if scores else 0
    gold = scores[0].gold if scores else dict.fromkeys(KINDS, 0)
    lines = [
        f"{dataset}: Markdown structure on {pages} pages with a gold Markdown{f' ({chosen})' if chosen else ''}; "
        f"gold lines: {', '.join(f'{gold[k]} {k}s' for k in KINDS)}",
        "",
        "| extractor | " + " | ".join(f"{k} P | {k} R" for k in KINDS) + " | all P | all R | all F1 |",
        "| --- |" + " ---: |" * (2 * len(KINDS) + 3),
    ]
    for s in scores:
        values = [v for k in KINDS for v in (s.precision(k), s.recall(k))]
        values += [s.precision(), s.recall(), s.f1()]
        lines.append(f"| {s.label} | " + " | ".join(map(cell, values)) + " |")
    return "\n".join(lines) + "\n"
