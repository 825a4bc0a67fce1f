"""CETD (Sun, Song, Liao, SIGIR 2011): threshold, ExtractContent, the variants, and quality on real pages."""

from __future__ import annotations

import random
import re

import pytest

from scrapy_cetd import Page, extract, extract_tree, parse_html
from scrapy_cetd.algorithms.cetd import extract_content, subtree_best
from tests.test_page import SMALL
from tests.wcxb import fixture_pages, word_f1

WORD = re.compile(r"\w+")  # the benchmark's word tokens

BLOG = """<html><head><title>A blog</title></head><body>
<div id="header"><a href="/">Blog</a> <a href="/about">About</a> <a href="/archive">Archive</a></div>
<div id="posts">
 <div class="post"><h2>First post about gardens</h2>
  <p>The garden was planted in early spring, when the soil had warmed enough for seeds.</p>
  <p>Tomatoes, beans and squash grew quickly through the long and sunny summer months.</p></div>
 <div class="sidebar"><a href="/t/1">Tag one</a> <a href="/t/2">Tag two</a> <a href="/t/3">Tag three</a></div>
 <div class="post"><h2>Second post about bread</h2>
  <p>Sourdough needs a lively starter, a slow rise overnight, and a very hot oven to bake.</p>
  <p>The crust crackles as the loaf cools on the rack, which is the best sound in a kitchen.</p></div>
</div>
<div id="footer"><a href="/privacy">Privacy</a> <a href="/terms">Terms</a> <a href="/contact">Contact</a></div>
</body></html>"""


def test_small_page_selects_the_main_block() -> None:
    result = extract(SMALL, algorithm="cectd-ds", diagnostics=True)
    assert result.text == "Hello world, this is text.\nSecond para link here."
    assert result.title == "Small"
    assert result.algorithm == "cectd-ds"
    page = Page.from_tree(parse_html(SMALL))
    ctd = page.composite_text_density
    # M = div#main (largest DensitySum); threshold = min CTD on the path div#main -> body.
    assert result.diagnostics is not None and result.diagnostics["top_block"] == 4
    assert result.threshold == pytest.approx(min(ctd[4], ctd[0]))
    assert '<div id="main"><p>Hello world' in result.html
    assert "Home" not in result.html


def test_several_content_blocks_are_found() -> None:
    result = extract(BLOG, algorithm="cectd-ds")
    for words in ("garden was planted", "Tomatoes, beans", "Sourdough needs", "crust crackles"):
        assert words in result.text
    for noise in ("Tag one", "Privacy", "Archive"):
        assert noise not in result.text
    # The structure around both posts survives in the cleaned HTML.
    assert result.html.count('<div class="post">') == 2
    assert '<div id="posts">' in result.html


def test_a_page_without_links_keeps_all_its_text() -> None:
    page = """<html><body><article><h1>Plain article</h1>
    <p>One paragraph of plain text without any links in it at all.</p>
    <p>Another paragraph, also without links, and rather long as well.</p></article></body></html>"""
    for algorithm in ("cetd-ds", "cectd-ds"):
        result = extract(page, algorithm=algorithm)
        assert result.text.split("\n") == [
            "Plain article",
            "One paragraph of plain text without any links in it at all.",
            "Another paragraph, also without links, and rather long as well.",
        ]


def test_coefficient_zero_keeps_every_node_and_recall_falls_as_it_grows() -> None:
    for fixture in list(fixture_pages())[:12]:
        everything = extract(fixture.html, algorithm="cectd-ds", threshold_coefficient=0.0)
        page = Page.from_tree(parse_html(fixture.html))
        body = "".join(("" if page.glued(k) else " ") + text for k, text in enumerate(page.run_text))
        page_words = WORD.findall(body)  # a word written across inline tags is one word
        assert everything.threshold == 0.0
        previous_words = None
        for coefficient in (0.0, 0.5, 1.0, 1.5, 2.0):
            text = extract(fixture.html, algorithm="cectd-ds", threshold_coefficient=coefficient).text
            words = len(WORD.findall(text))
            if previous_words is not None:
                assert words <= previous_words, (fixture.page_id, coefficient)
            previous_words = words
        assert WORD.findall(everything.text) == page_words  # recall 100%: every word of the body


def test_coefficient_zero_returns_the_whole_body_text() -> None:
    result = extract(BLOG, algorithm="cectd-ds", threshold_coefficient=0)
    for words in ("Blog", "Tag one", "Sourdough", "Privacy", "Contact"):
        assert words in result.text


def test_variants_run_on_one_parse() -> None:
    page = Page.from_tree(parse_html(BLOG))
    texts = {name: extract_tree(page, algorithm=name).text for name in ("cetd-ds", "cectd-ds", "cectd-s")}
    for text in texts.values():
        assert "Sourdough needs" in text


def test_cectd_s_smooths_over_siblings() -> None:
    # Body density is the threshold; the links-only sibling is pulled down with its neighbours.
    result = extract(BLOG, algorithm="cectd-s")
    assert "garden was planted" in result.text
    assert "Privacy" not in result.text


def test_word_f1_metric() -> None:
    assert word_f1("a b c", "a b c") == 1.0
    assert word_f1("", "") == 1.0
    assert word_f1("a a b", "a b b") == pytest.approx(2 / 3)
    assert word_f1("x", "y") == 0.0


def _random_page(rng: random.Random, elements: int) -> Page:
    """A page of ``elements`` nested ``<div>`` (each opened inside one of the innermost three open)."""
    html = ["<html><body>"]
    open_count = 0
    for _ in range(elements):
        close = rng.randint(0, min(open_count, 2))
        html.append("</div>" * close + "<div>x")
        open_count += 1 - close
    html.append("</div>" * open_count + "</body></html>")
    return Page.from_tree(parse_html("".join(html)))


@pytest.mark.parametrize("seed", range(20))
def test_subtree_best_and_extract_content_by_their_definitions(seed: int) -> None:
    """Checked against definitions that need no walk (values from three levels, so many
    ties): an element's best is the largest value in its subtree, of ties the first in a
    preorder visiting children last to first (the element itself, else the latest child's
    subtree), where element ``x`` comes at ``depth(x) + n - end(x)``; ExtractContent visits
    an element iff it and all its ancestors pass, and marks the visited elements' bests in
    order of discovery, body marking the top block."""
    rng = random.Random(seed)
    page = _random_page(rng, rng.randint(2, 300))
    n, end = len(page), page.end
    depth = [len(page.path_to_body(i)) - 1 for i in range(n)]
    values = [float(rng.randint(0, 2)) for _ in range(n)]
    best = subtree_best(page, values)
    for i in range(n):
        expected = min(range(i, end[i]), key=lambda x: (-values[x], depth[x] + n - end[x]))
        assert best[i] == expected
    passes = [True] + [rng.random() < 0.7 for _ in range(n - 1)]
    top = rng.randrange(1, n)
    visited = [i for i in range(1, n) if all(passes[x] for x in page.path_to_body(i))]
    expected_marks = list(dict.fromkeys([top] + [best[i] for i in visited]))
    assert extract_content(page, passes, best, top) == expected_marks
