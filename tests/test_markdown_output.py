"""The Markdown output: bounded nesting (size linear in the page), emphasis, code spans and
fences as CommonMark reads them, and the text's words kept."""

from __future__ import annotations

import random
import re

import lxml.html
import pytest
from lxml import etree
from markdown_it import MarkdownIt

from scrapy_cetd import extract
from scrapy_cetd.extraction import Selection
from scrapy_cetd.markdown import MAX_NESTING, code_span
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html
from scrapy_cetd.render import render
from tests.golden import GoldenPage, golden_pages


def outputs(body: str) -> tuple[str, str]:
    """The text and the Markdown of the whole body."""
    page = Page.from_tree(parse_html(f"<html><body>{body}</body></html>"))
    text, _, markdown = render(page, Selection(threshold=None, subtrees={0}), with_html=False, with_markdown=True)
    return text, markdown


def markdown_of(body: str) -> str:
    return outputs(body)[1]


# --- nesting: the output's size is linear in the page's ---------------------------------------


@pytest.mark.parametrize("opening", ["<ul><li>item ", "<ol><li>item ", "<blockquote>quote ", "<ul><li><blockquote>x "])
def test_deep_nesting_gives_markdown_linear_in_the_page(opening: str) -> None:
    """20,000 nested levels: the Markdown was 400 MB (each line prefixed by all its levels),
    now a bounded prefix per line; every word of the text is still there."""
    body = opening * 20_000
    text, markdown = outputs(body)
    assert len(markdown) < 50 * len(body)
    assert max(map(len, markdown.split("\n"))) < 100
    words = text.split()
    assert len(words) == 20_000
    assert [word for word in markdown.split() if word not in ("-", "1.") and word.strip(">")] == words


def test_lists_deeper_than_the_cap_are_written_at_the_cap() -> None:
    markdown = markdown_of("<ul><li>level " * (MAX_NESTING + 2))
    indents = [len(line) - len(line.lstrip()) for line in markdown.split("\n")]
    assert indents == [2 * level for level in range(MAX_NESTING)] + [2 * (MAX_NESTING - 1)] * 2
    assert markdown.split("\n")[-1] == " " * 2 * (MAX_NESTING - 1) + "- level"


def test_quotes_deeper_than_the_cap_are_written_at_the_cap() -> None:
    markdown = markdown_of("<blockquote><p>quote</p>" * (MAX_NESTING + 3))
    lines = [line for line in markdown.split("\n") if "quote" in line]
    assert lines == ["> " * min(level, MAX_NESTING) + "quote" for level in range(1, MAX_NESTING + 4)]
    assert max(line.count(">") for line in markdown.split("\n")) == MAX_NESTING


def test_an_ordered_list_number_has_at_most_nine_digits() -> None:
    """CommonMark 5.2: a longer number is no list marker (and a 100,000-digit start
    indented every line of the item by as much)."""
    assert markdown_of('<ol start="123456789"><li>a</li></ol>') == "123456789. a"
    assert markdown_of(f'<ol start="{"9" * 100_000}"><li>a<p>b</p></li></ol>') == "1. a\n   b"
    assert markdown_of('<ol start="\u0663"><li>a</li></ol>') == "3. a"  # Arabic-Indic three
    assert markdown_of('<ol start="\u00b2"><li>a</li></ol>') == "1. a"  # "²".isdigit(): int() raised


# --- emphasis -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<em><i>it</i></em>", "*it*"),  # was **it**: italic turned bold
        ("<b><b>bold</b></b>", "**bold**"),  # was ****bold****
        ("<b>bo<b>ld</b></b>", "**bold**"),  # was **bo **ld****; one word, as the text has it
        ("<strong>a <b>b</b> c</strong>", "**a b c**"),
        ("<i>a <em>b <cite>c</cite></em></i>", "*a b c*"),
        ("<b><i>x</i></b>", "**_x_**"),  # was ***x***: an inner marker touching an outer one is _
        ("<i>a <b>b</b> c</i>", "*a **b** c*"),
        ("<b>a <i>b <b>c</b></i></b>", "**a _b c_**"),
        ("<code>a<b>b</b></code>", "`ab`"),  # no emphasis markers inside code
        ("<p>a <b> x </b> y</p>", "a **x** y"),  # spaces outside the markers
        ("<p>a<b>&nbsp;x&nbsp;</b>y</p>", "a **x** y"),
    ],
)
def test_emphasis(html: str, expected: str) -> None:
    assert markdown_of(html) == expected


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<p>It aims to answer <i><em>what can be done</em></i><i>.</i></p>", "It aims to answer *what can be done.*"),
        ("<b>(</b><b>a</b>", "**(a**"),  # was **(**a** (**( then a**)
        ("<b><i>a</i></b><b><i>.</i></b>", "**_a._**"),
        ("<i>a</i> <i>b</i>", "*a* *b*"),  # a space between: two
    ],
)
def test_emphasis_continued_by_the_same_kind_without_a_space_is_one(html: str, expected: str) -> None:
    """``*a**.*`` (main's) reads as *a* and a literal "*.*"."""
    assert markdown_of(html) == expected


