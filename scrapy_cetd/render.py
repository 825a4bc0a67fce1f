"""Rendering a :class:`~scrapy_cetd.extraction.Selection` as text and as cleaned HTML.

One renderer for every algorithm.  Text gets a line break at every block-level element
boundary and a space at inline boundaries, so words never glue together across elements
(no space before closing or after opening punctuation).
The cleaned HTML keeps the content and its ancestors, with their tags and attributes, so
the page's original structure survives (seed 000, section 1: "preserve the original
structure").  Text comes from the page's text runs and the block-level elements between
them (:attr:`~scrapy_cetd.page.Page.block_starts`); the HTML from lxml's serialization of the
selected subtrees, inside the start and end tags of their ancestors.  No recursion on the
DOM.
"""

from __future__ import annotations

import re
from html import escape
from itertools import compress
from operator import and_

from lxml import etree

from .extraction import Selection
from .page import BLOCK_TAGS, Page
from .parsing import VOID_TAGS

__all__ = ["render"]

_NAME = re.compile(r"^[^\s\"'>/=\x00-\x1f]+$")
#: At an inline boundary no space goes before a run starting with closing punctuation, nor
#: after one ending with opening punctuation: ``<a>world</a>, this`` reads "world, this".
CLOSING_PUNCTUATION = frozenset(",.;:!?)]}%…”’")
OPENING_PUNCTUATION = frozenset("([{“‘")


def _content_flags(page: Page, selection: Selection) -> tuple[list[bool], list[int]]:
    """``content[i]``: element ``i`` lies inside a selected subtree; and the outermost
    selected subtrees, in document order (body's children when body is selected: body is
    renamed, never copied whole)."""
    content = [False] * len(page)
    end = page.end
    roots = []
    covered_until = 0
    for root in sorted(selection.subtrees):
        if root < covered_until:
            continue  # nested in a subtree already marked
        covered_until = end[root]
        content[root:covered_until] = [True] * (covered_until - root)
        roots.append(root)
    if roots == [0]:
        roots = page.children_of(0)
    return content, roots


def _ancestors(page: Page, selection: Selection, content: list[bool], roots: list[int]) -> set[int]:
    """The elements of the cleaned HTML written as start and end tags: the ancestors of
    the selected subtrees and the owners of selected runs (with their ancestors)."""
    parent = page.parent
    starts = [parent[root] for root in roots]
    starts += [key >> 1 if not key & 1 else parent[key >> 1] for key in selection.runs]
    if content[0]:
        starts.append(0)
    kept: set[int] = set()
    for node in starts:
        while node >= 0 and node not in kept and (node == 0 or not content[node]):
            kept.add(node)
            node = parent[node]
    return kept


def _start_tag(tag: str, attrib: dict[str, str]) -> str:
    attrs = "".join(f' {name}="{escape(value)}"' for name, value in attrib.items() if _NAME.match(name))
    return f"<{tag}{attrs}>"


def render(page: Page, selection: Selection, *, with_html: bool = True) -> tuple[str, str]:
    """Return ``(text, html)`` for the selected content of ``page`` (``html`` empty
    without ``with_html``)."""
    if selection.lines is not None and not selection.subtrees and not selection.runs:
        return "\n".join(selection.lines), ""
    if not len(page) or not (selection.subtrees or selection.runs):
        return "", ""
    content, roots = _content_flags(page, selection)
    return _text(page, selection, content), _html(page, selection, content, roots) if with_html else ""


