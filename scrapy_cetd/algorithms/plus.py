"""cetd-plus: CECTD-DS with rules beyond the papers (issue 7).

Faithful CECTD-DS (seed 000; ``ALGORITHMS.md`` section 1) on the shared page model, with
rules measured on the first half of the WCXB dev pages (sorted ids) and checked on the
other half:

1. ``<noscript>`` is ordinary content (the page model already does this).
2. Removed subtrees: ``dialog`` and ``footer`` elements, ``role=dialog|alertdialog`` and
   ``aria-modal=true``.  Removal excludes them from the statistics and from the content;
   the statistics are recomputed here, the shared page is never changed.
3. The DensitySum walk's extra blocks are kept only if their DensitySum is at least
   ``block_ratio`` times the top block's, and only inside the page's main region when the
   top block lies in one (first ``<main>``, else ``role=main``, else the single
   ``<article>``).
4. Threshold coefficient 0.6 (valid range up to 1.0: above it the threshold passes the
   body's own density and nothing is extracted).
5. Each text line of ``dedupe_min_chars`` or more characters is emitted once per page.

Every decision is recorded in the selection's diagnostics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..extraction import Selection
from ..page import BLOCK_TAGS, Page
from ..registry import Algorithm, Param, register
from .cetd import subtree_best

__all__ = ["plus_selection", "removed_roots"]

#: Subtrees removed before counting (rule 2): modal dialogs and page footers.
REMOVED_TAGS = frozenset({"dialog", "footer"})
REMOVED_ROLES = frozenset({"dialog", "alertdialog"})
RATIO_OUTSIDE_ONLY = False
LINK_PRUNE = 1.0
PRUNE_BLOCK_MAX_LD = 0.3
PRUNE_TAGS = BLOCK_TAGS
RESCUE_XPATH = ""
RESCUE_MAX_LINK_DENSITY = 0.3
PRE_XPATH = ".//pre"
PRE_AS_LEAF = False
NEAR_EXEMPT = 0
LEAF_REFERENCE = False
_REMOVAL_CANDIDATES = ".//*[self::dialog or self::footer or @role or @aria-modal]"


def removed_roots(page: Page) -> list[int]:
    """Elements whose subtrees rule 2 removes, in document order."""
    roots = []
    index = page.index
    for el in page.body.xpath(_REMOVAL_CANDIDATES):
        tag = el.tag
        if (
            tag in REMOVED_TAGS
            or (el.get("role") or "").strip().lower() in REMOVED_ROLES
            or (el.get("aria-modal") or "").strip().lower() == "true"
        ):
            roots.append(index[el])
    return roots


def main_region(page: Page) -> tuple[int, str] | None:
    """The page's main region: the first ``<main>``, else the first ``role=main``, else the
    only ``<article>`` (none when there are several); with the rule that found it."""
    body = page.body
    index = page.index
    for xpath, rule in ((".//main", "first <main>"), (".//*[@role='main']", "first role=main")):
        found = body.xpath(xpath)
        if found:
            return index[found[0]], rule
    articles = body.xpath(".//article")
    if len(articles) == 1:
        return index[articles[0]], "single <article>"
    return None


@dataclass
class _Counts:
    """CETD statistics of the page with some subtrees removed (seed 000, section 3)."""

    removed: list[bool]
    chars: list[int]
    tag_count: list[int]
    link_chars: list[int]
    link_tags: list[int]


def _counts_without(page: Page, roots: list[int]) -> _Counts:
    """``C``, ``T``, ``LC``, ``LT`` as if the subtrees at ``roots`` were not there: one
    reverse pass, the same rules as :meth:`Page._count`.  Text following a removed
    element (its tail) belongs to the parent and is kept."""
    n = len(page)
    removed = [False] * n
    end = page.end
    for root in roots:
        removed[root : end[root]] = [True] * (end[root] - root)
    parent = page.parent
    chars = [0] * n
    for owner, length in zip(page.run_owner, page.run_chars, strict=True):
        if not removed[owner]:
            chars[owner] += length
    tag_count = [0] * n
    link_chars = [0] * n
    link_tags = [0] * n
    is_link = page.is_link
    for i in range(n - 1, 0, -1):
        if removed[i]:
            continue
        p = parent[i]
        c = chars[i]
        if is_link[i]:
            link_chars[i] = c
        chars[p] += c
        tag_count[p] += tag_count[i] + 1
        link_chars[p] += link_chars[i]
        lt = link_tags[i]
        if is_link[i] or (lt and lt == tag_count[i] and link_chars[i] == c):
            lt += 1
        link_tags[p] += lt
    if n and is_link[0]:
        link_chars[0] = chars[0]
    return _Counts(removed, chars, tag_count, link_chars, link_tags)


def _composite_density(counts: _Counts) -> list[float]:
    """CTD (seed 000, Definition 2) of :meth:`Page.composite_text_density`, on ``counts``:

    ``CTD_i = (C_i/T_i) * ln((C_i/LC_i) * (T_i/LT_i)) / ln(ln(C_i*LC_i/nLC_i + (LC_b/C_b)*C_i + e))``.
    """
    total = counts.chars[0]
    ratio = counts.link_chars[0] / total if total else 0.0
    e = math.e
    log = math.log
    out = []
    for c, t, lc, lt in zip(counts.chars, counts.tag_count, counts.link_chars, counts.link_tags, strict=True):
        if not c:
            out.append(0.0)
            continue
        t1 = t or 1
        base = log(log(c * lc / ((c - lc) or 1) + ratio * c + e)) or 1.0
        out.append((c / t1) * log((c / (lc or 1)) * (t1 / (lt or 1))) / base)
    return out


def _selection_of_blocks(page: Page, blocks: list[int], removed: list[bool]) -> Selection:
    """Select the blocks' content minus the removed subtrees.

    A block free of removed elements is one subtree; otherwise it is split into its largest
    clean subtrees plus the text runs of the elements on the way to the removed ones.
    """
    n = len(page)
    tainted = removed[:]
    parent = page.parent
    for i in range(n - 1, 0, -1):
        if tainted[i]:
            tainted[parent[i]] = True
    subtrees: set[int] = set()
    runs: set[int] = set()
    elements = page.elements
    children = page.children
    stack = list(blocks)
    while stack:
        node = stack.pop()
        if removed[node]:
            continue
        if not tainted[node]:
            subtrees.add(node)
            continue
        text = elements[node].text
        if text and not text.isspace():
            runs.add(2 * node)
        for child in children[node]:
            tail = elements[child].tail
            if tail and not tail.isspace():
                runs.add(2 * child + 1)
            stack.append(child)
    return Selection(threshold=None, subtrees=subtrees, runs=runs)


def plus_selection(page: Page, coefficient: float, block_ratio: float, dedupe_min_chars: int) -> Selection:
    """CECTD-DS's threshold and ``ExtractContent`` walk (seed 000, 4.2 and Algorithm 2) on
    the statistics without removed subtrees, then the block rules (see the module doc)."""
    n = len(page)
    roots = removed_roots(page)
    counts = _counts_without(page, roots)
    if roots:
        density = _composite_density(counts)
    else:
        density = page.composite_text_density
    density_sum = list(page.density_sum(density, composite=True))
    removed = counts.removed
    if roots:
        density_sum = [0.0 if gone else s for gone, s in zip(removed, density_sum, strict=True)]
    if PRE_AS_LEAF:
        end = page.end
        covered = 0
        for el in page.body.xpath(PRE_XPATH):
            i = page.index[el]
            if i < covered:
                continue
            covered = end[i]
            density_sum[i] = density[i]
            density_sum[i + 1 : end[i]] = [0.0] * (end[i] - i - 1)
    info: dict[str, Any] = {"removed": [page.describe(r) for r in roots]}
    if n <= 1 or counts.chars[0] == 0:
        selection = _selection_of_blocks(page, [0] if counts.chars and counts.chars[0] else [], removed)
        selection.diagnostics = info
        selection.dedupe_min_chars = dedupe_min_chars
        return selection
    best = subtree_best(page, density_sum)
    top = max(range(1, n), key=density_sum.__getitem__)
    threshold = min(density[i] for i in page.path_to_body(top)) * coefficient
    info["top_block"] = page.describe(top)
    info["threshold"] = threshold
    if threshold <= 0:
        blocks = [0]
    else:
        marked: list[int] = []
        seen: set[int] = set()
        children = page.children
        stack = [0]
        while stack:
            node = stack.pop()
            if density[node] >= threshold:
                block = top if node == 0 else best[node]
                if block not in seen:
                    seen.add(block)
                    marked.append(block)
                stack.extend(reversed(children[node]))
        blocks = _filter_blocks(page, marked, top, density_sum, block_ratio, info)
        if RESCUE_XPATH:
            blocks += _rescue_structures(page, blocks, counts, info)
    if LINK_PRUNE < 1.0 and threshold > 0:
        removed = _prune_link_dense(page, blocks, counts, info)
    selection = _selection_of_blocks(page, blocks, removed)
    selection.threshold = threshold
    selection.diagnostics = info
    selection.dedupe_min_chars = dedupe_min_chars
    return selection


def _filter_blocks(
    page: Page, marked: list[int], top: int, density_sum: list[float], block_ratio: float, info: dict[str, Any]
) -> list[int]:
    """Rule 3: keep the top block; keep another block if its DensitySum is at least
    ``block_ratio`` times the top block's and, when the top block lies in the page's main
    region, if it lies there too.  Records the reason for each block."""
    region = main_region(page)
    end = page.end
    inside: tuple[int, int] | None = None
    if region is not None:
        start, rule = region
        info["main_region"] = f"{page.describe(start)} ({rule})"
        if start <= top < end[start]:
            inside = (start, end[start])
    reference = density_sum[top]
    if LEAF_REFERENCE and not page.children[top]:
        containers = [density_sum[b] for b in marked if page.children[b]]
        if containers:
            reference = max(containers)
    floor = block_ratio * reference
    near = page.path_to_body(top)[1 : 1 + NEAR_EXEMPT]
    kept: list[int] = []
    report = []
    for block in sorted(marked):
        if block == top:
            reason = "top block"
        elif inside is not None and not inside[0] <= block < inside[1]:
            reason = "dropped: outside the main region"
        elif RATIO_OUTSIDE_ONLY and inside is not None:
            reason = "kept: inside the main region"
        elif NEAR_EXEMPT and any(a <= block < end[a] for a in near):
            reason = "kept: near the top block"
        elif density_sum[block] < floor:
            reason = f"dropped: DensitySum {density_sum[block]:.4g} < {block_ratio} x top"
        else:
            reason = f"kept: DensitySum {density_sum[block]:.4g} >= {block_ratio} x top"
        if not reason.startswith("dropped"):
            kept.append(block)
        report.append({"node": page.describe(block), "density_sum": round(density_sum[block], 4), "decision": reason})
    info["blocks"] = report
    return kept


def _cetd_plus(page: Page, coefficient: float, block_ratio: float = 0.1, dedupe_min_chars: int = 10) -> Selection:
    return plus_selection(page, coefficient, block_ratio, int(dedupe_min_chars))


register(
    Algorithm(
        "cetd-plus",
        _cetd_plus,
        0.6,
        "CECTD-DS (Sun, Song, Liao, SIGIR 2011, seed 000) with measured rules beyond the paper",
        "composite text density + DensitySum, dialog/footer removal, block filtering, line de-duplication",
        params={
            "block_ratio": Param(0.1, 0.0, 1.0, doc="keep an extra block if its DensitySum >= this x the top block's"),
            "dedupe_min_chars": Param(
                10, 0, 1_000_000, integer=True, doc="emit each line of at least this many characters once (0: off)"
            ),
        },
        max_coefficient=1.0,
    )
)


def _rescue_structures(page: Page, blocks: list[int], counts: _Counts, info: dict[str, Any]) -> list[int]:
    """Rule 6: tables, definition lists and preformatted text lying between the first and
    the last kept block, with link density below ``RESCUE_MAX_LINK_DENSITY``, are content."""
    if not blocks:
        return []
    end = page.end
    first = min(blocks)
    last = max(end[b] for b in blocks)
    covered = [False] * 0
    kept = sorted(blocks)
    rescued = []
    chars, link_chars, removed = counts.chars, counts.link_chars, counts.removed
    index = page.index
    boundary = 0
    k = 0
    for el in page.body.xpath(RESCUE_XPATH):
        i = index[el]
        if i < first or i >= last or i < boundary or removed[i] or not chars[i]:
            continue
        while k < len(kept) and end[kept[k]] <= i:
            k += 1
        if k < len(kept) and kept[k] <= i:
            continue  # inside a kept block
        if link_chars[i] / chars[i] > RESCUE_MAX_LINK_DENSITY:
            continue
        if k < len(kept) and kept[k] < end[i]:
            continue  # contains a kept block
        rescued.append(i)
        boundary = end[i]
    del covered
    if rescued:
        info["rescued"] = [page.describe(i) for i in rescued]
    return rescued


def _prune_link_dense(page: Page, blocks: list[int], counts: _Counts, info: dict[str, Any]) -> list[bool]:
    """In-block pruning: inside a kept block whose link density is below
    ``PRUNE_BLOCK_MAX_LD``, a block-level descendant whose link density ``LC/C`` is at
    least ``LINK_PRUNE`` is dropped with its subtree.  Returns the new removal flags."""
    removed = counts.removed[:]
    chars, link_chars = counts.chars, counts.link_chars
    tags = page.tags
    end = page.end
    children = page.children
    pruned = []
    for block in blocks:
        c = chars[block]
        if not c or link_chars[block] / c >= PRUNE_BLOCK_MAX_LD:
            continue
        stack = list(children[block])
        while stack:
            node = stack.pop()
            c = chars[node]
            if not c or removed[node]:
                continue
            if tags[node] in PRUNE_TAGS and link_chars[node] >= LINK_PRUNE * c:
                removed[node : end[node]] = [True] * (end[node] - node)
                pruned.append(node)
                continue
            stack.extend(children[node])
    if pruned:
        info["pruned"] = [page.describe(i) for i in sorted(pruned)]
    return removed
