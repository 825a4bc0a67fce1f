"""Line-Block (seed 003): re-broken lines, line-blocks, TTR / ATTR / TKD, classification."""

from __future__ import annotations

import sys

import pytest

from scrapy_cetd import extract, extract_tree, get_algorithm
from scrapy_cetd.algorithms.lineblock import line_blocks, lineblock_lines, title_keywords
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html

STORY = "Milk is warmed, cultured and set with rennet; the curd is then cut, drained and pressed into moulds."
PAGE = f"""<html><head><title>Cheese making basics</title></head><body>
<ul>
<li><a href="/">Home</a></li>
<li><a href="/news">News</a></li>
</ul>
<div>
<h1>Cheese making</h1>
<p>{STORY}</p>
</div>
</body></html>"""
KEYWORDS = frozenset({"cheese", "making", "basics"})


def page_of(html: str) -> Page:
    return Page.from_tree(parse_html(html))


def test_title_keywords_drop_stopwords_and_single_characters() -> None:
    assert title_keywords("Cheese making basics") == KEYWORDS
    expected = {"art", "cheese", "guide", "example", "site"}
    assert title_keywords("The Art of Cheese: a Guide | Example's site") == expected
    assert title_keywords(None) == frozenset()


def test_lines_are_rebroken_at_block_tags() -> None:
    lines = lineblock_lines(page_of(PAGE))
    assert [(line.tags, line.text, line.link_chars) for line in lines] == [
        (1, "", 0),  # <body>
        (1, "", 0),  # <ul>
        (4, "Home", 4),  # <li><a>Home</a></li>
        (4, "News", 4),
        (1, "", 0),  # </ul>
        (1, "", 0),  # <div>
        (2, "Cheese making", 0),
        (2, STORY, 0),
        (1, "", 0),  # </div>
        (1, "", 0),  # </body>
    ]


def test_a_link_is_never_cut() -> None:
    html = '<html><body><p>See <a href="/x">the full\nstory of the\nday</a> here\nand there</p></body></html>'
    lines = lineblock_lines(page_of(html))
    assert [line.text for line in lines] == ["", "See the full story of the day here", "and there", ""]
    assert lines[1].link_chars == len("the full story of the day")


def test_blocks_at_block_boundaries() -> None:
    blocks = line_blocks(lineblock_lines(page_of(PAGE)), block_distance=1, keywords=KEYWORDS)
    assert [(b.start, b.stop) for b in blocks] == [(2, 3), (3, 4), (6, 7), (7, 8)]
    nav, _, heading, story = blocks
    assert (nav.text_length, nav.tags, nav.ttr, nav.attr, nav.tkd) == (4, 4, 1.0, 1.0, 0.0)
    # "cheese making": both words are title keywords, 2 of 2 words: 100%.
    assert (heading.ttr, heading.attr, heading.tkd) == (13 / 2, 0.0, 100.0)
    assert (story.text_length, story.tags, story.words, story.keyword_hits) == (len(STORY), 2, 18, 0)
    assert story.ttr == len(STORY) / 2 > 30


def test_blocks_by_distance_only() -> None:
    lines = lineblock_lines(page_of(PAGE))
    blocks = line_blocks(lines, block_distance=1, keywords=KEYWORDS, block_boundaries=False)
    # Lines 2-3 (no gap) and 6-7: the gap 4-5 holds two text-less lines, more than 1.
    assert [(b.start, b.stop) for b in blocks] == [(2, 4), (6, 8)]
    nav, article = blocks
    assert (nav.text_length, nav.tags, nav.anchor_length) == (8, 8, 8)
    assert (article.text_length, article.tags, article.words, article.keyword_hits) == (13 + len(STORY), 4, 20, 2)
    assert article.tkd == pytest.approx(10.0)
    # With a distance of 2 the gap is bridged: one block, the text-less lines' tags included.
    (whole,) = line_blocks(lines, block_distance=2, keywords=KEYWORDS, block_boundaries=False)
    assert (whole.start, whole.stop, whole.tags, whole.anchor_length) == (2, 8, 14, 8)
    assert whole.attr == pytest.approx(8 / (21 + len(STORY)))


