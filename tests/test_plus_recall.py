"""cetd-plus's recall rules: parts of the story that the rules once dropped are kept, and
the noise beside them still goes (hand-made pages)."""

from __future__ import annotations

import pytest

from scrapy_cetd import extract
from scrapy_cetd.algorithms.plus import rules

MOVERS = ["Blue Moving", "Liberty Moving", "Maxi Moving", "Perfect Moving", "Lift Moving", "Oz Moving"]


def roundup(*, after: str = "") -> str:
    """A roundup: each item a linked heading and a paragraph about it; ``after``: what
    follows the story inside the article."""
    items = "".join(
        f"<h2><a href='https://mover{i}.example/'>{i + 1}. {name}</a></h2>"
        f"<p>{name} has moved families across the five boroughs since 1998; its crews wrap "
        f"every piece of furniture, and its quotes are fixed before the truck arrives.</p>"
        for i, name in enumerate(MOVERS)
    )
    return (
        "<html><head><title>The best movers in New York</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/guides'>Guides</a></nav>"
        f"<main><article><div class='story'><p>Moving in New York is hard: stairs, permits "
        f"and narrow streets. We compared the city's movers on price, care and punctuality "
        f"over three months of moves.</p>{items}{after}</div></article></main>"
        "</body></html>"
    )


def test_a_roundups_linked_item_titles_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    text = extract(roundup()).text
    for i, name in enumerate(MOVERS):
        assert f"{i + 1}. {name}" in text.splitlines()
    # Before: ``link_pruning`` pruned each title as a link-dense part.
    monkeypatch.setattr(rules, "OFF", frozenset({"linked_headings"}))
    assert "1. Blue Moving" not in extract(roundup()).text


def test_a_cards_linked_title_and_a_link_list_still_go() -> None:
    # A "read next" card: its linked title is most of the card's text.
    card = (
        "<div class='card'><h3><a href='/next'>Why the city's movers raised their prices</a></h3>"
        "<span>4 min</span></div>"
    )
    links = "<ul>" + "".join(f"<li><a href='/m/{i}'>Mover {i}</a></li>" for i in range(6)) + "</ul>"
    text = extract(roundup(after=card + links)).text
    assert "Why the city's movers raised their prices" not in text
    assert "Mover 3" not in text
    assert "1. Blue Moving" in text


def test_a_threads_linked_post_titles_still_go() -> None:
    # A forum thread (the top block is one of a repeated group of posts): each post's
    # linked title "Re: ..." is the board's furniture, not the posts' text.
    posts = "".join(
        f"<div class='post'><div class='postbody'><h3><a href='#p{i}'>Re: Moving a piano</a></h3>"
        f"<div class='content'>Reply {i}: we moved ours down four flights last year; hire a crew "
        f"with a piano board and straps, and measure every landing before the day. The stairs "
        f"are where the damage happens.</div></div></div>"
        for i in range(5)
    )
    html = f"<html><head><title>Moving a piano</title></head><body><main>{posts}</main></body></html>"
    text = extract(html).text
    assert "Reply 2: we moved ours" in text
    assert "Re: Moving a piano" not in text


def split_story(*, twin_class: str = "rich-text body", twin_text: str = "") -> str:
    """A story split over two containers alike (classes in another order), an embed between
    them; the second holds most of the story."""
    first = twin_text or "".join(
        f"<p>Opening {i}: the harbour wall has stood for two hundred years, and the storms of "
        f"last winter opened cracks along most of its length.</p>"
        for i in range(2)
    )
    rest = "".join(
        f"<p>Body {i}: engineers surveyed the wall in spring and the council agreed on Tuesday "
        f"to rebuild it before the winter storms, at a cost of four million pounds.</p>"
        for i in range(40)
    )
    return (
        "<html><head><title>The harbour wall</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f"<main><article><div class='story'><div class='{twin_class}'>{first}</div>"
        "<div class='embed'><iframe src='https://video.example/1'></iframe></div>"
        f"<div class='body rich-text'>{rest}</div></div></article>"
        "<aside><h2>Most read</h2><ul><li><a href='/a'>Another story</a></li></ul></aside></main>"
        "</body></html>"
    )


def test_a_story_split_over_twin_containers_keeps_its_start(monkeypatch: pytest.MonkeyPatch) -> None:
    text = extract(split_story()).text.splitlines()
    assert text[0].startswith("Opening 0:") and text[-1].startswith("Body 39:")
    assert "Another story" not in text
    # Before: the first container lay below ``block_floor``'s floor (its last paragraph
    # alone reads as the story's lead, ``lead_paragraph``).
    monkeypatch.setattr(rules, "OFF", frozenset({"twins", "lead_paragraph"}))
    assert extract(split_story()).text.splitlines()[0].startswith("Body 0:")


