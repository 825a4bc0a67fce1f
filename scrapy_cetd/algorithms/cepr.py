"""CEPR: Content Extraction via Path Ratios (Wu, Li, Hu, Wu, CIKM 2013; docs/algorithms.md, CEPR).

Wu, Li, Hu, Wu: "Web News Extraction via Path Ratios", CIKM 2013.  Three registered
variants, differing only in the histogram that is thresholded:

- ``cepr-tpr``: Text to tag Path Ratio (Definition 3), threshold coefficient 1.7,
- ``cepr-etpr``: Extended TPR (Definition 4), 0.7,
- ``cepr-setpr``: ETPR after Gaussian smoothing weighted by tag-path edit distance
  (section 4, Equations 3-6), 0.8 (section 5.2).

The text nodes are the page's text runs (:mod:`scrapy_cetd.page`): run ``k``'s text node
lives in element ``page.run_owner[k]``, and its tag path (Definition 2) is the tag names
from the root ``html`` down to that element.  Distinct paths are interned once in a trie
(a path is its parent path plus one tag), so every step is linear in the number of
elements and text nodes, except the edit distances of SETPR, which are computed once per
distinct pair of paths that meet in a smoothing window.
"""

from __future__ import annotations

import math
import sys
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ..extraction import Selection
from ..page import Page, element_text
from ..registry import Algorithm, Param, register

__all__ = [
    "PathStats",
    "TagPaths",
    "cepr_selection",
    "extended_text_to_path_ratios",
    "path_edit_distance",
    "path_statistics",
    "punctuation_count",
    "smooth",
    "tag_paths",
    "text_to_path_ratios",
]

#: The heading that holds a page's displayed title.
TITLE_HEADING = "h1"

#: ``exp(-x)`` is exactly 0.0 in double precision for every ``x`` at or above this.
_EXP_UNDERFLOW = 746.0


@cache
def _punctuation_table() -> dict[int, None]:
    """``str.translate`` table deleting every Unicode punctuation character (categories P*)."""
    return dict.fromkeys(c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c))[0] == "P")


def punctuation_count(text: str) -> int:
    """``puncNum`` of one text node: its Unicode punctuation marks (categories P*).

    Covers every script: the Chinese full stop and comma, Arabic, Devanagari danda...
    """
    return len(text) - len(text.translate(_punctuation_table()))


@dataclass
class TagPaths:
    """The distinct tag paths of a page as a trie: path ``p`` is ``parent[p]`` plus ``tag[p]``.

    ``element_path[i]`` is the path id of element ``i`` (Definition 2: the tags from the
    root down to the element, the element included); ``node_path[k]`` the path of text
    node (run) ``k``, i.e. of its owner element.
    """

    parent: list[int]
    tag: list[str]
    depth: list[int]
    element_path: list[int]
    node_path: list[int]

    def tags_of(self, path: int) -> list[str]:
        """The tag sequence of ``path``, root first."""
        tags: list[str] = []
        while path >= 0:
            tags.append(self.tag[path])
            path = self.parent[path]
        tags.reverse()
        return tags


def tag_paths(page: Page) -> TagPaths:
    """Intern the tag path of every element in one preorder pass (no recursion)."""
    ids: dict[tuple[int, str], int] = {}
    parent: list[int] = []
    tag: list[str] = []
    depth: list[int] = []
    prefix = -1
    for ancestor in reversed(list(page.body.iterancestors())):
        ids[(prefix, ancestor.tag)] = len(tag)
        parent.append(prefix)
        tag.append(ancestor.tag)
        depth.append(len(depth) + 1)
        prefix = len(tag) - 1
    element_path: list[int] = []
    element_parent = page.parent
    for i, name in enumerate(page.tags):
        up = element_parent[i]
        up_path = element_path[up] if up >= 0 else prefix
        key = (up_path, name)
        path = ids.get(key)
        if path is None:
            path = ids[key] = len(tag)
            parent.append(up_path)
            tag.append(name)
            depth.append(depth[up_path] + 1 if up_path >= 0 else 1)
        element_path.append(path)
    node_path = [element_path[owner] for owner in page.run_owner]
    return TagPaths(parent, tag, depth, element_path, node_path)


