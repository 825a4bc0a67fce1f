"""Reading a page's elements for the rules: tags found in one scan, labels (``class``,
``id`` and component-naming ``data-*`` words), short text runs scanned in one pass, and the
outermost of nested elements."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from itertools import chain, compress

import numpy as np
from lxml import etree

from ...page import Page, attribute_items
from ..labels import label_of
from .data import COMPONENT_ATTRIBUTE_ENDINGS, LABEL_ATTRIBUTES, LOOKED_UP_TAGS

__all__ = [
    "chars_in",
    "class_and_id",
    "element_label",
    "holds_any",
    "in_order",
    "joined_runs",
    "label_text",
    "lies_within",
    "outermost_of",
    "owners_of_hits",
    "short_runs",
    "tag_positions",
]


def tag_positions(page: Page, tags: frozenset[str] = LOOKED_UP_TAGS) -> dict[str, list[int]]:
    """The indices of the elements with each of ``tags``, in document order.

    One C-level scan of :attr:`~scrapy_cetd.page.Page.tags` for all the tags the rules look
    for: on the first half of the WCXB dev pages about 30 ms for all 748 pages, where one
    :meth:`~scrapy_cetd.page.Page.positions` call (lxml's tree walk, which visits every
    element once the page has one of the tags; the rules' tags are common) takes 120-150
    ms, and the rules made five."""
    found: dict[str, list[int]] = {tag: [] for tag in tags}
    names = page.tags
    for i in compress(range(len(names)), map(tags.__contains__, names)):
        found[names[i]].append(i)
    return found


def in_order(positions: Mapping[str, list[int]], tags: frozenset[str]) -> list[int]:
    """The positions of ``tags``, merged in document order."""
    return sorted(chain.from_iterable(positions[tag] for tag in tags))


def element_label(page: Page, i: int) -> str | None:
    """The label of element ``i`` (:func:`~.labels.label_of`) from its ``class``, ``id`` and
    component-naming ``data-*`` attributes, ``None`` without one."""
    names = label_text(page.elements[i])
    return label_of(names) if names else None


def label_text(element: etree._Element) -> str:
    """An element's ``class``, ``id`` and component-naming ``data-*`` values, joined by
    spaces (``""``: none): what ``labelled_parts`` and ``product_noise`` read.  A plain loop, not a generator, and
    :func:`_names_a_component` called for ``data-*`` names only: 0.71x the time a call
    (0.92 us against 1.28 us, median over the elements of every fourth first-half dev page)."""
    values = []
    for name, value in attribute_items(element):
        if name in LABEL_ATTRIBUTES or (
            name[:5] == "data-" and _names_a_component(name) and len(value) <= _COMPONENT_NAME_MAX_CHARS
        ):
            values.append(value)
    return " ".join(values)


def class_and_id(element: etree._Element) -> str:
    """An element's ``class`` and ``id`` values joined by a space (``""``: none): the label
    words of ``product_noise``, ``forum_furniture`` and ``labelled_paragraphs``, which skip
    :func:`label_text`'s walk over every attribute."""
    return " ".join(filter(None, (element.get("class"), element.get("id"))))


def _names_a_component(attribute: str) -> bool:
    """``labelled_parts`` also reads the ``data-*`` attributes that name a page's component where
    utility classes say nothing (``data-testid``, ``data-component``, ``data-module``,
    analytics' ``data-ga-module`` and ``data-ga-category``: "newsletters" on a Tailwind
    ``<section>``).  First dev half, two folds: overall word F1 0.8863 / 0.8889 -> 0.8864 /
    0.8892, articles 0.9600 / 0.9609 -> 0.9600 / 0.9614; of the 167 pages with such
    attributes 3 changed, each for the better (a newsletter box, calls to action)."""
    return attribute.startswith("data-") and attribute.endswith(COMPONENT_ATTRIBUTE_ENDINGS)


#: A longer ``data-*`` value is configuration (JSON), not a component's name.
_COMPONENT_NAME_MAX_CHARS = 80


def short_runs(
    page: Page, max_chars: int, ranges: list[tuple[int, int]], max_run_chars: int | None = None
) -> list[int]:
    """The text runs (indices, in document order) owned by elements of at most
    ``max_chars`` characters in the element ranges ``[start, stop)``, each of at most
    ``max_run_chars`` characters when given: what ``stock_lines``, ``read_also_lines``,
    ``photo_credits``, ``comment_notices`` and ``forum_furniture`` scan.  Over arrays (the
    flags of the elements, then of the runs' owners): on the first dev half, about a fifth
    of the time of C-level ``map`` chains over the runs (four calls a run)."""
    in_ranges = np.zeros(len(page), dtype=bool)
    for start, stop in ranges:
        in_ranges[start:stop] = True
    wanted = (in_ranges & (page.chars_array <= max_chars))[page.run_owner_array]
    if max_run_chars is not None:
        wanted &= page.run_chars_array <= max_run_chars
    return np.flatnonzero(wanted).tolist()


def joined_runs(page: Page, runs: list[int]) -> str:
    """The text runs ``runs``, lower-cased, each between newlines (one string for one
    regular-expression scan; a hit is reported by the newline before its run)."""
    return "\n" + "\n".join(map(page.run_collapsed.__getitem__, runs)).lower() + "\n"


def owners_of_hits(page: Page, runs: list[int], joined: str, hits: list[int], max_chars: int) -> set[int]:
    """The owners of the runs hit in ``joined`` (:func:`joined_runs`; ``hits``: the offsets
    of the newlines before them), and their ancestors of at most ``max_chars`` characters."""
    owner, chars, parent = page.run_owner, page.chars, page.parent
    candidates: set[int] = set()
    run = previous = 0  # the run after the hit's newline: count the newlines up to it, hit by hit
    for hit in sorted(set(hits)):
        run += joined.count("\n", previous, hit)
        previous = hit
        x = owner[runs[run]]
        while x >= 0 and x not in candidates and chars[x] <= max_chars:
            candidates.add(x)
            x = parent[x]
    return candidates


def holds_any(text: str, words: tuple[str, ...]) -> bool:
    """Whether lower-cased ``text`` holds one of ``words``: a test in C that passes over most
    texts before the case-blind patterns of ``subscribe_calls`` and ``affiliate_disclosures``,
    which try every position.  On the first dev half (``benchmarks/plus_speed.py --check
    --time``): outputs identical on all 1497 pages, selection median 0.561x -> 0.482x lxml's
    parse, extraction per page 0.982."""
    low = text.lower()
    return any(word in low for word in words)


def outermost_of(page: Page, nodes: Iterable[int]) -> list[int]:
    """``nodes`` (in document order) less those inside another's subtree."""
    end = page.end
    outermost: list[int] = []
    for node in nodes:
        if not outermost or node >= end[outermost[-1]]:
            outermost.append(node)
    return outermost


def lies_within(page: Page, outermost: list[int], x: int) -> bool:
    """Whether element ``x`` lies in the subtree of one of ``outermost`` (:func:`outermost_of`):
    a binary search, where walking each element's path to body would cost time in its depth."""
    k = bisect_right(outermost, x)
    return k > 0 and x < page.end[outermost[k - 1]]


def chars_in(page: Page, i: int, tags: frozenset[str]) -> int:
    """The characters of element ``i``'s subtree inside elements of ``tags`` (the outermost
    ones: a nested one is not counted twice); a walk over the subtree's tags, for short
    elements."""
    all_tags, end, chars = page.tags, page.end, page.chars
    inside = 0
    j, stop = i, end[i]
    while j < stop:
        if all_tags[j] in tags:
            inside += chars[j]
            j = end[j]
        else:
            j += 1
    return inside
