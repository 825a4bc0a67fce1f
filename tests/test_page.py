"""The page model: cleaning and CETD's per-node statistics, worked out by hand."""

from __future__ import annotations

import math
import random
import threading
import time

import numpy as np
import pytest

from scrapy_cetd import Page, parse_html
from scrapy_cetd import page as page_module
from scrapy_cetd.page import attribute_items, element_text

# body0, div#nav1, a2, a3, div#main4, p5, p6, a7
SMALL = """<html><head><title>Small</title></head><body>
<div id="nav"><a href="/">Home</a><a href="/n">News</a></div>
<div id="main"><p>Hello world, this is text.</p><p>Second para <a href="#">link</a> here.</p></div>
</body></html>"""


def small_page() -> Page:
    return Page.from_tree(parse_html(SMALL))


def test_elements_in_preorder_with_parents() -> None:
    page = small_page()
    assert page.tags == ["body", "div", "a", "a", "div", "p", "p", "a"]
    assert page.parent == [-1, 0, 1, 1, 0, 4, 4, 6]
    assert page.end == [8, 4, 3, 4, 8, 6, 8, 8]
    assert page.children_of(4) == [5, 6]
    assert page.children_of(0) == [1, 4]
    assert page.children_of(7) == []
    assert page.positions("a") == [2, 3, 7]
    assert page.positions("p", "div") == [1, 4, 5, 6]
    assert page.positions("a", within=4) == [7]
    assert page.positions("div", "a", within=1) == [1, 2, 3]
    assert page.positions("p", within=7) == []


def test_positions_agree_with_the_tree() -> None:
    """``positions`` reads the tag list; the tree's own ``iter`` gives the same elements."""
    page = Page.from_tree(parse_html(
        "<body><div><p>a<b>b</b></p><ul><li>c<p>d</p></li><li><a>e</a></li></ul></div><p>f</p></body>"
    ))
    for tags in (("p",), ("li", "a"), ("b", "p", "ul"), ("table",)):
        for within in range(len(page)):
            expected = [page.index[el] for el in page.elements[within].iter(*tags)]
            assert page.positions(*tags, within=within) == expected


def test_json_ld_blocks_are_read_before_the_cleaning_removes_scripts() -> None:
    markup = (
        '<html><head><script type="application/ld+json">{"a": 1}</script>'
        '<script type="Application/LD+JSON">{"b": 2}</script><script>var c = 3;</script></head>'
        '<body><script type="application/ld+json"></script><p>x</p></body></html>'
    )
    page = Page.from_tree(parse_html(markup))
    assert page.json_ld == ['{"a": 1}', '{"b": 2}']
    assert not list(page.root.iter("script"))


def test_text_runs_in_document_order() -> None:
    page = small_page()
    assert [str(t) for t in page.run_text] == [
        "Home", "News", "Hello world, this is text.", "Second para ", "link", " here.",
    ]
    assert page.run_owner == [2, 3, 5, 6, 7, 6]
    assert page.run_key == [4, 6, 10, 12, 14, 15]  # 2*i for .text, 2*i+1 for .tail
    assert page.run_chars == [4, 4, 26, 11, 4, 5]


def test_cetd_counts() -> None:
    page = small_page()
    assert page.chars == [54, 8, 4, 4, 46, 26, 20, 4]
    assert page.tag_count == [7, 2, 0, 0, 3, 0, 1, 0]
    assert page.link_chars == [12, 8, 4, 4, 4, 0, 4, 4]
    # body: div#nav is all links (LT = T = 2, LC = C) so it counts once more: 3 + 1.
    assert page.link_tags == [4, 2, 0, 0, 1, 0, 1, 0]


def _counts_by_definition(parent: list[int], is_link: list[bool], own: list[int]) -> list[tuple[int, int, int, int]]:
    """C, T, LC, LT of every element straight from the definition (children first)."""
    n = len(parent)
    children: list[list[int]] = [[] for _ in range(n)]
    for i in range(1, n):
        children[parent[i]].append(i)
    out: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * n
    for i in reversed(range(n)):
        c = own[i] + sum(out[k][0] for k in children[i])
        t = sum(out[k][1] + 1 for k in children[i])
        lc = c if is_link[i] else sum(out[k][2] for k in children[i])
        lt = sum(out[k][3] + page_module.counts_as_link_tag(is_link[k], *out[k]) for k in children[i])
        out[i] = (c, t, lc, lt)
    return out


def test_cetd_counts_follow_the_definition_with_nested_links() -> None:
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 30)
        parent = [-1] + [rng.randrange(i) for i in range(1, n)]
        is_link = [rng.random() < 0.3 for _ in range(n)]
        own = [rng.choice((0, 0, 3, 10)) for _ in range(n)]
        counts = page_module.cetd_counts(parent, is_link, range(n), own)
        assert list(zip(*counts)) == _counts_by_definition(parent, is_link, own)


