"""The renderer's work is linear in page size and depth: counted, never timed, at n and 4n
on hostile pages (deeply nested, many short lines)."""

from __future__ import annotations

import random
from itertools import islice

import pytest
from lxml import etree

from scrapy_cetd import render as render_module
from scrapy_cetd.extraction import Selection
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html
from scrapy_cetd.render import render


def nested_paragraphs(depth: int) -> str:
    """Each div nested in the previous one, a paragraph of the same words in each."""
    return "<html><body>" + "<div><p>Some words here.</p>" * depth


@pytest.mark.parametrize("depth", [500, 2_000])
def test_leaving_out_repeats_walks_each_element_a_bounded_number_of_times(
    depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One selected subtree per level, every line a repeat: each tainted root re-walked its
    # whole chain of descendants (quadratic: 25 M children_of calls at 5,000 deep).
    page = Page.from_tree(parse_html(nested_paragraphs(depth)))
    selection = Selection(threshold=None, subtrees=set(range(1, len(page))), dedupe_min_chars=100)
    calls = 0
    children_of = Page.children_of

    def counting(self: Page, i: int) -> list[int]:
        nonlocal calls
        calls += 1
        return children_of(self, i)

    monkeypatch.setattr(Page, "children_of", counting)
    text, html, _ = render(page, selection)
    assert text.count("Some words here.") < depth and html.count("Some words here.") == text.count("Some words")
    assert calls <= 2 * len(page)


@pytest.mark.parametrize("depth", [500, 2_000])
def test_selected_subtrees_are_serialized_with_a_bounded_number_of_ancestors(
    depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # lxml's serializer walks up every ancestor of the element it writes (for their
    # namespaces): one selected paragraph per level cost O(depth) each (quadratic).
    markup = "<html><body>" + '<div><p>Some <a href="/w">words</a> here.</p>' * depth
    page = Page.from_tree(parse_html(markup), "http://site.test/a/")
    selection = Selection(threshold=None, subtrees=set(page.positions("p")))
    walked = []
    tostring = etree.tostring

    def counting(element: etree._Element, **kwargs: object) -> str:
        walked.append(sum(1 for _ in islice(element.iterancestors(), render_module.SERIALIZE_MAX_DEPTH + 2)))
        return tostring(element, **kwargs)

    monkeypatch.setattr(etree, "tostring", counting)
    html = render(page, selection)[1]
    assert len(walked) == depth and max(walked) <= render_module.SERIALIZE_MAX_DEPTH + 1  # and <html>
    assert html.count('<p>Some <a href="http://site.test/w">words</a> here.</p>') == depth
    assert page.elements[page.positions("a")[-1]].get("href") == "/w"  # the page's tree as it was
    # The same output as serializing every subtree in place.
    monkeypatch.setattr(render_module, "SERIALIZE_MAX_DEPTH", 10 * depth)
    assert render(page, selection)[1] == html


def stretches_line_by_line(units: list[str], min_chars: int) -> list[bool] | None:
    """The reference: each candidate stretch counted line by line (O(lines x min_chars))."""
    repeated = {unit for unit in units if units.count(unit) > 1}
    earlier: dict[str, list[int]] = {}
    kept = [True] * len(units)
    n = len(units)
    follow = -1
    for i, unit in enumerate(units):
        if unit not in repeated:
            follow = -1
            continue
        if 0 <= follow < i and units[follow] == unit:
            kept[i] = False
            follow += 1
            continue
        follow = -1
        for j in earlier.get(unit, [])[-render_module._CANDIDATES :]:
            length = chars = 0
            while (chars < min_chars or length < render_module.STRETCH_MIN_LINES) and (
                i + length < n and j + length < i and units[j + length] == units[i + length]
            ):
                chars += len(units[i + length])
                length += 1
            if chars >= min_chars and length >= render_module.STRETCH_MIN_LINES:
                kept[i] = False
                follow = j + 1
                break
        else:
            earlier.setdefault(unit, []).append(i)
    return None if all(kept) else kept


@pytest.mark.parametrize("direct_lines", [0, 16])
def test_repeated_stretches_are_found_as_line_by_line(direct_lines: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_module, "_DIRECT_LINES", direct_lines)  # 0: every stretch by its hash
    rng = random.Random(7)
    for _ in range(3000):
        units = [rng.choice(["a", "bb", "ccc", "dddd", "e" * 9]) for _ in range(rng.randint(1, 40))]
        min_chars = rng.choice([1, 2, 3, 5, 8, 13, 30, 100])
        assert render_module._repeated_stretches(units, min_chars) == stretches_line_by_line(units, min_chars)


class CountingStr(str):
    """A line counting its comparisons (the de-duplication's work)."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        CountingStr.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


@pytest.mark.parametrize("lines", [500, 2_000])
def test_repeated_stretches_compare_each_line_a_bounded_number_of_times(lines: int) -> None:
    # Two copies of distinct lines, and a stretch of 10^6 characters (cetd-plus's largest
    # option) never found: each line of the second copy was compared with the rest.
    distinct = [str(i) for i in range(lines)]
    units = [CountingStr(line) for line in distinct + distinct]
    CountingStr.compared = 0
    assert render_module._repeated_stretches(units, 1_000_000) is None
    assert CountingStr.compared <= 30 * len(units)
