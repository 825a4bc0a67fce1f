"""The story's edges, on an article: ``datelines``, ``author_bio``, ``legal_lines``,
``subscribe_calls``, ``affiliate_disclosures`` and ``contributor_notes`` among the top
block's first and last children or as kept blocks around it."""

from __future__ import annotations

from typing import Any

from ...page import Page, element_text
from . import rules
from .data import HEADING_TAGS
from .rules import Named
from .texts import (
    BIO_MAX_CHARS,
    CALL_MAX_CHARS,
    DATELINE_MAX_CHARS,
    DISCLOSURE_MAX_CHARS,
    LEGAL_MAX_CHARS,
    is_bio,
    is_call,
    is_contributor_note,
    is_dateline,
    is_disclosure,
    is_legal,
)

#: The story's edges: this many first and last children of the top block.
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
    notes = rules.on("contributor_notes")
    texts: dict[int, str] = {}  # a last child is read twice (before and after the story)

    def edge(i: int, before: bool) -> bool:
        if not chars[i] or chars[i] > longest or tags[i] in HEADING_TAGS:
            return False
        text = texts.get(i)
        if text is None:
            text = texts[i] = element_text(page.elements[i])
        if not before and notes and is_contributor_note(page, i, text):
            return True
        if before:
            if datelines and is_dateline(text):
                return True
        elif (legal and is_legal(text)) or (calls and is_call(text)):
            return True
        return (bios and is_bio(text)) or (disclosures and is_disclosure(text))

    children = page.children_of(top)
    last = children[max(HEADER_CHILDREN, len(children) - HEADER_CHILDREN) :]
    found = []
    for child in children[:HEADER_CHILDREN] + last:
        if not removed[child] and (edge(child, True) or (child in last and edge(child, False))):
            removed[child : end[child]] = [True] * (end[child] - child)
            found.append(child)
    outside = [b for b in kept if b < top or b >= end[top]]  # inside: the children above
    dropped = {b for b in outside if edge(b, b < top)}
    if dropped:
        info["story_edges"] = Named(sorted(dropped))
    return found, [b for b in kept if b not in dropped]
