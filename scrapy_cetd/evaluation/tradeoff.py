"""The precision/recall tradeoff against the threshold coefficient.

The seed papers plot mean precision, recall and F1 while the threshold coefficient grows:
CETD's Figure 5 (Yahoo!), CETR's Figure 6 (NY Times, 0 to 2) and CEPR's
Figure 9 (NY Post).  :func:`sweep` measures the same curve on a dataset: each page is
parsed once into a :class:`~scrapy_cetd.page.Page` and the algorithm is run on it at every
coefficient.  :func:`plot_tradeoff` draws it with matplotlib (the ``plot`` extra).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..api import extract_tree
from ..page import Page
from ..parsing import EmptyDocument, parse_html
from ..registry import get_algorithm
from .datasets import GoldPage, read_page_html
from .metrics import Scores
from .runner import map_pages, mean_lcs, mean_scores, score_text

__all__ = ["DEFAULT_COEFFICIENTS", "TradeoffPoint", "plot_tradeoff", "require_matplotlib", "sweep"]

DEFAULT_COEFFICIENTS = tuple(round(0.1 * i, 1) for i in range(21))


@dataclass(frozen=True)
class TradeoffPoint:
    """Mean scores at one threshold coefficient."""

    coefficient: float
    scores: Scores


def sweep_pages(
    pages: Sequence[GoldPage], algorithm: str, coefficients: Sequence[float], params: Mapping[str, Any], metric: str
) -> list[list[dict[str, Any]]]:
    """The worker: per page, the scores (see ``score_text``) at each coefficient."""
    rows = []
    for gold_page in pages:
        html = read_page_html(gold_page)
        try:
            page: Page | None = Page.from_tree(parse_html(html), gold_page.url)
        except EmptyDocument:
            page = None
        row = []
        for coefficient in coefficients:
            text = ""
            if page is not None:
                text = extract_tree(page, algorithm=algorithm, threshold_coefficient=coefficient, **params).text
            row.append(score_text(text, gold_page.gold, metric))
        rows.append(row)
    return rows


def sweep(
    pages: Sequence[GoldPage],
    algorithm: str,
    coefficients: Sequence[float] = DEFAULT_COEFFICIENTS,
    *,
    params: Mapping[str, Any] | None = None,
    metric: str = "word",
    use_lcs: bool = False,
    jobs: int = 1,
) -> list[TradeoffPoint]:
    """Mean precision/recall/F1 at each coefficient (the dataset's ``metric``, or the LCS
    metric with ``use_lcs``).  Coefficients beyond the algorithm's maximum are refused."""
    spec = get_algorithm(algorithm)
    for coefficient in coefficients:
        spec.resolve(coefficient, dict(params or {}))
    rows = map_pages(sweep_pages, pages, (algorithm, list(coefficients), dict(params or {}), metric), jobs, "tradeoff")
    points = []
    for column, coefficient in enumerate(coefficients):
        outcomes = [row[column] for row in rows]
        scores = mean_lcs(outcomes) if use_lcs else mean_scores(outcomes, metric)
        points.append(TradeoffPoint(coefficient, Scores(scores.precision, scores.recall, scores.f1)))
    return points


def require_matplotlib() -> None:
    """Raise ``RuntimeError`` with the install hint when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise RuntimeError(
            "the tradeoff plot needs matplotlib: pip install 'scrapy-cetd[plot]' (or pip install matplotlib)"
        ) from None


def plot_tradeoff(
    points: Sequence[TradeoffPoint], out: str | Path, *, title: str, default_coefficient: float | None = None
) -> None:
    """Draw precision, recall and F1 against the coefficient into an image file (PNG, SVG...)."""
    require_matplotlib()
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4.5), dpi=120)
    axes = figure.subplots()
    xs = [p.coefficient for p in points]
    axes.plot(xs, [p.scores.precision for p in points], marker="o", markersize=3, label="precision")
    axes.plot(xs, [p.scores.recall for p in points], marker="s", markersize=3, label="recall")
    axes.plot(xs, [p.scores.f1 for p in points], marker="^", markersize=3, linewidth=2, label="F1")
    if default_coefficient is not None and xs and min(xs) <= default_coefficient <= max(xs):
        axes.axvline(default_coefficient, color="grey", linestyle=":", label=f"default ({default_coefficient:g})")
    axes.set_xlabel("threshold coefficient")
    axes.set_ylabel("mean score")
    axes.set_ylim(0, 1.02)
    axes.grid(True, alpha=0.3)
    axes.set_title(title, fontsize=10)
    axes.legend(loc="lower left", fontsize=8)
    figure.tight_layout()
    figure.savefig(out)
