"""The story's edges, on an article: ``datelines``, ``author_bio``, ``legal_lines``,
``subscribe_calls``, ``affiliate_disclosures``, ``contributor_notes``, ``author_box`` among
the top block's first and last children or as kept blocks around it, and
``emphasized_calls`` anywhere in the story."""

from __future__ import annotations

from typing import Any

from ...page import Page, element_text
from . import rules
from .data import AUTHOR_LEAD, CALL_BOX_TAGS, CALL_EMPHASIS_TAGS, FORM_CONTROLS, HEADING_TAGS
from .reading import chars_in
from .rules import Named
from .texts import (
    AUTHOR_BOX_MAX_CHARS,
    AUTHOR_LEAD_MAX_CHARS,
    BIO_MAX_CHARS,
    CALL_MAX_CHARS,
    DATELINE_MAX_CHARS,
    DISCLOSURE_MAX_CHARS,
    LEGAL_MAX_CHARS,
    is_author_box,
    is_bio,
    is_call,
    is_contributor_note,
    is_dateline,
    is_disclosure,
    is_legal,
)

#: ... and inside the top block, among its first children, a byline of at most this length.
HEADER_CHILDREN = 4


def story_edges(
    page: Page, kept: list[int], top: int, removed: list[bool], info: dict[str, Any]
) -> tuple[list[int], list[int]]:
    """The story's edges, on an article (the top block is prose standing alone,
    ``items_after_article``): among the first and the last ``HEADER_CHILDREN`` children of the top block, a
    dateline, an author's bio or an affiliate disclosure, and among the last a legal line or
    a call to subscribe or support, is removed (flags set in place; returned); a kept block
    outside the top block that is an author's bio or a disclosure, a dateline before the
    top block or a legal line or a call after it is dropped (the blocks left are returned).
    Headings are never read."""
    tags, end, chars = page.tags, page.end, page.chars
    longest = max(DATELINE_MAX_CHARS, BIO_MAX_CHARS, LEGAL_MAX_CHARS, CALL_MAX_CHARS, DISCLOSURE_MAX_CHARS)

    datelines, bios, legal = rules.on("datelines"), rules.on("author_bio"), rules.on("legal_lines")
    calls, disclosures = rules.on("subscribe_calls"), rules.on("affiliate_disclosures")
    notes, box = rules.on("contributor_notes"), rules.on("author_box")
    texts: dict[int, str] = {}  # a last child is read twice (before and after the story)

    def edge(i: int, before: bool) -> bool:
        if not chars[i] or chars[i] > longest or tags[i] in HEADING_TAGS:
            return False
        text = texts.get(i)
        if text is None:
            text = texts[i] = element_text(page.elements[i])
        if not before and ((notes and is_contributor_note(page, i, text)) or (box and is_author_box(text))):
            return True
        if before:
            if datelines and is_dateline(text):
                return True
        elif (legal and is_legal(text)) or (calls and is_call(text)):
            return True
        return (bios and is_bio(text)) or (disclosures and is_disclosure(text))

    children = page.children_of(top)
    last = children[max(HEADER_CHILDREN, len(children) - HEADER_CHILDREN) :]
    found = _author_box_tail(page, last, removed) if box else []
    for child in children[:HEADER_CHILDREN] + last:
        if not removed[child] and (edge(child, True) or (child in last and edge(child, False))):
            removed[child : end[child]] = [True] * (end[child] - child)
            found.append(child)
    if rules.on("emphasized_calls"):
        found += _emphasized_calls(page, children, removed)
    outside = [b for b in kept if b < top or b >= end[top]]  # inside: the children above
    dropped = {b for b in outside if edge(b, b < top)}
    if dropped:
        info["story_edges"] = Named(sorted(dropped))
    return found, [b for b in kept if b not in dropped]


EMPHASIS_MIN_SHARE = 0.9


def _emphasized_calls(page: Page, children: list[int], removed: list[bool]) -> list[int]:
    """``emphasized_calls`` on the top block's ``children``: the emphasized calls, removed (flags set in
    place) and returned.  A child's text is read only when it is short and emphasized."""
    tags, end, chars = page.tags, page.end, page.chars
    found = []
    for child in children:
        c = chars[child]
        if (
            c
            and c <= CALL_MAX_CHARS
            and not removed[child]
            and tags[child] not in HEADING_TAGS
            and (
                (tags[child] in CALL_BOX_TAGS and not FORM_CONTROLS.isdisjoint(tags[child : end[child]]))
                or (
                    CALL_EMPHASIS_TAGS  # a list when plus_rules.py --set sets it; checked at C level first:
                    and not frozenset(CALL_EMPHASIS_TAGS).isdisjoint(tags[child : end[child]])
                    and chars_in(page, child, CALL_EMPHASIS_TAGS) >= EMPHASIS_MIN_SHARE * c
                )
            )
            and is_call(element_text(page.elements[child]))
        ):
            removed[child : end[child]] = [True] * (end[child] - child)
            found.append(child)
    return found


def _author_box_tail(page: Page, last: list[int], removed: list[bool]) -> list[int]:
    """``author_box`` on the top block's ``last`` children: a lead alone ("About the Author:", a
    heading or a line) and the children after it, when they hold at most
    ``AUTHOR_BOX_MAX_CHARS`` characters, are removed (flags set in place; returned)."""
    chars, end = page.chars, page.end
    for k, child in enumerate(last):
        if removed[child] or not 0 < chars[child] <= AUTHOR_LEAD_MAX_CHARS:
            continue
        if AUTHOR_LEAD.fullmatch(element_text(page.elements[child])) is None:
            continue
        box = [c for c in last[k:] if not removed[c]]
        if sum(chars[c] for c in box) > AUTHOR_BOX_MAX_CHARS:
            return []
        for c in box:
            removed[c : end[c]] = [True] * (end[c] - c)
        return box
    return []
