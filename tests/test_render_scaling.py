"""The renderer's work is linear in page size and depth: counted, never timed, at n and 4n
on hostile pages (deeply nested, many short lines)."""

from __future__ import annotations

from itertools import islice

import pytest
from lxml import etree

from scrapy_cetd import render as render_module
from scrapy_cetd.api import extract
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
