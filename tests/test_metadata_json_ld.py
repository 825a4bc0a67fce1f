"""JSON-LD read once per page: the page model's lazily parsed objects, shared by the
metadata and cetd-plus's readers (its article test, ``declared_body``'s declared body, ``product_noise``'s
product test)."""

from __future__ import annotations

import json

import pytest

from scrapy_cetd import extract
from scrapy_cetd import page as page_module
from scrapy_cetd.algorithms.plus import declares_article, is_product_page
from scrapy_cetd.metadata import article_body, extract_metadata, object_types
from scrapy_cetd.page import Page, json_ld_objects
from scrapy_cetd.parsing import parse_html

STORY = "<p>" + "The council met on Tuesday to discuss the new bridge and its costs. " * 6 + "</p>"
ARTICLE = {
    "@context": "https://schema.org",
    "@graph": [
        {"@type": "Person", "@id": "#ann", "name": "Ann Lee"},
        {"@type": "NewsArticle", "headline": "Bridge costs double", "author": {"@id": "#ann"},
         "datePublished": "2024-05-01", "articleBody": "The council met on Tuesday."},
    ],
}
ORGANISATION = {"@context": "https://schema.org", "@type": "Organization", "name": "The Daily Example"}


def ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def html_with(*scripts: str) -> str:
    head = f"<head><title>Bridge</title>{''.join(scripts)}</head>"
    return f"<html>{head}<body><h1>Bridge costs double</h1>{STORY}</body></html>"


def page_of(html: str) -> Page:
    return Page(parse_html(html), "https://news.example.com/story")


def test_each_text_is_parsed_once_and_only_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    load = page_module._load_json
    monkeypatch.setattr(page_module, "_load_json", lambda text: calls.append(text) or load(text))
    page = page_of(html_with(ld(ORGANISATION), ld(ARTICLE)))
    assert calls == []  # building the page model parses none
    products = page.declared_objects("Product")
    assert products == [] and calls == []  # no text names a product: none parsed
    articles = page.declared_objects("Article")
    assert [o["@type"] for o in articles] == ["Person", "NewsArticle"] and len(calls) == 1
    every = page.declared_objects()
    assert [o["@type"] for o in every] == ["Organization", "Person", "NewsArticle"] and len(calls) == 2
    assert every[1] is articles[0]  # the same objects, not a second parse
    page.declared_objects()
    assert len(calls) == 2


def test_extraction_and_metadata_parse_each_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    load = page_module._load_json
    monkeypatch.setattr(page_module, "_load_json", lambda text: calls.append(text) or load(text))
    result = extract(html_with(ld(ORGANISATION), ld(ARTICLE)), url="https://news.example.com/story")
    assert result.metadata is not None and result.metadata.authors == ["Ann Lee"]
    assert result.metadata.title == "Bridge costs double" and result.metadata.date_published == "2024-05-01"
    assert sorted(calls) == sorted([json.dumps(ORGANISATION), json.dumps(ARTICLE)])


def test_plus_readers_and_metadata_agree_with_the_text_readers() -> None:
    html = html_with(ld(ORGANISATION), ld(ARTICLE), ld({"@type": "Product", "name": "Bridge kit"}))
    page = page_of(html)
    assert declares_article(page) and is_product_page(page)
    assert article_body(page.declared_objects("articleBody")) == "The council met on Tuesday."
    assert list(object_types(page.declared_objects())) == [["Organization"], ["Person"], ["NewsArticle"], ["Product"]]
    read_after_plus = extract_metadata(page)
    assert read_after_plus == extract_metadata(page_of(html))  # the shared objects were not changed


@pytest.mark.parametrize(
    "text",
    ['{"@type": "Article", "headline": ', "[" * 100_000, "", "<!-- -->", '"just a string"', "null"],
)
def test_garbage_gives_no_objects_and_is_not_parsed_again(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert json_ld_objects(text) == []
    calls: list[str] = []
    load = page_module._load_json
    monkeypatch.setattr(page_module, "_load_json", lambda value: calls.append(value) or load(value))
    page = page_of(html_with(f'<script type="application/ld+json">{text}</script>'))
    if not page.json_ld:  # an empty script holds no text to read
        assert page.declared_objects() == []
        return
    assert page.declared_objects() == [] and page.declared_objects("Article") == []
    assert len(calls) == 1


def test_a_hostile_list_is_read_to_its_bound() -> None:
    objects = json_ld_objects(json.dumps([{"@type": "Thing", "name": str(k)} for k in range(10_000)]))
    assert 0 < len(objects) < 500
    assert objects[0]["name"] == "0"  # document order