@dataclass
class PathStats:
    """Per-path statistics over the text nodes having that path (section 3), by path id.

    ``path_num``: pathNum, ``txt_num``: txtNum (characters, whitespace collapsed),
    ``punc_num``: puncNum, ``txt_std`` and ``punc_std``: population standard deviations
    of the nodes' lengths and punctuation counts.  Paths with no text node have zeros.
    """

    path_num: list[int]
    txt_num: list[int]
    punc_num: list[int]
    txt_std: list[float]
    punc_std: list[float]


def _population_std(count: int, total: int, squares: int) -> float:
    """``sqrt(n * sum(x^2) - sum(x)^2) / n``, exact in integers before the square root."""
    return math.sqrt(count * squares - total * total) / count if count else 0.0


def path_statistics(page: Page, paths: TagPaths) -> PathStats:
    """pathNum, txtNum, puncNum and the two standard deviations per path, in one pass."""
    size = len(paths.tag)
    path_num = [0] * size
    txt_num = [0] * size
    txt_squares = [0] * size
    punc_num = [0] * size
    punc_squares = [0] * size
    for path, length, text in zip(paths.node_path, page.run_chars, page.run_text, strict=True):
        marks = punctuation_count(text)
        path_num[path] += 1
        txt_num[path] += length
        txt_squares[path] += length * length
        punc_num[path] += marks
        punc_squares[path] += marks * marks
    return PathStats(
        path_num,
        txt_num,
        punc_num,
        [_population_std(*v) for v in zip(path_num, txt_num, txt_squares, strict=True)],
        [_population_std(*v) for v in zip(path_num, punc_num, punc_squares, strict=True)],
    )


def text_to_path_ratios(stats: PathStats) -> list[float]:
    """Definition 3: ``TPR(p) = txtNum(p) / pathNum(p)`` (0 for paths without text)."""
    return [t / n if n else 0.0 for t, n in zip(stats.txt_num, stats.path_num, strict=True)]


def extended_text_to_path_ratios(stats: PathStats) -> list[float]:
    """Definition 4 (Equation 2): ``ETPR(p) = TPR(p) * (puncNum(p) / pathNum(p)) * txtNumStd(p) * puncNumStd(p)``.

    **Interpretation** (docs/algorithms.md, CEPR): the four factors the paper names;
    a path holding a single node has both deviations 0, so its ETPR is 0 (Example 3).
    """
    return [
        (t / n) * (p / n) * ts * ps if n else 0.0
        for t, n, p, ts, ps in zip(
            stats.txt_num, stats.path_num, stats.punc_num, stats.txt_std, stats.punc_std, strict=True
        )
    ]


#: Above this many table cells, edit distances use the diagonal method.
_FULL_TABLE_CELLS = 4096


def _levenshtein(x: Sequence[str], y: Sequence[str], cap: int) -> int:
    """``min(edit distance(x, y), cap)``, unit-cost insert, delete, substitute.

    Short sequences (the usual paths below a common ancestor) fill the whole table, row
    by row; long ones use :func:`_levenshtein_diagonal`.
    """
    n, m = len(x), len(y)
    if abs(n - m) >= cap or not n or not m:
        return min(n + m, cap)
    if n * m > _FULL_TABLE_CELLS:
        return _levenshtein_diagonal(x, y, cap)
    previous = list(range(m + 1))
    for i, xi in enumerate(x, 1):
        current = [i]
        best = i
        for j, yj in enumerate(y):
            best += 1  # insertion, from the left
            deletion = previous[j + 1] + 1
            if deletion < best:
                best = deletion
            substitution = previous[j] + (xi != yj)
            if substitution < best:
                best = substitution
            current.append(best)
        previous = current
    return min(previous[m], cap)


def _levenshtein_diagonal(x: Sequence[str], y: Sequence[str], cap: int) -> int:
    """``min(edit distance(x, y), cap)`` by Ukkonen's diagonal method.

    For ``e = 0, 1, ...`` edits, the furthest row reachable on each diagonal ``k = j - i``,
    sliding along equal tags for free: ``O(d * (d + |x| + |y|))`` for distance ``d``, so
    two long paths that differ in a few tags are cheap, and it stops at ``cap``.
    """
    n, m = len(x), len(y)
    target = m - n
    furthest: dict[int, int] = {}
    for edits in range(cap):
        reached: dict[int, int] = {}
        for k in range(max(-edits, -n), min(edits, m) + 1):
            if edits:
                # substitution (same diagonal), deletion (from k + 1), insertion (from k - 1)
                i = max(furthest.get(k, -2) + 1, furthest.get(k + 1, -2) + 1, furthest.get(k - 1, -2))
                i = min(i, n, m - k)
            else:
                i = 0
            if i < 0 or i + k < 0:
                continue
            while i < n and i + k < m and x[i] == y[i + k]:
                i += 1
            reached[k] = i
        if reached.get(target) == n:
            return edits
        furthest = reached
    return cap


