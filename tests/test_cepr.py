"""CEPR (Wu, Li, Hu, Wu, CIKM 2013): path statistics, TPR/ETPR histograms, weighted smoothing, selection."""

from __future__ import annotations

import math
import random

import pytest
from lxml import etree

from scrapy_cetd import extract
from scrapy_cetd.algorithms.cepr import (
    _levenshtein,
    _levenshtein_diagonal,
    cepr_selection,
    path_edit_distance,
    path_statistics,
    punctuation_count,
    tag_paths,
)
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html
from scrapy_cetd.registry import get_algorithm

# Text nodes, in order: h1 "Title" (5 chars), p "Hello, world. This is text." (27 chars, 3 marks),
# p "More text; here!" (16 chars, 2 marks), a "Home" (4), a "News" (4).
SMALL = (
    "<html><head><title>Site</title></head><body><div><h1>Title</h1>"
    "<p>Hello, world. This is text.</p><p>More text; here!</p>"
    "<ul><li><a>Home</a></li><li><a>News</a></li></ul></div></body></html>"
)
# Path div.p: pathNum 2, txtNum 43, puncNum 5, txtNumStd 5.5, puncNumStd 0.5, so
# TPR 21.5 and ETPR 21.5 * (5 / 2) * 5.5 * 0.5 = 147.8125.
P_ETPR = 147.8125
K1 = math.exp(-0.5)  # Gaussian kernel weight at offset 1, sigma 1 (before normalisation)


def page_of(html: str) -> Page:
    return Page.from_tree(parse_html(html))


def histogram(html: str, algorithm: str, **params: object) -> list[float]:
    diagnostics = extract(html, algorithm=algorithm, diagnostics=True, **params).diagnostics
    assert diagnostics is not None
    return diagnostics["smoothed" if algorithm == "cepr-setpr" else "histogram"]


def population_std(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


# --- punctuation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "marks"),
    [
        ("Hello, world.", 2),
        ("a+b=$5 <x> ^|~", 0),  # math and currency symbols are not punctuation (S*)
        ("«Bonjour» — dit-il…", 5),
        ("你好，世界。这是正文！", 3),
        ("「こんにちは」", 2),
        ("¿Qué?", 2),
        ("مرحبا، كيف حالك؟", 2),
        ("", 0),
    ],
)
def test_punctuation_count_is_unicode_aware(text: str, marks: int) -> None:
    assert punctuation_count(text) == marks


# --- paths and statistics --------------------------------------------------------------


def test_tag_paths_run_from_html_root_to_the_text_owner() -> None:
    page = page_of(SMALL)
    paths = tag_paths(page)
    assert [".".join(paths.tags_of(p)) for p in paths.node_path] == [
        "html.body.div.h1",
        "html.body.div.p",
        "html.body.div.p",
        "html.body.div.ul.li.a",
        "html.body.div.ul.li.a",
    ]
    # both links share one path id although they sit in different li elements
    assert paths.node_path[3] == paths.node_path[4]


def test_tail_text_belongs_to_the_parent_path() -> None:
    page = page_of("<html><body><p>Lead <b>bold</b> tail, here.</p></body></html>")
    paths = tag_paths(page)
    assert [".".join(paths.tags_of(p)) for p in paths.node_path] == [
        "html.body.p",
        "html.body.p.b",
        "html.body.p",
    ]
    stats = path_statistics(page, paths)
    p_path = paths.node_path[0]
    assert stats.path_num[p_path] == 2
    assert stats.txt_num[p_path] == len("Lead") + len("tail, here.")
    assert stats.punc_num[p_path] == 2
    assert stats.txt_std[p_path] == pytest.approx(3.5)  # lengths 4 and 11
    assert stats.punc_std[p_path] == pytest.approx(1.0)  # marks 0 and 2


def test_path_statistics_of_the_small_page() -> None:
    page = page_of(SMALL)
    paths = tag_paths(page)
    stats = path_statistics(page, paths)
    h1, p, a = paths.node_path[0], paths.node_path[1], paths.node_path[3]
    assert (stats.path_num[h1], stats.txt_num[h1], stats.punc_num[h1]) == (1, 5, 0)
    assert (stats.path_num[p], stats.txt_num[p], stats.punc_num[p]) == (2, 43, 5)
    assert (stats.path_num[a], stats.txt_num[a], stats.punc_num[a]) == (2, 8, 0)
    assert stats.txt_std[p] == pytest.approx(5.5)
    assert stats.punc_std[p] == pytest.approx(0.5)
    assert stats.txt_std[h1] == stats.punc_std[h1] == 0.0
    assert stats.txt_std[a] == stats.punc_std[a] == 0.0


