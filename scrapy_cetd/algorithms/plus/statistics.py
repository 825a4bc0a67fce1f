"""CETD's statistics (the CETD paper, section 3) as the rules see the page: ``removed_elements``
taken off the counts, ``not_blocks`` in DensitySum, and the paragraphs that make prose."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, compress, islice

import numpy as np

from ...page import Page, counts_as_link_tag, element_text
from . import rules
from .data import (
    ESCAPED_MARKUP,
    JAVASCRIPT,
    NOT_BLOCK_OR_PRE,
    NOT_BLOCK_TAGS,
    PERMALINK_SIGNS,
    REGION_TAGS,
    REMOVED_ROLES,
    REMOVED_TAGS,
)
from .reading import in_order, tag_positions

__all__ = [
    "Counts",
    "NOSCRIPT_NOTICE_MAX_CHARS",
    "PROSE_MIN_PARAGRAPHS",
    "count_paragraphs",
    "counts_without",
    "density_sums",
    "is_prose",
    "removed_roots",
]

#: ``removed_elements`` also removes a ``<noscript>`` of at most this many characters that speaks of
#: JavaScript ("JavaScript is disabled. For a better experience, please enable
#: JavaScript ..."): a notice to readers without scripts, not content.  A longer one
#: stays (some forum software puts every post in ``<noscript>``).  0: off.
NOSCRIPT_NOTICE_MAX_CHARS = 300


#: ``items_after_article``: an article is a top block with this many paragraphs, holding half its text;
#: a comment or review is an item of at most this share of the top block's characters.
PROSE_MIN_PARAGRAPHS = 5


def removed_roots(page: Page, positions: Mapping[str, list[int]] | None = None) -> list[int]:
    """Elements whose subtrees ``removed_elements`` removes, in document order (nested ones included);
    ``positions``: the page's :func:`tag_positions`, if found already."""
    if positions is None:
        positions = tag_positions(page, REMOVED_TAGS | {"noscript"})
    roots = set(chain.from_iterable(positions[tag] for tag in REMOVED_TAGS))
    roots.update(i for i, role in page.roles.items() if role in REMOVED_ROLES)
    roots.update(page.modal)
    roots.update(i for i in positions["noscript"] if page.chars[i] and _is_noscript_noise(page, i))
    roots.update(_permalinks(page))
    return sorted(roots)


def _permalinks(page: Page) -> Iterable[int]:
    """``removed_elements``: the links whose whole text is a permalink sign (:data:`PERMALINK_SIGNS`)."""
    if not PERMALINK_SIGNS:
        return ()
    chars, elements = page.chars, page.elements
    longest = max(map(len, PERMALINK_SIGNS))
    return (
        i
        for i in compress(range(len(chars)), page.is_link)
        if 0 < chars[i] <= longest and element_text(elements[i]) in PERMALINK_SIGNS
    )


def _is_noscript_noise(page: Page, i: int) -> bool:
    """``removed_elements``: a ``<noscript>`` that is a notice about JavaScript, or escaped markup."""
    if page.tag_count[i] == 0 and ESCAPED_MARKUP.match(page.elements[i].text or ""):
        return True
    return page.chars[i] <= NOSCRIPT_NOTICE_MAX_CHARS and JAVASCRIPT.search(element_text(page.elements[i])) is not None


@dataclass
class Counts:
    """CETD statistics of the page with some subtrees removed (the CETD paper, section 3)."""

    removed: list[bool]
    chars: list[int]
    tag_count: list[int]
    link_chars: list[int]
    link_tags: list[int]


def counts_without(page: Page, roots: list[int]) -> Counts:
    """``C``, ``T``, ``LC``, ``LT`` as if the subtrees at ``roots`` were not there: the
    page's counts (:func:`~scrapy_cetd.page.cetd_counts`), each removed subtree zeroed and
    its contribution taken off its ancestors, bottom-up (``LT`` re-deciding, at each
    ancestor, whether the child on the path still counts as a link tag)."""
    n = len(page)
    removed = [False] * n
    if not roots:
        return Counts(removed, page.chars, page.tag_count, page.link_chars, page.link_tags)
    chars, tag_count = page.chars[:], page.tag_count[:]
    link_chars, link_tags = page.link_chars[:], page.link_tags[:]
    end, parent, is_link = page.end, page.parent, page.is_link

    def counted_by_parent(i: int) -> int:
        """``LT_i`` plus 1 if ``i`` counts as a link tag: what ``i`` adds to its parent's ``LT``."""
        return link_tags[i] + counts_as_link_tag(is_link[i], chars[i], tag_count[i], link_chars[i], link_tags[i])

    for root in roots:
        if removed[root]:
            continue  # inside a subtree already removed
        size = end[root] - root
        removed[root : end[root]] = [True] * size
        lost_chars, lost_tags, lost_link_chars = chars[root], tag_count[root] + 1, link_chars[root]
        # The child on the path: its link tags as its parent counted them, before and after.
        counted_before = counted_by_parent(root)
        counted_after = 0
        zeros = [0] * size
        chars[root : end[root]] = zeros
        tag_count[root : end[root]] = zeros
        link_chars[root : end[root]] = zeros
        link_tags[root : end[root]] = zeros
        node = parent[root]
        while node >= 0:
            before = counted_by_parent(node)
            old_link_chars = link_chars[node]
            chars[node] -= lost_chars
            tag_count[node] -= lost_tags
            link_chars[node] = chars[node] if is_link[node] else old_link_chars - lost_link_chars
            link_tags[node] += counted_after - counted_before
            lost_link_chars = old_link_chars - link_chars[node]
            counted_before = before
            counted_after = counted_by_parent(node)
            node = parent[node]
    return Counts(removed, chars, tag_count, link_chars, link_tags)


