"""Reports of an evaluation run: a markdown table for the README, and JSON."""

from __future__ import annotations

import json
import math
from pathlib import Path

from .runner import EvaluationRun

__all__ = ["markdown_report", "sets_report", "write_json"]

_METRIC_NAMES = {
    "word": "word-bag P/R/F1 (WCXB)",
    "shingle": "4-gram shingle P/R/F1 (article benchmark)",
    "snippet": "with/without snippet P/R/F1 over all pages (trafilatura's evaluation)",
}
#: A language gets its own column when this many pages declare it.
MIN_LANGUAGE_PAGES = 5


def _number(value: float | None) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.3f}"


def _table(rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(row) + " |" for row in rows]


def _language_table(run: EvaluationRun) -> list[str]:
    """F1 per declared language (languages with :data:`MIN_LANGUAGE_PAGES` pages or more)."""
    languages = [(lang, n) for lang, n in run.language_counts().items() if n >= MIN_LANGUAGE_PAGES]
    if len(languages) < 2:
        return []
    rows = [["extractor"] + [f"{lang} ({n})" for lang, n in languages]]
    rows.append(["---"] + ["---:"] * len(languages))
    for summary in run.summaries:
        rows.append([summary.label] + [_number(summary.by_language.get(lang)) for lang, _ in languages])
    undeclared = len(run.results) - sum(run.language_counts().values())
    caption = f"F1 by the language the page declares ({undeclared} page(s) declare none; languages with fewer than "
    caption += f"{MIN_LANGUAGE_PAGES} pages not shown):"
    return ["", caption, "", *_table(rows)]


def markdown_report(run: EvaluationRun) -> str:
    """A caption line and one table row per extractor, plus the lxml parse reference.

    Columns: the dataset's F1, P, R; LCS P, R, F1 (seed papers); F1 per page type (most
    frequent type first); median ms per page, total seconds, and the median's ratio to
    the median of lxml's parse of the same pages, timed just before the extractor on each
    page (CPU or wall time, as the run was told).  The reference row: lxml's median time.
    """
    types = list(run.page_type_counts())
    with_errors = any(s.errors for s in run.summaries)
    snippets = run.metric == "snippet"
    header = ["extractor", "F1", "P", "R"] + (["accuracy"] if snippets else ["LCS P", "LCS R", "LCS F1"])
    header += [f"{t} F1" for t in types]
    header += ["median ms/page", "total s", "x lxml"]
    if with_errors:
        header.append("errors")
    rows = [header, ["---"] + ["---:"] * (len(header) - 1)]
    for summary in run.summaries:
        row = [summary.label, _number(summary.scores.f1), _number(summary.scores.precision)]
        row += [_number(summary.scores.recall)]
        if summary.lcs is None:
            row += [_number(summary.accuracy)]
        else:
            row += [_number(summary.lcs.precision), _number(summary.lcs.recall), _number(summary.lcs.f1)]
        row += [_number(summary.by_type.get(t, math.nan)) for t in types]
        row += [f"{summary.median_ms:.2f}", f"{summary.total_ms / 1000:.1f}", f"{summary.ratio_to_lxml:.1f}"]
        if with_errors:
            row.append(str(summary.errors))
        rows.append(row)
    reference = ["lxml parse alone (reference)"] + ["-"] * (len(header) - 4 - with_errors)
    reference += [f"{run.lxml_median_ms:.2f}", f"{run.lxml_total_ms / 1000:.1f}", "1.0"]
    if with_errors:
        reference.append("-")
    rows.append(reference)
    type_note = ", ".join(f"{t} {n}" for t, n in run.page_type_counts().items())
    caption = (
        f"{Path(run.dataset).name or run.dataset}: {len(run.results)} pages"
        + (f" ({type_note})" if type_note else "")
        + f"; {_METRIC_NAMES.get(run.metric, run.metric)}"
        + ("; " if snippets else "; LCS over word sequences; ")
        + f"times: {run.timer} ms per page"
        + (", algorithms with their cleaned HTML" if any(e.with_html for e in run.extractors) else ", text output")
        + f"; {run.jobs} job(s), wall time {run.wall_seconds:.1f} s"
    )
    lines = [caption, "", *_table(rows), *_language_table(run)]
    return "\n".join(lines) + "\n"


def sets_report(runs: list[EvaluationRun]) -> str:
    """One table over several datasets: each extractor's F1 (each set's own metric), and
    its median time as a ratio to lxml's parse of the same pages in the same run."""
    labels = list(dict.fromkeys(s.label for run in runs for s in run.summaries))
    names = [Path(run.dataset).resolve().name or run.dataset for run in runs]
    rows = [["extractor"] + [f"{name} F1" for name in names] + [f"{name} x lxml" for name in names]]
    rows.append(["---"] + ["---:"] * (2 * len(runs)))
    for label in labels:
        found = [next((s for s in run.summaries if s.label == label), None) for run in runs]
        row = [label] + [_number(s.scores.f1) if s else "-" for s in found]
        row += [f"{s.ratio_to_lxml:.1f}" if s else "-" for s in found]
        rows.append(row)
    sets = [f"{name}: {len(r.results)} pages, {_METRIC_NAMES.get(r.metric, r.metric)}" for name, r in zip(names, runs)]
    caption = "All sets, each with its own metric (" + "; ".join(sets) + "):"
    return "\n".join([caption, "", *_table(rows)]) + "\n"


def write_json(run: EvaluationRun, path: str | Path) -> None:
    """Everything the run measured, per page included, as JSON."""
    Path(path).write_text(json.dumps(run.to_dict(), indent=1, sort_keys=False) + "\n", encoding="utf-8")
