"""Block decisions: the top block (``top_outside_chrome``, ``list_in_prose``,
``story_in_body``), which of
the walk's blocks stay (``main_region``, ``peer_items``, ``items_after_article``,
``declared_article_alone``, ``block_floor``), and what joins them (``twins``,
``rescued_structures``)."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat
from typing import Any

from lxml import etree

from ...page import Page
from ..cetd import top_block
from ..labels import stem_pattern
from . import rules
from .data import LIST_TAGS, RESCUED_TAGS, TOP_CHROME_SPARED_TAGS, TOP_CHROME_STEMS, TOP_HIDDEN_CLASSES
from .declared import declares_article
from .reading import in_order, label_text, tag_positions
from .rules import Named
from .statistics import Counts, count_paragraphs, is_prose

__all__ = [
    "ITEM_MAX_SHARE",
    "LEAD_MAX_GAP",
    "LEAD_MAX_LINK_DENSITY",
    "LEAD_MAX_SHARE",
    "LEAD_MIN_CHARS",
    "LIST_TOP_MIN_PROSE_SHARE",
    "RESCUE_MAX_LINK_DENSITY",
    "TOP_CHROME_MAX_SHARE",
    "TOP_CHROME_TRIES",
    "TWIN_MIN_PARAGRAPH_SHARE",
    "filter_blocks",
    "is_one_line",
    "lead_of_top",
    "list_in_prose",
    "main_region",
    "rescue_structures",
    "story_in_body",
    "top_outside_chrome",
    "twins_of_top",
]

RESCUE_MAX_LINK_DENSITY = 0.3

#: Digits left out of an ``id``: ``post123`` and ``post456`` are items alike.
_NO_DIGITS = str.maketrans("", "", "0123456789")


ITEM_MAX_SHARE = 0.25


def main_region(page: Page, positions: Mapping[str, list[int]] | None = None) -> tuple[int, str] | None:
    """The page's main region: the first ``<main>``, else the first ``role=main``, else the
    only ``<article>`` (none when there are several); with the rule that found it.
    ``positions``: the page's :func:`tag_positions`, if found already."""
    if positions is None:
        positions = tag_positions(page, frozenset({"main", "article"}))
    mains = positions["main"]
    if mains:
        return mains[0], "first <main>"
    found = [i for i, role in page.roles.items() if role == "main"]
    if found:
        return min(found), "first role=main"
    articles = positions["article"]
    if len(articles) == 1:
        return articles[0], "single <article>"
    return None