def test_nested_emphasis_across_lines_is_closed_and_reopened_once() -> None:
    assert markdown_of("<b><b>one<br>two</b></b>") == "**one**\n\n**two**"


# --- code -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<code>a_b</code>", "`a_b`"),
        ("<code>a`b</code>", "``a`b``"),  # was `a`b`
        ("<code>`a</code>", "`` `a ``"),
        ("<code>a``b`</code>", "``` a``b` ```"),
        ("<p>x <code>`</code> y</p>", "x `` ` `` y"),
        ("<code><code>a`b</code></code>", "``a`b``"),
        ("<a href='https://x.org/'><code>a`b</code></a>", "[``a`b``](https://x.org/)"),
        ("<code><p>a`</p><p>b</p></code>", "`` a` ``\n\n`b`"),
    ],
)
def test_inline_code_fence_is_longer_than_the_backticks_inside(html: str, expected: str) -> None:
    assert markdown_of(html) == expected


def test_code_span() -> None:
    assert code_span("x") == "`x`"
    assert code_span(" x ") == "`  x  `"  # CommonMark strips one space each side
    assert code_span("  ") == "`  `"
    assert code_span("``") == "``` `` ```"


def test_pre_fence_is_longer_than_the_fences_inside() -> None:
    assert markdown_of("<pre>x\n```\ny</pre>") == "````\nx\n```\ny\n````"
    assert markdown_of("<pre>a ````` b</pre>") == "``````\na ````` b\n``````"
    assert markdown_of("<pre>`</pre>") == "```\n`\n```"


def test_a_line_break_tag_in_pre_ends_a_line_of_the_fence() -> None:
    assert markdown_of("<pre><code>import os<br>import sys<br><br>x = 1</code></pre>") == (
        "```\nimport os\nimport sys\n\nx = 1\n```"
    )


# --- hostile structure: linear output, structure kept ----------------------------------------


def test_one_wide_row_is_not_padded_into_every_row() -> None:
    """GFM fills a short row's cells itself; padding each of 8,000 rows to one row's 8,000
    cells wrote 192 MB."""
    n = 8000
    body = f"<table><tr>{'<td>c</td>' * n}</tr>{'<tr><td>a</td><td>b</td></tr>' * n}</table>"
    markdown = markdown_of(body)
    assert len(markdown) < 20 * len(body)
    lines = markdown.split("\n")
    assert lines[0].count("|") == lines[1].count("|") == n + 1  # the header and delimiter: every column
    assert lines[2] == "| a | b |"


def test_a_bare_list_item_in_a_data_table_leaves_the_outer_list_as_it_was() -> None:
    table = "<table><tr><td>x</td><td><li>bare</li></td></tr><tr><td>1</td><td>2</td></tr></table>"
    body = f"<ol><li>first{table}<ol><li>nested one</li><li>nested two</li></ol></li><li>second</li></ol>"
    lines = [line for line in markdown_of(body).split("\n") if line.strip() and "|" not in line]
    assert lines == ["1. first", "   1. nested one", "   2. nested two", "2. second"]


def test_a_pre_in_a_heading_is_a_code_block_between_headings() -> None:
    markdown = markdown_of("<h2>Title <pre>code line\nmore</pre> after</h2>")
    assert markdown == "## Title\n\n```\ncode line\nmore\n```\n\n## after"


def test_entity_like_text_and_tildes_are_escaped() -> None:
    text, markdown = outputs("<p>It shows &amp;copy; and &amp;#169; as written, ~~not struck~~, and AT&amp;T.</p>")
    assert text == "It shows &copy; and &#169; as written, ~~not struck~~, and AT&T."
    assert markdown == r"It shows \&copy; and \&#169; as written, \~\~not struck\~\~, and AT&T."


# --- read back by a CommonMark parser ---------------------------------------------------------

_COMMONMARK = MarkdownIt("commonmark").enable("table")
_MARKS = {"em": 1, "i": 1, "strong": 2, "b": 2}


def read_back(markdown: str) -> list[tuple[str, int]]:
    """What a CommonMark reader (markdown-it-py) shows: each non-space character with its
    emphasis (1 em, 2 strong, 3 both); images and list markers are not text."""
    shown: list[tuple[str, int]] = []
    for token in _COMMONMARK.parse(markdown):
        if token.type in ("fence", "code_block"):
            shown.extend((char, 0) for char in token.content if not char.isspace())
        open_marks = {"em": 0, "strong": 0}
        for child in token.children or []:
            kind = child.type.rsplit("_", 1)[0]
            if kind in open_marks:
                open_marks[kind] += 1 if child.type.endswith("_open") else -1
            elif child.type in ("text", "code_inline"):
                marks = (open_marks["em"] > 0) | 2 * (open_marks["strong"] > 0)
                shown.extend((char, marks) for char in child.content if not char.isspace())
    return shown


