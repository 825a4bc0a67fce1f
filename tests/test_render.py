"""The renderer: text lines from the page's runs, cleaned HTML from the selected subtrees."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter

import pytest
from lxml import etree

from scrapy_cetd import algorithm_names, parsing
from scrapy_cetd import render as render_module
from scrapy_cetd.api import extract
from scrapy_cetd.extraction import Selection
from scrapy_cetd.page import BLOCK_TAGS, GLUE_MAX_CLOSINGS, SEPARATING_INLINE_TAGS, Page, _parts_meet
from scrapy_cetd.parsing import parse_html
from scrapy_cetd.registry import get_algorithm
from scrapy_cetd.render import CELL_TAGS, CLOSING_PUNCTUATION, LINE_TAGS, OPENING_PUNCTUATION, render
from tests.wcxb import fixture_pages


def page_of(html: str | bytes) -> Page:
    return Page.from_tree(parse_html(html))


def text_of(html: str) -> str:
    """The text of the whole body."""
    return render(page_of(html), Selection(threshold=None, subtrees={0}))[0]


def event_walk_text(page: Page, selection: Selection) -> str:
    """The reference: every element boundary of the body walked in document order, a line
    break at block-level ones but table cells, a cell separator at cells (one more per
    empty cell between two texts), and a space at the others (nothing inside a selected
    ``<pre>``, whose text is kept as it is), the selected text between.  No space where
    the source has none and only inline elements that separate nothing
    (``SEPARATING_INLINE_TAGS``) end or start between, at most ``GLUE_MAX_CLOSINGS`` of
    each (those both starting and ending between counted as starting), and, where
    elements both end and start, the element holding both texts has text of its own;
    unless :func:`_parts_meet`."""
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
    boundary = ""  # the strongest boundary since the last text: "\n", "cell", " " or none
    cells = 0  # table cells started since the last text
    def owns_text(element: etree._Element) -> bool:
        return any(text and text.strip(" \t\n\r") for text in [element.text, *(c.tail for c in element)])

    started: set[int] = set()  # elements started since the last text
    ends = 0  # elements ended since the last text, those in ``started`` left out
    separated = False  # a block or separating inline element started or ended since then
    spaced = True  # whitespace (or text not shown) since the last text

    def add(text: str, raw: str) -> None:
        nonlocal boundary, cells, ends, separated, spaced
        if not text:
            spaced = spaced or bool(raw)
            return
        glued = (
            not spaced
            and not separated
            and not raw[0].isspace()
            and not _parts_meet(pieces[-1][-1], raw[0])
            and len(started) <= GLUE_MAX_CLOSINGS
            and ends <= GLUE_MAX_CLOSINGS
            and not (ends and started and not owns_text(page.elements[parent[min(started)]]))
        )
        if boundary == "\n":
            pieces.append(boundary)
        elif boundary == "cell":
            pieces.append(" | " + "| " * max(0, cells - 1))
        elif (
            boundary == " "
            and text[0] not in CLOSING_PUNCTUATION
            and pieces[-1][-1] not in OPENING_PUNCTUATION
            and not glued
        ):
            pieces.append(boundary)
        pieces.append(text)
        boundary, cells, ends, separated, spaced = "", 0, 0, False, raw[-1].isspace()
        started.clear()

    for event, el in etree.iterwalk(page.body, events=("start", "end")):
        i = index[el]
        if not (i and in_pre[parent[i]]) and pieces:
            if tags[i] in LINE_TAGS or boundary == "\n":
                boundary = "\n"
            elif tags[i] in CELL_TAGS or boundary == "cell":
                boundary = "cell"
                cells += event == "start" and tags[i] in CELL_TAGS
            else:
                boundary = " "
        separated = separated or tags[i] in BLOCK_TAGS or tags[i] in SEPARATING_INLINE_TAGS
        if event == "start":
            started.add(i)
        elif i not in started:
            ends += 1
        if event == "start":
            add(shown(el.text, i) if content[i] or 2 * i in selection.runs else "", el.text or "")
        if event == "end" and i:
            add(shown(el.tail, parent[i]) if content[parent[i]] or 2 * i + 1 in selection.runs else "", el.tail or "")
    lines = (" ".join(line.split()) for line in "".join(pieces).split("\n"))
    return "\n".join(line for line in lines if line)


def test_block_boundaries_break_lines_inline_ones_give_spaces() -> None:
    html = "<body><div>one <span>two</span> <span>three</span><p>four</p>five<br>six <em>seven</em></div></body>"
    assert text_of(html) == "one two three\nfour\nfive\nsix seven"


def test_a_word_written_across_inline_elements_is_one_word_items_side_by_side_stay_apart() -> None:
    html = (
        "<body><p>The <strong>Game D</strong><strong>ay Parties</strong> at the <span>coun</span><span>cil</span>"
        " hall</p><div><a href='/a'>FPS</a><a href='/b'>Shooter</a></div><p><i>a</i><img src='x.png'><i>b</i>"
        " and <span>c</span> <span>d</span></p><div>title<h2>New</h2>line</div></body>"
    )
    assert text_of(html) == "The Game Day Parties at the council hall\nFPS Shooter\na b and c d\ntitle\nNew\nline"


def test_no_space_next_to_closing_or_opening_punctuation_at_inline_boundaries() -> None:
    html = "<body><p>Hello <a href='/w'>world</a>, this is <b>it</b>! (<i>see</i>) <em>Smith</em>’s</p></body>"
    assert text_of(html) == "Hello world, this is it! (see) Smith’s"
    assert text_of("<body><p>one<span>, </span>two</p></body>") == "one, two"  # a space after the comma


def test_source_line_breaks_are_spaces_except_in_pre() -> None:
    html = "<body><p>a paragraph\nwrapped in\n the source</p><pre><b>if</b> (x)\n  <i>y</i>();</pre></body>"
    assert text_of(html) == "a paragraph wrapped in the source\nif (x)\n  y();"


def test_a_line_break_tag_in_pre_ends_a_line_of_code() -> None:
    """Blogs write code as lines ended by ``<br>``; read without them the lines ran together
    ("import osimport sys")."""
    html = "<body><pre>import os<br>import <b>sys</b><br/><!-- x --><br>x = 1</pre></body>"
    assert text_of(html) == "import os\nimport sys\nx = 1"
    deep = "<body><pre>" + "<b>a<br>" * 30_000 + "</pre></body>"  # read without recursion
    assert text_of(deep).split("\n") == ["a"] * 30_000


def test_code_keeps_its_indentation_less_what_all_lines_share() -> None:
    html = "<body><p>Run it:</p><pre>\n    def f(x):\n        if x:\n\n            return  x  \n</pre></body>"
    assert text_of(html) == "Run it:\ndef f(x):\n    if x:\n        return  x"
    # A page with control characters has its lines collapsed again; the indentation stays.
    assert text_of(html.replace("Run it:", "Run\x01 it:")) == "Run it:\ndef f(x):\n    if x:\n        return x"


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
        '<html><head><meta charset="utf-8"></head>'
        '<body><div id="d">before<ul> </ul>after<b> </b>tail</div></body></html>'
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
        spec = get_algorithm(algorithm)
        coefficient, params = spec.resolve(None, {})  # the defaults
        selection = spec.select(page, coefficient, **params)
        if selection.lines is not None and not selection.subtrees and not selection.runs:
            continue
        selection.dedupe_min_chars = 0  # the reference does not de-duplicate
        assert render(page, selection)[0] == event_walk_text(page, selection), fixture.page_id


# --- table rows ------------------------------------------------------------------------------


def test_a_table_row_is_one_line_its_cells_separated() -> None:
    html = (
        "<body><p>Results</p><table><tr><th>Pos</th><th>Driver</th><th>Pts</th></tr>"
        "<tr><td>1</td><td>Kyle <b>Busch</b></td><td>40</td></tr>"
        "<tr><td>2</td><td></td><td>35</td></tr></table><p>After</p></body>"
    )
    assert text_of(html) == "Results\nPos | Driver | Pts\n1 | Kyle Busch | 40\n2 | | 35\nAfter"


def test_block_content_inside_a_cell_still_breaks_lines() -> None:
    html = "<body><table><tr><td><p>first para</p><p>second para</p></td><td>next cell</td></tr></table></body>"
    assert text_of(html) == "first para\nsecond para\nnext cell"


# --- de-duplication ------------------------------------------------------------------------------

STORY = "".join(
    f"<p>Paragraph {word} of the story, with enough words in it to be a line of its own.</p>"
    for word in ("one", "two", "three")
)
PASSAGE = (
    "<div class='share'><p>Share this story with your friends, family and colleagues</p>"
    "<p>Sign up for the newsletter to get the latest stories first</p></div>"
)


def render_all(page: Page, selection: Selection) -> tuple[str, str, str]:
    return render(page, selection, with_html=True, with_markdown=True)


def test_no_repeated_line_inside_the_story_is_lost() -> None:
    """A caption's words again in a results table, repeated prices and
    names: single repeated lines are all kept, in the text, the HTML and the Markdown."""
    html = (
        "<body><article><figure><img src='k.jpg'><p>Kyle Busch</p></figure>"
        f"{STORY}<p>Price: $30.00 per night</p><p>Kyle Busch</p><p>Price: $30.00 per night</p>"
        "<table><tr><td>1</td><td>Kyle Busch</td></tr><tr><td>2</td><td>Denny Hamlin</td></tr></table>"
        "<p>Kyle Busch</p></article></body>"
    )
    page = page_of(html)
    text, cleaned, markdown = render_all(page, Selection(threshold=None, subtrees={0}, dedupe_min_chars=10))
    assert text.count("Kyle Busch") == 4 and text.count("Price: $30.00 per night") == 2
    assert cleaned.count("Kyle Busch") == 4 and markdown.count("Kyle Busch") == 4
    assert extract(html, algorithm="cetd-plus").text.count("Kyle Busch") == 4


def test_a_repeated_passage_leaves_text_html_and_markdown_alike() -> None:
    page = page_of(f"<body><main>{PASSAGE}{STORY}{PASSAGE}<p>The end of it all.</p></main></body>")
    text, cleaned, markdown = render_all(page, Selection(threshold=None, subtrees={0}, dedupe_min_chars=100))
    assert text.count("Share this story") == 1 and text.count("Sign up") == 1
    assert cleaned.count("Share this story") == 1 and markdown.count("Share this story") == 1
    assert text.endswith("The end of it all.") and "The end of it all." in cleaned
    assert words(html_text(cleaned)) == words(text) == markdown_words(markdown)
    kept = render(page, Selection(threshold=None, subtrees={0}))[0]  # off without the option
    assert kept.count("Share this story") == 2


def test_paragraphs_repeated_side_by_side_in_one_container_all_stay() -> None:
    """A reader sees every copy of a paragraph repeated inside one story; a copy in a
    container of its own (the story's second rendering) goes."""
    story = f"<article>{STORY}{STORY}</article>"
    text = render(page_of(f"<body>{story}</body>"), Selection(threshold=None, subtrees={0}, dedupe_min_chars=100))[0]
    assert text.count("Paragraph one of the story") == 2
    twice = f"<body><div class='desktop'>{STORY}</div><div class='mobile'>{STORY}</div></body>"
    text = render(page_of(twice), Selection(threshold=None, subtrees={0}, dedupe_min_chars=100))[0]
    assert text.count("Paragraph one of the story") == 1


def test_repeated_stretches_are_found_in_linear_time() -> None:
    lines = [f"line {i % 7} " * 5 for i in range(20000)]
    page = page_of("<body>" + "".join(f"<div><p>{line}</p></div>" for line in lines) + "</body>")
    text = render(page, Selection(threshold=None, subtrees={0}, dedupe_min_chars=50))[0]
    assert text.split("\n") == [" ".join(line.split()) for line in lines[:7]]


# --- one selection, three outputs --------------------------------------------------------------

_WORD = re.compile(r"\w+")


def words(text: str) -> Counter[str]:
    return Counter(_WORD.findall(text.lower()))


def markdown_words(markdown: str) -> Counter[str]:
    """The words of Markdown less its syntax: emphasis and code marks (a word written
    across tags has them inside it: ``**Nyong**'**o**'s``), line markers, images, link
    targets, escapes."""
    lines, fenced = [], False
    for line in markdown.split("\n"):
        if line.lstrip(" >").startswith("```"):
            fenced = not fenced
        elif not fenced:  # code keeps its asterisks: x**2
            parts = re.split(r"(`+[^`]*`+)", line)
            line = "".join(part.strip("`") if part[:1] == "`" else re.sub(r"(?<!\\)[*_]+", "", part) for part in parts)
        lines.append(line)
    markdown = re.sub(r"(?m)^[ >]*(?:\d+[.)]|[-*+]|#{1,6}|\||```+)(?= |$)", " ", "\n".join(lines))
    markdown = re.sub(r"!\[(?:\\.|[^\]\\])*\]\([^)\s]*\)", " ", markdown)
    markdown = re.sub(r"\[((?:\\.|[^\]\\])*)\]\([^)\s]*\)", r"\1", markdown)  # a link: its text
    return words(re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown))  # escapes are before punctuation