class _Groups:
    """Repeated sibling groups around the top block: siblings alike (same tag and
    ``class``), ``minimum`` or more of them.  Classless ``div`` elements are told apart by their
    ``id`` less its digits: ``<div id="left">``, ``<div id="story">``, ``<div id="right">``
    are a page's columns, not items alike; ``<div id="post123">`` and ``<div id="post456">``
    are a forum's posts (``scrapy-cetd evaluate`` on the three dev sets: wcxb-dev 0.86943 ->
    0.86967, trafilatura-eval 0.9150 -> 0.9186, readability-pages 0.9367 -> 0.9402; with the
    digits, a vBulletin thread lost its posts; classless ``section`` elements with ids, a
    manual's chapters, stay items alike: as ``div`` elements, they cost wcxb-dev's
    documentation pages)."""

    def __init__(self, page: Page, top: int, minimum: int) -> None:
        self.page = page
        self.minimum = minimum
        self.top_path = page.path_to_body(top)
        #: Ancestor of the top block -> its child on the way to the top block.
        self.toward_top = dict(zip(self.top_path[1:], self.top_path, strict=False))
        self._signatures: dict[int, tuple[str, str]] = {}
        #: Element -> its children by tag; (element, tag) -> those children's signatures
        #: counted (empty when there are fewer than ``minimum`` of them).
        self._children_by_tag: dict[int, dict[str, list[int]]] = {}
        self._counts: dict[tuple[int, str], Counter[tuple[str, str]]] = {}

    def signature(self, i: int) -> tuple[str, str]:
        sig = self._signatures.get(i)
        if sig is None:
            element = self.page.elements[i]
            classes = " ".join((element.get("class") or "").split())
            tag = self.page.tags[i]
            if not classes and tag == "div":
                classes = "#" + (element.get("id") or "").translate(_NO_DIGITS)
            sig = self._signatures[i] = (tag, classes)
        return sig

    def repeated(self, i: int) -> bool:
        """Whether ``minimum`` or more siblings of ``i`` (itself included) are alike.

        Only the siblings of ``i``'s tag have their ``class`` read, and none when there
        are fewer than ``minimum`` of them: reading every sibling's ``class`` was a third
        of ``block_filter``'s time; the selection now takes 0.95x its time on the median first-half
        dev page (one-process A/B, best of 5)."""
        tags = self.page.tags
        p = self.page.parent[i]
        counts = self._counts.get((p, tags[i]))
        if counts is None:
            by_tag = self._children_by_tag.get(p)
            if by_tag is None:
                by_tag = self._children_by_tag[p] = {}
                for child in self.page.children_of(p):
                    by_tag.setdefault(tags[child], []).append(child)
            alike = by_tag[tags[i]]
            counts = Counter(map(self.signature, alike)) if len(alike) >= self.minimum else Counter()
            self._counts[p, tags[i]] = counts
        return bool(counts) and counts[self.signature(i)] >= self.minimum

    def peers(self) -> list[int]:
        """The items of the lowest repeated group holding the top block (document order);
        body's children are page-level sections, not a group."""
        for x in self.top_path[:-2]:
            if self.repeated(x):
                sig = self.signature(x)
                return [s for s in self.page.children_of(self.page.parent[x]) if self.signature(s) == sig]
        return []

    def foreign_item(self, block: int) -> int | None:
        """The item of a repeated group holding ``block``, below its common ancestor with
        the top block, when that group does not hold the top block (nor a section alike
        the top block's own: :func:`_sections_alike`); else ``None``."""
        parent = self.page.parent
        toward_top = self.toward_top
        x = block
        while x not in toward_top and x != self.top_path[0]:
            if self.repeated(x):
                branch = toward_top.get(parent[x])
                if branch is not None and _sections_alike(self.signature(branch), self.signature(x)):
                    return None
                return x
            x = parent[x]
        return None


def _sections_alike(signature: tuple[str, str], other: tuple[str, str]) -> bool:
    """Whether two :meth:`_Groups.signature` are one tag sharing a class word: a story cut
    in sections (``div.articleBodyText.version-2``, then ``div.articleBodyText.section``
    after each image) is one story, not teasers after it.  Three dev sets, against equal
    signatures only: readability-pages 0.95753 -> 0.95852 (1 page up: 0.87 -> 1.0), wcxb-dev
    0.87012 -> 0.87018 (2 up), trafilatura-eval unchanged; no page down."""
    return signature == other or (
        signature[0] == other[0] and not set(signature[1].split()).isdisjoint(other[1].split())
    )