def test_a_twin_with_a_modifier_class_keeps_the_story_start() -> None:
    # The first container adds a class ("rich-text body intro"): still the story's start.
    text = extract(split_story(twin_class="rich-text body intro")).text.splitlines()
    assert text[0].startswith("Opening 0:") and text[-1].startswith("Body 39:")


def paginated_document() -> str:
    """An RFC as tools.ietf.org serves it: one ``<pre class="newpage">`` per printed page, the
    last a references page dense with links."""
    line = "   The server SHOULD detect and stop brute-force attacks on the storage root.\n"
    reference = '   [<a href="#ref-{0}">{0}</a>] Fielding, R., "Semantics", <a href="/html/rfc7231">RFC7231</a>.\n'

    def printed_page(number: int, text: str) -> str:
        return (
            f'<pre class="newpage"><a name="page-{number}" href="#page-{number}"> </a>\n{text}'
            f"de Jong      Expires June 2015     [Page {number}]</pre>"
        )

    pages = printed_page(1, line * 30) + printed_page(2, line * 45)
    pages += printed_page(3, "".join(reference.format(n) for n in range(12)))
    return (
        "<html><head><title>remoteStorage</title></head><body>"
        f"<nav><a href='/'>Home</a> <a href='/docs'>Docs</a></nav>{pages}"
        "<div class='footer'><a href='/contact'>Contact</a></div></body></html>"
    )


def test_a_document_paginated_in_pre_pages_keeps_its_last_pages() -> None:
    text = extract(paginated_document()).text
    assert text.count("brute-force") == 75 and text.count("Fielding") == 12
    assert "[Page 3]" in text and "Contact" not in text


def test_a_container_alike_that_is_no_prose_and_one_of_another_class_stay_out() -> None:
    # A video's title and length in a container alike: not in paragraphs.
    video = "<div>Watch: the storm breaks over the harbour wall, filmed from the lighthouse</div><div>2 min</div>"
    assert "Watch: the storm" not in extract(split_story(twin_text=video)).text
    assert "Opening 0" not in extract(split_story(twin_class="intro")).text


LEAD = (
    "Each December the county publishes what its residents searched for on its website, and "
    "this year's figures show a county that spent more time planning its journeys than ever "
    "before. Some of the other findings of the survey include the following:"
)


def list_in_prose(*, lead: str = LEAD) -> str:
    """A story whose densest block is a list of eight items between two paragraphs."""
    items = "".join(
        f"<li>Finding {i}: households in the county searched for bus times far more often than for parking.</li>"
        for i in range(8)
    )
    return (
        "<html><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f"<div class='entry'><p>{lead}</p><ul>{items}</ul>"
        "<p>In short: you are what you search.</p></div>"
        "<div class='links'><a href='/a'>Another story about the county</a></div></body></html>"
    )


def test_a_list_in_prose_keeps_the_paragraphs_around_it(monkeypatch: pytest.MonkeyPatch) -> None:
    text = extract(list_in_prose()).text.splitlines()
    assert text[0].startswith("Each December") and text[-1] == "In short: you are what you search."
    assert "Another story about the county" not in text
    # Before ``list_in_prose`` the list was the top block, and the short closing line fell below the floor.
    monkeypatch.setattr(rules, "OFF", frozenset({"list_in_prose"}))
    assert "In short: you are what you search." not in extract(list_in_prose()).text


def test_a_list_with_little_prose_beside_it_stays_the_top_block() -> None:
    selection = extract(list_in_prose(lead="Findings:"), diagnostics=True).diagnostics
    assert "list_in_prose" not in selection and selection["top_block"].startswith("ul")


def led_story(*, far: bool = False, lead_class: str = "lead", after: str = "") -> str:
    """An article: a headline, a lead paragraph and a byline beside the story's body (the
    top block); ``far``: the lead and the headline sit in a header above the body's
    container, not beside the body; ``after``: what follows the body."""
    lead = (
        f"<div class='{lead_class}'><p>The council will rebuild the harbour wall before next winter, "
        "after the storms opened cracks along most of its length.</p></div>"
    )
    body = "".join(
        f"<p>Body {i}: engineers surveyed the wall in spring and found the old stones loose "
        f"along the whole seaward face, where the waves break hardest in winter storms.</p>"
        for i in range(30)
    )
    header = f"<h1>The harbour wall</h1>{lead}<div class='byline'>By Ann Lee</div>"
    story = f"<div class='body'>{body}</div>{after}"
    article = (
        f"<header>{header}</header><section class='story'>{story}</section>"
        if far
        else f"<section class='story'>{header}{story}</section>"
    )
    return (
        "<html><head><title>Harbour wall | The Gazette</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f"<article>{article}</article><footer>Contact us</footer></body></html>"
    )