def html_text(cleaned: str) -> str:
    """The cleaned HTML's text, read back by the same renderer (the whole body)."""
    return render(page_of(cleaned), Selection(threshold=None, subtrees={0}))[0]


@pytest.mark.parametrize("algorithm", ["cetd-plus", "cectd-ds", "cetd-ds", "cepr-tpr", "wlr"])
def test_text_html_and_markdown_have_the_same_words(algorithm: str) -> None:
    """On every fixture page: the cleaned HTML and the Markdown hold the text's words."""
    spec = get_algorithm(algorithm)
    for fixture in fixture_pages():
        page = Page.from_tree(parse_html(fixture.html), fixture.url)
        coefficient, params = spec.resolve(None, {})  # the defaults
        text, cleaned, markdown = render_all(page, spec.select(page, coefficient, **params))
        expected = words(text)
        assert markdown_words(markdown) == expected, fixture.page_id
        if cleaned:
            assert words(html_text(cleaned)) == expected, fixture.page_id


def browser_text(cleaned: str) -> str:
    """The cleaned HTML's text as a browser shows it: a line break at block-level
    boundaries, nothing at inline ones (``<b>Jane</b><i>Doe</i>`` reads "JaneDoe")."""
    body = etree.fromstring(cleaned, etree.HTMLParser()).find("body")
    pieces: list[str] = []
    for event, element in etree.iterwalk(body, events=("start", "end")):
        if element.tag in LINE_TAGS or element.tag in CELL_TAGS:
            pieces.append("\n")
        if event == "start":
            pieces.append(element.text or "")
        elif element is not body:
            pieces.append(element.tail or "")
    return "".join(pieces)


