"""WLR and its ratio variants (Insa, Silva, Tamarit; docs/algorithms.md, WLR)."""

from __future__ import annotations

import math

import pytest

from scrapy_cetd import extract
from scrapy_cetd.algorithms.wlr import (
    SCALE_LITERAL,
    SCALE_MAX,
    SCALE_THRESHOLD,
    best_node,
    content_tree,
    relevance,
    word_count,
)
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html

VARIANTS = ("wlr", "clr", "wnr", "cnr")


def tree_of(html: str):
    page = Page.from_tree(parse_html(html))
    return page, content_tree(page)


def test_word_count_is_runs_of_word_characters():
    assert word_count("Gisela Molina, author") == 3
    assert word_count(" | » · ") == 0
    assert word_count("it's 2024-10") == 4


def test_formatted_sentence_is_one_leaf():
    # Figure 5: #text, b, #text are consecutive joinable one-leaf children of p.
    page, tree = tree_of("<p>Some <b>bold</b> text</p>")
    assert [page.tags[e] if e >= 0 else "#text" for e in tree.element] == ["body", "p", "#text", "b", "#text", "#text"]
    assert tree.words == [3, 3, 1, 1, 1, 1]
    assert tree.leaves == [1, 1, 1, 1, 1, 1]
    assert tree.nodes == [6, 5, 1, 2, 1, 1]


def test_example_4_3_is_one_leaf_with_fourteen_words():
    html = (
        '<div><em>Gisela Molina</em>, author of the book <strong>Ethical Life</strong>, will be '
        'interviewed tomorrow in <a href="http://www.bbc.com">BBC</a>.</div>'
    )
    page, tree = tree_of(html)
    div = tree.element.index(1)
    # 2 + 4 + 2 + 5 + 1 words; the final "." has no word and is not a content node.
    assert tree.words[div] == 14
    assert tree.leaves[div] == 1
    # body, div, em, #text, #text, strong, #text, #text, a, #text
    assert len(tree) == 10


def test_a_non_joinable_child_splits_the_runs_of_joined_leaves():
    # p | h2 | p p: one leaf for the first run, h2's own leaf, one for the last run.
    page, tree = tree_of("<div><p>a b</p><h2>c</h2><p>d</p><p>e f g</p></div>")
    div = tree.element.index(1)
    assert (tree.words[div], tree.leaves[div]) == (7, 3)


def test_positioned_div_is_not_static_and_not_joined():
    _, static = tree_of("<div><div>x y</div><p>z</p></div>")
    _, moved = tree_of('<div><div style="position: absolute">x y</div><p>z</p></div>')
    assert static.leaves[static.element.index(1)] == 1
    assert moved.leaves[moved.element.index(1)] == 2
    # sp is false only for a div: a positioned span is still joined.
    _, span = tree_of('<div><span style="position:fixed">x y</span><p>z</p></div>')
    assert span.leaves[span.element.index(1)] == 1


def test_removed_subtrees_and_word_less_leaves_are_not_content_nodes():
    html = (
        "<div>one two<select><option>a b c</option></select><noscript>x y</noscript>"
        '<span style="visibility: collapse">q</span><title>t</title></div>'
        "<div><span><img src=a.png></span> | </div><p>word</p>"
    )
    page, tree = tree_of(html)
    names = [page.tags[e] if e >= 0 else "#text" for e in tree.element]
    # The second div holds no word once its empty span (and then itself) is removed.
    assert names == ["body", "div", "#text", "p", "#text"]
    assert tree.words[0] == 3
    assert tree.parent == [-1, 0, 1, 0, 3]


def test_ids_are_preorder_over_elements_and_text_nodes():
    page, tree = tree_of("<div>a<b>b</b>c</div>d")
    assert tree.element == [0, 1, -1, 2, -1, -1, -1]
    # Text keys: div's text (2*1), b's text (2*2), b's tail (2*2+1), div's tail (2*1+1).
    assert tree.run_key == [-1, -1, 2, -1, 4, 5, 3]
    assert tree.parent == [-1, 0, 1, 1, 3, 1, 0]


