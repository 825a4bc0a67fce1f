"""The pipeline of cetd-plus: removals and counts, the top block, CECTD-DS's threshold and
walk, the block decisions, pruning, and the selection; the algorithm's parameters (written
once, here) and its registration."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...extraction import Selection
from ...page import Page, composite_densities
from ...registry import Algorithm, Param, register
from ..cetd import densitysum_threshold, extract_content, subtree_best, top_block
from . import rules
from .blocks import (
    filter_blocks,
    lead_of_top,
    list_in_prose,
    rescue_structures,
    story_in_body,
    top_outside_chrome,
    twins_of_top,
)
from .comments import comment_sections, posted_comments
from .declared import undeclared_parts
from .headings import orphan_headings
from .kinds import forum_furniture, product_noise_roots
from .pruning import prune
from .reading import tag_positions
from .rules import Named, described
from .statistics import counts_without, density_sums, removed_roots

__all__ = ["COEFFICIENT", "PARAMS", "plus_selection"]


def _selection_of_blocks(page: Page, blocks: list[int], removed: list[bool]) -> tuple[set[int], set[int]]:
    """The blocks' content minus the removed subtrees, as ``(subtrees, runs)``.

    A block free of removed elements is one subtree; otherwise it is split into its largest
    clean subtrees plus the text runs of the elements on the way to the removed ones.
    """
    if not any(removed):
        return set(blocks), set()
    # The elements holding a removed one: the ancestors of the removed subtrees' roots.  The
    # flags are contiguous per subtree: each stretch of set flags is found by a C-level
    # search, and its roots by jumping over their subtrees.
    flags = bytes(removed)
    end, parent = page.end, page.parent
    tainted: set[int] = set()
    root = flags.find(1)
    while root >= 0:
        stop = flags.find(0, root)
        if stop < 0:
            stop = len(flags)
        while root < stop:
            x = parent[root]
            while x >= 0 and x not in tainted:
                tainted.add(x)
                x = parent[x]
            root = end[root]
        root = flags.find(1, stop)
    subtrees: set[int] = set()
    runs: set[int] = set()
    elements, children_of = page.elements, page.children_of
    stack = list(blocks)
    while stack:
        node = stack.pop()
        if removed[node]:
            continue
        if node not in tainted:
            subtrees.add(node)
            continue
        text = elements[node].text
        if text and not text.isspace():
            runs.add(2 * node)
        for child in children_of(node):
            tail = elements[child].tail
            if tail and not tail.isspace():
                runs.add(2 * child + 1)
            stack.append(child)
    return subtrees, runs


#: The threshold coefficient: 0.7, measured best of 0.5-0.8 on the tuning half (better than
#: the prototype's 0.6 on both halves); the valid range stops at 1.0: above it the threshold
#: passes the body's own density and nothing is extracted.
COEFFICIENT = 0.7
#: The algorithm's parameters, their defaults and ranges: written here only (the registry,
#: :func:`plus_selection`'s defaults and ``scrapy-cetd algorithms`` read them).
PARAMS = {
    "block_ratio": Param(0.08, 0.0, 1.0, doc="keep an extra block if its DensitySum >= this x the top block's"),
    "peer_min": Param(
        3, 0, 1000, integer=True, doc="siblings alike (tag and class) that make a repeated group (0: off)"
    ),
    "link_prune": Param(
        0.8, 0.0, 2.0, doc="prune block-level parts of a kept block with link density >= this (> 1: off)"
    ),
    "dedupe_min_chars": Param(
        100,
        0,
        1_000_000,
        integer=True,
        doc="leave out repeated stretches of 2+ lines with at least this many characters (0: off)",
    ),
}


def plus_selection(
    page: Page,
    coefficient: float = COEFFICIENT,
    *,
    block_ratio: float = PARAMS["block_ratio"].default,
    peer_min: int = int(PARAMS["peer_min"].default),
    link_prune: float = PARAMS["link_prune"].default,
    dedupe_min_chars: int = int(PARAMS["dedupe_min_chars"].default),
) -> Selection:
    """CECTD-DS's threshold and ``ExtractContent`` walk (the CETD paper, 4.2 and Algorithm 2) on
    the statistics without removed subtrees, then the rules of the package docstring.

    The threshold is ``coefficient`` times the smallest density on the path from the top
    block (largest DensitySum) up to body.  ``peer_min = 0`` turns ``peer_items`` and ``items_after_article`` off,
    ``link_prune = 1`` still prunes all-link blocks; ``> 1`` turns ``link_pruning`` off.
    """
    positions = tag_positions(page)
    roots = removed_roots(page, positions) if rules.on("removed_elements") else []
    product_noise = product_noise_roots(page, positions) if rules.on("product_noise") else []
    if product_noise:
        roots = sorted(set(roots).union(product_noise))
    counts = counts_without(page, roots)
    density = composite_densities(counts.chars, counts.tag_count, counts.link_chars, counts.link_tags)
    removed = counts.removed
    info: dict[str, Any] = {"removed": Named(roots)}
    if product_noise:
        info["product_noise"] = Named(product_noise)
    if counts.chars[0] == 0:
        return Selection(threshold=None, diagnostics=info | described(page, info))
    if page.block_starts[-1] == 1:
        # Nothing block-level under body (a fragment: plain text, or text with inline
        # markup only): it is one block, all of it content.
        info["fragment"] = True
        return Selection(threshold=None, subtrees={0}, diagnostics=info | described(page, info))
    density_sum = density_sums(page, density, roots, positions)
    top = top_block(density_sum)
    if rules.on("top_outside_chrome"):
        top = top_outside_chrome(page, density_sum, top, info)
    if rules.on("list_in_prose"):
        top = list_in_prose(page, counts.chars, top, info)
    if rules.on("story_in_body"):
        top = story_in_body(page, counts.chars, top, info)
    threshold = densitysum_threshold(page, density, top, coefficient)
    info["top_block"] = Named(top)
    info["threshold"] = threshold
    report: Callable[[], list[tuple[int, float, str]]] = lambda: []  # noqa: E731
    comment_roots: list[int] = []
    filtered: set[int] = set()
    undeclared_blocks: set[int] = set()
    twins: list[int] = []
    if threshold <= 0:
        blocks = [0]
    else:
        marked = extract_content(page, (density >= threshold).tolist(), subtree_best(page, density_sum), top)
        blocks, report = filter_blocks(page, marked, top, density_sum, block_ratio, peer_min, info, positions)
        if rules.on("lead_paragraph") and (lead := lead_of_top(page, marked, blocks, top, counts)) is not None:
            info["lead_paragraph"] = Named(lead)
            blocks = sorted([*blocks, lead])
        if not rules.on("twins"):
            pass
        elif info.get("top_is_lone_prose") and "peer_items" not in info:  # a group's items are no twins
            twins = twins_of_top(page, blocks, top, counts)
        elif page.tags[top] == "pre":  # no dev page changes; an RFC's last pages came back
            twins = twins_of_top(page, blocks, top, counts, prose=False)
        if twins:
            info["twins"] = Named(twins)
            blocks = sorted(blocks + twins)
        if rules.on("rescued_structures"):
            blocks += rescue_structures(page, blocks, counts, info, positions)
        filtered = set(blocks)
        blocks, removed, comment_roots = prune(page, blocks, top, counts, link_prune, info)
        filtered.difference_update(blocks)
        forum_parts = (
            forum_furniture(page, blocks, removed, top)
            if rules.on("forum_furniture") and not info.get("top_is_lone_prose")
            else []
        )
        if forum_parts:
            info["forum_furniture"] = Named(forum_parts)
        undeclared = undeclared_parts(page, blocks, removed, top) if rules.on("declared_body") else []
        if undeclared:
            info["declared_body"] = Named(undeclared)
            undeclared_blocks.update(set(blocks).intersection(undeclared))
        orphans = (
            orphan_headings(page, blocks, removed, counts.removed, positions)
            if rules.on("orphan_headings") and info.get("top_is_lone_prose")
            else []
        )
        if orphans:
            info["orphan_headings"] = Named(orphans)
    subtrees, runs = _selection_of_blocks(page, blocks, removed)
    found = comment_roots if threshold > 0 else []

    def comments() -> set[int]:
        return posted_comments(page, comment_sections(page, top, counts.removed, found))

    def explain() -> dict[str, Any]:
        return described(page, info) | {
            "blocks": [
                {
                    "node": page.describe(node),
                    "density_sum": value,
                    "decision": "dropped: in a labelled part (labelled_parts, form_parts, headline)"
                    if node in filtered
                    else "kept: a twin of the top block (twins)"
                    if node in twins
                    else "dropped: not in the page's declared article body (declared_body)"
                    if node in undeclared_blocks
                    else decision,
                }
                for node, value, decision in report()
            ]
        }

    return Selection(
        threshold=threshold,
        subtrees=subtrees,
        runs=runs,
        diagnostics=info,
        dedupe_min_chars=dedupe_min_chars,
        explain=explain,
        comments=comments,
    )


register(
    Algorithm(
        "cetd-plus",
        plus_selection,
        COEFFICIENT,
        "CECTD-DS of CETD: Content Extraction via Text Density (SIGIR 2011) with measured rules beyond the paper",
        "composite text density + DensitySum, with removals, block filtering, rescue, link pruning, "
        "line de-duplication",
        params=PARAMS,
        max_coefficient=1.0,
    )
)