BYLINE_PAGE = (
    "<html><body>\n<nav><a href='/'>Home</a> <a href='/n'>News</a></nav>\n"
    + "<p>The council met on Tuesday to discuss the new bridge and its costs. </p>\n" * 2
    + "<p>Written by <b>Jane</b> <i>Doe</i> and <a href='/x'>Bob</a> <a href='/y'>Smith</a>, staff reporters"
    " for the daily newspaper of the town.</p>\n"
    + "<p>The council met on Tuesday to discuss the new bridge and its costs. </p>\n" * 3
    + "</body></html>"
)


@pytest.mark.parametrize("algorithm", algorithm_names())
def test_the_cleaned_html_shows_the_texts_words(algorithm: str) -> None:
    """Read as a browser reads it, the cleaned HTML holds the text's words: the whitespace
    between inline elements is kept where an algorithm selects text runs one by one."""
    result = extract(BYLINE_PAGE, algorithm=algorithm)
    if result.html:
        assert words(browser_text(result.html)) == words(result.text)


# --- Markdown -------------------------------------------------------------------------------------

ARTICLE = """<html lang="en-GB"><head><title>T</title><base href="/news/"></head><body><article>
<h1>Big <em>news</em> today</h1>
<p>Hello <a href="w.html">world</a>, this is <b>bold</b>! (<i>see</i>) snake_case *stars*</p>
<ul><li>one</li><li>two<ul><li>inner <code>x_y</code></li></ul></li></ul>
<ol start="3"><li>three</li><li>four</li></ol>
<blockquote><p>Quoted one.</p><p>Quoted two.</p></blockquote>
<pre>def f(x):
    return x</pre>
<table><tr><th>Driver</th><th>Pts</th></tr><tr><td>Kyle Busch</td><td>10</td></tr>
<tr><td>A | B</td><td></td></tr></table>
<p><img src="/img/a.png" alt="A picture"> 1. Not a list</p>
</article></body></html>"""