SMALL_PAGE = "<div><a>Home</a><a>About</a></div><ul><li>w1 w2 w3 w4</li><li>w5 w6</li></ul>"


def test_relevance_by_hand():
    # ids: 0 body, 1 div, 2 a, 3 "Home", 4 a, 5 "About", 6 ul, 7 li, 8 "w1..w4", 9 li, 10 "w5 w6"
    # words:  8 2 1 1 1 1 6 4 4 2 2
    # leaves: 3 1 1 1 1 1 2 1 1 1 1   (div: two joined links; ul: two li; body: div's run + ul's 2)
    _, tree = tree_of(SMALL_PAGE)
    assert tree.words == [8, 2, 1, 1, 1, 1, 6, 4, 4, 2, 2]
    assert tree.leaves == [3, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1]
    ratio = [w / n for w, n in zip(tree.words, tree.leaves, strict=True)]
    rel, x, initial = relevance(ratio, tree.parent, 1.0, SCALE_THRESHOLD)
    # x = sqrt(max * WLR(root)) = sqrt(4 * 8/3); I = {7, 8} (WLR 4): r_pos 1 and 0,
    # r_WLR (4 - 1) / (4 - 1) = 1, so W(7) = 1 and W(8) = 0.
    assert x == pytest.approx(math.sqrt(32 / 3))
    assert initial == 2
    r7 = 4 / x * 1
    r6 = 3 / x * r7
    r0 = (8 / 3) / x * r6
    assert rel[8] == 0
    assert rel[7] == pytest.approx(r7)
    assert rel[6] == pytest.approx(r6)
    assert rel[0] == pytest.approx(r0)
    assert rel[1] == rel[9] == 0
    assert best_node(rel) == 7


def test_relevance_against_the_maximum_ratio():
    _, tree = tree_of(SMALL_PAGE)
    ratio = [w / n for w, n in zip(tree.words, tree.leaves, strict=True)]
    rel, _, _ = relevance(ratio, tree.parent, 1.0, SCALE_MAX)
    # factor WLR / 4: R(7) = 1 * 1, R(6) = 3/4 * 1, R(0) = (8/3)/4 * 3/4.
    assert rel[7] == pytest.approx(1.0)
    assert rel[6] == pytest.approx(0.75)
    assert rel[0] == pytest.approx(0.5)
    assert best_node(rel) == 7


def test_literal_relevance_climbs_to_the_root():
    # R(n) = WLR(n) * max(...) with WLR >= 1 never decreases going up.
    _, tree = tree_of(SMALL_PAGE)
    ratio = [w / n for w, n in zip(tree.words, tree.leaves, strict=True)]
    rel, _, _ = relevance(ratio, tree.parent, 1.0, SCALE_LITERAL)
    assert rel[7] == pytest.approx(4.0)
    assert rel[6] == pytest.approx(12.0)
    assert rel[0] == pytest.approx(32.0)
    assert best_node(rel) == 0


def test_extract_selects_the_best_subtree_with_diagnostics():
    result = extract(SMALL_PAGE, algorithm="wlr", diagnostics=True)
    assert result.text == "w1 w2 w3 w4"
    assert result.threshold == pytest.approx(math.sqrt(32 / 3))
    assert result.diagnostics["best_node"] == "li[5]"
    assert result.diagnostics["relevance"] == pytest.approx(4 / math.sqrt(32 / 3))
    assert extract(SMALL_PAGE, algorithm="wlr", relevance_scale=1).text.split() == [
        "Home", "About", "w1", "w2", "w3", "w4", "w5", "w6"
    ]


def test_words_nodes_ratio_counts_every_node():
    _, tree = tree_of(SMALL_PAGE)
    assert tree.nodes == [11, 5, 2, 1, 2, 1, 5, 2, 1, 2, 1]
    assert tree.chars[0] == len("Home") + len("About") + len("w1 w2 w3 w4") + len("w5 w6")