def test_the_lead_before_the_story_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    text = extract(led_story()).text
    assert text.splitlines()[0].startswith("The council will rebuild the harbour wall")
    assert "Body 29: engineers" in text
    # Before: its DensitySum lay under ``block_floor``'s floor.
    monkeypatch.setattr(rules, "OFF", frozenset({"lead_paragraph"}))
    assert "The council will rebuild" not in extract(led_story()).text


def test_a_lead_away_from_the_story_still_goes() -> None:
    # In a header above the story's container, not beside its body: WCXB's and
    # Readability's labels leave such a summary out.
    text = extract(led_story(far=True)).text
    assert "The council will rebuild" not in text
    assert "Body 0: engineers" in text


def test_a_lead_labelled_as_a_teaser_stays_and_teasers_after_the_story_go() -> None:
    # A teaser label names the story's own standfirst before it, and the "read next" cards
    # after it (an article-only label of ``labelled_parts``).
    cards = "".join(
        f"<div class='teaser'><h3>Ferry timetable {i} changes for the summer season</h3>"
        f"<p>The ferry will run every forty minutes from May, the operator said on Monday.</p></div>"
        for i in range(2)
    )
    text = extract(led_story(lead_class="teaser-text", after=cards)).text
    assert text.splitlines()[0].startswith("The council will rebuild the harbour wall")
    assert "Ferry timetable" not in text and "every forty minutes" not in text


def films_page() -> str:
    """A list article: paragraphs, then a table of films whose titles are links."""
    intro = "".join(
        f"<p>Paragraph {i}: films about time loops return to one day again and again, and the "
        f"genre has grown since the nineties into a staple of science fiction and comedy.</p>"
        for i in range(6)
    )
    rows = "".join(
        f"<tr><td><a href='/wiki/Film_{i}'>Loop Film {i}</a></td><td>{1990 + i}</td></tr>" for i in range(6)
    )
    return (
        "<html><head><title>Time loop films</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/films'>Films</a></nav>"
        f"<article><div class='content'>{intro}<table><tr><th>Title</th><th>Year</th></tr>{rows}</table>"
        "</div></article></body></html>"
    )


def test_a_tables_linked_cells_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = extract(films_page()).text.splitlines()
    assert any("Loop Film 3" in line for line in lines)
    assert any("Paragraph 5:" in line for line in lines)
    # Before: ``link_pruning`` pruned each linked title's cell.
    monkeypatch.setattr(rules, "OFF", frozenset({"linked_cells"}))
    assert "Loop Film 3" not in extract(films_page()).text


def story_in_body(*, wrapped: bool = False) -> str:
    """A page with no container: its story is text straight in body, broken by inline
    formulas and one short paragraph; ``wrapped``: the page's furniture and one paragraph
    sit in a container, as body's text of its own is a notice before it."""
    formula = "<span class='formula'><math><mi>x</mi><mo>=</mo><mn>2</mn></math></span>"
    story = "".join(
        f"The equation {formula} has step {i} of its proof here, which the reader follows from the "
        f"line before to the line after without a break in the text.<br>"
        for i in range(6)
    )
    if wrapped:
        return (
            "<html><body>Warning: a deprecated call in the page's template on line 12.<br>"
            "<div class='page'><nav><a href='/'>Home</a> <a href='/a'>Archive</a></nav>"
            f"<div class='entry'><p>{story}</p></div></div></body></html>"
        )
    return (
        "<html><body><h1>Notes on one equation</h1><p>When</p>"
        f"{story}<p>The proof ends here, with the value we started from in the first line.</p></body></html>"
    )


def test_a_story_written_straight_into_body_is_kept_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    result = extract(story_in_body(), diagnostics=True)
    assert result.diagnostics["story_in_body"] is True
    text = result.text
    for i in range(6):
        assert f"has step {i} of its proof" in text
    assert "x = 2" in text and text.splitlines()[-1].startswith("The proof ends here")
    # Before: CETD's top block lies under body, so one paragraph was all the story.
    monkeypatch.setattr(rules, "OFF", frozenset({"story_in_body"}))
    assert "has step 3 of its proof" not in extract(story_in_body()).text


def test_a_notice_in_body_before_a_contained_story_does_not_make_body_the_story() -> None:
    result = extract(story_in_body(wrapped=True), diagnostics=True)
    assert "story_in_body" not in result.diagnostics
    assert "Warning: a deprecated call" not in result.text and "has step 5 of its proof" in result.text
