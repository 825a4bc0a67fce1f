"""cetd-plus ``product_noise`` on product pages: on a page declaring a product, its customers' reviews,
ratings and "recommended" carousels go, while the description and the spec table stay."""

from __future__ import annotations

import json

import pytest

from scrapy_cetd import extract
from scrapy_cetd.algorithms import plus
from scrapy_cetd.algorithms.plus import rules
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html

NAME = "Trail 25 Pack"
DESCRIPTION = (
    "Keep your day's gear within easy reach in the Trail 25 pack. It is designed to fit a wide "
    "range of body types, and it has pockets galore for quick access to all your essentials."
)
FEATURES = [
    "Ripstop nylon main body fabric has a durable water repellent finish",
    "Recycled oxford nylon bottom is highly abrasion resistant",
    "U-shape panel with two zipper sliders offers quick access to gear",
]
SPECS = [("Gear capacity", "25 liters"), ("Weight", "1 lb. 13 oz."), ("Dimensions", "18 x 13 x 8 inches")]
REVIEW = (
    "Review {i}: I took this pack on a dozen day hikes this summer and the straps stayed "
    "comfortable the whole time, though the side pockets could be a little deeper for bottles."
)
PRODUCT_LD = json.dumps({"@context": "https://schema.org", "@type": "Product", "name": NAME})


def product_page(*, declared: str = "json-ld", reviews: int = 6, review_class: str = "product-reviews") -> str:
    """A shop's product page: a menu, the description, feature list and spec table, then
    customers' reviews (six: under half the page's characters) and a carousel of other
    products; the product declared in JSON-LD, as ``og:type``, or not at all."""
    head = f"<title>{NAME} | Outdoor Co-op</title>"
    if declared == "json-ld":
        head += f"<script type='application/ld+json'>{PRODUCT_LD}</script>"
    elif declared == "og":
        head += "<meta property='og:type' content='product'>"
    features = "".join(f"<li>{f}</li>" for f in FEATURES)
    specs = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in SPECS)
    items = "".join(
        f"<div class='review-item'><span class='stars'>5 out of 5</span><h4>Great pack {i}</h4>"
        f"<p>{REVIEW.format(i=i)}</p><span>Hiker{i}, Portland</span></div>"
        for i in range(reviews)
    )
    carousel = "".join(
        f"<div class='card'><p>Other pack {i}: a light, roomy bag for long days on the trail.</p></div>"
        for i in range(5)
    )
    menu = "".join(f"<a href='/c/{i}'>Category number {i}</a> " for i in range(40))
    return (
        f"<html><head>{head}</head><body><nav>{menu}</nav>"
        f"<main><h1>{NAME}</h1><div class='description'><p>{DESCRIPTION}</p></div>"
        f"<div class='features'><h2>Features</h2><ul>{features}</ul></div>"
        f"<div class='specs'><h2>Specs</h2><table>{specs}</table></div>"
        f"<section class='{review_class}'><h2>Reviews</h2>{items}</section>"
        f"<section class='recommendations-carousel'><h2>You may also like</h2>{carousel}</section>"
        "</main></body></html>"
    )


def page_of(html: str) -> Page:
    return Page.from_tree(parse_html(html))


def test_reviews_and_carousel_go_description_and_specs_stay() -> None:
    text = extract(product_page()).text
    assert DESCRIPTION in text
    for feature in FEATURES:
        assert feature in text
    for key, value in SPECS:
        assert key in text and value in text
    assert "Review 3:" not in text
    assert "Other pack" not in text


def test_without_the_rule_the_reviews_are_content(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "OFF", frozenset({"product_noise"}))
    text = extract(product_page()).text
    assert "Review 3:" in text
    assert DESCRIPTION in text


def test_og_type_product_declares_a_product() -> None:
    text = extract(product_page(declared="og")).text
    assert DESCRIPTION in text
    assert "Review 3:" not in text


