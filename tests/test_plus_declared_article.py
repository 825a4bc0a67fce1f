"""cetd-plus ``declared_article_alone``: prose in a group of alike siblings (layout slots around a lone story)
is an article standing alone when the page declares an article."""

from __future__ import annotations

import json

import pytest

from scrapy_cetd import extract
from scrapy_cetd.algorithms import plus
from scrapy_cetd.algorithms.plus import rules
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html

from .test_plus_news import STORY, lines

DATELINE = "Updated Nov 25, 2025 5:00 am PST"


def slotted_page(head: str = "") -> str:
    """A story in the middle one of three layout slots sharing a class, a dateline (``datelines``'s)
    at its start; the other slots hold a short promo and a short notice."""
    story = "".join(f"<p>{p}</p>" for p in STORY)
    return (
        f"<html><head><title>Harbour wall</title>{head}</head><body><div class='layout'>"
        "<div class='module-slot'><p>Watch the council's meeting live tonight at seven.</p></div>"
        f"<div class='module-slot'><p>{DATELINE}</p>{story}</div>"
        "<div class='module-slot'><p>Copyright 2025 The Gazette. All rights reserved.</p></div>"
        "</div></body></html>"
    )


ARTICLE_JSON_LD = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle", "headline": "Harbour wall"})


@pytest.mark.parametrize(
    "head",
    [
        f"<script type='application/ld+json'>{ARTICLE_JSON_LD}</script>",
        "<meta property='og:type' content='article'>",
    ],
)
def test_a_declared_article_in_layout_slots_loses_its_dateline(head: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert lines(extract(slotted_page(head)).text) == STORY
    monkeypatch.setattr(rules, "OFF", frozenset({"declared_article_alone"}))
    assert lines(extract(slotted_page(head)).text) == [DATELINE, *STORY]


def test_an_undeclared_page_in_slots_is_no_article() -> None:
    assert lines(extract(slotted_page()).text) == [DATELINE, *STORY]


@pytest.mark.parametrize(
    ("head", "declared"),
    [
        (f"<script type='application/ld+json'>{ARTICLE_JSON_LD}</script>", True),
        ('<script type=\'application/ld+json\'>{"@type": ["BlogPosting"]}</script>', True),
        ('<script type=\'application/ld+json\'>{"@type": "DiscussionForumPosting"}</script>', False),
        (
            '<script type=\'application/ld+json\'>{"@type": "Product", "review": '
            '{"@type": "Review", "itemReviewed": {"@type": "Article"}}}</script>',
            False,
        ),
        ("<meta property='og:type' content=' Article '>", True),
        ("<meta property='og:type' content='website'>", False),
        ("<script type='application/ld+json'>{not json</script>", False),
    ],
)
def test_what_declares_an_article(head: str, declared: bool) -> None:
    page = Page(parse_html(f"<html><head>{head}</head><body><p>Text.</p></body></html>"))
    assert plus.declares_article(page) is declared
