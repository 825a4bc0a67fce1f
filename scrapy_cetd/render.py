"""Rendering a :class:`~scrapy_cetd.extraction.Selection` as text, cleaned HTML and Markdown.

One renderer for every algorithm, three outputs from one selection (``docs/outputs.md``).
Text gets a line break at every block-level element boundary, `` | `` between the cells of
a table row, and a space at inline boundaries (none before closing or after opening
punctuation, none inside a word written across inline tags: :meth:`Page.glued`).
The cleaned HTML keeps the content and its ancestors, with their tags and attributes, so
the page's original structure survives (the CETD paper, section 1: "preserve the original
structure"), as a document that stands alone (charset, ``lang``, absolute URLs).  Text
comes from the page's text runs and the block-level elements between them
(:attr:`~scrapy_cetd.page.Page.block_starts`); the HTML from lxml's serialization of the
selected subtrees, inside the start and end tags of their ancestors; the Markdown
(:mod:`scrapy_cetd.markdown`) from the same runs.  Lines left out as repeats leave the
selection before the HTML and Markdown are written, so all three hold the same words.
No recursion on the DOM; linear time in size and depth.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable
from copy import deepcopy
from dataclasses import replace
from html import escape
from itertools import accumulate, compress

import numpy as np
from lxml import etree

from .extraction import Selection
from .page import BLOCK_TAGS, XML_SPACE, Page, attribute_items, normalize_space
from .parsing import VOID_TAGS, absolute_url, displayed_text, storable_text, storable_url

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


def _start_tag(tag: str, attributes: Iterable[tuple[str, str]]) -> str:
    attrs = "".join(f' {name}="{escape(value)}"' for name, value in attributes if _NAME.match(name))
    return f"<{tag}{attrs}>"


def render(
    page: Page, selection: Selection, *, with_html: bool = True, with_markdown: bool = False
) -> tuple[str, str, str]:
    """Return ``(text, html, markdown)`` for the selected content of ``page``; ``html`` is
    empty without ``with_html``, ``markdown`` without ``with_markdown``.

    All three come from one selection: when line de-duplication
    (:attr:`Selection.dedupe_min_chars`) leaves out repeated lines, their runs leave the
    selection (:func:`_without_runs`) before the HTML and Markdown are written, so the
    three always hold the same words, and none of them holds control characters
    (:func:`~scrapy_cetd.parsing.displayed_text`).
    """
    if selection.lines is not None and not selection.subtrees and not selection.runs:
        text = _displayed_lines("\n".join(selection.lines))
        return text, "", _plain_markdown(text.split("\n")) if with_markdown else ""
    if not len(page) or not (selection.subtrees or selection.runs):
        return "", "", ""
    content, roots = _content_flags(page, selection)
    chosen = _chosen_runs(page, selection, content)
    units, unit_starts, pre_of, unit_is_pre = _text_units(page, content, chosen)
    kept = (
        _repeated_stretches(units, selection.dedupe_min_chars, lambda: _line_containers(page, chosen, unit_starts))
        if selection.dedupe_min_chars
        else None
    )
    if kept is not None:
        dropped = _dropped_runs(chosen, unit_starts, kept) if with_html or with_markdown else set()
        units = [unit for unit, keep in zip(units, kept) if keep]
        unit_is_pre = [is_pre for is_pre, keep in zip(unit_is_pre, kept) if keep]
        if with_html or with_markdown:
            selection = _without_runs(page, selection, content, dropped)
            content, roots = _content_flags(page, selection)
            chosen = [k for k in chosen if k not in dropped]
    lines = units
    if pre_of:
        lines = []
        for unit, is_pre in zip(units, unit_is_pre):
            lines.extend(_code_lines(unit) if is_pre else filter(None, map(normalize_space, unit.split("\n"))))
    text = "\n".join(lines)
    html = _html(page, selection, content, roots) if with_html else ""
    markdown = ""
    if with_markdown:
        from .markdown import markdown_of

        markdown = markdown_of(page, content, chosen, pre_of, page.base_url)
    return _displayed_lines(text), displayed_text(html), displayed_text(markdown)


def _displayed_lines(text: str) -> str:
    """The text output without control characters (:func:`displayed_text`) and without
    lines of nothing visible (:data:`_INVISIBLE_LINE`: a ``<p>&zwj;</p>`` spacer): where it
    had some, each line is collapsed again and empty lines are dropped, as in any text
    output."""
    clean = displayed_text(text)
    if clean is text and not _has_invisible_line(text):
        return text
    return "\n".join(line for line in map(_collapsed_indented, clean.split("\n")) if line.strip(_INVISIBLE))


def _collapsed_indented(line: str) -> str:
    """A line collapsed as :func:`normalize_space` does, its indentation (a ``<pre>``'s) kept."""
    return line[: len(line) - len(line.lstrip())] + normalize_space(line)


#: Characters that show nothing by themselves: zero-width space, non-joiner and joiner,
#: word joiner, a byte order mark (a soft hyphen is dropped everywhere:
#: :func:`~scrapy_cetd.parsing.displayed_text`).  Inside a line they stay (joiners shape
#: emoji and scripts; a zero-width space separates Thai words); a line of only these, and
#: spaces, is dropped.
_INVISIBLE_CHARS = "\u200b\u200c\u200d\u2060\ufeff"
_INVISIBLE = _INVISIBLE_CHARS + " "
_INVISIBLE_LINE = re.compile(f"^[{_INVISIBLE}]+$", re.MULTILINE)


def _has_invisible_line(text: str) -> bool:
    """Whether a line of ``text`` is :data:`_INVISIBLE_LINE`.  Such a line starts with a
    space or the text holds one of the other characters: three tests in C (``in``) settle
    most texts before the expression, which tests every position (on the median text
    output of the first dev half, 7.8 kB: about 10 us instead of 62 us)."""
    if not text.startswith(" ") and "\n " not in text and not any(char in text for char in _INVISIBLE_CHARS):
        return False
    return _INVISIBLE_LINE.search(text) is not None


def _chosen_runs(page: Page, selection: Selection, content: list[bool]) -> list[int]:
    """The indices of the selected runs with text, in document order (runs of only
    non-ASCII whitespace, such as ``&nbsp;``, render as nothing).  Over arrays (the flags
    of the runs' owners and keys): 0.72x the time of three C-level calls a run, the arrays
    built included (median, first dev half)."""
    selected = np.frombuffer(bytes(content), bool)[page.run_owner_array]
    if selection.runs:
        by_key = np.zeros(2 * len(page), bool)
        by_key[list(selection.runs)] = True
        selected |= by_key[page.run_key_array]
    return np.flatnonzero(selected & (page.run_chars_array > 0)).tolist()


#: Table cells: their boundaries separate cells of one text line (" | "), not lines.
CELL_TAGS = frozenset({"td", "th"})
#: Elements whose boundaries break a text line: the block-level ones but table cells.
LINE_TAGS = BLOCK_TAGS - CELL_TAGS
#: Between the cells of a table row in the text (as in a Markdown pipe table row).
CELL_SEPARATOR = " | "


def _text_units(
    page: Page, content: list[bool], chosen: list[int]
) -> tuple[list[str], list[int], list[int], list[bool]]:
    """The text lines (a selected ``<pre>`` is one unit, line breaks kept), the position in
    ``chosen`` of each one's first run, :func:`_outermost_pre`, and whether each unit is a
    ``<pre>``.

    Runs are joined in document order: a line break between two of them where a
    line-breaking element (``LINE_TAGS``) starts or ends between them, else
    ``CELL_SEPARATOR`` where a table cell starts or ends (once more per empty cell
    between), else a space (none next to closing or opening punctuation, nor where the
    page glues the two runs: :meth:`~scrapy_cetd.page.Page.glued`).

    Between runs ``r`` and ``t`` an element ends iff the nearest such element holding
    ``r`` does not hold ``t``; one starts iff its index lies between their start cursors
    (the first element starting after each run).  The nearest line-breaking element and
    cell of each owner are found by walking up once per element (each path is stored
    whole), so the time is linear at any depth.
    """
    texts, owners, keys = page.run_collapsed, page.run_owner, page.run_key
    end, tags, parent = page.end, page.tags, page.parent
    block_starts = page.block_starts
    has_cells = not CELL_TAGS.isdisjoint(tags)
    if has_cells:
        cell_starts = list(accumulate(map(CELL_TAGS.__contains__, tags), initial=0))
    pre_of = _outermost_pre(page)
    block_of: dict[int, int] = {}
    cell_of: dict[int, int] = {}
    units: list[str] = []
    unit_starts: list[int] = []
    unit_is_pre: list[bool] = []
    line: list[str] = []
    last = ""
    cursor = block = block_end = pre_done = cell = -1
    for position, k in enumerate(chosen):
        owner, key = owners[k], keys[k]
        text = texts[k]
        in_pre = False
        if pre_of and (pre := pre_of[owner]) >= 0 and content[pre]:
            if pre == pre_done:
                continue  # a selected <pre> is emitted whole at its first run
            text, pre_done, in_pre = page.pre_text(pre), pre, True
        next_cursor = end[key >> 1] if key & 1 else (key >> 1) + 1
        owner_block = block_of.get(owner)
        if owner_block is None:
            tag = tags[owner]
            if tag in LINE_TAGS:  # the common cases: a paragraph's own text,
                owner_block = block_of[owner] = owner
                cell_of[owner] = -1
            elif (up := parent[owner]) in block_of:  # an inline element's in a known block
                owner_block = block_of[owner] = block_of[up]
                cell_of[owner] = owner if tag in CELL_TAGS else cell_of[up]
            else:
                owner_block = _nearest(owner, tags, parent, block_of, cell_of, has_cells)
        if (
            cursor < 0
            or not block <= owner < block_end
            or (
                block_starts[next_cursor] - block_starts[cursor]
                != (cell_starts[next_cursor] - cell_starts[cursor] if has_cells else 0)
            )
        ):
            if line:
                units.append("".join(line))
            line = [text]
            unit_starts.append(position)
            unit_is_pre.append(in_pre)
        else:
            if has_cells and (cell_of[owner] != cell or cell_starts[next_cursor] != cell_starts[cursor]):
                line.append(CELL_SEPARATOR + "| " * max(0, cell_starts[next_cursor] - cell_starts[cursor] - 1))
            elif (
                text[:1] not in CLOSING_PUNCTUATION
                and last not in OPENING_PUNCTUATION
                and not (chosen[position - 1] == k - 1 and page.glued(k))
            ):
                line.append(" ")
            line.append(text)
        last = text[-1:]
        cursor = next_cursor
        block = owner_block
        block_end = end[block]
        if has_cells:
            cell = cell_of[owner]
    if line:
        units.append("".join(line))
    return units, unit_starts, pre_of, unit_is_pre


def _code_lines(block: str) -> list[str]:
    """A ``<pre>``'s lines as text: their indentation kept (less what all of them share, as
    ``textwrap.dedent``), trailing whitespace and blank lines dropped, runs of whitespace
    inside a line kept (code aligns with them)."""
    lines = [line.rstrip() for line in block.split("\n")]
    lines = [line for line in lines if line]
    shared = min((len(line) - len(line.lstrip()) for line in lines), default=0)
    return [line[shared:] for line in lines]


def _nearest(
    owner: int, tags: list[str], parent: list[int], block_of: dict[int, int], cell_of: dict[int, int], cells: bool
) -> int:
    """Store, for ``owner`` and the elements on its way up, the nearest line-breaking
    element (``LINE_TAGS``) holding it and the nearest cell below that (-1: none)."""
    path = []
    node = owner
    while node not in block_of and tags[node] not in LINE_TAGS and parent[node] >= 0:
        path.append(node)
        node = parent[node]
    if node in block_of:
        block, cell = block_of[node], cell_of.get(node, -1)
    else:
        block, cell = node, -1
        block_of[node] = node
        cell_of[node] = -1
    for node in reversed(path):
        if cells and tags[node] in CELL_TAGS:
            cell = node
        block_of[node] = block
        cell_of[node] = cell
    return block_of[owner]


def _repeated_stretches(
    units: list[str], min_chars: int, containers: Callable[[], list[int]] | None = None
) -> list[bool] | None:
    """Which lines to keep (``None``: all): a stretch of consecutive lines that repeats an
    earlier stretch line for line, with ``min_chars`` or more characters in all, is left
    out, and so are the lines after it while they go on repeating the same copy.

    A copy whose first line sits in the same container as the earlier copy's
    (``containers()``, one per line: :func:`_line_containers`, read on the first copy
    found) stays: paragraphs repeated side by side in one story are all shown, while a
    story's second rendering (mobile and desktop markup) lies in a container of its own.
    Measured on the three dev sets: readability-pages 0.9375 -> 0.9488 (4 pages up),
    wcxb-dev 0.86955 -> 0.86970 (10 up, 2 down), trafilatura-eval unchanged.

    A short repeated line (a name in a results table, a price, a caption's words again in
    the story) is kept: only copies of a passage go, such as an article rendered twice
    (mobile and desktop markup).  Measured on the first half of the WCXB dev pages (issue
    14, item 5: line by line, 10-character lines of the story were lost).

    Linear in the number of lines, whatever ``min_chars``: each line is compared with at
    most ``_CANDIDATES`` earlier occurrences, each comparison in constant time: the lines a
    stretch from line ``i`` needs (the fewest holding ``min_chars``, at least
    ``STRETCH_MIN_LINES``) are found in the prefix sums of the characters, and the two
    stretches compared line by line when they are short (``_DIRECT_LINES``), else by a
    rolling hash of the lines, checked line by line only where it agrees (a stretch found
    is then left out, its lines followed without comparisons).
    """
    if len(set(units)) == len(units):
        return None
    repeated = {unit for unit, count in Counter(units).items() if count > 1}
    n = len(units)
    chars_before = list(accumulate(map(len, units), initial=0))
    hashes: list[int] = []
    powers: list[int] = []
    earlier: dict[str, list[int]] = {}
    kept = [True] * n
    line_containers: list[int] | None = None
    follow = -1  # the next line of the earlier copy, while a stretch is being left out
    for i, unit in enumerate(units):
        if unit not in repeated:
            follow = -1
            continue
        if 0 <= follow < i and units[follow] == unit:
            kept[i] = False
            follow += 1
            continue
        follow = -1
        # The lines a stretch from line i needs: past the end of the page, none will do.
        need = max(STRETCH_MIN_LINES, bisect_left(chars_before, chars_before[i] + min_chars, i) - i)
        if i + need <= n:
            if need > _DIRECT_LINES and not hashes:
                hashes, powers = _rolling_hashes(units)
            stretch = (hashes[i + need] - hashes[i] * powers[need]) % _HASH_MODULUS if need > _DIRECT_LINES else 0
            for j in earlier.get(unit, ())[-_CANDIDATES:]:
                if (
                    j + need <= i  # the earlier copy ends before line i
                    and (
                        need <= _DIRECT_LINES
                        or (hashes[j + need] - hashes[j] * powers[need]) % _HASH_MODULUS == stretch
                    )
                    and units[j : j + need] == units[i : i + need]
                ):
                    if containers is not None:
                        if line_containers is None:
                            line_containers = containers()
                        if line_containers[j] == line_containers[i]:
                            continue
                    kept[i] = False
                    follow = j + 1
                    break
        if kept[i]:
            earlier.setdefault(unit, []).append(i)
    return None if all(kept) else kept


def _line_containers(page: Page, chosen: list[int], unit_starts: list[int]) -> list[int]:
    """For each line (its first run, ``chosen[unit_starts[u]]``), the parent of the nearest
    line-breaking element holding it: the container the reader sees the line in.  Each
    element's answer is stored on the way up, so the time is linear at any depth."""
    tags, parent, owners = page.tags, page.parent, page.run_owner
    line_of: dict[int, int] = {}
    containers: list[int] = []
    for start in unit_starts:
        node = owners[chosen[start]]
        path = []
        while node >= 0 and node not in line_of and tags[node] not in LINE_TAGS:
            path.append(node)
            node = parent[node]
        found = line_of.get(node, node) if node >= 0 else -1
        for step in path:
            line_of[step] = found
        containers.append(parent[found] if found >= 0 else -1)
    return containers


#: The rolling hash of :func:`_repeated_stretches` (a Mersenne prime modulus).
_HASH_MODULUS = (1 << 61) - 1
_HASH_BASE = 1_000_003
#: Stretches of at most this many lines are compared line by line, without the hash.
_DIRECT_LINES = 16


def _rolling_hashes(units: list[str]) -> tuple[list[int], list[int]]:
    """The polynomial hash of every prefix of ``units`` (each line numbered as first
    seen), and the powers of the base."""
    n = len(units)
    ids: dict[str, int] = {}
    hashes = [0] * (n + 1)
    for i, unit in enumerate(units):
        hashes[i + 1] = (hashes[i] * _HASH_BASE + ids.setdefault(unit, len(ids) + 1)) % _HASH_MODULUS
    powers = [1] * (n + 1)
    for i in range(n):
        powers[i + 1] = powers[i] * _HASH_BASE % _HASH_MODULUS
    return hashes, powers


#: The fewest lines a repeated stretch has: a single line is never left out.
STRETCH_MIN_LINES = 2
#: :func:`_repeated_stretches` compares a line with its last this many earlier occurrences.
_CANDIDATES = 8


def _dropped_runs(chosen: list[int], unit_starts: list[int], kept: list[bool]) -> set[int]:
    """The runs (indices) of the lines not kept."""
    bounds = unit_starts + [len(chosen)]
    dropped: set[int] = set()
    for unit, keep in enumerate(kept):
        if not keep:
            dropped.update(chosen[bounds[unit] : bounds[unit + 1]])
    return dropped


def _without_runs(page: Page, selection: Selection, content: list[bool], dropped: set[int]) -> Selection:
    """``selection`` less the runs ``dropped`` (run indices): a selected subtree holding one
    is split into its largest subtrees free of them plus the text runs on the way.

    A tainted element (holding a dropped run) is walked once, however many selected roots
    hold it (one per level when every level of a deep nest is selected): a nested root's
    walk is part of its outer root's, so the time is linear at any depth."""
    parent, owners, keys = page.parent, page.run_owner, page.run_key
    dropped_keys = {keys[k] for k in dropped}
    tainted: set[int] = set()
    for k in dropped:
        node = owners[k]
        while node >= 0 and node not in tainted:
            tainted.add(node)
            node = parent[node]
    has_text = set(page.run_key)
    runs = {key for key in selection.runs if key not in dropped_keys}
    subtrees = set()
    stack = []
    for root in selection.subtrees:
        if root in tainted:
            stack.append(root)
        else:
            subtrees.add(root)
    children_of = page.children_of
    walked: set[int] = set()
    while stack:
        node = stack.pop()
        if node in walked:
            continue
        walked.add(node)
        if 2 * node in has_text and 2 * node not in dropped_keys:
            runs.add(2 * node)
        for child in children_of(node):
            if child in tainted:
                stack.append(child)
            else:
                subtrees.add(child)
            tail = 2 * child + 1
            if tail in has_text and tail not in dropped_keys:
                runs.add(tail)
    return replace(selection, subtrees=subtrees, runs=runs, dedupe_min_chars=0)


def _outermost_pre(page: Page) -> list[int]:
    """Per element, the outermost ``<pre>`` holding it (or -1); empty without ``<pre>``.

    Found in :attr:`~scrapy_cetd.page.Page.tags` (a scan in C, stopping at the first
    ``<pre>``), not by walking the tree: cetd-plus's extraction, per page, 0.979 of the
    time with the walk (an A/B on a third of the first-half pages; same code: 0.985)."""
    tags = page.tags
    if "pre" not in tags:
        return []
    pre_of = [-1] * len(page)
    end = page.end
    for pre in compress(range(len(tags)), map("pre".__eq__, tags)):
        if pre_of[pre] < 0:
            pre_of[pre : end[pre]] = [pre] * (end[pre] - pre)
    return pre_of


#: Attributes holding one URL, made absolute in the cleaned HTML, and the elements having them.
URL_ATTRIBUTES = ("href", "src")
_URL_TAGS = ("a", "area", "link", "img", "iframe", "embed", "source", "audio", "video", "track", "input", "frame")


#: A selected subtree deeper in the page than this is serialized from a copy of it
#: (:func:`_serialize_absolute`): lxml's serializer walks up every ancestor of the element
#: it writes, so each of ``n`` subtrees nested in a deep tree cost O(depth) (quadratic on
#: a deep nest; a copy costs a few microseconds, as a walk up some 400 levels).
SERIALIZE_MAX_DEPTH = 256


def _serialize_absolute(element: etree._Element, base: str | None, copied: bool = False) -> str:
    """lxml's HTML serialization of ``element`` (without its tail), its ``href`` and
    ``src`` made absolute for the time of the call (the page's tree is left as it was, but
    for a URL holding control characters, which lxml takes in a parse of bytes but refuses
    to set again: it is put back percent-encoded).

    ``copied``: serialize a copy of ``element``, a root of its own.  lxml's serializer
    copies the namespace declarations of every ancestor of a non-root element onto it
    (``_copyParentNamespaces``, a walk up the whole tree); with none declared in the tree,
    the copy's serialization is the same, in time linear in the subtree.
    """
    if copied:
        element = deepcopy(element)
    changed = []
    if base:
        for el in element.iter(*_URL_TAGS):
            for name in URL_ATTRIBUTES:
                value = el.get(name)
                if value is not None:
                    absolute = absolute_url(base, value)
                    if absolute != value:
                        changed.append((el, name, value))
                        el.set(name, absolute)
    try:
        return etree.tostring(element, method="html", encoding="unicode", with_tail=False)
    finally:
        for el, name, value in changed if not copied else ():
            el.set(name, value if storable_text(value) == value else storable_url(value) or "")


def _declares_namespaces(root: etree._Element) -> bool:
    """Whether any element of the tree declares a namespace (never in a parse of HTML; in
    a tree parsed as XML, perhaps): read in C, in time linear at any depth."""
    return next(etree.iterwalk(root.getroottree(), events=("start-ns",)), None) is not None


def _html(page: Page, selection: Selection, content: list[bool], roots: list[int]) -> str:
    """The cleaned HTML, a document that stands alone: ``roots`` serialized whole by lxml,
    inside the start and end tags of :func:`_ancestors`, with the selected text runs
    between, escaped; ``<html lang>`` kept, the charset declared (``utf-8``, the encoding
    of every output), and with the page's URL known, ``href`` and ``src`` absolute."""
    runs = selection.runs
    elements, tags, end, parent = page.elements, page.tags, page.end, page.parent
    base = page.base_url
    lang = page.root.get("lang") if page.root.tag == "html" else None
    pieces = [_start_tag("html", [("lang", lang)] if lang else []), '<head><meta charset="utf-8">']
    if page.title:
        pieces.append(f"<title>{escape(page.title, quote=False)}</title>")
    pieces.append("</head>")

    def tail_of(i: int) -> None:
        # A tail of only whitespace is no run, but it separates words ("<b>Jane</b> <i>Doe</i>"):
        # kept wherever its element is written, as the text puts a space there.
        tail = elements[i].tail
        if tail and i and (content[parent[i]] or 2 * i + 1 in runs or not tail.strip(XML_SPACE)):
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
    declares_namespaces = None
    tails = {key >> 1 for key in runs if key & 1}
    covered_until = 0
    for i in sorted(is_root | is_ancestor | tails):
        if i < covered_until:
            continue  # inside a subtree serialized whole
        close_until(i)
        el = elements[i]
        if i in is_root:
            # Every ancestor of a selected root is open here (in ``open_elements``): its depth.
            copied = len(open_elements) > SERIALIZE_MAX_DEPTH
            if copied and declares_namespaces is None:
                declares_namespaces = _declares_namespaces(page.root)
            pieces.append(_serialize_absolute(el, base, copied and not declares_namespaces))
            covered_until = end[i]
            tail_of(i)
        elif i in is_ancestor:
            attributes = attribute_items(el)
            if base and any(name in URL_ATTRIBUTES for name, _ in attributes):
                attributes = [(n, absolute_url(base, v) if n in URL_ATTRIBUTES else v) for n, v in attributes]
            pieces.append(_start_tag("body" if i == 0 else tags[i], attributes))
            text = el.text
            if text and (content[i] or 2 * i in runs):
                pieces.append(escape(text, quote=False))
            open_elements.append(i)
        else:  # an element left out, its tail selected: kept, emptied (a space, for <pre>), apart
            tag = tags[i]
            pieces.append(f"<{tag}>" if tag in VOID_TAGS else f"<{tag}> </{tag}>")
            tail_of(i)
    close_until(len(page))
    pieces.append("</html>")
    return "".join(pieces)


def _plain_markdown(lines: list[str]) -> str:
    """Markdown of a line-based selection: one paragraph per line, escaped."""
    from .markdown import escape_line

    return "\n\n".join(map(escape_line, lines))