def html_emphasis(body: str) -> list[tuple[str, int]]:
    """The same for the HTML of a snippet: each non-space character with its emphasis."""
    shown: list[tuple[str, int]] = []
    marks = [0]
    for event, element in etree.iterwalk(lxml.html.fragment_fromstring(body, create_parent="div"), ("start", "end")):
        if event == "start":
            marks.append(marks[-1] | _MARKS.get(element.tag, 0))
            shown.extend((char, marks[-1]) for char in element.text or "" if not char.isspace())
        else:
            marks.pop()
            shown.extend((char, marks[-1]) for char in element.tail or "" if not char.isspace())
    return shown


@pytest.mark.parametrize(
    ("body", "read"),
    [
        ("<p>Rates rose by <b>10</b><i>%</i>.</p>", "<p>Rates rose by <strong>10</strong><em>%</em>.</p>"),
        ("<p><i>a quarter</i><b>point</b> more</p>", "<p><em>a quarter</em> <strong>point</strong> more</p>"),
        ("<p><b><i>x</i></b> y</p>", "<p><strong><em>x</em></strong> y</p>"),
        ("<p>a <b>b <i>c</i></b><i>, d</i> e</p>", "<p>a <strong>b <em>c</em></strong><em>, d</em> e</p>"),
        ("<p>x<b>\"q\"</b>y</p>", "<p>x&quot;q&quot;y</p>"),  # no reader's emphasis fits: the words stay
        ("<ul><li>up <b>10</b><i>%</i></li></ul>", "<ul>\n<li>up <strong>10</strong><em>%</em></li>\n</ul>"),
        ("<h2><b>Rates</b> this <i>year</i></h2>", "<h2>Rates this year</h2>"),  # a heading is plain
    ],
)
def test_commonmark_reads_the_emphasis_written(body: str, read: str) -> None:
    assert _COMMONMARK.render(markdown_of(body)).strip() == read


_PIECES = ["word", "10", "%", ",", ".", "(", ")", '"', "'", "-", "x_y", "*", "é", "½", "!"]


def _random_inline(rng: random.Random, depth: int = 0) -> str:
    parts = []
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        if roll < 0.35 and depth < 3:
            tag = rng.choice(["b", "i", "em", "strong"])
            parts.append(f"<{tag}>{_random_inline(rng, depth + 1)}</{tag}>")
        else:
            parts.append(rng.choice(_PIECES))
        parts.append(rng.choice(["", "", " "]))
    return "".join(parts)


@pytest.mark.parametrize("seed", range(300))
def test_commonmark_reads_our_text_and_no_emphasis_the_page_lacks(seed: int) -> None:
    """Random inline emphasis, glued to punctuation and words: a CommonMark reader shows
    the text's characters (no marker left as a literal) with emphasis only where the
    page has it, of the page's kind."""
    body = f"<p>{_random_inline(random.Random(seed))}</p>"
    text, markdown = outputs(body)
    read = read_back(markdown)
    assert "".join(char for char, _ in read) == "".join(text.split()), markdown
    page = html_emphasis(body)
    assert [char for char, _ in page] == [char for char, _ in read]
    assert all(marks & ~wanted == 0 for (_, marks), (_, wanted) in zip(read, page)), markdown


@pytest.mark.parametrize(
    ("body", "markdown"),
    [
        # The quote is in the item: after its marker's indentation (was ">    q", which
        # ends the list), and a blank line ends it (else "b" continues its paragraph).
        ("<ol><li><p>a</p><blockquote><p>q</p></blockquote><p>b</p></li><li>c</li></ol>", "1. a\n   > q\n\n   b\n2. c"),
        ("<blockquote><p>x</p><ul><li>a<p>b</p></li></ul></blockquote>", "> x\n>\n> - a\n>   b"),
    ],
)
def test_quotes_and_list_items_nest_in_the_pages_order(body: str, markdown: str) -> None:
    assert markdown_of(body) == markdown


_GOLDEN = golden_pages()
_TOKENS = re.compile(r"\w+|[*_]")


@pytest.mark.parametrize("page", _GOLDEN, ids=[page.slug for page in _GOLDEN])
def test_commonmark_reads_the_golden_pages_text(page: GoldenPage) -> None:
    """On real pages: the words (and literal ``*``, ``_``) a CommonMark reader shows are
    the text output's, in its order: no marker is left over, no structure swallows text
    (tables are read as GFM tables; the text writes their cells with ``|``)."""
    result = extract(page.html, url=page.url, with_markdown=True, with_metadata=False)
    shown = "".join(char if char not in "|" else " " for char, _ in _read_back_spaced(result.markdown))
    assert _TOKENS.findall(shown) == _TOKENS.findall(result.text)


def _read_back_spaced(markdown: str) -> list[tuple[str, int]]:
    """:func:`read_back` with a space between texts (words of two blocks stay two)."""
    spaced: list[tuple[str, int]] = []
    for token in _COMMONMARK.parse(markdown):
        if token.type in ("fence", "code_block"):
            spaced.extend((char, 0) for char in token.content)
        for child in token.children or []:
            if child.type in ("text", "code_inline"):
                spaced.extend((char, 0) for char in child.content)
            elif child.type in ("softbreak", "hardbreak", "image"):
                spaced.append((" ", 0))
        spaced.append((" ", 0))
    return spaced