def _text(page: Page, selection: Selection, content: list[bool]) -> str:
    """The selected runs in document order, a line break between two of them where a
    block-level element starts or ends between them, else a space (none next to closing or
    opening punctuation).  A ``<pre>`` selected whole is one block of its source text, line
    breaks kept.

    Between runs ``r`` and ``t`` a block-level element ends iff the nearest block-level
    element holding ``r`` does not hold ``t``; one starts iff a block-level element's
    index lies between their start cursors (the first element starting after each run).
    """
    selected = list(map(content.__getitem__, page.run_owner))
    if selection.runs:
        runs = selection.runs
        selected = [chosen or key in runs for chosen, key in zip(selected, page.run_key)]
    # Runs of only non-ASCII whitespace (``&nbsp;``) render as nothing.
    chosen = compress(range(len(selected)), map(and_, selected, map(bool, page.run_chars)))
    texts, owners, keys = page.run_collapsed, page.run_owner, page.run_key
    end, tags, parent = page.end, page.tags, page.parent
    block_starts = page.block_starts
    pre_of = _outermost_pre(page)
    nearest_block: dict[int, int] = {}
    pieces = []
    cursor = block = block_end = pre_done = -1
    for k in chosen:
        owner, key = owners[k], keys[k]
        text = texts[k]
        if pre_of and (pre := pre_of[owner]) >= 0 and content[pre]:
            if pre == pre_done:
                continue  # a selected <pre> is emitted whole at its first run
            text, pre_done = "".join(page.elements[pre].itertext()), pre
        next_cursor = end[key >> 1] if key & 1 else (key >> 1) + 1
        if cursor >= 0:
            if not block <= owner < block_end or block_starts[next_cursor] != block_starts[cursor]:
                pieces.append("\n")
            elif text[:1] not in CLOSING_PUNCTUATION and pieces[-1][-1:] not in OPENING_PUNCTUATION:
                pieces.append(" ")
        pieces.append(text)
        cursor = next_cursor
        block = nearest_block.get(owner, -1)
        if block < 0:
            block = owner
            while tags[block] not in BLOCK_TAGS:
                block = parent[block]
            nearest_block[owner] = block
        block_end = end[block]
    lines = "".join(pieces).split("\n")
    if pre_of:
        lines = list(filter(None, map(" ".join, map(str.split, lines))))
    return "\n".join(_drop_repeated_lines(lines, selection.dedupe_min_chars))


def _outermost_pre(page: Page) -> list[int]:
    """Per element, the outermost ``<pre>`` holding it (or -1); empty without ``<pre>``."""
    pres = page.positions("pre")
    if not pres:
        return []
    pre_of = [-1] * len(page)
    end = page.end
    for pre in pres:
        if pre_of[pre] < 0:
            pre_of[pre : end[pre]] = [pre] * (end[pre] - pre)
    return pre_of


def _html(page: Page, selection: Selection, content: list[bool], roots: list[int]) -> str:
    """The cleaned HTML: ``roots`` serialized whole by lxml, inside the start and end tags
    of :func:`_ancestors`, with the selected text runs between, escaped."""
    runs = selection.runs
    elements, tags, end, parent = page.elements, page.tags, page.end, page.parent
    pieces = ["<html>"]
    if page.title:
        pieces.append(f"<head><title>{escape(page.title, quote=False)}</title></head>")

    def tail_of(i: int) -> None:
        tail = elements[i].tail
        if tail and i and (content[parent[i]] or 2 * i + 1 in runs):
            pieces.append(escape(tail, quote=False))

    open_elements: list[int] = []

    def close_until(i: int) -> None:
        while open_elements and end[open_elements[-1]] <= i:
            j = open_elements.pop()
            tag = "body" if j == 0 else tags[j]
            if tag not in VOID_TAGS:
                pieces.append(f"</{tag}>")
            tail_of(j)

    is_root = set(roots)
    is_ancestor = _ancestors(page, selection, content, roots)
    tails = {key >> 1 for key in runs if key & 1}
    covered_until = 0
    for i in sorted(is_root | is_ancestor | tails):
        if i < covered_until:
            continue  # inside a subtree serialized whole
        close_until(i)
        el = elements[i]
        if i in is_root:
            pieces.append(etree.tostring(el, method="html", encoding="unicode", with_tail=False))
            covered_until = end[i]
            tail_of(i)
        elif i in is_ancestor:
            pieces.append(_start_tag("body" if i == 0 else tags[i], el.attrib))
            text = el.text
            if text and (content[i] or 2 * i in runs):
                pieces.append(escape(text, quote=False))
            open_elements.append(i)
        else:
            tail_of(i)  # the tail of an element left out
    close_until(len(page))
    pieces.append("</html>")
    return "".join(pieces)


def _drop_repeated_lines(lines: list[str], min_chars: int) -> list[str]:
    """With ``min_chars > 0``, a line of ``min_chars`` or more characters that already
    appeared is left out (short lines may repeat legitimately)."""
    if not min_chars or len(set(lines)) == len(lines):
        return lines
    seen: set[str] = set()
    kept = []
    for line in lines:
        if len(line) >= min_chars:
            if line in seen:
                continue
            seen.add(line)
        kept.append(line)
    return kept