# --- histograms and thresholds ---------------------------------------------------------


def test_tpr_histogram_threshold_and_selection() -> None:
    assert histogram(SMALL, "cepr-tpr") == pytest.approx([5.0, 21.5, 21.5, 4.0, 4.0])
    result = extract(SMALL, algorithm="cepr-tpr")
    # mean 11.2; squared deviations 38.44 + 2 * 106.09 + 2 * 51.84 = 354.3
    assert result.threshold == pytest.approx(1.7 * math.sqrt(354.3 / 5))
    assert result.threshold_coefficient == 1.7
    assert result.text == "Hello, world. This is text.\nMore text; here!"
    assert result.title == "Site"  # the heading is not content: fall back to <title>


def test_etpr_histogram_gives_single_node_paths_zero() -> None:
    assert histogram(SMALL, "cepr-etpr") == pytest.approx([0.0, P_ETPR, P_ETPR, 0.0, 0.0])
    result = extract(SMALL, algorithm="cepr-etpr")
    # H = [0, v, v, 0, 0]: mean 2v/5, variance 6v^2/25
    assert result.threshold == pytest.approx(0.7 * P_ETPR * math.sqrt(6) / 5)
    assert result.text == "Hello, world. This is text.\nMore text; here!"


def test_setpr_smoothing_with_edit_distance_weights() -> None:
    # dist(h1, p) = 1, dist(p, p) = 0, dist(p, ul.li.a) = 3, dist(a, a) = 0; beta = 1.
    ends = 1 + K1  # the kernel renormalised over the two offsets that exist
    middle = 1 + 2 * K1
    expected = [
        K1 * math.exp(-1) * P_ETPR / ends,
        (K1 * math.exp(-1) * 0 + P_ETPR + K1 * P_ETPR) / middle,
        (K1 * P_ETPR + P_ETPR + K1 * math.exp(-3) * 0) / middle,
        (K1 * math.exp(-3) * P_ETPR + 0 + K1 * 0) / middle,
        0.0,
    ]
    smoothed = histogram(SMALL, "cepr-setpr")
    assert smoothed == pytest.approx(expected)
    assert smoothed[1] == pytest.approx(107.30173, abs=1e-5)
    result = extract(SMALL, algorithm="cepr-setpr")
    assert result.threshold == pytest.approx(0.8 * population_std(expected))
    assert result.text == "Hello, world. This is text.\nMore text; here!"


def test_setpr_beta_and_radius() -> None:
    beta2 = histogram(SMALL, "cepr-setpr", beta=2)
    assert beta2[0] == pytest.approx(K1 * math.exp(-2) * P_ETPR / (1 + K1))
    assert beta2[3] == pytest.approx(K1 * math.exp(-6) * P_ETPR / (1 + 2 * K1))
    plain = histogram(SMALL, "cepr-setpr", beta=0)  # beta 0: plain Gaussian smoothing
    assert plain[0] == pytest.approx(K1 * P_ETPR / (1 + K1))
    assert histogram(SMALL, "cepr-setpr", r=0) == pytest.approx(histogram(SMALL, "cepr-etpr"))
    # r = 2, sigma = 2: node 0 sees offsets 0, 1, 2 with kernel 1, e^-1/8, e^-1/2
    wide = histogram(SMALL, "cepr-setpr", r=2, sigma=2)
    k1, k2 = math.exp(-1 / 8), math.exp(-1 / 2)
    assert wide[0] == pytest.approx((k1 + k2) * math.exp(-1) * P_ETPR / (1 + k1 + k2))


def test_setpr_recovers_a_subheading_that_etpr_drops() -> None:
    # Section 5.3: a single-node path (here an h2 between paragraphs) has ETPR 0; smoothing
    # with its neighbours (edit distance div.h2 -> div.p: 1) lifts it above the threshold.
    html = (
        "<html><body><div><p>First paragraph, long enough; with marks.</p><h2>Sub heading</h2>"
        "<p>Second paragraph: shorter!</p></div><ul>"
        + "".join(f"<li>Menu {i}</li>" for i in range(12))
        + "</ul></body></html>"
    )
    etpr = histogram(html, "cepr-etpr")
    v = etpr[0]
    assert v > 0
    assert etpr == pytest.approx([v, 0.0, v] + [0.0] * 12)
    # dist(div.p, ul.li) = 2; the first menu item is the only other non-zero value
    expected = [
        v / (1 + K1),
        2 * K1 * math.exp(-1) * v / (1 + 2 * K1),
        v / (1 + 2 * K1),
        K1 * math.exp(-2) * v / (1 + 2 * K1),
    ] + [0.0] * 11
    assert histogram(html, "cepr-setpr") == pytest.approx(expected)
    setpr = extract(html, algorithm="cepr-setpr")
    assert setpr.threshold == pytest.approx(0.8 * population_std(expected))
    assert setpr.text.split("\n") == [
        "First paragraph, long enough; with marks.",
        "Sub heading",
        "Second paragraph: shorter!",
    ]
    assert setpr.title is None  # an h2 is a sub-heading, not the displayed title
    assert extract(html, algorithm="cepr-etpr").text.split("\n") == [
        "First paragraph, long enough; with marks.",
        "Second paragraph: shorter!",
    ]


