"""The renderer: text lines from the page's runs, cleaned HTML from the selected subtrees."""

from __future__ import annotations

import pytest
from lxml import etree

from scrapy_cetd.extraction import Selection
from scrapy_cetd.page import BLOCK_TAGS, Page
from scrapy_cetd.parsing import parse_html
from scrapy_cetd.registry import get_algorithm
from scrapy_cetd.render import CLOSING_PUNCTUATION, OPENING_PUNCTUATION, render
from tests.wcxb import fixture_pages


def page_of(html: str | bytes) -> Page:
    return Page.from_tree(parse_html(html))


def text_of(html: str) -> str:
    """The text of the whole body."""
    return render(page_of(html), Selection(threshold=None, subtrees={0}))[0]


def event_walk_text(page: Page, selection: Selection) -> str:
    """The reference: every element boundary of the body walked in document order, a line
    break at block-level ones and a space at the others (nothing inside a selected
    ``<pre>``, whose text is kept as it is), the selected text between."""
    index, parent, tags = page.index, page.parent, page.tags
    content = [False] * len(page)
    for root in selection.subtrees:
        content[root : page.end[root]] = [True] * (page.end[root] - root)
    in_pre = [any(tags[j] == "pre" and content[j] for j in page.path_to_body(i)) for i in range(len(page))]

    def shown(text: str | None, owner: int) -> str:
        if not text:
            return ""
        return text if in_pre[owner] else " ".join(text.split())

    pieces: list[str] = []
    boundary = ""  # the strongest boundary since the last text: "\n", " " or none

    def add(text: str) -> None:
        nonlocal boundary
        if not text:
            return
        if boundary == "\n" or (
            boundary == " " and text[0] not in CLOSING_PUNCTUATION and pieces[-1][-1] not in OPENING_PUNCTUATION
        ):
            pieces.append(boundary)
        pieces.append(text)
        boundary = ""

    for event, el in etree.iterwalk(page.body, events=("start", "end")):
        i = index[el]
        if not (i and in_pre[parent[i]]) and pieces:
            boundary = "\n" if tags[i] in BLOCK_TAGS or boundary == "\n" else " "
        if event == "start" and (content[i] or 2 * i in selection.runs):
            add(shown(el.text, i))
        if event == "end" and i and (content[parent[i]] or 2 * i + 1 in selection.runs):
            add(shown(el.tail, parent[i]))
    lines = (" ".join(line.split()) for line in "".join(pieces).split("\n"))
    return "\n".join(line for line in lines if line)


def test_block_boundaries_break_lines_inline_ones_give_spaces() -> None:
    html = "<body><div>one<span>two</span>three<p>four</p>five<br>six <em>seven</em></div></body>"
    assert text_of(html) == "one two three\nfour\nfive\nsix seven"


def test_no_space_next_to_closing_or_opening_punctuation_at_inline_boundaries() -> None:
    html = "<body><p>Hello <a href='/w'>world</a>, this is <b>it</b>! (<i>see</i>) <em>Smith</em>’s</p></body>"
    assert text_of(html) == "Hello world, this is it! (see) Smith’s"
    assert text_of("<body><p>one<span>, </span>two</p></body>") == "one, two"  # a space after the comma


def test_source_line_breaks_are_spaces_except_in_pre() -> None:
    html = "<body><p>a paragraph\nwrapped in\n the source</p><pre><b>if</b> (x)\n  <i>y</i>();</pre></body>"
    assert text_of(html) == "a paragraph wrapped in the source\nif (x)\ny();"


def test_text_split_by_a_removed_node_stays_one_word() -> None:
    assert text_of("<body><p>Load<!-- a comment -->ing<script>x()</script>...</p></body>") == "Loading..."
    assert text_of("<body><p>\xa9 <!-- year -->MVMT</p></body>") == "\xa9 MVMT"


def test_an_empty_block_between_runs_still_breaks_the_line() -> None:
    assert text_of("<body><div>left<p></p>right</div></body>") == "left\nright"
    assert text_of("<body><div>left<img src=x>right</div></body>") == "left right"


def test_a_left_out_element_still_separates_its_neighbours() -> None:
    page = page_of('<body><div id="d">before<ul><li>menu</li></ul>after<b>x</b>tail</div></body>')
    div = page.index[page.body.find("div")]
    b = page.index[page.body.find(".//b")]
    runs = {2 * div, 2 * page.index[page.body.find(".//ul")] + 1, 2 * b + 1}
    text, html, _ = render(page, Selection(threshold=None, runs=runs))
    assert text == "before\nafter tail"
    # the elements left out stay, empty, so the texts around them do not run together
    assert html == (
        '<html><head><meta charset="utf-8"></head><body><div id="d">before<ul></ul>after<b></b>tail</div></body></html>'
    )


def test_non_breaking_space_runs_render_as_nothing() -> None:
    assert text_of("<body><p>word<b>\xa0</b></p><p>next</p></body>") == "word\nnext"


def test_only_the_selected_subtrees_and_their_ancestors_are_in_the_html() -> None:
    page = page_of('<body class="b"><div id="x">skip</div><main><p id="p">keep <b>this</b></p></main></body>')
    p = page.index[page.body.find(".//p")]
    text, html, _ = render(page, Selection(threshold=None, subtrees={p}))
    assert text == "keep this"
    assert html == (
        '<html><head><meta charset="utf-8"></head>'
        '<body class="b"><main><p id="p">keep <b>this</b></p></main></body></html>'
    )


@pytest.mark.parametrize("algorithm", ["cetd-plus", "cectd-ds", "cepr-tpr", "wlr", "cetr-tm"])
def test_text_matches_a_walk_over_every_element_boundary(algorithm: str) -> None:
    for fixture in list(fixture_pages())[::3]:
        page = page_of(fixture.html)
        selection = get_algorithm(algorithm).select(page, get_algorithm(algorithm).default_coefficient)
        if selection.lines is not None and not selection.subtrees and not selection.runs:
            continue
        selection.dedupe_min_chars = 0  # the reference does not de-duplicate
        assert render(page, selection)[0] == event_walk_text(page, selection), fixture.page_id
