"""Rendering a :class:`~scrapy_cetd.extraction.Selection` as text and as cleaned HTML.

One renderer for every algorithm.  Text gets a line break at every block-level element
boundary and a space at inline boundaries, so words never glue together across elements.
The cleaned HTML keeps the content and its ancestors, with their tags and attributes, so
the page's original structure survives (seed 000, section 1: "preserve the original
structure").  Both are produced in one iterative walk: no recursion on the DOM.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from html import escape

from lxml import etree

from .extraction import Selection
from .page import BLOCK_TAGS, Page

__all__ = ["render"]

_LINE_BREAK = "\n"
_NAME = re.compile(r"^[^\s\"'>/=\x00-\x1f]+$")
_VOID_TAGS = frozenset(
    "area base br col embed hr img input link meta param source track wbr".split()
)


def _content_flags(page: Page, selection: Selection) -> tuple[list[bool], list[bool]]:
    """``content[i]``: element ``i`` lies inside a selected subtree.  ``kept[i]``: it or a
    descendant holds content, so it appears in the cleaned HTML."""
    n = len(page)
    content = [False] * n
    end = page.end
    covered_until = 0
    for root in sorted(selection.subtrees):
        if root < covered_until:
            continue  # nested in a subtree already marked
        covered_until = end[root]
        content[root:covered_until] = [True] * (covered_until - root)
    kept = content[:]
    parent = page.parent
    owners = [key >> 1 if not key & 1 else parent[key >> 1] for key in selection.runs]
    for node in (*sorted(selection.subtrees), *owners):
        kept[node] = True
        node = parent[node]
        while node >= 0 and not kept[node]:  # mark the ancestors up to one already kept
            kept[node] = True
            node = parent[node]
    return content, kept


def _start_tag(tag: str, attrib: dict[str, str]) -> str:
    attrs = "".join(f' {name}="{escape(value)}"' for name, value in attrib.items() if _NAME.match(name))
    return f"<{tag}{attrs}>"


def render(page: Page, selection: Selection) -> tuple[str, str]:
    """Return ``(text, html)`` for the selected content of ``page``."""
    if selection.lines is not None and not selection.subtrees and not selection.runs:
        return "\n".join(selection.lines), ""
    content, kept = _content_flags(page, selection)
    if not kept or not kept[0]:
        return "", ""
    runs = selection.runs
    index = page.index
    tags = page.tags
    parent = page.parent
    text_pieces: list[str] = []
    html_pieces: list[str] = ["<html>"]
    if page.title:
        html_pieces.append(f"<head><title>{escape(page.title, quote=False)}</title></head>")
    end = page.end
    # Elements copy_root <= i < copy_end lie in a content subtree lxml serialized whole.
    copy_root = copy_end = -1
    walker = etree.iterwalk(page.body, events=("start", "end"))
    for event, el in walker:
        i = index[el]
        tag = tags[i] or "span"
        if i == 0:
            tag = "body"
        in_copy = copy_root <= i < copy_end
        if event == "start":
            if not kept[i]:
                walker.skip_subtree()
                continue
            text_pieces.append(_LINE_BREAK if tag in BLOCK_TAGS else " ")
            text = el.text
            is_content = content[i]
            if not in_copy:
                if is_content and tags[i] == tag:
                    # A whole content subtree: lxml serializes it in one call.
                    html_pieces.append(etree.tostring(el, method="html", encoding="unicode", with_tail=False))
                    copy_root, copy_end = i, end[i]
                else:
                    html_pieces.append(_start_tag(tag, el.attrib))
                    if text and (is_content or 2 * i in runs):
                        html_pieces.append(escape(text, quote=False))
            if text and (is_content or 2 * i in runs):
                text_pieces.append(text)
        else:
            if kept[i]:
                text_pieces.append(_LINE_BREAK if tag in BLOCK_TAGS else " ")
                if not in_copy and tag not in _VOID_TAGS:
                    html_pieces.append(f"</{tag}>")
            tail = el.tail
            if tail and i and (content[parent[i]] or 2 * i + 1 in runs):
                text_pieces.append(tail)
                if not (copy_root < i < copy_end):
                    html_pieces.append(escape(tail, quote=False))
    html_pieces.append("</html>")
    lines = (" ".join(line.split()) for line in "".join(text_pieces).split(_LINE_BREAK) if line and not line.isspace())
    return "\n".join(_drop_repeated_lines(lines, selection.dedupe_min_chars)), "".join(html_pieces)


def _drop_repeated_lines(lines: Iterable[str], min_chars: int) -> Iterator[str]:
    """The non-empty lines; with ``min_chars > 0``, a line of ``min_chars`` or more
    characters that already appeared is left out (short lines may repeat legitimately)."""
    seen: set[str] = set()
    for line in lines:
        if not line:
            continue
        if min_chars and len(line) >= min_chars:
            if line in seen:
                continue
            seen.add(line)
        yield line
