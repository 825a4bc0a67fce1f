"""Source lines of a cleaned page, for the line-based algorithms (CETR, Line-Block).

CETR (the CETR paper) and Line-Block (the Line-Block paper) read the HTML *source* line by line.  The page
model keeps no original markup, so the source is re-created from the cleaned tree: one
iterative walk from ``<body>`` (:func:`tokens`) yields every start tag (with the length
of its markup ``<tag attr="value">``), every end tag (none for void elements) and every
text node as it is -- the serialization ``lxml.etree.tostring(page.body,
method="html")`` would write, up to entity escaping, as a token stream.  lxml keeps the
text's own line breaks (indentation and newlines between tags are whitespace text
nodes), so the lines are those of the original source without ``<head>``, scripts,
styles, comments and hidden elements (already removed by
:class:`~scrapy_cetd.page.Page`); only line breaks *inside* a tag (between attributes)
are lost.  Working from the tree means ``extract()`` and ``extract_tree()`` see the same
lines.

Each text piece keeps the key of the DOM text run it comes from, so content lines map
back to text runs (:func:`content_runs`) and the shared renderer builds the cleaned HTML.
Counts follow the project's common ground: characters are those of the text with
whitespace runs collapsed (entities already decoded by the parser); a tag is one start
or end tag.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter

from ..page import BLOCK_TAGS, LINK_TAGS, Page, attribute_items

__all__ = ["END", "START", "TEXT", "Line", "Token", "content_runs", "split_lines", "tokens"]

#: Elements written without an end tag.
VOID_TAGS = frozenset("area base br col embed hr img input link meta param source track wbr".split())

START, END, TEXT = 0, 1, 2
_tail_of = attrgetter("tail")

#: ``(START|END, tag, markup length, is block tag)`` or ``(TEXT, text, run key, in a link)``.
Token = tuple[int, str, int, bool]


def tokens(page: Page) -> list[Token]:
    """The cleaned page as a token stream: start tags, end tags and text, in source order.

    A text token carries the run key of its DOM text node (``2 * i`` for element ``i``'s
    text, ``2 * i + 1`` for its tail, as in :mod:`scrapy_cetd.page`) and whether it lies
    inside a hyperlink (``a``, ``button``, ``select``: the project's link elements).
    """
    out: list[Token] = []
    append = out.append
    tags = page.tags
    block = [tag in BLOCK_TAGS for tag in tags]
    link = [tag in LINK_TAGS for tag in tags]
    void = [tag in VOID_TAGS for tag in tags]
    link_depth = 0
    # The elements in the page's preorder (body = 0), with a stack of the open elements:
    # element i closes once the walk reaches the end of its subtree (``page.end``).  A
    # plain loop, where ``etree.iterwalk`` slows down with the depth of the tree.
    end = page.end
    open_elements: list[int] = []

    def close(i: int) -> None:
        nonlocal link_depth
        tag = tags[i]
        if tag:
            if link[i]:
                link_depth -= 1
            if not void[i]:
                append((END, tag, len(tag) + 3, block[i]))
        tail = tails[i]
        if tail and i:
            append((TEXT, tail, 2 * i + 1, link_depth > 0))

    tails = list(map(_tail_of, page.elements))
    for i, el in enumerate(page.elements):
        while open_elements and end[open_elements[-1]] <= i:
            close(open_elements.pop())
        open_elements.append(i)
        tag = tags[i]
        if tag:
            size = len(tag) + 2 + sum(4 + len(name) + len(value) for name, value in attribute_items(el))
            append((START, tag, size, block[i]))
            if link[i]:
                link_depth += 1
        text = el.text
        if text:
            append((TEXT, text, 2 * i, link_depth > 0))
    while open_elements:
        close(open_elements.pop())
    return out


class Line:
    """One source line: its tag count, its text and the run keys of its text pieces."""

    __slots__ = ("chars", "link_chars", "parts", "pieces", "starts_block", "tags", "text")

    def __init__(self) -> None:
        self.tags = 0
        #: Text and word separators; a block tag separates words (``<td>a</td><td>b</td>``).
        self.parts: list[str] = []
        #: ``(run key, characters of that run on this line)`` for each text piece.
        self.pieces: list[tuple[int, int]] = []
        self.link_chars = 0
        #: The line was opened by a block tag (its start tag, or what follows its end tag).
        self.starts_block = False
        #: The line with its tags stripped, whitespace normalized (set by :func:`split_lines`).
        self.text = ""
        #: Non-tag characters: ``len(text)``.
        self.chars = 0


def split_lines(stream: Iterable[Token], width: int = 0, block_breaks: bool = False) -> list[Line]:
    """Cut the token stream into lines, dropping empty ones.

    Lines end at the text's own line breaks.  With ``width`` (CETR's single-line pages,
    the CETR paper section 5.3), a line is also cut once it holds ``width`` characters of
    markup and text, at the next position that is not inside a tag.  With
    ``block_breaks`` (Line-Block, the Line-Block paper section 5 step 2), block tags start a new line
    (and a block end tag ends one), and a hyperlink is never cut: line breaks inside
    ``a``/``button``/``select`` do not end the line.
    """
    lines: list[Line] = []
    line = Line()
    column = 0

    def new_line() -> None:
        nonlocal line, column
        lines.append(line)
        line = Line()
        column = 0

    for kind, value, extra, flag in stream:
        if kind != TEXT:
            if block_breaks and flag and kind == START:
                if line.tags or line.pieces:
                    new_line()
                line.starts_block = True
            line.tags += 1
            if flag:
                line.parts.append(" ")
            column += extra
            if width and column >= width:
                new_line()
            elif block_breaks and flag and kind == END:
                new_line()
                line.starts_block = True
            continue
        if not width and value.isspace():
            # Indentation and line breaks between tags: only the breaks matter.
            breaks = 0 if block_breaks and flag else value.count("\n")
            if not breaks:
                line.parts.append(" ")
            for _ in range(breaks):
                new_line()
            continue
        segments = [value] if block_breaks and flag else value.split("\n")
        for n, segment in enumerate(segments):
            if n:
                new_line()
            start = 0  # cut by offsets: slicing off the rest each time is quadratic
            while width and column + len(segment) - start >= width:
                cut = start + width - column
                _add_text(line, segment[start:cut], extra, flag)
                new_line()
                start = cut
            if start < len(segment):
                rest = segment[start:] if start else segment
                _add_text(line, rest, extra, flag)
                column += len(rest)
    lines.append(line)
    kept = [line for line in lines if line.tags or line.pieces]
    for line in kept:
        if line.pieces:
            line.text = " ".join("".join(line.parts).split())
            line.chars = len(line.text)
    return kept


def _add_text(line: Line, text: str, key: int, in_link: bool) -> None:
    line.parts.append(text)
    words = text.split()
    if words:
        size = sum(map(len, words)) + len(words) - 1
        line.pieces.append((key, size))
        if in_link:
            line.link_chars += size


def content_runs(lines: Sequence[Line], is_content: Sequence[bool]) -> set[int]:
    """Run keys mostly on content lines: at least half of the run's characters.

    A DOM text run can span several source lines; it is content when the content
    lines hold at least half of its (whitespace-collapsed) characters.
    """
    total: dict[int, int] = {}
    selected: dict[int, int] = {}
    for line, content in zip(lines, is_content):
        for key, size in line.pieces:
            total[key] = total.get(key, 0) + size
            if content:
                selected[key] = selected.get(key, 0) + size
    return {key for key, size in selected.items() if 2 * size >= total[key]}
