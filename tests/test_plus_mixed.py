"""cetd-plus's rules for pages that are not articles (products, collections, services,
listings; ``docs/cetd-plus.md``, "Mixed page types")."""

from __future__ import annotations

import pytest

from scrapy_cetd import extract
from scrapy_cetd.algorithms.plus import blocks, rules

from .test_plus import paragraphs

FEATURES = [
    "Merino wool blend keeps your feet dry on long days",
    "Cushioned footbed softens every step on hard floors",
    "Arch support band holds the sock in place all day",
    "Seamless toe so nothing rubs inside your shoes",
    "Reinforced heel and toe last twice as long as cotton",
    "Ribbed cuff stays up without squeezing your ankle",
    "Machine washable and keeps its shape wash after wash",
]
NOTICE = (
    "Prices and availability are subject to change without notice. Offers are valid for a "
    "limited time only while supplies last and may not be combined with other promotions. "
    "Free shipping applies within the contiguous United States only."
)


def shop_page(footer_class: str = "site-footer", footer_tag: str = "div") -> str:
    """A product's page whose description is split over short feature cards (little text per
    tag), with a footer (a ``div`` labelled so, not a ``<footer>``) holding a long notice:
    the densest block of the page."""
    cards = "".join(f"<div class='card'><span><b>{f}</b></span></div>" for f in FEATURES)
    return (
        "<html><head><title>Quarter Socks</title></head><body>"
        f"<div class='product'><h1>Quarter Socks</h1><div class='features'>{cards}</div></div>"
        f"<{footer_tag} class='{footer_class}'><div class='notice'><p>{NOTICE}</p></div></{footer_tag}>"
        "</body></html>"
    )


def test_top_block_leaves_a_labelled_footer() -> None:
    text = extract(shop_page(), with_metadata=False).text
    assert FEATURES[0] in text and FEATURES[-1] in text
    assert "subject to change" not in text


def test_without_the_rule_the_footer_is_the_top_block(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "OFF", frozenset({"top_outside_chrome"}))
    text = extract(shop_page(), with_metadata=False).text
    assert "subject to change" in text
    assert FEATURES[0] not in text


@pytest.mark.parametrize("label", ["newsletter-box", "testimonials", "main-nav", "post-signature"])
def test_other_furniture_labels(label: str) -> None:
    text = extract(shop_page(footer_class=label), with_metadata=False).text
    assert "subject to change" not in text and FEATURES[0] in text


@pytest.mark.parametrize("tag", ["article", "main"])
def test_a_declared_main_part_is_never_furniture(tag: str) -> None:
    text = extract(shop_page(footer_tag=tag), with_metadata=False).text
    assert "subject to change" in text


def test_a_part_holding_main_is_never_furniture() -> None:
    """A grid column labelled as navigation that holds ``<main>``: the story inside stays the top block."""
    story = paragraphs(
        4,
        "the charity's new president spoke about the agenda for the next six years, and about the "
        "churches that open their doors to the city.",
    )
    links = "".join(
        f"<li><a href='/{i}'>Another story from the archive of the charity, number {i}</a></li>" for i in range(30)
    )
    html = (
        "<html><body><div class='left-navigation-wrapper'><main><article>"
        f"{story}</article></main></div><ul class='links'>{links}</ul>"
        "<div class='teaser'><p>More from the charity: its new year in pictures.</p></div></body></html>"
    )
    text = extract(html, with_metadata=False).text
    assert "0 the charity's" in text and "3 the charity's" in text and "in pictures" not in text


def test_diagnostics_name_the_part_left() -> None:
    diagnostics = extract(shop_page(), with_metadata=False, diagnostics=True).diagnostics
    assert [part.split("[")[0] for part in diagnostics["top_outside_chrome"]] == ["div.site-footer"]


@pytest.mark.parametrize("hidden, left", [("notice hidden", True), ("hide", True), ("hidden md:block", False)])
def test_top_block_leaves_a_part_hidden_by_class(hidden: str, left: bool) -> None:
    text = extract(shop_page(footer_class=hidden), with_metadata=False).text
    assert ("subject to change" not in text) is left


def test_hidden_parts_are_left_without_the_stems(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(blocks, "TOP_CHROME_STEMS", ())
    assert "subject to change" not in extract(shop_page(footer_class="hidden"), with_metadata=False).text
    monkeypatch.setattr(blocks, "TOP_HIDDEN_CLASSES", frozenset())
    assert "subject to change" in extract(shop_page(footer_class="hidden"), with_metadata=False).text