def test_counts_become_arrays_exactly() -> None:
    values = [0, 1, 255, 256, 2**40, 7]
    assert page_module._int_array(values).tolist() == values
    assert page_module._int_array(values, "n").dtype == np.intp
    assert page_module._int_array([]).size == 0
    page = small_page()
    counts = (page.chars, page.tag_count, page.link_chars, page.link_tags)
    as_arrays = page_module.composite_densities(*(np.array(c) for c in counts))
    assert page_module.composite_densities(*counts).tobytes() == as_arrays.tobytes()


def test_text_density() -> None:
    page = small_page()
    assert page.text_density == pytest.approx([54 / 7, 4.0, 4.0, 4.0, 46 / 3, 26.0, 20.0, 4.0])


def test_composite_text_density() -> None:
    page = small_page()
    ratio = 12 / 54
    lnln = lambda x: math.log(math.log(x))  # noqa: E731
    expected = [
        (54 / 7) * math.log((54 / 12) * (7 / 4)) / lnln(54 * 12 / 42 + ratio * 54 + math.e),
        0.0,  # all links: ln((8/8) * (2/2)) = 0
        0.0,  # a link alone: ln((4/4) * (1/1)) = 0
        0.0,
        (46 / 3) * math.log((46 / 4) * (3 / 1)) / lnln(46 * 4 / 42 + ratio * 46 + math.e),
        26 * math.log(26) / lnln(ratio * 26 + math.e),
        20 * math.log((20 / 4) * 1) / lnln(20 * 4 / 16 + ratio * 20 + math.e),
        0.0,
    ]
    assert page.composite_text_density == pytest.approx(expected)
    assert page.link_ratio == pytest.approx(ratio)


def test_density_sum_counts_own_text_as_pseudo_children() -> None:
    page = small_page()
    ctd = page.composite_text_density
    ratio = 12 / 54
    run = lambda n: n * math.log(n) / math.log(math.log(ratio * n + math.e))  # noqa: E731
    sums = page.density_sum(ctd, composite=True)
    assert sums[0] == pytest.approx(ctd[1] + ctd[4])
    assert sums[4] == pytest.approx(ctd[5] + ctd[6])
    assert sums[6] == pytest.approx(ctd[7] + run(11) + run(5))
    assert sums[5] == pytest.approx(ctd[5])  # a leaf: its own density
    td_sums = page.density_sum(page.text_density, composite=False)
    assert td_sums[6] == pytest.approx(4.0 + 11 + 5)  # TD of a text run of L chars is L


def test_cleaning_removes_invisible_nodes_and_keeps_tails() -> None:
    page = Page.from_tree(parse_html(
        "<html><body><p>a<script>var x;</script>b<!-- c -->d<span hidden>e</span>f"
        "<b style='display: none'>g</b>h<i style='visibility:hidden'>i</i>j"
        "<template>k</template>l<style>p{}</style>m<noscript>n</noscript></p></body></html>"
    ))
    assert "".join(page.run_text) == "abdfhjlmn"
    assert page.tags == ["body", "p", "noscript"]


@pytest.mark.parametrize(
    "style",
    [
        "display: none", "DISPLAY : NONE", "color: red; Display:None", "visibility:\thidden",
        "VISIBILITY: HIDDEN", "vi\u017fibility: hidden", "visibility: h\u0131dden", "display:\nnone",
        "color: red", "border: none", "overflow: hidden", "display: block", "visibility: visible", "",
        "display: n\u00f6ne", "DISPLAY:\u00a0NONE",
    ],
)
def test_the_hidden_style_test_agrees_with_the_expression(style: str) -> None:
    # _hides tries the expression only on values holding "none" or "dden": the same answers.
    assert page_module._hides(style) == (page_module._HIDDEN_STYLE.search(style) is not None)


def test_text_split_by_a_removed_element_is_one_run() -> None:
    # Removing the script leaves two text nodes side by side; lxml's .text joins them.
    page = Page.from_tree(parse_html("<body><p>one <script>x</script>two<b>three</b>\n<style>s</style>four</p></body>"))
    assert page.run_collapsed == ["one two", "three", "four"]
    assert page.run_key == [2, 4, 5]
    assert page.run_chars == [7, 5, 4]


@pytest.mark.parametrize(
    "text",
    ["one two", " one two ", "one  two", "one\ttwo", "one\ntwo", "one\u00a0two", "one\u3000two", "one\u2003two",
     "one\u200btwo", "\u00a0", "one\u2028two", "one\x1ftwo"],
)
def test_a_run_is_collapsed_as_normalize_space_collapses_it(text: str) -> None:
    # A stripped run of single spaces only is taken as it is; any other whitespace is split.
    page = Page.from_tree(parse_html(f"<body><p>x</p><p>{text}</p></body>"))
    assert page.run_collapsed == ["x", page_module.normalize_space(text)] or not page_module.normalize_space(text)


def test_runs_read_by_the_deep_tree_walk_match_the_xpath_reading() -> None:
    html = "<body>" + SMALL + "<div>a<p>b<br>c<i>d</i>\ne</p>\n<ul><li>f</li><li> </li></ul>g</div>x</body>"
    page = Page.from_tree(parse_html(html))
    keys, texts = page_module._text_runs_by_walk(page.elements, page.parent)
    assert keys == page.run_key
    assert [" ".join(t.split()) for t in texts] == page.run_collapsed


