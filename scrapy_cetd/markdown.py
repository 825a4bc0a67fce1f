"""Markdown of a selection, written by :func:`scrapy_cetd.render.render` beside the text.

The same selected text runs as the text output, in the same order, with the same spaces
between them (a line break in the text is a new Markdown block or, in a table cell, a
space): the words are the text's words.  Structure comes from the elements around the
runs: headings, paragraphs, lists (nested), block quotes, ``<pre>`` as fenced code,
inline code, emphasis, links and images (URLs made absolute when the page's URL is
known), and data tables as pipe tables (a table holding block structure, or of one
column, is a layout table: its cells become paragraphs).  One iterative walk over the
elements that hold selected text, skipping other subtrees: linear in size and depth.

Linear output too: a line's prefix (quote markers, list indentation) is written for at
most :data:`MAX_NESTING` levels (deeper lists and quotes are written at that depth, their
words kept), list numbers have at most 9 digits, nested emphasis, code and links of the
same kind write their markers once, and code fences are as long as the longest backtick
run inside plus one, so every input character gives a bounded number of output characters.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass, field
from operator import or_

from .page import BLOCK_TAGS, Page
from .parsing import storable_url

__all__ = ["escape_line", "escape_text", "markdown_of"]

CLOSING_PUNCTUATION = frozenset(",.;:!?)]}%…”’")
OPENING_PUNCTUATION = frozenset("([{“‘")

HEADINGS = {f"h{level}": level for level in range(1, 7)}
LISTS = frozenset({"ul", "ol", "menu", "dir"})
#: Inline elements written as Markdown emphasis or code: (opening, closing) marker.
INLINE_MARKERS = {
    "em": ("*", "*"), "i": ("*", "*"), "cite": ("*", "*"), "dfn": ("*", "*"),
    "strong": ("**", "**"), "b": ("**", "**"),
    "code": ("`", "`"), "kbd": ("`", "`"), "samp": ("`", "`"), "tt": ("`", "`"),
}  # fmt: skip
#: The deepest nesting of lists and of block quotes written as such: an item or a quote
#: nested deeper is written at this depth (its words kept, an item's marker then reading as
#: a sibling's), so a line's prefix is bounded and the Markdown's size linear in the page's
#: (10,000 nested ``<ul><li>`` gave 100 MB: line *k* was prefixed by *k* levels).  CommonMark
#: (0.31.2, 5.1 block quotes, 5.2 list items) sets no limit; its readers do: markdown-it's
#: CommonMark preset stops reading at ``maxNesting: 20`` block levels, where a list level
#: takes two (the list and its item), so 8 list levels (16) leave room for the paragraph
#: inside and a quote or two.  No reader follows an indentation 8 levels deep.
MAX_NESTING = 8
#: CommonMark 5.2: an ordered list marker has 1-9 digits (a longer ``<ol start>`` is 1, as
#: is one that is no decimal number).
MAX_LIST_DIGITS = 9
#: Inside a table, any of these makes it a layout table (no pipe table).
LAYOUT_SIGNS = ("table", "ul", "ol", "pre", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "dl")

#: Escaped in text: what starts emphasis, code, links, HTML, GFM strikethrough (``~``,
#: also a CommonMark fence as ``~~~``), and an ``&`` that would read as an entity (the page's
#: text "&copy;" shown as written, not as "©").
_ESCAPED = re.compile(r"([\\`*_\[\]<~]|&(?=#?\w+;))")
_BACKTICKS = re.compile(r"`+")
_LINE_START = re.compile(r"^(?:(\d+)([.)])(?=\s|$)|([#>+=-]))")


def escape_text(text: str) -> str:
    """Backslash-escape the characters that would start Markdown syntax inside a line."""
    return _ESCAPED.sub(r"\\\1", text)


def escape_line(text: str) -> str:
    """:func:`escape_text`, and a line start that would read as a heading, a quote or a
    list item escaped too."""
    return _escape_start(escape_text(text))


def _escape_start(line: str) -> str:
    match = _LINE_START.match(line)
    if not match:
        return line
    if match.group(1):
        return f"{match.group(1)}\\{line[len(match.group(1)) :]}"
    return "\\" + line


def _url(value: str) -> str:
    """A URL as a Markdown link destination: control characters, whitespace and
    parentheses percent-encoded (as the cleaned HTML's links are, :func:`storable_url`)."""
    return (storable_url(value) or "").replace("(", "%28").replace(")", "%29")


def code_fence(code: str) -> str:
    """The backtick string that delimits ``code``: one longer than the longest run of
    backticks inside (CommonMark 6.1 code spans, 4.5 fenced code blocks), at least one."""
    return "`" * (max(map(len, _BACKTICKS.findall(code)), default=0) + 1)


def code_span(code: str) -> str:
    """``code`` as a CommonMark code span (6.1): fenced by :func:`code_fence`, a space
    inside each fence when the code starts or ends with a backtick (else the fence would be
    longer) or starts and ends with a space (one of each is stripped on reading)."""
    fence = code_fence(code)
    pad = " " if "`" in (code[:1], code[-1:]) or (code[:1] == code[-1:] == " " and code.strip(" ")) else ""
    return f"{fence}{pad}{code}{pad}{fence}"


@dataclass
class _Inline:
    """An open inline element that writes markers: its markers, and where its opening
    marker is on the current line (-1 while text inside is still to come: the marker is
    pending); for emphasis, where the marker that opened it is (earlier than ``start``
    when it continues an emphasis of the same kind closed right before it)."""

    element: int
    opening: str
    closing: str
    start: int = -1
    opened_at: int = -1


def _character_class(char: str) -> str:
    """CommonMark 0.31.2, 2.1: ``space`` (a line's ends, Unicode whitespace), ``punct``
    (Unicode punctuation and symbols, P* and S*) or ``other``."""
    if not char or char.isspace():
        return "space"
    return "punct" if unicodedata.category(char)[0] in "PS" else "other"


def _flanking(before: str, after: str) -> tuple[bool, bool]:
    """CommonMark 6.2: whether a delimiter run between ``before`` and ``after`` (their
    classes) is left-flanking and whether it is right-flanking."""
    left = after != "space" and (after != "punct" or before != "other")
    right = before != "space" and (before != "punct" or after != "other")
    return left, right


def _can_open(marker: str, before: str, after: str) -> bool:
    left, right = _flanking(before, after)
    return left if marker[0] == "*" else left and (not right or before == "punct")


def _can_close(marker: str, before: str, after: str) -> bool:
    left, right = _flanking(before, after)
    return right if marker[0] == "*" else right and (not left or after == "punct")


@dataclass
class _Table:
    rows: list[list[str]] = field(default_factory=list)


@dataclass
class _Item:
    marker: str
    first: bool = True


class _Quote:
    """A block quote among the open containers (list items and quotes, outermost first)."""


class _Writer:
    """The Markdown blocks, built from start, end and text events in document order."""

    def __init__(self) -> None:
        self.blocks: list[tuple[str, str, tuple[object, ...], tuple[str, ...]]] = []  # see emit
        self.line: list[str] = []
        self.last = ""  # the last character written on the line
        self.inline: list[_Inline] = []
        self.items: list[_Item] = []
        #: The open list items and block quotes (:class:`_Quote`), outermost first: a line's
        #: prefix writes them in this order (a quote in an item is indented, ``   > ``).
        self.containers: list[object] = []
        self.lists: list[list[int]] = []  # per open list: [ordered, next number, element]
        self.heading = 0
        self.table: _Table | None = None
        self.cell: list[str] | None = None
        self.code = 0  # 1 inside inline code (its text is not escaped)
        self.closed = -1  # the line's length when it ends with ``closers`` emphasis closings
        self.closers = 0
        self.emphasis: list[tuple[int, int]] = []  # the line's emphasis: (opening, closing) marker index

    # -- text ----------------------------------------------------------------------------

    def text(self, text: str, separate: bool = True) -> None:
        if self.line and separate and text[:1] not in CLOSING_PUNCTUATION and self.last not in OPENING_PUNCTUATION:
            self.line.append(" ")
        for inline in self.inline:
            if inline.start < 0:
                inline.start = len(self.line)
                if self.closed == len(self.line) and self.line[-1] == inline.opening:
                    self.line.pop()  # `<i>a</i><i>.</i>` continues: *a.*, not *a**.* (*a* then "*.*")
                    self.closers -= 1
                    self.closed = len(self.line) if self.closers else -1
                    opened_at = next(o for o, c in self.emphasis if c == len(self.line))
                    self.emphasis.remove((opened_at, len(self.line)))
                    inline.opened_at = opened_at
                else:
                    inline.opened_at = len(self.line)
                    self.line.append(inline.opening)
        self.line.append(text if self.code else escape_text(text))
        self.last = text[-1:]

    def raw(self, markup: str) -> None:
        """Markup with no words (an image): after a space when the line has text."""
        if self.line and self.last not in OPENING_PUNCTUATION:
            self.line.append(" ")
        self.line.append(markup)
        self.last = ")"

    def open_inline(self, element: int, opening: str, closing: str) -> None:
        """Open an inline element that writes ``opening`` and ``closing`` around its text.
        Inside code, or inside an element of the same kind (``<b><b>``, ``<em><i>``, a
        link in a link), it writes nothing: the markers would end the outer element's
        (``****bold****``) or be literal text."""
        if not opening or self.code or any(inline.opening == opening for inline in self.inline):
            return  # not on the stack: close_inline finds another element on top
        if self.heading and opening in ("*", "**"):
            return  # a heading is a plain `## text` line: its emphasis is its own
        self.inline.append(_Inline(element, opening, closing))
        if opening == "`":
            self.code = 1

    def close_inline(self, element: int) -> None:
        if self.inline and self.inline[-1].element == element:
            inline = self.inline.pop()
            self._close_marker(inline)
            if inline.opening == "`":
                self.code = 0

    def _close_marker(self, inline: _Inline) -> None:
        """Write ``inline``'s closing marker if its opening one was written; code gets its
        fences now that its content is known (:func:`code_span`)."""
        if inline.opening == "`":
            if inline.start >= 0:
                code = "".join(self.line[inline.start + 1 :])
                del self.line[inline.start :]
                self.line.append(code_span(code))
        elif inline.start >= 0:
            if inline.closing in ("*", "**"):  # emphasis closed: the same kind next continues it
                self.closers = self.closers + 1 if self.closed == len(self.line) else 1
                self.closed = len(self.line) + 1
                self.emphasis.append((inline.opened_at, len(self.line)))
            self.line.append(inline.closing)
        inline.start = -1  # opened again before the next text

    # -- blocks --------------------------------------------------------------------------

    def flush(self) -> None:
        """End the current line: a Markdown block (in a table cell, a space)."""
        if not self.line:
            return
        for inline in reversed(self.inline):
            self._close_marker(inline)
        self._resolve_emphasis()
        content = "".join(self.line)
        self.line = []
        self.closed = -1
        if self.cell is not None:
            self.cell.append(content)
            return
        self.last = ""
        self.emit(_escape_start(content) if not content.startswith(("*", "_", "`", "[", "!")) else content)

    def _resolve_emphasis(self) -> None:
        """Write each emphasis of the line so that a CommonMark reader reads it as such
        (6.2): with ``*`` or, where a marker touches another ``*`` marker (``**10***%*``
        read as bold "10" then a literal "*%*") or where ``*`` cannot open or close there,
        ``_`` (``**10**_%_``); with neither, not at all, its words kept (``a**"x"**b`` reads
        as literal asterisks).  Outer emphasis first: an inner one then sees its markers."""
        line = self.line

        def beside(index: int, step: int) -> str:
            index += step
            while 0 <= index < len(line):
                if line[index]:
                    return line[index][0 if step > 0 else -1]
                index += step
            return ""

        for opening, closing in sorted(self.emphasis):
            marker = line[opening]
            outside = (beside(opening, -1), beside(closing, 1))
            before_open, after_open = map(_character_class, (outside[0], beside(opening, 1)))
            before_close, after_close = map(_character_class, (beside(closing, -1), outside[1]))
            for candidate in sorted((marker, marker.replace("*", "_")), key=lambda m: m[0] in outside):
                if _can_open(candidate, before_open, after_open) and _can_close(candidate, before_close, after_close):
                    line[opening] = line[closing] = candidate
                    break
            else:
                line[opening] = line[closing] = ""
        self.emphasis = []

    def open_container(self, container: object) -> None:
        """A list item (:class:`_Item`) or a block quote opens; ``close_container`` closes it."""
        self.containers.append(container)
        if isinstance(container, _Item):
            self.items.append(container)

    def close_container(self) -> None:
        if self.containers and isinstance(self.containers.pop(), _Item):
            self.items.pop()

    def emit(self, content: str, group: str = "") -> None:
        """One line, after its containers' markers: each quote's ``> `` (the first
        MAX_NESTING), each item's indentation (its first MAX_NESTING - 1 ancestors') and
        the innermost item's marker on its first line.  The block keeps the containers it
        is in and their blank-line pieces, for the blank line after it."""
        kept: list[object] = []
        pieces: list[str] = []
        blanks: list[str] = []
        quotes = items = 0
        for container in self.containers:
            if isinstance(container, _Item):
                items += 1
                innermost = container is self.items[-1]
                if items < MAX_NESTING or innermost:
                    kept.append(container)
                    blanks.append(" " * len(container.marker))
                    pieces.append(container.marker if innermost and container.first else blanks[-1])
            else:
                quotes += 1
                if quotes <= MAX_NESTING:
                    kept.append(container)
                    blanks.append("> ")
                    pieces.append("> ")
        if self.items:
            self.items[-1].first = False
            group = group or f"list{self.lists[0][2] if self.lists else ''}"
        elif self.heading:
            pieces.append("#" * self.heading + " ")
        self.blocks.append(("".join(pieces) + content, group, tuple(kept), tuple(blanks)))

    def pre(self, text: str) -> None:
        """A fenced code block; inside a heading too, which cannot hold one (CommonMark 4.2):
        the heading's text before it and after it are headings of their own."""
        self.flush()
        fence = max(code_fence(text), "```", key=len)
        group = f"pre{len(self.blocks)}"  # the fenced lines form one block
        heading, self.heading = self.heading, 0
        for line in [fence, *text.strip("\n").split("\n"), fence]:
            self.emit(line, group)
        self.heading = heading

    def start_cell(self) -> None:
        assert self.table is not None
        self.end_cell()
        self.flush()  # text in the table outside cells: a paragraph before it
        if not self.table.rows:
            self.table.rows.append([])
        self.cell = []
        self.line = []
        self.last = ""

    def end_cell(self) -> None:
        if self.cell is None or self.table is None:
            return
        self.flush()
        self.table.rows[-1].append(" ".join(self.cell).replace("|", "\\|"))
        self.cell = None

    def end_table(self, element: int) -> None:
        self.end_cell()
        table, self.table = self.table, None
        assert table is not None
        rows = [row for row in table.rows if any(row)]
        if not rows:
            return
        # The header row sets the columns (GFM 0.29, 4.10: a longer row's excess is dropped,
        # a shorter row gets empty cells): only it and the delimiter row are padded to the
        # widest row, so one wide row among many narrow ones is not written into each.
        width = max(map(len, rows))
        header = rows[0] + [""] * (width - len(rows[0]))
        for row in [header, ["---"] * width, *rows[1:]]:
            self.emit("| " + " | ".join(row) + " |", f"table{element}")

    def markdown(self) -> str:
        self.flush()
        out: list[str] = []
        previous_group, previous = "", ()
        for line, group, containers, blanks in self.blocks:
            if out:
                shared = 0
                while shared < min(len(containers), len(previous)) and containers[shared] is previous[shared]:
                    shared += 1
                # A line after a quote it is not in would continue the quote's paragraph
                # (CommonMark 5.1, laziness): a blank line ends the quote, in a list too.
                left_a_quote = any(isinstance(container, _Quote) for container in previous[shared:])
                if group and group == previous_group and not left_a_quote:
                    out.append("\n")
                else:  # a blank line, inside the containers both lines are in
                    out.append("\n" + "".join(blanks[:shared]).rstrip() + "\n")
            out.append(line)
            previous_group, previous = group, containers
        return "".join(out)


def _layout_tables(page: Page) -> set[int]:
    """Tables written as paragraphs rather than pipe tables: those holding block structure
    (``LAYOUT_SIGNS``) and those of one column."""
    tables = page.positions("table")
    if not tables:
        return set()
    signs = page.positions(*LAYOUT_SIGNS)
    end, tags, parent = page.end, page.tags, page.parent
    layout = set()
    for table in tables:
        after = bisect_right(signs, table)
        if after < len(signs) and signs[after] < end[table]:
            layout.add(table)
    widest: dict[int, int] = {}
    for row in page.positions("tr"):
        table = parent[row]
        if tags[table] != "table":
            table = parent[table]
        cells = sum(1 for child in page.children_of(row) if tags[child] in ("td", "th"))
        widest[table] = max(widest.get(table, 0), cells)
    layout.update(table for table in tables if widest.get(table, 0) <= 1)
    return layout


def markdown_of(page: Page, content: list[bool], chosen: list[int], pre_of: list[int], base: str | None) -> str:
    """The Markdown of the selected runs ``chosen`` (indices, document order) of ``page``;
    ``content`` flags the elements inside selected subtrees, ``pre_of`` is the renderer's
    outermost ``<pre>`` per element (or empty), ``base`` the URL links resolve against."""
    from .parsing import absolute_url

    n = len(page)
    end, tags, parent, elements = page.end, page.tags, page.parent, page.elements
    texts = {page.run_key[k]: page.run_collapsed[k] for k in chosen}
    # The runs the text output writes with no space before (Page.glued), by key.
    glued = {page.run_key[k] for before, k in zip(chosen, chosen[1:]) if k == before + 1 and page.glued(k)}
    # Visited: the elements inside selected subtrees and those holding selected text.
    up = [False] * n
    roots = [i for i, inside, p in zip(range(n), content, parent) if inside and (p < 0 or not content[p])]
    for node in [*roots, *map(page.run_owner.__getitem__, chosen)]:
        while node >= 0 and not up[node]:
            up[node] = True
            node = parent[node]
    visited = list(map(or_, content, up))
    layout = _layout_tables(page) if "table" in tags else set()
    writer = _Writer()
    tables: list[int] = []  # open data tables
    open_elements: list[int] = []

    def write(key: int) -> None:
        text = texts.get(key)
        if text:
            writer.text(text, separate=key not in glued)

    def close(j: int) -> None:
        tag = tags[j]
        if tag in INLINE_MARKERS or tag == "a":
            writer.close_inline(j)
        elif tables and j == tables[-1]:
            writer.end_table(j)
            tables.pop()
        elif tables and tag in ("td", "th") and writer.table is not None:
            writer.end_cell()
        elif tables and tag == "tr":
            writer.end_cell()
        elif tag in BLOCK_TAGS:
            writer.flush()
            if tables:
                pass  # inside a data table: opened as a space, closed as one (a bare <li>)
            elif tag in HEADINGS:
                writer.heading = 0
            elif tag == "li" and writer.items:
                writer.close_container()
            elif tag in LISTS and writer.lists:
                writer.lists.pop()
            elif tag == "blockquote" and writer.containers:
                writer.close_container()
        write(2 * j + 1)

    i = 0
    while i < n:
        while open_elements and end[open_elements[-1]] <= i:
            close(open_elements.pop())
        if not visited[i]:
            if 2 * i + 1 in texts:  # an element left out, its tail selected
                if tags[i] in BLOCK_TAGS and not tables:
                    writer.flush()
                write(2 * i + 1)
            i = end[i]
            continue
        tag = tags[i]
        el = elements[i]
        if pre_of and pre_of[i] == i and content[i]:
            writer.pre(page.pre_text(i))
            write(2 * i + 1)
            i = end[i]
            continue
        if tables and tag in ("td", "th") and writer.table is not None:
            writer.start_cell()
        elif tables and tag == "tr" and writer.table is not None:
            writer.end_cell()
            writer.flush()
            writer.table.rows.append([])
        elif tag == "table" and i not in layout and i > 0 and not tables:
            writer.flush()
            writer.table = _Table()
            tables.append(i)
        elif tag in INLINE_MARKERS:
            opening, closing = INLINE_MARKERS[tag]
            writer.open_inline(i, opening, closing)
        elif tag == "a":
            href = el.get("href")
            if href and not href.strip().startswith(("#", "javascript:")) and not writer.code:
                writer.open_inline(i, "[", f"]({_url(absolute_url(base, href))})")
            else:
                writer.open_inline(i, "", "")
        elif tag == "img" and content[i]:
            src = el.get("src") or ""
            if not src or src.startswith("data:"):
                src = el.get("data-src") or el.get("data-original") or ""
            if src and not src.startswith("data:"):
                alt = " ".join((el.get("alt") or "").split())
                writer.raw(f"![{escape_text(alt)}]({_url(absolute_url(base, src))})")
        elif tag in BLOCK_TAGS:
            writer.flush()
            if tables:
                pass  # inside a data table: blocks in a cell are spaces (flush does it)
            elif tag in HEADINGS and not writer.items:
                writer.heading = HEADINGS[tag]
            elif tag in LISTS:
                start = el.get("start") or ""
                number = int(start) if start.isdecimal() and len(start) <= MAX_LIST_DIGITS else 1
                writer.lists.append([tag == "ol", number, i])
            elif tag == "li":
                if writer.lists and parent[i] == writer.lists[-1][2]:
                    ordered, number, _ = writer.lists[-1]
                    writer.lists[-1][1] += 1
                    marker = f"{number}. " if ordered else "- "
                else:
                    marker = "- "
                writer.open_container(_Item(marker))
            elif tag == "blockquote":
                writer.open_container(_Quote())
            elif tag == "hr" and content[i]:
                writer.emit("---")
        write(2 * i)
        open_elements.append(i)
        i += 1
    while open_elements:
        close(open_elements.pop())
    return writer.markdown()
