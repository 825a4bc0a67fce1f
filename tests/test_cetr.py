"""CETR (Weninger, Hsu, Han, WWW 2010): tag ratios, smoothing, derivative, clustering, and the three variants."""

from __future__ import annotations

import math

import pytest

from scrapy_cetd import extract, extract_tree
from scrapy_cetd.algorithms._lines import END, START, TEXT, split_lines, tokens
from scrapy_cetd.algorithms.cetr import (
    absolute_smoothed_derivative,
    cetr_lines,
    gaussian_smooth,
    kmeans_1d,
    kmeans_pinned_origin,
    tag_ratios,
)
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html
from scrapy_cetd.registry import get_algorithm

VARIANTS = ("cetr-tm", "cetr-km", "cetr")

# Four source lines: "<body><p>ab</p>", "<p>abcd</p>", "xy", "<p>abcd</p></body>".
SMALL = "<html><body><p>ab</p>\n<p>abcd</p>\nxy\n<p>abcd</p></body></html>"


def page_of(html: str) -> Page:
    return Page.from_tree(parse_html(html))


def small_smoothed() -> list[float]:
    """By hand: TR = [2/3, 2, 2, 4/3], mean 3/2, variance 11/36 (sigma < 1: radius 1)."""
    k = math.exp(-1 / (2 * 11 / 36))
    return [
        (2 / 3 + 2 * k) / (1 + k),
        (2 / 3 * k + 2 + 2 * k) / (1 + 2 * k),
        (2 * k + 2 + 4 / 3 * k) / (1 + 2 * k),
        (2 * k + 4 / 3) / (1 + k),
    ]


def test_token_stream_matches_the_page_model() -> None:
    page = page_of(
        "<html><body>\n<div id=a class='b c'>x <a href='/'>y</a><br>z<img src=i.png></div>\n<p>w</p></body></html>"
    )
    stream = tokens(page)
    assert {value for kind, value, _, _ in stream if kind != TEXT} == {"body", "div", "a", "br", "img", "p"}
    assert [(value, size) for kind, value, size, _ in stream if kind == START] == [
        ("body", 6), ("div", len('<div id="a" class="b c">')), ("a", len('<a href="/">')), ("br", 4),
        ("img", len('<img src="i.png">')), ("p", 3),
    ]
    assert sum(1 for kind, *_ in stream if kind == END) == 4  # br and img are void
    # Every visible text run of the page appears once, with its key, in document order.
    runs = [(key, value) for kind, value, key, _ in stream if kind == TEXT and value.strip()]
    assert runs == list(zip(page.run_key, page.run_text))
    assert [in_link for kind, value, _, in_link in stream if kind == TEXT and value == "y"] == [True]


def test_tag_ratios_of_a_small_page() -> None:
    lines = cetr_lines(page_of(SMALL))
    assert [(line.tags, line.chars) for line in lines] == [(3, 2), (2, 4), (0, 2), (3, 4)]
    assert tag_ratios(lines) == pytest.approx([2 / 3, 2.0, 2.0, 4 / 3])


def test_gaussian_smoothing_renormalizes_the_kernel_at_the_ends() -> None:
    smoothed = gaussian_smooth(tag_ratios(cetr_lines(page_of(SMALL))))
    assert smoothed == pytest.approx(small_smoothed())


def test_gaussian_smoothing_radius_is_the_rounded_up_deviation() -> None:
    # [0, 0, 0, 6]: mean 1.5, variance 6.75, sigma 2.598 -> radius 3 (the whole array).
    var = 6.75
    k = [math.exp(-j * j / (2 * var)) for j in range(4)]
    expected_first = 6 * k[3] / (k[0] + k[1] + k[2] + k[3])
    expected_last = 6 * k[0] / (k[0] + k[1] + k[2] + k[3])
    expected_second = 6 * k[2] / (k[1] + k[0] + k[1] + k[2])
    smoothed = gaussian_smooth([0.0, 0.0, 0.0, 6.0])
    assert smoothed[0] == pytest.approx(expected_first)
    assert smoothed[1] == pytest.approx(expected_second)
    assert smoothed[3] == pytest.approx(expected_last)
    assert gaussian_smooth([2.0, 2.0, 2.0]) == [2.0, 2.0, 2.0]  # sigma 0: unchanged


def test_absolute_smoothed_derivative() -> None:
    # G = [mean(0,0,3)-0, mean(0,3,3)-0, mean(3,3,3)-0, mean(3,3)-3, mean(3)-3, 0] = [1, 2, 3, 0, 0, 0]
    # mean 1, variance 4/3: radius 2, k_j = exp(-3 j^2 / 8).
    k1, k2 = math.exp(-3 / 8), math.exp(-12 / 8)
    expected = [
        (1 + 2 * k1 + 3 * k2) / (1 + k1 + k2),
        (k1 * 1 + 2 + 3 * k1 + 0 * k2) / (1 + 2 * k1 + k2),
        (k2 * 1 + k1 * 2 + 3 + 0 + 0) / (1 + 2 * k1 + 2 * k2),
        (k2 * 2 + k1 * 3) / (1 + 2 * k1 + 2 * k2),
        (k2 * 3) / (1 + 2 * k1 + k2),
        0.0,
    ]
    assert absolute_smoothed_derivative([0, 0, 0, 3, 3, 3], alpha=3) == pytest.approx(expected)


def test_kmeans_1d_labels_the_cluster_nearest_zero_as_noise() -> None:
    # Start: clusters {0, 10}, {0, 11}, {1, 30} -> centroids 5, 5.5, 15.5; then
    # [1/3, 10, 20.5] and [1/3, 10.5, 30], a fixed point.  Noise: the 1/3 cluster.
    assert kmeans_1d([0, 0, 1, 10, 11, 30]) == [False, False, False, True, True, True]


