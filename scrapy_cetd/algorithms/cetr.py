"""CETR: Content Extraction via Tag Ratios (Weninger, Hsu, Han, WWW 2010; docs/algorithms.md, line-based).

Three registered variants, all line-based:

- ``cetr-tm``: threshold on the smoothed tag ratios, ``TR'_i >= lambda * std(TR')``
  (section 4.2; the threshold coefficient is ``lambda``, default 1),
- ``cetr-km``: 1-D k-means (k = 3) on ``TR'``; the cluster nearest 0 is noise
  (section 4.3),
- ``cetr``: the paper's final method, k-means (k = 3) on the points ``(TR'_i, |G'_i|)``
  with one centroid pinned to the origin; the origin's cluster is noise (section 5).
  Clustering has no threshold: ``cetr-km`` and ``cetr`` ignore the threshold coefficient.

The source lines are re-created from the cleaned tree (see :mod:`._lines`): scripts,
styles and comments are gone, as Algorithm 1 requires, and ``extract()`` and
``extract_tree()`` see the same lines.  A line's non-tag characters are its text with
whitespace runs collapsed (the project's definition of characters).  The content lines
map back to DOM text runs, so the renderer gives both text and cleaned HTML: a run is
content when at least half of its characters lie on content lines (the tag-stripped
content lines themselves are in ``Selection.lines``).

**Interpretations**:

- a page has "(almost) no line breaks" (section 5.3) when its lines average more than
  :data:`LONG_LINE` characters of markup and text; it is then cut every 65 characters;
- a page without tags (section 5.3: "we assume that tagless webpages contain only
  content") is one whose body holds no element: all its lines are content;
- the paper starts k-means from a random partition; we start from the deterministic
  partition "line ``i`` in cluster ``i mod k``" and run Lloyd's iterations to a fixed
  point (ties go to the lower-numbered centroid);
- near the end of the page the derivative averages the lines that exist (fewer than
  ``alpha``); the last line's ``G`` is 0, so ``len(G) = len(TR')``.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from operator import mul

from ..extraction import Selection
from ..page import Page
from ..registry import Algorithm, Param, register
from ._lines import TEXT, Line, content_runs, split_lines, tokens

__all__ = [
    "LONG_LINE",
    "REBREAK_WIDTH",
    "absolute_smoothed_derivative",
    "cetr_lines",
    "gaussian_smooth",
    "kmeans_1d",
    "kmeans_pinned_origin",
    "tag_ratios",
]

#: Section 5.3: single-line pages get a line break every 65 characters.
REBREAK_WIDTH = 65
#: A page whose lines average more characters than this has "almost no line breaks".
LONG_LINE = 1000
#: k-means gives up after this many Lloyd iterations (it normally converges long before).
MAX_ITERATIONS = 100


def cetr_lines(page: Page) -> list[Line]:
    """The page's non-empty source lines (the CETR paper, Algorithm 1 and section 5.3).

    A page whose lines average more than :data:`LONG_LINE` characters (markup and
    text) is re-broken every :data:`REBREAK_WIDTH` characters, each break moved to the
    next position that is not inside a tag.
    """
    stream = tokens(page)
    lines = split_lines(stream)
    size = sum(len(value) if kind == TEXT else extra for kind, value, extra, _ in stream)
    if lines and size > LONG_LINE * len(lines):
        lines = split_lines(stream, width=REBREAK_WIDTH)
    return lines


def tag_ratios(lines: Sequence[Line]) -> list[float]:
    """``TR_i = non-tag characters of line i / tags on line i``, 0 tags read as 1 (Algorithm 1)."""
    return [line.chars / (line.tags or 1) for line in lines]


def gaussian_smooth(values: Sequence[float]) -> list[float]:
    """Gaussian smoothing (the CETR paper, equations 1-3).

    ``sigma = std(values)``, radius ``r = ceil(sigma)``, ``k_j = exp(-j^2 / (2 sigma^2))``
    for ``-r <= j <= r``; ``out_i = sum_j k_j values_{i+j} / sum_j k_j`` over the ``j``
    that fall inside the array (the kernel renormalized at the ends).
    """
    n = len(values)
    sigma = _std(values)
    radius = min(math.ceil(sigma), n - 1)
    if radius <= 0:
        return list(values)
    two_var = 2.0 * sigma * sigma
    kernel = [math.exp(-j * j / two_var) for j in range(-radius, radius + 1)]
    prefix = [0.0]
    for k in kernel:
        prefix.append(prefix[-1] + k)
    out = []
    for i in range(n):
        lo = max(0, i - radius)
        hi = min(n, i + radius + 1)
        k_lo = lo - i + radius
        k_hi = hi - i + radius
        weighted = sum(map(mul, kernel[k_lo:k_hi], values[lo:hi]))
        out.append(weighted / (prefix[k_hi] - prefix[k_lo]))
    return out


def absolute_smoothed_derivative(smoothed: Sequence[float], alpha: int) -> list[float]:
    """``dG_i = |G'_i|`` (the CETR paper, section 5.1, equation 4).

    ``G_i = mean(TR'_{i+1..i+alpha}) - TR'_i``, smoothed like ``TR`` to ``G'``.
    **Interpretation**: near the end the mean is over the lines that exist; the last
    line has ``G = 0``, so ``len(G) = len(TR')``.
    """
    n = len(smoothed)
    derivative = []
    for i in range(n):
        following = smoothed[i + 1 : i + 1 + alpha]
        derivative.append(sum(following) / len(following) - smoothed[i] if following else 0.0)
    return [abs(g) for g in gaussian_smooth(derivative)]


def kmeans_1d(values: Sequence[float], k: int = 3) -> list[bool]:
    """CETR-KM's labels (the CETR paper, section 4.3): ``True`` for content.

    Lloyd's k-means on the values.  The paper starts from a random partition; we start
    from the deterministic partition "line ``i`` in cluster ``i mod k``" (like a random
    one, its centroids start near the mean) and iterate to a fixed point.  In one
    dimension each cluster is an interval of the sorted values, so an iteration is a
    binary search per centroid; a value halfway between two centroids goes to the lower
    one.  The cluster whose centroid is nearest 0 is noise, the others content.
    """
    n = len(values)
    if n == 0:
        return []
    ordered = sorted(values)
    prefix = [0.0]
    for v in ordered:
        prefix.append(prefix[-1] + v)
    centroids = sorted(sum(values[c::k]) / len(values[c::k]) for c in range(min(k, n)))
    bounds = [0, n]
    for _ in range(MAX_ITERATIONS):
        midpoints = [(a + b) / 2 for a, b in zip(centroids, centroids[1:])]
        bounds = [0, *(bisect_right(ordered, m) for m in midpoints), n]
        new = [
            (prefix[hi] - prefix[lo]) / (hi - lo) if hi > lo else centroid
            for centroid, lo, hi in zip(centroids, bounds, bounds[1:])
        ]
        if new == centroids:
            break
        centroids = new
    noise = min(range(len(centroids)), key=lambda c: abs(centroids[c]))
    midpoints = [(a + b) / 2 for a, b in zip(centroids, centroids[1:])]
    return [bisect_left(midpoints, v) != noise for v in values]


def kmeans_pinned_origin(points: Sequence[tuple[float, float]], k: int = 3) -> list[bool]:
    """CETR's clustering (the CETR paper, section 5.2): ``True`` for content.

    k-means where centroid 0 is set to the origin at every iteration.  Start: the
    partition "point ``i`` in cluster ``i mod k``" (the paper's start is a random
    partition), then Lloyd's iterations to a fixed point; a point equally near two
    centroids goes to the lower-numbered one.  Points of the origin cluster are noise,
    all others content.

    Nearest centroid: ``|p - c|^2 = |p|^2 + (|c|^2 - 2 p.c)``; the origin's score
    ``|c|^2 - 2 p.c`` is 0, so each point compares those scores only.
    """
    n = len(points)
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    labels = [i % k for i in range(n)]
    for _ in range(MAX_ITERATIONS):
        sum_x = [0.0] * k
        sum_y = [0.0] * k
        count = [0] * k
        for label, x, y in zip(labels, xs, ys):
            sum_x[label] += x
            sum_y[label] += y
            count[label] += 1
        new = [0] * n
        best = [0.0] * n
        for c in range(1, k):
            if not count[c]:
                continue
            cx, cy = sum_x[c] / count[c], sum_y[c] / count[c]
            norm = cx * cx + cy * cy
            scores = [norm - 2.0 * (x * cx + y * cy) for x, y in zip(xs, ys)]
            new = [c if score < b else label for score, b, label in zip(scores, best, new)]
            best = [score if score < b else b for score, b in zip(scores, best)]
        if new == labels:
            break
        labels = new
    return [label != 0 for label in labels]


def _std(values: Sequence[float]) -> float:
    """Population standard deviation (``statistics.pstdev`` in plain floats, much faster)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / n)


def _selection(page: Page, lines: Sequence[Line], is_content: Sequence[bool], threshold: float | None,
               diagnostics: dict[str, object]) -> Selection:
    texts = [line.text for line, content in zip(lines, is_content) if content]
    diagnostics["lines"] = len(lines)
    diagnostics["content_lines"] = len(texts)
    return Selection(
        threshold=threshold,
        runs=content_runs(lines, is_content),
        lines=[text for text in texts if text],
        diagnostics=diagnostics,
    )


def _tagless(page: Page, lines: Sequence[Line]) -> Selection:
    """Section 5.3: a page without tags has no tag ratios; all its text is content."""
    return _selection(page, lines, [True] * len(lines), None, {"tagless": True})


def _cetr_tm(page: Page, coefficient: float) -> Selection:
    """CETR-TM (section 4.2): line ``i`` is content if ``TR'_i >= lambda * std(TR')``."""
    lines = cetr_lines(page)
    if len(page) <= 1:
        return _tagless(page, lines)
    smoothed = gaussian_smooth(tag_ratios(lines))
    threshold = coefficient * _std(smoothed)
    return _selection(page, lines, [value >= threshold for value in smoothed], threshold, {})


def _cetr_km(page: Page, coefficient: float) -> Selection:
    """CETR-KM (section 4.3): k-means (k = 3) on ``TR'``; the cluster nearest 0 is noise."""
    lines = cetr_lines(page)
    if len(page) <= 1:
        return _tagless(page, lines)
    return _selection(page, lines, kmeans_1d(gaussian_smooth(tag_ratios(lines))), None, {})


def _cetr(page: Page, coefficient: float, alpha: int) -> Selection:
    """CETR (section 5): cluster ``(TR'_i, |G'_i|)`` with the origin-pinned k-means."""
    lines = cetr_lines(page)
    if len(page) <= 1:
        return _tagless(page, lines)
    smoothed = gaussian_smooth(tag_ratios(lines))
    points = list(zip(smoothed, absolute_smoothed_derivative(smoothed, alpha)))
    return _selection(page, lines, kmeans_pinned_origin(points), None, {})


_PAPER = "Weninger, Hsu, Han: CETR - Content Extraction via Tag Ratios, WWW 2010"
_ALPHA = Param(3, 1, 100, integer=True, doc="lines ahead averaged by the derivative G (section 5.1)")

register(Algorithm("cetr-tm", _cetr_tm, 1.0, _PAPER, "smoothed tag ratios >= lambda * std (threshold method)"))
register(Algorithm("cetr-km", _cetr_km, 1.0, _PAPER, "1-D k-means (k=3) on smoothed tag ratios"))
register(Algorithm(
    "cetr", _cetr, 1.0, _PAPER, "2-D k-means on tag ratios and their derivative, one centroid pinned at the origin",
    params={"alpha": _ALPHA},
))