def _holds_story(page: Page, positions: Mapping[str, list[int]], i: int) -> bool:
    """Whether element ``i`` holds more than half of the page's text and an ``<article>`` or
    ``<main>``."""
    if 2 * page.chars[i] <= page.chars[0]:
        return False
    stop = page.end[i]
    return any(
        (k := bisect_right(found, i)) < len(found) and found[k] < stop
        for found in (positions[tag] for tag in REGION_TAGS)
    )


def density_sums(
    page: Page, density: Sequence[float] | np.ndarray, roots: list[int], positions: Mapping[str, list[int]]
) -> list[float]:
    """DensitySum (the CETD paper, Definition 3) with removed elements at 0, and ``not_blocks`` on what
    a block is: a link (``a``, ``button``, ``select``) or a ``NOT_BLOCK_TAGS`` element and
    everything in it is never a block (DensitySum 0); a ``<pre>`` has its own density as
    DensitySum and its descendants 0 (preformatted text is one block).

    An ``<aside>`` holding an ``<article>`` or ``<main>`` and more than half of the page's
    text is no aside: markup left open before the story (a sidebar's unclosed ``<div>``)
    nests the story in it, and the page's header became the top block.  Three dev sets
    (before -> after): trafilatura-eval 0.92310 -> 0.92364 (1 page up: 0 -> 1), wcxb-dev
    0.87008 -> 0.87012 (2 up: a newsletter pop-up and a banner left open around the page),
    readability-pages unchanged.  Without the share, teaser lists of ``<article>`` items in
    a sidebar came in (readability-pages 0.9575 -> 0.9568); without the ``<article>``, a
    sidebar as long as the story (0.9539)."""
    density_sum = page.density_sum(density, composite=True)
    end, tags, is_link = page.end, page.tags, page.is_link
    for root in roots:
        density_sum[root : end[root]] = [0.0] * (end[root] - root)
    if not rules.on("not_blocks"):
        return density_sum
    covered = 0
    links = compress(range(len(page)), is_link)
    not_blocks = in_order(positions, NOT_BLOCK_OR_PRE)
    for i in sorted(chain(links, not_blocks)) if not_blocks else links:
        if i < covered:
            continue  # inside a link or a pre already handled
        if is_link[i] or (tags[i] in NOT_BLOCK_TAGS and not _holds_story(page, positions, i)):
            covered = end[i]
            if covered == i + 1:
                density_sum[i] = 0.0
            else:
                density_sum[i:covered] = [0.0] * (covered - i)
        elif tags[i] == "pre":
            covered = end[i]
            density_sum[i] = float(density[i])
            density_sum[i + 1 : covered] = [0.0] * (covered - i - 1)
    return density_sum


def is_prose(page: Page, top: int) -> bool:
    """Whether the top block reads as an article: ``PROSE_MIN_PARAGRAPHS`` or more ``<p>``
    holding at least half of its characters."""
    paragraphs, in_paragraphs = count_paragraphs(page, page.chars, top)
    return paragraphs >= PROSE_MIN_PARAGRAPHS and 2 * in_paragraphs >= page.chars[top]


def count_paragraphs(page: Page, chars: Sequence[int], block: int) -> tuple[int, int]:
    """How many ``<p>`` elements ``block`` is or holds (the highest ones: one inside another
    counts once), and their characters (``chars``: the page's counts, or ``removed_elements``'s after
    removals)."""
    end = page.end
    paragraphs = in_paragraphs = 0
    covered = block
    stop = end[block]
    for i in compress(range(block, stop), map("p".__eq__, islice(page.tags, block, stop))):
        if i >= covered:
            paragraphs += 1
            in_paragraphs += chars[i]
            covered = end[i]
    return paragraphs, in_paragraphs
