"""CETD: Content Extraction via Text Density (Sun, Song, Liao, SIGIR 2011; docs/algorithms.md, CETD).

Three registered variants:

- ``cetd-ds``: text density + DensitySum,
- ``cectd-ds``: composite text density + DensitySum (the paper's best; our default),
- ``cectd-s``: composite text density + data smoothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..extraction import Selection
from ..page import Page
from ..registry import Algorithm, register

__all__ = [
    "densitysum_selection",
    "densitysum_threshold",
    "extract_content",
    "smoothing_selection",
    "subtree_best",
    "top_block",
]


def subtree_best(page: Page, density_sum: Sequence[float]) -> list[int]:
    """For each element, the element of largest DensitySum in its subtree (itself included)."""
    n = len(density_sum)
    best = list(range(n))
    value = list(density_sum)  # value[i] == density_sum[best[i]]
    for i, p in zip(range(n - 1, 0, -1), reversed(page.parent)):
        if value[i] > value[p]:
            value[p] = value[i]
            best[p] = best[i]
    return best


def extract_content(page: Page, passes: Sequence[bool], best: Sequence[int], top: int) -> list[int]:
    """``ExtractContent`` (the CETD paper, Algorithm 2) from body: each element at or above the
    threshold (``passes``) marks the element of largest DensitySum in its subtree
    (``best``; body marks ``top``) and is descended into.  One preorder pass replaces the
    recursion: an element is visited iff it and all its ancestors pass, so a failing
    element's subtree is skipped.  Returns the distinct marked blocks in document order
    of discovery."""
    n, end = len(passes), page.end
    if not n or not passes[0]:
        return []
    marked = [top]
    seen = {top}
    i = 1
    while i < n:
        if not passes[i]:
            i = end[i]
            continue
        block = best[i]
        if block not in seen:
            seen.add(block)
            marked.append(block)
        i += 1
    return marked


def top_block(density_sum: Sequence[float]) -> int:
    """``M``: the first element under body (index 0) with the largest DensitySum."""
    return density_sum.index(max(density_sum[1:]), 1)


def densitysum_threshold(
    page: Page, density: Sequence[float] | np.ndarray, top: int, coefficient: float
) -> float:
    """The threshold (the CETD paper, section 4.2): the smallest density on the path from the top
    block ``M`` up to body, times the threshold coefficient."""
    return float(min(density[i] for i in page.path_to_body(top)) * coefficient)


def densitysum_selection(
    page: Page, density: Sequence[float], density_sum: Sequence[float], coefficient: float
) -> Selection:
    """Threshold and ``ExtractContent`` (the CETD paper, section 4.2 and Algorithm 2).

    1. ``M``: the element under body with the largest DensitySum.
    2. Threshold ``t``: the smallest density on the path from ``M`` up to body, times the
       threshold coefficient (the paper's Figure 5 beta; 0 keeps every node).
    3. ``ExtractContent(N)``: if ``density(N) >= t``, mark the element of largest
       DensitySum in ``N``'s subtree as content and recurse into ``N``'s children (run here
       as one preorder scan, :func:`extract_content`).  For body, that element is ``M``
       (body itself is never marked: it is the page, not a block of it).
    """
    n = len(page)
    if n <= 1 or page.chars[0] == 0:
        return Selection(threshold=None, subtrees={0} if page.chars and page.chars[0] else set())
    top = top_block(density_sum)
    threshold = densitysum_threshold(page, density, top, coefficient)
    if threshold <= 0:
        return Selection(threshold=threshold, subtrees={0}, diagnostics={"top_block": top})
    passes = list(map(threshold.__le__, density))
    marked = extract_content(page, passes, subtree_best(page, density_sum), top)
    return Selection(threshold=threshold, subtrees=set(marked), diagnostics={"top_block": top})


def smoothing_selection(page: Page, density: Sequence[float], coefficient: float) -> Selection:
    """CECTD-S (the CETD paper, section 5): data smoothing instead of DensitySum.

    **Interpretation**: each element's density is replaced by the weighted average
    ``(d_prev + 2 d + d_next) / 4`` over its siblings (weights renormalised at the ends of
    a sibling list); walking down from body, an element whose smoothed density is at least
    ``coefficient * density(body)`` is content with its whole subtree.
    """
    n = len(page)
    if n == 0 or page.chars[0] == 0:
        return Selection(threshold=None)
    threshold = density[0] * coefficient
    if n == 1 or threshold <= 0:
        return Selection(threshold=threshold, subtrees={0})
    marked: set[int] = set()
    stack = [0]
    while stack:
        kids = page.children_of(stack.pop())
        last = len(kids) - 1
        for k, child in enumerate(kids):
            total = 2.0 * density[child]
            weight = 2.0
            if k > 0:
                total += density[kids[k - 1]]
                weight += 1.0
            if k < last:
                total += density[kids[k + 1]]
                weight += 1.0
            if total / weight >= threshold:
                marked.add(child)
            else:
                stack.append(child)
    return Selection(threshold=threshold, subtrees=marked)


def _cetd_ds(page: Page, coefficient: float) -> Selection:
    density = page.text_density
    return densitysum_selection(page, density, page.density_sum(density, composite=False), coefficient)


def _cectd_ds(page: Page, coefficient: float) -> Selection:
    density = page.composite_text_density
    return densitysum_selection(page, density, page.density_sum(density, composite=True), coefficient)


def _cectd_s(page: Page, coefficient: float) -> Selection:
    return smoothing_selection(page, page.composite_text_density, coefficient)


_PAPER = "Sun, Song, Liao: CETD: Content Extraction via Text Density, SIGIR 2011"

register(Algorithm("cetd-ds", _cetd_ds, 1.0, _PAPER, "text density + DensitySum"))
register(Algorithm("cectd-ds", _cectd_ds, 1.0, _PAPER, "composite text density + DensitySum"))
register(Algorithm("cectd-s", _cectd_s, 1.0, _PAPER, "composite text density + data smoothing"))