def filter_blocks(
    page: Page,
    marked: list[int],
    top: int,
    density_sum: Sequence[float],
    block_ratio: float,
    peer_min: int,
    info: dict[str, Any],
    positions: Mapping[str, list[int]] | None = None,
) -> tuple[list[int], Callable[[], list[tuple[int, float, str]]]]:
    """Which of the walk's blocks stay (``main_region``, ``peer_items``,
    ``items_after_article``, ``block_floor``); ``positions``: the page's :func:`tag_positions`, if found already.

    Returns the kept blocks in document order, and a function reporting every block as
    ``(element index, DensitySum, decision)``, called only when diagnostics are asked for.
    """
    end = page.end
    region = main_region(page, positions) if rules.on("main_region") else None
    inside: tuple[int, int] | None = None
    if region is not None:
        start, rule = region
        info["main_region"] = Named(start, f" ({rule})")
        if start <= top < end[start]:
            inside = (start, end[start])
    groups = _Groups(page, top, peer_min)
    peers = groups.peers() if peer_min and rules.on("peer_items") else []
    peer_ends = [end[p] for p in peers]  # ends, sorted as the peers are
    if peers:
        info["peer_items"] = len(peers)
    if peers and rules.on("declared_article_alone"):
        lone_prose = is_prose(page, top) and declares_article(page)
    else:
        lone_prose = bool(peer_min) and not peers and is_prose(page, top)
    info["top_is_lone_prose"] = lone_prose
    floor = block_ratio * density_sum[top] if rules.on("block_floor") else 0.0
    after_article = lone_prose and rules.on("items_after_article")

    # The marked blocks lying in a peer, found once (a C-level search per block), and the
    # decisions' texts, formatted once.
    in_peers: set[int] = set()
    if peers:
        found = map(bisect_right, repeat(peer_ends), marked)
        in_peers = {b for b, k in zip(marked, found) if k < len(peers) and peers[k] <= b}
    below = f"dropped: DensitySum < {block_ratio} x the top block's"
    above = f"kept: DensitySum >= {block_ratio} x the top block's"

    def in_peer(block: int) -> bool:
        return block in in_peers

    def decision(block: int) -> str:
        if block == top:
            return "kept: top block"
        if inside is not None and not inside[0] <= block < inside[1]:
            return "dropped: outside the main region"
        if peers and in_peer(block):
            return "kept: inside a peer of the top block's repeated item"
        if (
            after_article
            and block >= end[top]
            and (item := groups.foreign_item(block)) is not None
            and page.chars[item] <= ITEM_MAX_SHARE * page.chars[top]
        ):
            return f"dropped: after the article, in a small repeated item {page.describe(item)}"
        if density_sum[block] < floor:
            return below
        return above

    # Only the top block, a peer's content or a block at or above the floor can be kept
    # (the other rules only drop): the full decision is needed for those alone.
    candidates = [b for b in marked if density_sum[b] >= floor or b == top or (peers and in_peer(b))]
    kept = sorted(b for b in candidates if decision(b)[0] == "k")
    return kept, lambda: [(b, density_sum[b], decision(b)) for b in sorted(marked)]


def rescue_structures(
    page: Page, blocks: list[int], counts: Counts, info: dict[str, Any], positions: Mapping[str, list[int]]
) -> list[int]:
    """``rescued_structures``: a table, definition list or ``<pre>`` lying between the first and the last
    kept block, outside them, with link density ``LC/C <= RESCUE_MAX_LINK_DENSITY``."""
    end = page.end
    kept = sorted(blocks)
    first = kept[0]
    last = max(end[b] for b in kept)
    chars, link_chars, removed = counts.chars, counts.link_chars, counts.removed
    rescued = []
    covered = 0
    k = 0
    for i in in_order(positions, RESCUED_TAGS):
        if not first < i < last or i < covered or removed[i] or not chars[i]:
            continue
        while k < len(kept) and end[kept[k]] <= i:
            k += 1
        if k < len(kept) and kept[k] < end[i]:
            continue  # inside a kept block, or holding one
        if link_chars[i] > RESCUE_MAX_LINK_DENSITY * chars[i]:
            continue
        rescued.append(i)
        covered = end[i]
    if rescued:
        info["rescued_structures"] = [page.describe(i) for i in rescued]
    return rescued


# --- recall: the top block's twins ------------------------------------------------------------
# A page may split its story over sibling containers alike (a rich-text block, an embed or
# a list of companies, another rich-text block).  The walk takes the largest as the top
# block; the others' DensitySum lies below ``block_floor``'s floor, so the story lost its start.
# First half, two folds (odd / even), ``plus_rules.py --folds``: articles' word F1 0.9616 /
# 0.9634 -> 0.9617 / 0.9641, shingle F1 0.9575 / 0.9546 -> 0.9576 / 0.9552 (recall up,
# precision unchanged), no page type down: two pages change, both up.