def test_user_coefficient_replaces_the_default() -> None:
    result = extract(SMALL, algorithm="cepr-tpr", threshold_coefficient=0.0)
    assert result.threshold == 0.0
    assert result.threshold_coefficient == 0.0
    assert result.text.split("\n") == ["Title", "Hello, world. This is text.", "More text; here!", "Home", "News"]
    loose = extract(SMALL, algorithm="cepr-tpr", threshold_coefficient=0.5)
    assert loose.threshold == pytest.approx(0.5 * math.sqrt(354.3 / 5))
    assert loose.text.split("\n") == ["Title", "Hello, world. This is text.", "More text; here!"]
    assert loose.title == "Title"


# --- titles ----------------------------------------------------------------------------


def test_displayed_heading_is_preferred_to_the_title_element() -> None:
    html = (
        "<html><head><title>Site name | Section</title></head><body>"
        "<h1>Breaking: the displayed headline</h1>"
        "<ul><li><a>Home</a></li><li><a>News</a></li><li><a>Misc</a></li></ul></body></html>"
    )
    # TPR: [32, 4, 4, 4]: mean 11, variance (21^2 + 3 * 7^2) / 4 = 147
    result = extract(html, algorithm="cepr-tpr")
    assert result.threshold == pytest.approx(1.7 * math.sqrt(147))
    assert result.text == "Breaking: the displayed headline"
    assert result.title == "Breaking: the displayed headline"


def test_heading_title_uses_the_whole_heading_text() -> None:
    html = (
        "<html><head><title>Site</title></head><body><h1><a>Story</a> of the day</h1>"
        "<p>Body text, long; long, long.</p><p>Short.</p></body></html>"
    )
    page = page_of(html)
    selection = cepr_selection(page, 0.0, "tpr")
    assert selection.title == "Story of the day"


# --- languages and edge pages ----------------------------------------------------------


def test_chinese_page() -> None:
    html = (
        "<html><body><div><p>今天天气很好，我们去公园散步。</p>"
        "<p>公园里有很多人，大家都很开心！真的。</p></div>"
        "<ul><li><a>首页</a></li><li><a>新闻</a></li></ul></body></html>"
    )
    # p: lengths 15 and 18, marks 2 and 3: TPR 16.5, ETPR 16.5 * 2.5 * 1.5 * 0.5
    value = 16.5 * 2.5 * 1.5 * 0.5
    assert histogram(html, "cepr-tpr") == pytest.approx([16.5, 16.5, 2.0, 2.0])
    assert histogram(html, "cepr-etpr") == pytest.approx([value, value, 0.0, 0.0])
    paragraphs = ["今天天气很好，我们去公园散步。", "公园里有很多人，大家都很开心！真的。"]
    for algorithm in ("cepr-tpr", "cepr-etpr", "cepr-setpr"):
        assert extract(html, algorithm=algorithm).text.split("\n") == paragraphs


def test_page_without_text() -> None:
    html = "<html><head><title>Empty</title></head><body><div><img src='a.png'></div></body></html>"
    selection = cepr_selection(page_of(html), 0.7, "etpr", radius=1)
    assert selection.threshold is None
    assert selection.runs == set()
    for algorithm in ("cepr-tpr", "cepr-etpr", "cepr-setpr"):
        result = extract(html, algorithm=algorithm)
        assert result.text == ""
        assert result.reason == "no-text"


def test_single_text_node_is_kept() -> None:
    html = "<html><body><div><p>Only one, node.</p></div></body></html>"
    assert histogram(html, "cepr-tpr") == [15.0]
    assert histogram(html, "cepr-etpr") == [0.0]
    for algorithm in ("cepr-tpr", "cepr-etpr", "cepr-setpr"):
        result = extract(html, algorithm=algorithm)
        assert result.threshold == 0.0  # no spread: tau = 0 keeps the node
        assert result.text == "Only one, node."