def test_markdown_structure() -> None:
    result = extract(ARTICLE, algorithm="cectd-ds", url="https://example.com/a/b", with_markdown=True)
    assert result.markdown == "\n".join(
        [
            "# Big news today",  # a heading is a plain line: no emphasis inside
            "",
            "Hello [world](https://example.com/news/w.html), this is **bold**! (*see*) snake\\_case \\*stars\\*",
            "",
            "- one",
            "- two",
            "  - inner `x_y`",
            "",
            "3. three",
            "4. four",
            "",
            "> Quoted one.",
            ">",
            "> Quoted two.",
            "",
            "```",
            "def f(x):",
            "    return x",
            "```",
            "",
            "| Driver | Pts |",
            "| --- | --- |",
            "| Kyle Busch | 10 |",
            "| A \\| B |  |",
            "",
            "![A picture](https://example.com/img/a.png) 1. Not a list",
        ]
    )
    assert markdown_words(result.markdown) == words(result.text)
    assert extract(ARTICLE, algorithm="cectd-ds").markdown == ""  # only when asked for


def test_markdown_of_a_layout_table_is_paragraphs() -> None:
    html = "<body><table><tr><td><h2>Title</h2><p>Body text here.</p></td></tr></table></body>"
    markdown = render(page_of(html), Selection(threshold=None, subtrees={0}), with_markdown=True)[2]
    assert markdown == "## Title\n\nBody text here."