def test_depth_check_agrees_with_a_walk_over_the_parents() -> None:
    def max_depth(parent: list[int]) -> int:
        depth = [0] * len(parent)
        for i, p in enumerate(parent[1:], 1):
            depth[i] = depth[p] + 1
        return max(depth)

    rng = random.Random(5)
    trees = [[-1] + [rng.randrange(i) for i in range(1, 300)], [-1] + list(range(999)), [-1], [-1, 0, 1, 1]]
    trees += [[-1] + [max(0, i - rng.choice((1, 1, 2))) for i in range(1, 200)] for _ in range(20)]
    for parent in trees:
        for limit in (1, 2, 8, 64, 512):
            assert page_module._deeper_than(parent, limit) == (max_depth(parent) > limit)


def test_hidden_wrapper_holding_most_of_the_text_is_kept_as_deferred_content() -> None:
    story = "<p>" + "A paragraph of the story that a script reveals once the page loads. " * 10 + "</p>"
    streamed = Page.from_tree(parse_html(f"<body><nav>Home News</nav><div hidden>{story * 3}</div></body>"))
    assert "script reveals" in "".join(streamed.run_text)  # most of the text: kept
    menu = Page.from_tree(parse_html(f"<body>{story * 3}<div hidden><a>More links</a></div></body>"))
    assert "More links" not in "".join(menu.run_text)  # a small hidden part: removed
    anti_flicker = Page.from_tree(parse_html(f"<body style='visibility:hidden'>{story * 2}</body>"))
    assert anti_flicker.chars[0] > 0
    short = Page.from_tree(parse_html("<body><div hidden><p>Too short to be a deferred page.</p></div></body>"))
    assert short.chars[0] == 0  # under DEFERRED_MIN_CHARS: hidden as usual


def test_no_recursion_on_a_deep_tree() -> None:
    depth = 100_000
    html = "<html><body><p>top</p>" + "<div>" * depth + "deep text" + "</div>" * depth + "<p>end</p></body></html>"
    page = Page.from_tree(parse_html(html))
    assert len(page) > depth
    assert [str(t) for t in page.run_text] == ["top", "deep text", "end"]
    assert page.chars[0] == 3 + 9 + 3


def test_reused_parser_keeps_no_state_between_pages() -> None:
    """Each thread reuses its parsers: a page's errors (a lone surrogate, nesting beyond
    libxml2's depth limit) must not change how the next page is parsed."""
    deep = "<div>" * 3000 + "deep text" + "</div>" * 3000
    pages = [
        ("<p>before\ud800after</p>", "before\ufffdafter"),
        ("<p>plain</p>", "plain"),
        (deep, "deep text"),
        ("<p>plain again</p>", "plain again"),
        (deep.encode(), "deep text"),
        (b"<p>bytes</p>", "bytes"),
    ]
    for markup, text in pages * 2:
        root = parse_html(markup)
        assert normalize("".join(root.itertext())) == text
        # libxml2 parsed it (the deep-page fallback builds no <body>): no error carried over.
        assert (root.find("body") is not None) == (text != "deep text")


def test_parsers_are_per_thread() -> None:
    results: dict[int, list[str]] = {}

    def parse_many(k: int) -> None:
        results[k] = ["".join(parse_html(f"<p>page {k}-{j}</p>").itertext()) for j in range(200)]

    threads = [threading.Thread(target=parse_many, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {k: [f"page {k}-{j}" for j in range(200)] for k in range(4)}


def normalize(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("tag", ["h1", "pre"])
def test_an_elements_text_takes_linear_time_in_its_depth(tag: str) -> None:
    """lxml's itertext() costs each element time in its depth (quadratic on a nest: the
    metadata's heading texts took 70 s of a 200,000-level page of <h1>s); the string
    value is read in one pass, as for the <pre> written whole by the text and Markdown."""
    depth = 150_000
    root = parse_html("<html><body>" + f"<{tag}>w " * depth + "</body></html>")
    top = root.find(f"body/{tag}")
    started = time.process_time()
    text = element_text(top)
    assert time.process_time() - started < 1.0  # 3-4 s before (2 cores shared)
    assert text == " ".join(["w"] * depth)
    assert page_module.raw_text(top) == "w " * depth


@pytest.mark.parametrize("count", [3, 33, 100])
def test_attribute_items_are_lxml_items(count: int) -> None:
    """Past 32 attributes the values are read by XPath (lxml's ``items()`` is quadratic in
    their number): the same names and values, in the same order."""
    attributes = " ".join(f'data-a{i}="v{i} &amp; &#233;"' for i in range(count))
    root = parse_html(f'<html><body><div class="c" {attributes} id="x">Text</div></body></html>')
    div = root.find(".//div")
    assert attribute_items(div) == div.items()
    assert len(div.items()) == count + 2