def path_edit_distance(paths: TagPaths, a: int, b: int, cap: int) -> int:
    """``dist(p_a, p_b)`` of Equation 6, capped: the edit distance of the two tag sequences.

    The common prefix (the paths' lowest common ancestor in the trie) and the common
    suffix do not change the distance and are stripped first; the rest is compared
    deepest tag first, which is the same distance (reversing both sequences keeps it).  For text nodes at most
    ``r`` apart in document order the walk to the common ancestor is bounded by the DOM
    walk between them, so over a page it stays linear.
    """
    depth, parent, tag = paths.depth, paths.parent, paths.tag
    if abs(depth[a] - depth[b]) >= cap:
        return cap
    below_a: list[str] = []  # tags below the common prefix, deepest first
    below_b: list[str] = []
    while depth[a] > depth[b]:
        below_a.append(tag[a])
        a = parent[a]
    while depth[b] > depth[a]:
        below_b.append(tag[b])
        b = parent[b]
    while a != b:
        below_a.append(tag[a])
        a = parent[a]
        below_b.append(tag[b])
        b = parent[b]
    shared = 0
    for ta, tb in zip(below_a, below_b, strict=False):
        if ta != tb:
            break
        shared += 1
    return _levenshtein(below_a[shared:], below_b[shared:], cap)


def smooth(
    histogram: Sequence[float], node_path: Sequence[int], paths: TagPaths, radius: int, sigma: float, beta: float
) -> tuple[list[float], dict[tuple[int, int], int]]:
    """Gaussian smoothing weighted by tag-path edit distance (section 4, Equations 3-6).

    ``k_j = exp(-j^2 / (2 sigma^2))`` for ``-r <= j <= r`` (Equation 3), normalised to
    ``k'_j = k_j / sum(k)`` (Equation 4), and
    ``H'_i = sum_j k'_j * w(i, i+j) * H_{i+j}`` (Equation 5) with
    ``w(i, j) = exp(-beta * dist(p_i, p_j))`` (Equation 6).

    **Interpretation**: at the ends of the histogram the kernel is renormalised over the
    offsets that exist (as CETR's smoothing, docs/algorithms.md, line-based).  The weights
    ``w`` themselves are not normalised: dissimilar neighbours pull a value down, which
    is how the paper lowers noise nodes mixed with content.

    Distances are computed once per distinct pair of paths (returned, for diagnostics).
    They are capped where ``exp(-beta * d)`` underflows to exactly 0.0, which changes
    nothing in ``H'``; ``beta = 0`` needs no distances at all.
    """
    kernel = [math.exp(-(j * j) / (2.0 * sigma * sigma)) for j in range(radius + 1)]  # k_0 .. k_r
    cap = math.ceil(_EXP_UNDERFLOW / beta) if beta > 0 else 0
    distances: dict[tuple[int, int], int] = {}
    weights: dict[tuple[int, int], float] = {}
    size = len(histogram)
    totals = [kernel[0] * h for h in histogram]
    norms = [kernel[0]] * size
    for offset in range(1, min(radius, size - 1) + 1):
        k = kernel[offset]
        for i in range(size - offset):
            t = i + offset  # the pair (i, t) contributes to both H'_i and H'_t: w is symmetric
            a, b = node_path[i], node_path[t]
            if a == b or not beta:
                weight = 1.0
            else:
                pair = (a, b) if a < b else (b, a)
                found = weights.get(pair)
                if found is None:
                    distance = distances[pair] = path_edit_distance(paths, a, b, cap)
                    found = weights[pair] = math.exp(-beta * distance)
                weight = found
            totals[i] += k * weight * histogram[t]
            totals[t] += k * weight * histogram[i]
            norms[i] += k
            norms[t] += k
    return [total / norm for total, norm in zip(totals, norms, strict=True)], distances


def _std(values: Sequence[float]) -> float:
    """Population standard deviation."""
    mean = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))