def test_markdown_link_around_blocks_and_line_starts_escaped() -> None:
    html = "<body><a href='https://x.org/c'><h3>Card title</h3><p>Card summary.</p></a><p># not a heading</p></body>"
    markdown = render(page_of(html), Selection(threshold=None, subtrees={0}), with_markdown=True)[2]
    assert markdown == "### [Card title](https://x.org/c)\n\n[Card summary.](https://x.org/c)\n\n\\# not a heading"


def test_markdown_of_line_based_algorithms_is_paragraphs() -> None:
    selection = Selection(threshold=None, lines=["* a line", "1. another"])
    assert render(page_of("<body><p>x</p></body>"), selection, with_markdown=True) == (
        "* a line\n1. another",
        "",
        "\\* a line\n\n1\\. another",
    )


# --- cleaned HTML that stands alone -----------------------------------------------------------


def test_cleaned_html_declares_charset_keeps_lang_and_has_absolute_urls() -> None:
    page = Page.from_tree(parse_html(ARTICLE), "https://example.com/a/b")
    link = page.body.find(".//a")
    cleaned = render(page, Selection(threshold=None, subtrees={0}))[1]
    assert cleaned.startswith('<html lang="en-GB"><head><meta charset="utf-8"><title>T</title></head>')
    assert 'href="https://example.com/news/w.html"' in cleaned
    assert 'src="https://example.com/img/a.png"' in cleaned
    assert link.get("href") == "w.html"  # the page's tree is left as it was
    without_url = render(page_of(ARTICLE), Selection(threshold=None, subtrees={0}))[1]
    assert 'href="w.html"' in without_url


# --- linear time ---------------------------------------------------------------------------------