def test_ties_go_to_the_lower_id():
    assert best_node([0.5, 2.0, 2.0, 1.0]) == 1
    # A coefficient past sqrt(max / root) leaves I empty: every R is 0, the root wins.
    result = extract(SMALL_PAGE, algorithm="wlr", threshold_coefficient=5, diagnostics=True)
    assert result.diagnostics["initial_nodes"] == 0
    assert result.diagnostics["best_node"] == "body[0]"
    assert result.text.split()[0] == "Home"


def test_threshold_coefficient_scales_the_selection():
    # k = 0: no threshold, the root; k = 1: the paper (li[5]).
    assert extract(SMALL_PAGE, algorithm="wlr", threshold_coefficient=0, diagnostics=True).diagnostics[
        "best_node"
    ] == "body[0]"
    assert extract(SMALL_PAGE, algorithm="wlr", threshold_coefficient=1).text == "w1 w2 w3 w4"


def test_article_block_beats_menu_and_footer():
    words = " ".join
    html = (
        "<div id=nav><ul><li><a href=/>Home</a></li><li><a href=/w>World news</a></li>"
        "<li><a href=/s>Sports</a></li></ul></div>"
        "<div id=main><h1>Markets rally after the announcement</h1>"
        f"<p>{words(f'alpha{i}' for i in range(40))}</p><p>{words(f'beta{i}' for i in range(30))}</p>"
        f"<h2>What comes next</h2><p>{words(f'gamma{i}' for i in range(35))}</p></div>"
        "<div id=footer><p>Copyright 2024 Example Inc, all rights reserved.</p>"
        "<p><a href=/p>Privacy</a> | <a href=/t>Terms</a></p></div>"
    )
    for algorithm in ("wlr", "clr", "wnr"):
        result = extract(html, algorithm=algorithm, diagnostics=True)
        assert result.diagnostics["best_node"] == "div#main[9]", algorithm
        assert result.text.startswith("Markets rally") and result.text.endswith("gamma34")


@pytest.mark.parametrize("algorithm", VARIANTS)
def test_degenerate_pages(algorithm):
    assert extract("just some words here", algorithm=algorithm).text == "just some words here"
    assert extract("", algorithm=algorithm).reason == "empty"
    links = extract('<a href="/">Home</a> <a href="/a">About us</a>', algorithm=algorithm)
    assert set(links.text.split()) <= {"Home", "About", "us"} and links.text
    no_words = extract("<p>| » |</p><div>  </div>", algorithm=algorithm)
    assert (no_words.text, no_words.reason) == ("", "nothing-selected")


def test_deep_nesting_needs_no_recursion():
    html = "<div>" * 30000 + "deep words here" + "</div>" * 30000
    assert extract(html, algorithm="wlr").text == "deep words here"


def test_text_node_can_be_the_best_node():
    # ids 0 body, 1 p, 2 "one two", 3 b, 4 "x"; words/nodes: 3/5, 3/4, 2/1, 1/2, 1/1.
    # x = sqrt(2 * 0.6); I = {2}, W(2) = 1: R(2) = 2/x = 1.83 > R(p) = 0.75/x * R(2) = 1.25.
    result = extract("<p>one two <b>x</b></p>", algorithm="wnr", diagnostics=True)
    assert result.diagnostics["best_node"] == "#text(2) in p[1]"
    assert result.diagnostics["relevance"] == pytest.approx(2 / math.sqrt(1.2))
    assert result.text == "one two"


def test_relevance_of_a_page_nested_thousands_deep_stays_finite() -> None:
    # R is a product up the tree: 8,000 nested comments pass the largest float, every R was
    # infinite and the JSON diagnostics held "Infinity".  Now every R is divided by the
    # largest (the ranking, all Definition 4.7 reads, is kept).
    import json

    html = "<html><body><article><p>" + "Main text. " * 50 + "</p></article>"
    html += "<div class='comments'><div class='comment'><p>c " * 8000 + "</body></html>"
    for algorithm in ("wlr", "clr"):
        result = extract(html, algorithm=algorithm, diagnostics=True)
        json.dumps(result.to_dict(), allow_nan=False)
        assert result.diagnostics["relevance"] == 1.0
