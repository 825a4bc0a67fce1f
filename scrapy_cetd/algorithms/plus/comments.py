"""The ``comments`` output: the page's comment sections (comment labels), less their form,
headings, links alone, stock lines and the form's notices."""

from __future__ import annotations

from itertools import accumulate

from ...page import Page, element_text
from ..labels import COMMENT
from .data import HEADING_TAGS, NO_COMMENT_TAGS
from .reading import element_label, in_order, lies_within, outermost_of, tag_positions
from .texts import is_comment_form_notice, is_stock_line

__all__ = ["COMMENT_MIN_WORDS", "COMMENT_NOTICE_MAX_CHARS", "comment_sections", "posted_comments"]

#: A comments output none of whose parts holds this many words holds no posted comment
#: (labels, counts and controls: on the first 748 dev pages 11 outputs, none a reader's).
COMMENT_MIN_WORDS = 5


#: Only a part of at most this many characters is read for a notice: a larger one holds
#: readers' comments beside it (a thread whose last line is "You must be logged in to post
#: a comment.") and is kept whole.
COMMENT_NOTICE_MAX_CHARS = 400


def comment_sections(page: Page, top: int, removed: list[bool], found: list[int]) -> set[int]:
    """The page's comment sections: the highest comment-labelled elements with text
    (``labelled_parts``), those pruned from the content (``found``) and any elsewhere on the page, except
    on the top block's path (where the whole page is a comment or forum page: none) and
    in :data:`NO_COMMENT_TAGS`."""
    top_path = page.path_to_body(top)
    if any(element_label(page, x) == COMMENT for x in top_path[:-1]):
        return set()
    on_top_path = set(top_path)
    chars, end, tags = page.chars, page.end, page.tags
    no_comments = outermost_of(page, in_order(tag_positions(page, NO_COMMENT_TAGS), NO_COMMENT_TAGS))
    sections = {x for x in found if not lies_within(page, no_comments, x)}
    node = 1
    n = len(page)
    while node < n:
        if not chars[node] or removed[node] or node in sections or tags[node] in NO_COMMENT_TAGS:
            node = end[node]
        elif node not in on_top_path and element_label(page, node) == COMMENT:
            sections.add(node)
            node = end[node]
        else:
            node += 1
    return sections


def posted_comments(page: Page, sections: set[int]) -> set[int]:
    """The comment sections less their reply form (a ``<form>`` and what holds nothing
    else), headings ("3 Comments", "Leave a Reply"), links alone (a listing's "Comment" or
    "12 comments" links, a "Reply" button), stock lines (``stock_lines``) and the form's notices
    (:func:`is_comment_form_notice`): what readers posted.  A section holding only its
    form gives nothing (WordPress writes the form, "Your email address will not be
    published", under every post: on the first half of the dev pages, 13 of the 97 with
    ``comments`` had only that).  Elements are taken whole where they hold no form; the
    bare text of an element that holds one is left out."""
    if not sections:
        return set()
    tags, end, chars, link_chars = page.tags, page.end, page.chars, page.link_chars
    forms_before = list(accumulate(map("form".__eq__, tags), initial=0))  # forms among elements 0 .. i-1
    kept: set[int] = set()
    for section in sections:
        pending = [section]
        while pending:
            node = pending.pop()
            if tags[node] == "form" or not chars[node]:
                continue
            if forms_before[end[node]] != forms_before[node]:
                pending.extend(page.children_of(node))
            elif tags[node] in HEADING_TAGS or link_chars[node] == chars[node]:
                continue
            elif chars[node] > COMMENT_NOTICE_MAX_CHARS:
                kept.add(node)
            elif not is_stock_line(text := element_text(page.elements[node])) and not is_comment_form_notice(text):
                kept.add(node)
    elements = page.elements
    if not any(len(element_text(elements[node]).split()) >= COMMENT_MIN_WORDS for node in kept):
        return set()  # labels, counts and controls only: "Comments", "Loading Comments", "Posts"
    return kept