def test_a_page_50000_deep_renders_in_linear_time() -> None:
    """The nearest block of every run was found by walking up from it
    (3.1 s at 8,000 deep); each element is now visited once.  Run in a subprocess with a
    time limit: quadratic work would take minutes."""
    code = (
        "from scrapy_cetd.page import Page\n"
        "from scrapy_cetd.parsing import parse_html\n"
        "from scrapy_cetd.extraction import Selection\n"
        "from scrapy_cetd.render import render\n"
        "page = Page.from_tree(parse_html('<html><body>' + '<span>x' * 50000), 'https://e.org/')\n"
        "for selection in (Selection(None, subtrees={0}), Selection(None, runs=set(page.run_key))):\n"
        "    text, html, markdown = render(page, selection, with_markdown=True)\n"
        "    assert text == 'x' * 50000 and markdown == text, (text[:50], markdown[:50])\n"
        "    assert html.count('x') == 50000\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_lines_of_nothing_visible_are_dropped_and_joiners_in_words_stay() -> None:
    story = "<p>" + "Words of the story that the page shows to its readers. " * 4 + "</p>"
    html = (
        f"<html><body><article>{story}<p>&zwj;</p><p>\u200b \ufeff</p>"
        f"{story.replace('Words', 'More words')}<p>Coders 👩\u200d💻 and na\u00efve words stay.</p>"
        "</article></body></html>"
    )
    lines = extract(html).text.splitlines()
    assert len(lines) == 3
    assert lines[2] == "Coders 👩\u200d💻 and na\u00efve words stay."


def test_a_soft_hyphen_is_in_no_output() -> None:
    """A browser shows ``&shy;`` only where it breaks a line; in the outputs it split words
    for every tokenizer ("Bundes\xadregierung"); no label of the tuning half holds one."""
    story = "<p>" + "Words of the story that the page shows to its readers. " * 4 + "</p>"
    html = (
        "<html><head><title>Bundes&shy;regierung plant</title></head><body><article>"
        f"<h2>Bundes&shy;regierung</h2>{story}<p>inter&shy;national &shy; talks</p><p>&shy;</p>{story}"
        "</article></body></html>"
    )
    result = extract(html, with_markdown=True)
    for output in (result.text, result.html, result.markdown, result.title):
        assert "\xad" not in output and "&shy;" not in output
    assert "Bundesregierung" in result.text.splitlines()
    assert "international talks" in result.text.splitlines()
    assert "international talks" in result.markdown and "international talks" in result.html
    assert result.title == "Bundesregierung plant"


@pytest.mark.parametrize("algorithm", ["cetd-plus", "cectd-ds"])
def test_a_rubys_annotations_are_not_read_into_its_line(algorithm: str) -> None:
    """``<rt>`` is set above the base text and ``<rp>`` never shown: "漢字", not "漢(かん)字じ"."""
    story = "<p>" + "Words of the story that the page shows to its readers. " * 4 + "</p>"
    ruby = "<p>Kanji <ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp>字<rt>じ</rt></ruby> reading</p>"
    result = extract(f"<html><body><article>{story}{ruby}{story}</article></body></html>", algorithm=algorithm)
    assert "Kanji 漢字 reading" in result.text.splitlines()
    assert "かん" not in result.html and "(" not in result.text


def test_the_invisible_line_test_agrees_with_the_expression() -> None:
    """_has_invisible_line settles most texts before the expression: the same answer."""
    long_line = "Words of the story. " * 60
    texts = [
        long_line,
        f"{long_line}\n \n{long_line}",
        f" \n{long_line}",
        f"{long_line}\n  indented code\n{long_line}",
        f"{long_line}\n\u200b\n{long_line}",
        f"{long_line}\nna\u00efve co\u00adoperation\n{long_line}",
        f"{long_line}\n\u00ad \ufeff",
        "\u2060",
        "",
    ]
    for text in texts:
        assert render_module._has_invisible_line(text) is (render_module._INVISIBLE_LINE.search(text) is not None)


def test_the_output_control_characters_are_those_of_the_expression() -> None:
    """A long text is searched for _OUTPUT_CONTROL_CHARS one by one, a short one with the
    expression: both must find the same characters."""
    by_expression = "".join(c for c in map(chr, range(0x110000)) if parsing._OUTPUT_CONTROLS.match(c))
    assert sorted(parsing._OUTPUT_CONTROL_CHARS) == sorted(by_expression)
    long_text = "Words of the story, na\u00efve and \u201cquoted\u201d. " * 40
    assert not parsing._has_output_control(long_text)
    for char in parsing._OUTPUT_CONTROL_CHARS:
        for text in (long_text + char, char + "x", long_text[:500] + char + long_text[:500]):
            assert parsing._has_output_control(text)
            assert parsing.displayed_text(text) == parsing._OUTPUT_CONTROLS.sub(
                parsing._displayed_char, parsing._SPACED_DROPS.sub("", text)
            )


def test_without_a_url_an_absolute_base_href_is_the_base_of_links_and_metadata() -> None:
    """As a browser reads a saved page: its links resolve against an absolute ``<base
    href>`` (the cleaned HTML of 8 dev pages extracted without a URL), in the cleaned HTML,
    the Markdown and the metadata alike."""
    base = '<base href="https://example.com/news/"><link rel="canonical" href="b2">'
    page = ARTICLE.replace('<base href="/news/">', base)
    result = extract(page, algorithm="cectd-ds", with_markdown=True)
    assert 'href="https://example.com/news/w.html"' in result.html
    assert "[world](https://example.com/news/w.html)" in result.markdown
    assert result.metadata is not None and result.metadata.canonical_url == "https://example.com/news/b2"
    relative = extract(ARTICLE, algorithm="cectd-ds", with_markdown=True)
    assert 'href="w.html"' in relative.html and "[world](w.html)" in relative.markdown


@pytest.mark.parametrize("base", ["http://ex ample.com/", "javascript:void(0)", "http://a.com:99999/"])
def test_a_base_href_naming_no_valid_host_is_passed_over(base: str) -> None:
    # as the metadata's canonical URL passes it over: links and canonical agree
    page = ARTICLE.replace('<base href="/news/">', f'<base href="{base}"><link rel="canonical" href="b2">')
    result = extract(page, algorithm="cectd-ds", url="https://example.com/a/b", with_markdown=True)
    assert "[world](https://example.com/a/w.html)" in result.markdown
    assert 'href="https://example.com/a/w.html"' in result.html
    assert result.metadata is not None and result.metadata.canonical_url == "https://example.com/a/b2"