#: A twin is kept when at least this share of its characters lies in ``<p>``s (above 1:
#: the rule is off).  Without it a report page's twin, its table of contents, came in
#: (a service page down on the even fold).
TWIN_MIN_PARAGRAPH_SHARE = 0.5


def _signature(element: etree._Element) -> frozenset[str] | str | None:
    """An element's classes as a set (their order varies between twins), else its ``id``
    (twins that repeat one), else ``None``."""
    classes = (element.get("class") or "").split()
    if classes:
        return frozenset(classes)
    return element.get("id") or None


def _alike(signature: frozenset[str] | str | None, other: frozenset[str] | str | None) -> bool:
    """Whether two :func:`_signature` are twins': equal, or class sets one of which holds
    the other (a modifier class: ``rich-text-block intro`` beside ``rich-text-block``).
    The modifier: first half, two folds, two articles up (0.9574 -> 0.9791, 0.9905 ->
    0.9910), no page down."""
    if signature == other:
        return True
    if not isinstance(signature, frozenset) or not isinstance(other, frozenset):
        return False
    return signature <= other or other <= signature


def twins_of_top(page: Page, kept: list[int], top: int, counts: Counts, prose: bool = True) -> list[int]:
    """The top block's siblings of its tag and classes (or ``id``; :func:`_alike`), not
    kept yet: on an article (``prose``) those with text mostly in paragraphs
    (``TWIN_MIN_PARAGRAPH_SHARE``), the rest of the story; beside a ``<pre>`` top block
    (``prose=False``) every one, the rest of a document paginated in ``<pre>`` pages (an
    RFC's references pages are dense with links: below ``block_floor``'s floor).  The pruning rules
    still read them.  Reads the top block's siblings only."""
    parent = page.parent[top]
    signature = _signature(page.elements[top]) if parent >= 0 else None
    if signature is None or TWIN_MIN_PARAGRAPH_SHARE > 1:
        return []
    tags, chars, removed, elements = page.tags, counts.chars, counts.removed, page.elements
    kept_set = set(kept)
    return [
        sibling
        for sibling in page.children_of(parent)
        if sibling != top
        and tags[sibling] == tags[top]
        and chars[sibling]
        and not removed[sibling]
        and sibling not in kept_set
        and _alike(_signature(elements[sibling]), signature)
        and (not prose or count_paragraphs(page, chars, sibling)[1] >= TWIN_MIN_PARAGRAPH_SHARE * chars[sibling])
    ]


TOP_CHROME_MAX_SHARE = 0.5


TOP_CHROME_TRIES = 5


def _hidden_by_class(element: etree._Element) -> bool:
    """Whether ``element``'s ``class`` has a :data:`TOP_HIDDEN_CLASSES` word and no
    responsive word (holding a colon)."""
    words = (element.get("class") or "").split()
    return not frozenset(TOP_HIDDEN_CLASSES).isdisjoint(words) and not any(":" in word for word in words)