def test_kmeans_with_the_origin_pinned() -> None:
    # Start: {p0, p3} (pinned at the origin), {p1, p4} -> (6, 5), {p2, p5} -> (5, 6).
    # p3 is equally near both free centroids (41): the lower-numbered one wins.
    points = [(0, 0), (1, 0), (0, 1), (10, 10), (11, 10), (10, 11)]
    assert kmeans_pinned_origin(points) == [False, False, False, True, True, True]


def test_pinned_origin_cluster_only_holds_points_near_the_origin() -> None:
    # Free centroids start at 7.5 and 17.5 and settle at 7 and 30: nothing is nearer
    # the origin, so no line is noise (plain k-means would make {5, 5, 5} a cluster).
    points = [(5, 0), (5, 0), (5, 0), (10, 0), (10, 0), (30, 0)]
    assert kmeans_pinned_origin(points) == [True] * 6


def test_cetr_tm_threshold_is_lambda_times_std() -> None:
    smoothed = small_smoothed()
    mean = sum(smoothed) / 4
    std = math.sqrt(sum((v - mean) ** 2 for v in smoothed) / 4)
    result = extract(SMALL, algorithm="cetr-tm", threshold_coefficient=3.7)
    assert result.threshold == pytest.approx(3.7 * std)
    # TR' = [0.884, 1.813, 1.907, 1.442] against 3.7 * 0.402 = 1.487: lines 2 and 3.
    assert result.text == "abcd\nxy"
    assert "<p>abcd</p>" in result.html
    assert "ab<" not in result.html
    assert extract(SMALL, algorithm="cetr-tm", threshold_coefficient=0).text == "ab\nabcd\nxy\nabcd"


def test_single_line_page_is_rebroken_every_65_characters_outside_tags() -> None:
    # "<body>" (6) + 55 a's reaches column 61; the link's start tag ends at 73, so the
    # break goes after it.  70 b's: cut at 65.  Then the rest.
    html = '<html><body>' + "a" * 55 + '<a href="x">' + "b" * 70 + "</a></body></html>"
    lines = split_lines(tokens(page_of(html)), width=65)
    assert [(line.tags, line.chars) for line in lines] == [(2, 55), (0, 65), (2, 5)]


def test_page_without_line_breaks_is_rebroken() -> None:
    paragraphs = "".join(f"<p>paragraph {i} " + "x" * 30 + "</p>" for i in range(30))
    page = page_of(f"<html><body>{paragraphs}</body></html>")
    assert len(split_lines(tokens(page))) == 1
    lines = cetr_lines(page)
    assert len(lines) > 20
    assert " ".join(line.text for line in lines).replace(" ", "") == page.body.xpath("string()").replace(" ", "")


def test_page_with_line_breaks_is_not_rebroken() -> None:
    html = "<html><body>\n" + "\n".join(f"<p>{'word ' * 30}</p>" for _ in range(5)) + "\n</body></html>"
    assert len(cetr_lines(page_of(html))) == 7


@pytest.mark.parametrize("algorithm", VARIANTS)
def test_tagless_page_is_all_content(algorithm: str) -> None:
    html = "A first line of plain text\nshort\nand a third, longer line of text without tags"
    result = extract(html, algorithm=algorithm)
    assert result.text.split() == html.split()


@pytest.mark.parametrize("algorithm", VARIANTS)
def test_empty_pages(algorithm: str) -> None:
    assert extract("", algorithm=algorithm).reason == "empty"
    assert extract("<html><body><div></div></body></html>", algorithm=algorithm).reason == "no-text"
    spec = get_algorithm(algorithm)
    coefficient, params = spec.resolve(None, {})
    selection = spec.select(page_of("<html><body><div></div></body></html>"), coefficient, **params)
    assert selection.lines == [] and selection.runs == set()


@pytest.mark.parametrize("algorithm", VARIANTS)
def test_extract_and_extract_tree_agree(algorithm: str) -> None:
    html = (
        "<html><body>\n<ul>\n<li><a href='/'>Home</a></li>\n<li><a href='/a'>About</a></li>\n</ul>\n"
        + "\n".join(f"<p>Paragraph {i} of the article, with enough words to matter here.</p>" for i in range(6))
        + "\n<div><a href='/c'>Contact</a></div>\n</body></html>"
    )
    assert extract(html, algorithm=algorithm).text == extract_tree(parse_html(html), algorithm=algorithm).text


def test_cetr_drops_navigation_far_from_the_content() -> None:
    # The smoothing radius is ceil(std(TR)) lines (about 20 here), so navigation lines
    # next to the content are smoothed up with it; those further away are dropped.
    top, bottom = ("\n".join(f'<li><a href="/{i}">{name} {i}</a></li>' for i in range(40)) for name in ("Top", "End"))
    body = "\n".join(
        f"<p>Sentence {i} of the story: the committee met on Tuesday and agreed on a plan for the town.</p>"
        for i in range(8)
    )
    html = f"<html><body>\n<ul>\n{top}\n</ul>\n<div>\n{body}\n</div>\n<ul>\n{bottom}\n</ul>\n</body></html>"
    for algorithm in VARIANTS:
        text = extract(html, algorithm=algorithm).text
        assert "Sentence 0 of the story" in text and "Sentence 7 of the story" in text, algorithm
        lines = text.split("\n")
        assert not any(f"Top {i}" in lines or f"End {39 - i}" in lines for i in range(20)), algorithm