def test_a_button_to_buy_it_makes_a_product_page() -> None:
    button = "<form action='/cart/add'><button class='btn add-to-cart-button'>Add to cart</button></form>"
    html = product_page(declared="none").replace("<div class='features'>", button + "<div class='features'>")
    assert plus.is_product_page(page_of(html))
    assert "Review 3:" not in extract(html).text
    # A link saying so (a shop's menu on an article) is not a control.
    link = "<a class='add-to-cart' href='/cart'>Cart</a>"
    assert not plus.is_product_page(page_of(product_page(declared="none").replace("<main>", link + "<main>")))


@pytest.mark.parametrize(
    ("controls", "buys"),
    [
        (["btn ADD-TO-BAG"], True),
        (["cta", "BuyNow"], True),
        (["icon add_to_basket"], True),
        (["btn-primary", "search-form"], False),
        (["add to", "cart"], False),  # two controls: a label lies in one
        (["padding-top toggle-cart"], False),
    ],
)
def test_the_add_to_cart_test_reads_each_controls_values_in_either_case(controls: list[str], buys: bool) -> None:
    # The controls' values are searched joined, after a check in lower case for "add" or "buy".
    buttons = "".join(f"<button class='{names}'>Go</button>" for names in controls)
    html = product_page(declared="none").replace("<div class='features'>", buttons + "<div class='features'>")
    assert plus.is_product_page(page_of(html)) is buys


def test_a_page_declaring_no_product_is_left_alone() -> None:
    page = page_of(product_page(declared="none"))
    assert not plus.is_product_page(page)
    assert plus.product_noise_roots(page) == []
    assert "Review 3:" in extract(product_page(declared="none")).text


def test_a_reviewed_product_is_not_the_pages_product() -> None:
    # A review article's JSON-LD names the product it reviews: the page is an article.
    review = json.dumps({"@type": "Review", "itemReviewed": {"@type": "Product", "name": NAME}})
    script = f"<script type='application/ld+json'>{review}</script>"
    assert not plus.is_product_page(page_of(product_page(declared="none").replace("</title>", "</title>" + script)))
    graph = json.dumps({"@graph": [{"@type": "WebPage"}, {"@type": ["ProductGroup"], "name": NAME}]})
    script = f"<script type='application/ld+json'>{graph}</script>"
    assert plus.is_product_page(page_of(product_page(declared="none").replace("</title>", "</title>" + script)))


def test_the_highest_labelled_parts_are_removed_and_named_in_diagnostics() -> None:
    page = page_of(product_page())
    roots = plus.product_noise_roots(page)
    labels = [page.elements[i].get("class") for i in roots]
    # The review section and the carousel, not the review items inside the section.
    assert labels == ["product-reviews", "recommendations-carousel"]
    result = extract(product_page(), diagnostics=True)
    assert result.diagnostics is not None
    assert [name.split("[")[0] for name in result.diagnostics["product_noise"]] == [
        "section.product-reviews",
        "section.recommendations-carousel",
    ]


def test_parts_labelled_alike_and_repeated_are_the_pages_own_items() -> None:
    # A roundup: three products, each a "-review" widget; they are the content.
    widgets = "".join(
        f"<div id='pack-{i}-review' class='product-widget'><p>{REVIEW.format(i=i)}</p></div>" for i in range(3)
    )
    html = (
        f"<html><head><script type='application/ld+json'>{PRODUCT_LD}</script></head>"
        f"<body><main>{widgets}</main></body></html>"
    )
    assert plus.product_noise_roots(page_of(html)) == []
    two = html.replace("<div id='pack-2-review' class='product-widget'>", "<div id='pack-2' class='other'>")
    assert len(plus.product_noise_roots(page_of(two))) == 2


def test_headings_links_and_most_of_the_page_are_never_removed() -> None:
    html = (
        f"<html><head><script type='application/ld+json'>{PRODUCT_LD}</script></head><body>"
        f"<h2 class='reviews-title'>Customer reviews</h2><a class='review-link' href='#r'>12 reviews</a>"
        f"<div class='reviewed-product'><p>{DESCRIPTION}</p></div><p>Short note.</p></body></html>"
    )
    # The heading and the link are labelled, but named parts, not sections; the div
    # holds more than half of the page's characters.
    assert plus.product_noise_roots(page_of(html)) == []
    assert DESCRIPTION in extract(html).text