def top_outside_chrome(page: Page, density_sum: list[float], top: int, info: dict[str, Any]) -> int:
    """The top block outside the parts labelled as the page's furniture
    (:data:`TOP_CHROME_STEMS`): reads the labels on the top block's path below the page's
    ``<main>`` (or ``role=main``) only; zeroes the DensitySum of each such part found (in
    place) and returns the new top block.  A grid column labelled ``left-navigation``
    holding ``<main>`` was taken for furniture: stopping at ``<main>`` moved
    trafilatura-eval 0.92364 -> 0.92402 (1 page up), wcxb-dev and readability-pages no page."""
    if not TOP_CHROME_STEMS and not TOP_HIDDEN_CLASSES:
        return top
    pattern = stem_pattern(tuple(TOP_CHROME_STEMS)) if TOP_CHROME_STEMS else None
    end, chars, elements, tags = page.end, page.chars, page.elements, page.tags
    max_chars = TOP_CHROME_MAX_SHARE * chars[0]
    left: list[int] = []
    for _ in range(TOP_CHROME_TRIES):
        chrome = -1
        for x in page.path_to_body(top)[:-1]:  # the highest labelled ancestor wins
            if tags[x] == "main" or page.roles.get(x) == "main":
                break  # the page's main region, and what holds it, is no furniture
            if (
                chars[x] <= max_chars
                and tags[x] not in TOP_CHROME_SPARED_TAGS
                and (
                    (pattern is not None and pattern.search(label_text(elements[x]).lower()))
                    or _hidden_by_class(elements[x])
                )
            ):
                chrome = x
        if chrome < 0:
            break
        saved = density_sum[chrome : end[chrome]]
        density_sum[chrome : end[chrome]] = [0.0] * (end[chrome] - chrome)
        if not any(density_sum[1:]):
            density_sum[chrome : end[chrome]] = saved  # nothing else to choose
            break
        left.append(chrome)
        top = top_block(density_sum)
    if left:
        info["top_outside_chrome"] = Named(left)
    return top


# --- ``list_in_prose``: a list in prose -------------------------------------------------------

#: ``list_in_prose``: a list as the top block (its items' densities summed outweigh the story's
#: paragraphs around it: "Some of the other data points include:" and ten items) gives way
#: to its parent when at least this share of the parent's characters lies in ``<p>``s: the
#: list is a part of the story, and ``block_floor``'s floor (0.08 times the list's DensitySum)
#: dropped the story's short paragraphs after it.  Tuning half, two folds
#: (``plus_rules.py --folds``, ``--set LIST_TOP_MIN_PROSE_SHARE=0`` before): all pages'
#: word F1 0.8963 / 0.8976 -> 0.8967 / 0.8977, articles' shingle F1 0.9589 / 0.9562 ->
#: 0.9593 / 0.9565 (precision 0.9426 / 0.9463 -> 0.9428 / 0.9465); 6 pages up (4
#: articles, a service and a product page), none down.  At 0.05 a forum page fell (a
#: post's list whose thread holds the other posts' paragraphs); 0.35 lost 2 of the 6.  0: off.
LIST_TOP_MIN_PROSE_SHARE = 0.2


def list_in_prose(page: Page, chars: Sequence[int], top: int, info: dict[str, Any]) -> int:
    """``list_in_prose``: the top block, or its parent when the top block is a list standing in
    prose (:data:`LIST_TOP_MIN_PROSE_SHARE`); ``chars``: ``removed_elements``'s counts."""
    if not LIST_TOP_MIN_PROSE_SHARE or page.tags[top] not in LIST_TAGS:
        return top
    parent = page.parent[top]
    if parent <= 0:  # never body
        return top
    _, in_paragraphs = count_paragraphs(page, chars, parent)
    if in_paragraphs < LIST_TOP_MIN_PROSE_SHARE * chars[parent]:
        return top
    info["list_in_prose"] = Named(top)
    return parent


# --- ``story_in_body``: a story written straight into body ----------------------------------

def story_in_body(page: Page, chars: Sequence[int], top: int, info: dict[str, Any]) -> int:
    """``story_in_body``: body itself as the top block when it holds more text of its own
    (text and tails of its children, as a page with no container writes its story) than the
    top block holds in all; else the top block.  CETD's top block lies under body, so the
    story's text between its paragraphs was lost and only one paragraph was kept.
    ``chars``: ``removed_elements``'s counts.  Three dev sets (before -> after):
    readability-pages 0.9524 -> 0.9575 (1 page up: 0.32 -> 0.99), wcxb-dev 0.86991 ->
    0.87008 (1 up: 0.74 -> 0.98), trafilatura-eval unchanged (a page whose body opens
    with server warnings but holds its story in a container stays as it was)."""
    own = chars[0] - sum(chars[child] for child in page.children_of(0))
    if own <= chars[top]:
        return top
    info["story_in_body"] = True
    return 0