def test_classification_and_tkd_rescue() -> None:
    result = extract(PAGE, algorithm="lineblock", diagnostics=True)
    # Navigation: ATTR 1 >= 0.2.  Heading: TTR 6.5 <= 30 but TKD 100% >= 2: rescued.
    assert result.text == f"Cheese making\n{STORY}"
    assert "<h1>Cheese making</h1>" in result.html and "Home" not in result.html
    assert result.diagnostics is not None and result.diagnostics["content_blocks"] == 2
    # Without the rescue the heading goes.
    assert extract(PAGE, algorithm="lineblock", tau_tkd=150).text == STORY


def test_threshold_coefficient_scales_all_three_thresholds() -> None:
    everything = extract(PAGE, algorithm="lineblock", threshold_coefficient=0)
    assert everything.text == f"Home\nNews\nCheese making\n{STORY}"
    strict = extract(PAGE, algorithm="lineblock", threshold_coefficient=2, diagnostics=True)
    assert strict.diagnostics is not None
    assert strict.diagnostics["thresholds"] == {"TTR": 60.0, "ATTR": 0.1, "TKD": 4.0}
    assert strict.threshold == 60.0
    # The story's TTR is 50.5 < 60; the heading is still rescued by its TKD.
    assert len(STORY) / 2 < 60
    assert strict.text == "Cheese making"


def test_single_line_page() -> None:
    html = "<html><body><div><a href='/'>Home</a></div><p>" + STORY + "</p><p>" + STORY + "</p></body></html>"
    lines = lineblock_lines(page_of(html))
    assert [line.text for line in lines] == ["", "Home", STORY, STORY, ""]
    assert extract(html, algorithm="lineblock").text == f"{STORY}\n{STORY}"


def test_tagless_page() -> None:
    text = "Plain text without any markup at all, long enough to pass the text-to-tag threshold."
    # One line: "<body>" + text + "</body>": TTR = len / 2.
    assert extract(text, algorithm="lineblock").text == text


def test_empty_pages() -> None:
    assert extract("", algorithm="lineblock").reason == "empty"
    assert extract("<html><body><p> </p></body></html>", algorithm="lineblock").reason == "no-text"


def test_extract_and_extract_tree_agree() -> None:
    assert extract(PAGE, algorithm="lineblock").text == extract_tree(parse_html(PAGE), algorithm="lineblock").text


def test_parameters_are_validated() -> None:
    with pytest.raises(ValueError, match="block_distance"):
        extract(PAGE, algorithm="lineblock", block_distance=1.5)
    with pytest.raises(ValueError, match="tau_attr"):
        extract(PAGE, algorithm="lineblock", tau_attr=-1)


def _traced_steps(html: str, **params: int) -> int:
    """Python line and call events of lineblock's selection on ``html``: an operation count
    (deterministic, unlike a time) that a quadratic loop in Python would make grow."""
    page = Page.from_tree(parse_html(html))
    algorithm = get_algorithm("lineblock")
    coefficient, resolved = algorithm.resolve(None, params)
    steps = 0

    def count(frame: object, event: str, arg: object) -> object:
        nonlocal steps
        steps += 1
        return count

    sys.settrace(count)
    try:
        algorithm.select(page, coefficient, **resolved)
    finally:
        sys.settrace(None)
    return steps


@pytest.mark.parametrize(
    "shape",
    [
        "<p>A paragraph of words, long enough to be kept as content here today.</p>\n",
        "<p>A short paragraph.</p>",
        "words here<br>",
        "<a href='/x'>link</a> text\n",
    ],
)
@pytest.mark.parametrize("params", [{}, {"block_boundaries": 0}, {"block_distance": 1000}])
def test_selection_is_linear_in_the_paragraphs(shape: str, params: dict[str, int]) -> None:
    # Measured: 3.99x-4.00x the steps for 4x the paragraphs, on every shape and option.
    page = "<html><head><title>Paragraph words</title></head><body><div>{}</div></body></html>"
    small, large = (_traced_steps(page.format(shape * n), **params) for n in (500, 2000))
    assert large < 4.2 * small
