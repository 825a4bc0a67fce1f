"""The Markdown output: bounded nesting (size linear in the page), emphasis, code spans and
fences as CommonMark reads them, and the text's words kept."""

from __future__ import annotations

import pytest

from scrapy_cetd.extraction import Selection
from scrapy_cetd.markdown import MAX_NESTING, code_span
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html
from scrapy_cetd.render import render


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
        ("<b><i>x</i></b>", "***x***"),
        ("<i>a <b>b</b> c</i>", "*a **b** c*"),
        ("<b>a <i>b <b>c</b></i></b>", "**a *b c***"),
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
        ("<b><i>a</i></b><b><i>.</i></b>", "***a.***"),
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