def _heading_title(page: Page, paths: TagPaths, content: Sequence[int]) -> str | None:
    """The text of the ``h1`` holding the first content node in one, if any (section 5).

    The paper argues the title CEPR extracts is the one displayed, which ``<title>``
    often is not; its example title path ends in ``h1`` (Figure 2, Example 3).
    **Interpretation**: only ``h1`` counts.  Taking the first content heading of any
    level picks sub-headings inside the content: on every third WCXB dev page with a
    gold title it lowered the title's word F1 from 0.778 (``<title>``) to 0.598 for
    SETPR, while ``h1`` only gives 0.781.  Whether a path passes through an ``h1`` is
    known per path.
    """
    in_title = [False] * len(paths.tag)
    for p, name in enumerate(paths.tag):  # parents precede children in the trie
        up = paths.parent[p]
        in_title[p] = name == TITLE_HEADING or (up >= 0 and in_title[up])
    for k in content:
        if in_title[paths.node_path[k]]:
            i = page.run_owner[k]
            while page.tags[i] != TITLE_HEADING:
                i = page.parent[i]
            return element_text(page.elements[i]) or None
    return None


def cepr_selection(
    page: Page, coefficient: float, ratio: str, radius: int | None = None, sigma: float = 1.0, beta: float = 1.0
) -> Selection:
    """Algorithm CEPR (Figure 8): histogram, optional smoothing, threshold, content nodes.

    ``ratio`` is ``"tpr"`` or ``"etpr"``; a ``radius`` smooths (SETPR).  The threshold
    is ``tau = lambda * std(H')`` (section 5.2, population standard deviation over the
    text nodes) and text node ``i`` is content if ``H'_i >= tau``.  A histogram with no
    spread (one node, all values equal) has ``tau = 0`` and keeps every node.
    """
    if not page.run_owner:
        return Selection(threshold=None)
    paths = tag_paths(page)
    stats = path_statistics(page, paths)
    path_ratio = text_to_path_ratios(stats) if ratio == "tpr" else extended_text_to_path_ratios(stats)
    node_path = paths.node_path
    histogram = [path_ratio[p] for p in node_path]
    diagnostics: dict[str, object] = {
        "paths": {
            "parent": paths.parent,
            "tag": paths.tag,
            "pathNum": stats.path_num,
            "txtNum": stats.txt_num,
            "puncNum": stats.punc_num,
            "txtNumStd": stats.txt_std,
            "puncNumStd": stats.punc_std,
            ratio.upper(): path_ratio,
        },
        "node_path": node_path,
        "histogram": histogram,
    }
    values = histogram
    if radius is not None:
        values, distances = smooth(histogram, node_path, paths, radius, sigma, beta)
        diagnostics["smoothed"] = values
        diagnostics["path_distances"] = len(distances)
    threshold = coefficient * _std(values)
    content = [k for k, v in enumerate(values) if v >= threshold]
    run_key = page.run_key
    return Selection(
        threshold=threshold,
        runs={run_key[k] for k in content},
        title=_heading_title(page, paths, content),
        diagnostics=diagnostics,
    )


def _cepr_tpr(page: Page, coefficient: float) -> Selection:
    return cepr_selection(page, coefficient, "tpr")


def _cepr_etpr(page: Page, coefficient: float) -> Selection:
    return cepr_selection(page, coefficient, "etpr")


def _cepr_setpr(page: Page, coefficient: float, r: int, sigma: float, beta: float) -> Selection:
    return cepr_selection(page, coefficient, "etpr", radius=r, sigma=sigma, beta=beta)


_PAPER = "Wu, Li, Hu, Wu: Web News Extraction via Path Ratios (CEPR), CIKM 2013"

register(Algorithm("cepr-tpr", _cepr_tpr, 1.7, _PAPER, "text-to-tag-path ratio histogram + std threshold"))
register(Algorithm("cepr-etpr", _cepr_etpr, 0.7, _PAPER, "extended text-to-tag-path ratio (punctuation, deviations)"))
register(
    Algorithm(
        "cepr-setpr",
        _cepr_setpr,
        0.8,
        _PAPER,
        "ETPR smoothed by a Gaussian weighted with tag-path edit distance",
        params={
            "r": Param(1, 0, 50, integer=True, doc="smoothing radius: window 2r+1 text nodes (paper: 3, r=1)"),
            "sigma": Param(1.0, 0.01, 100.0, doc="Gaussian kernel width, in text nodes"),
            "beta": Param(1.0, 0.0, 100.0, doc="edit-distance weight: larger lets dissimilar paths contribute less"),
        },
    )
)
