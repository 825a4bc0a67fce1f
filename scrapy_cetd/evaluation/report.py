"""Reports of an evaluation run: a markdown table for the README, and JSON."""

from __future__ import annotations

import json
import math
from pathlib import Path

from .runner import EvaluationRun

__all__ = ["markdown_report", "write_json"]

_METRIC_NAMES = {"word": "word-bag P/R/F1 (WCXB)", "shingle": "4-gram shingle P/R/F1 (article benchmark)"}


def _number(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.3f}"


def markdown_report(run: EvaluationRun) -> str:
    """A caption line and one table row per extractor, plus the lxml parse reference.

    Columns: the dataset's F1, P, R; LCS P, R, F1 (seed papers); F1 per page type (most
    frequent type first); median ms per page, total seconds, and the median's ratio to
    the median of lxml's parse of the same pages, timed just before the extractor on each
    page (CPU or wall time, as the run was told).  The reference row: lxml's median time.
    """
    types = list(run.page_type_counts())
    with_errors = any(s.errors for s in run.summaries)
    header = ["extractor", "F1", "P", "R", "LCS P", "LCS R", "LCS F1"]
    header += [f"{t} F1" for t in types]
    header += ["median ms/page", "total s", "x lxml"]
    if with_errors:
        header.append("errors")
    rows = [header, ["---"] + ["---:"] * (len(header) - 1)]
    for summary in run.summaries:
        row = [summary.label, _number(summary.scores.f1), _number(summary.scores.precision)]
        row += [_number(summary.scores.recall), _number(summary.lcs.precision), _number(summary.lcs.recall)]
        row += [_number(summary.lcs.f1)]
        row += [_number(summary.by_type.get(t, math.nan)) for t in types]
        row += [f"{summary.median_ms:.2f}", f"{summary.total_ms / 1000:.1f}", f"{summary.ratio_to_lxml:.1f}"]
        if with_errors:
            row.append(str(summary.errors))
        rows.append(row)
    reference = ["lxml parse alone (reference)"] + ["-"] * (6 + len(types))
    reference += [f"{run.lxml_median_ms:.2f}", f"{run.lxml_total_ms / 1000:.1f}", "1.0"]
    if with_errors:
        reference.append("-")
    rows.append(reference)
    type_note = ", ".join(f"{t} {n}" for t, n in run.page_type_counts().items())
    caption = (
        f"{Path(run.dataset).name or run.dataset}: {len(run.results)} pages"
        + (f" ({type_note})" if type_note else "")
        + f"; {_METRIC_NAMES.get(run.metric, run.metric)}; LCS over word sequences; "
        + f"times: {run.timer} ms per page"
        + (", algorithms with their cleaned HTML" if any(e.with_html for e in run.extractors) else ", text output")
        + f"; {run.jobs} job(s), wall time {run.wall_seconds:.1f} s"
    )
    lines = [caption, ""] + ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def write_json(run: EvaluationRun, path: str | Path) -> None:
    """Everything the run measured, per page included, as JSON."""
    Path(path).write_text(json.dumps(run.to_dict(), indent=1, sort_keys=False) + "\n", encoding="utf-8")