# --- ``lead_paragraph``: the story's lead before the top block ---------------------------------
# A standfirst (an intro, a teaser above the story: ``p.lead``, ``div.intro``, an ``h2``
# subheadline) is short beside the story, so its DensitySum lies under ``block_floor``'s
# floor and the story lost its first lines.  Three dev sets, ``scrapy-cetd evaluate``
# (before -> after): trafilatura-eval F1 0.91306 -> 0.91455 (10 pages up, none down),
# readability-pages 0.93667 -> 0.93705 (5 up, 2 down), wcxb-dev 0.86945 -> 0.86947 (10 up,
# 12 down).  WCXB's and Readability's labels often leave a standfirst out where
# trafilatura's keep it: a lead anywhere before the story (the headline's header, a
# summary box higher up) cost wcxb-dev 0.0002 and readability-pages 0.0001; the lead must
# lie beside the top block, under its parent.

#: ``lead_paragraph``: a lead has at least this many characters; shorter blocks between it
#: and the top block (a byline, a date, a reading time) are passed over.
LEAD_MIN_CHARS = 80
#: ... and at most this share of the top block's characters.
LEAD_MAX_SHARE = 0.5
#: ... with at most this many characters of other text between it and the top block.
LEAD_MAX_GAP = 200
#: ... and at most this link density ``LC/C``.
LEAD_MAX_LINK_DENSITY = 0.3


def _text_between(page: Page, chars: Sequence[int], start: int, top: int, limit: int) -> int:
    """The characters of the elements from ``start`` up to the top block (the top block's
    ancestors' own text aside), counted until they pass ``limit``."""
    end = page.end
    total = 0
    j = start
    while j < top and total <= limit:
        if end[j] > top:  # an ancestor of the top block: its children are between
            j += 1
            continue
        total += chars[j]
        j = end[j]
    return total


def is_one_line(page: Page, i: int) -> bool:
    """Whether element ``i`` reads as one line: at most one block-level element inside
    (a ``<div>`` wrapping a ``<p>``)."""
    return page.block_starts[page.end[i]] - page.block_starts[i + 1] <= 1


def _is_lead(page: Page, block: int, top: int, counts: Counts) -> bool:
    """Whether ``block`` (before the top block, ``LEAD_MIN_CHARS`` or more) reads as the
    story's lead: under the top block's parent, one line (at most one block-level element
    inside: a ``<div>`` wrapping a ``<p>``), not an ``<h1>`` (the headline), at most
    ``LEAD_MAX_SHARE`` of the top block's characters, few links, and at most
    ``LEAD_MAX_GAP`` characters of other text before the top block."""
    end, parent, chars = page.end, page.parent, counts.chars
    beside = block
    while end[beside] <= top and beside != parent[top]:
        beside = parent[beside]
    return (
        beside == parent[top]
        and page.tags[block] != "h1"
        and is_one_line(page, block)
        and chars[block] <= LEAD_MAX_SHARE * chars[top]
        and counts.link_chars[block] <= LEAD_MAX_LINK_DENSITY * chars[block]
        and _text_between(page, chars, end[block], top, LEAD_MAX_GAP) <= LEAD_MAX_GAP
    )


def lead_of_top(page: Page, marked: list[int], kept: list[int], top: int, counts: Counts) -> int | None:
    """``lead_paragraph``: the walk's last block of ``LEAD_MIN_CHARS`` or more before the top
    block, when ``block_floor`` dropped it and it reads as the story's lead
    (:func:`_is_lead`); else ``None``."""
    end = page.end
    chars, removed = counts.chars, counts.removed
    kept_set = set(kept)
    for block in sorted((b for b in marked if end[b] <= top), reverse=True):
        if block in kept_set:
            return None  # the story already reaches back
        if removed[block] or chars[block] < LEAD_MIN_CHARS:
            continue
        return block if _is_lead(page, block, top, counts) else None
    return None