def test_page_made_only_of_links() -> None:
    html = (
        "<html><body><ul><li><a>Home</a></li><li><a>About us</a></li></ul>"
        "<p><a>Contact</a></p></body></html>"
    )
    # TPR [6, 6, 7]: mean 19/3, variance 2/9, tau = 1.7 * sqrt(2) / 3 < 6
    tpr = extract(html, algorithm="cepr-tpr")
    assert histogram(html, "cepr-tpr") == pytest.approx([6.0, 6.0, 7.0])
    assert tpr.threshold == pytest.approx(1.7 * math.sqrt(2) / 3)
    assert tpr.text.split("\n") == ["Home", "About us", "Contact"]
    # no punctuation anywhere: ETPR is 0 everywhere, tau = 0
    etpr = extract(html, algorithm="cepr-etpr")
    assert histogram(html, "cepr-etpr") == [0.0, 0.0, 0.0]
    assert etpr.threshold == 0.0
    assert etpr.text == tpr.text


def test_deep_nesting_runs_without_recursion() -> None:
    depth = 100_000
    builder = etree.TreeBuilder()
    builder.start("html", {})
    builder.start("body", {})
    for level in range(depth):
        builder.start("div", {})
        if level % 10_000 == 0:
            builder.data(f"Level {level}, with text.")
    builder.data("The bottom, reached.")
    for _ in range(depth):
        builder.end("div")
    builder.end("body")
    root = builder.end("html")
    page = Page.from_tree(root)
    for ratio, radius in (("tpr", None), ("etpr", None), ("etpr", 1)):
        selection = cepr_selection(page, 0.0, ratio, radius=radius)
        assert len(selection.runs) == 11


# --- edit distance ---------------------------------------------------------------------


def test_path_edit_distance_on_tag_sequences() -> None:
    page = page_of(
        "<html><body><div><p>a</p><section><ul><li>b</li></ul></section></div><span>c</span></body></html>"
    )
    paths = tag_paths(page)
    p, li, span = paths.node_path
    assert path_edit_distance(paths, p, li, cap=100) == 3  # p -> section.ul.li
    assert path_edit_distance(paths, p, span, cap=100) == 2  # div.p -> span
    assert path_edit_distance(paths, li, span, cap=100) == 4
    assert path_edit_distance(paths, li, span, cap=2) == 2
    assert path_edit_distance(paths, p, p, cap=100) == 0


def _full_table_levenshtein(x: list[str], y: list[str]) -> int:
    previous = list(range(len(y) + 1))
    for i, a in enumerate(x, 1):
        current = [i]
        for j, b in enumerate(y, 1):
            current.append(min(previous[j] + 1, current[-1] + 1, previous[j - 1] + (a != b)))
        previous = current
    return previous[-1]


def test_capped_levenshtein_matches_the_full_table() -> None:
    rng = random.Random(2)
    for _ in range(3000):
        x = [rng.choice("abc") for _ in range(rng.randint(0, 8))]
        y = [rng.choice("abc") for _ in range(rng.randint(0, 8))]
        cap = rng.randint(1, 10)
        expected = min(_full_table_levenshtein(x, y), cap)
        assert _levenshtein(x, y, cap) == expected
        if x and y and abs(len(x) - len(y)) < cap:  # the diagonal method's preconditions
            assert _levenshtein_diagonal(x, y, cap) == expected


def test_levenshtein_on_long_paths() -> None:
    x = ["section", *["div"] * 50_000, "p"]
    y = ["article", *["div"] * 50_000, "span"]
    assert _levenshtein(x, y, 746) == 2
    assert _levenshtein(["a"] * 100, ["b"] * 100, 746) == 100
    assert _levenshtein(["a"] * 1000, ["b"] * 1000, 746) == 746


# --- registration and quality ----------------------------------------------------------


def test_registration_defaults_and_parameter_ranges() -> None:
    assert get_algorithm("cepr-tpr").default_coefficient == 1.7
    assert get_algorithm("cepr-etpr").default_coefficient == 0.7
    setpr = get_algorithm("cepr-setpr")
    assert setpr.default_coefficient == 0.8
    assert {name: p.default for name, p in setpr.params.items()} == {"r": 1, "sigma": 1.0, "beta": 1.0}
    for bad in ({"r": -1}, {"r": 1.5}, {"sigma": 0}, {"beta": -0.5}):
        with pytest.raises(ValueError):
            extract(SMALL, algorithm="cepr-setpr", **bad)
    with pytest.raises(ValueError):
        extract(SMALL, algorithm="cepr-etpr", beta=1)
