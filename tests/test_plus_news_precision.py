"""cetd-plus's precision rules for news pages (``labelled_paragraphs``, ``contributor_notes``,
``photo_credits``): each on a hand-made article, with the rule on (only the story stays) and
off (the part comes back), and the story intact where the rule must not fire."""

from __future__ import annotations

import pytest

from scrapy_cetd import extract
from scrapy_cetd.algorithms import plus
from scrapy_cetd.algorithms.plus import rules
from tests.test_plus_news import STORY, lines, story_page


@pytest.mark.parametrize(
    "part",
    [
        "<p id='views-disclaimer'>The views expressed by the authors of this blog are their own.</p>",
        "<p class='disclaimer'>Accuracy and availability of transcripts may vary.</p>",
        "<p class='article-cta'>Already have an account? Log in to keep reading.</p>",
        "<p class='txt-disclaimer'>Examples are provided to illustrate real-world usage.</p>",
    ],
)
def test_a_paragraph_labelled_as_article_noise_is_out_of_the_text(part: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # ``labelled_paragraphs``: the article-only labels (cta, promo, teaser, disclaimer) read on <p> too.
    html = story_page(last=part)
    assert lines(extract(html).text) == STORY
    monkeypatch.setattr(rules, "OFF", frozenset({"labelled_paragraphs"}))
    assert lines(extract(html).text)[:-1] == STORY


def test_a_labelled_paragraph_stays_off_an_article() -> None:
    # ``labelled_paragraphs`` reads the labels on articles only: on a page whose top block is not prose
    # standing alone (here two short paragraphs), a call to action is the content.
    html = (
        "<html><body><main><div class='offer'><p class='cta'>Book a free session with our tutors "
        "today and get a study plan made for you.</p><p>Sessions run every weekday from 9 to 5, "
        "online or in one of our twelve centres.</p></div></main></body></html>"
    )
    assert "Book a free session" in extract(html).text


def test_paragraphs_labelled_otherwise_stay() -> None:
    story = "".join(f"<p class='body-text lead'>{p}</p>" for p in STORY)
    html = f"<html><body><main><article><div class='story'>{story}</div></article></main></body></html>"
    assert lines(extract(html).text) == STORY


@pytest.mark.parametrize(
    "note",
    [
        "<p><em>Jane Roe is a professor of law at the University of Leeds and a former judge.</em></p>",
        "<p><i>(Paul Fenaroli is an associate attorney at Pastore in Connecticut.)</i></p>",
        "<p><em>Chris Radich</em><em> is the public sector CTO at UiPath.</em></p>",
    ],
)
def test_a_contributors_note_in_italics_after_the_story_is_out_of_the_text(
    note: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``contributor_notes``: no writer word (``author_bio``'s), but a name, "is", and italics, after the story.
    html = story_page(last=note)
    assert lines(extract(html).text) == STORY
    monkeypatch.setattr(rules, "OFF", frozenset({"contributor_notes"}))
    assert lines(extract(html).text)[:-1] == STORY


def test_a_contributors_note_not_in_italics_or_not_after_the_story_stays() -> None:
    note = "Jane Roe is a professor of law at the University of Leeds and a former judge."
    assert lines(extract(story_page(last=f"<p>{note}</p>")).text) == [*STORY, note]
    assert lines(extract(story_page(first=f"<p><em>{note}</em></p>")).text) == [note, *STORY]
    quote = "The council is right, she said, and the wall must be rebuilt this winter."
    assert lines(extract(story_page(last=f"<p><em>{quote}</em></p>")).text) == [*STORY, quote]


@pytest.mark.parametrize(
    "credit",
    [
        "<span>Getty Images / Holger Leue</span>",
        "<p class='has-text-align-right'><span>Image credit: © Depositphotos.com/Ann Lee</span></p>",
        "<p><em>Photo: Shutterstock</em></p>",
        "<div><span>Credit: Apple</span></div>",
        "<p>AP Photo/John Doe</p>",
        "<p>(Image: © Harbour Trust)</p>",  # the issue's own example, in parentheses
        "<p>Foto: Hafenamt</p>",  # the credit words of the dev sets' other languages
        "<p><small>Crédits photos : Bestimage</small></p>",
        "<p>Fot. Adam Nowak</p>",
    ],
)
def test_a_photo_credit_in_the_story_is_out_of_the_text(credit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # ``photo_credits``: a picture's credit line, left by a caption no label or <figcaption> marks.
    body = "".join(
        f"<p>{p}</p>" + (f"<div class='media'><img src='wall.jpg' alt=''>{credit}</div>" if i == 2 else "")
        for i, p in enumerate(STORY)
    )
    html = f"<html><body><main><article><div class='story'>{body}</div></article></main></body></html>"
    assert lines(extract(html).text) == STORY
    monkeypatch.setattr(rules, "OFF", frozenset({"photo_credits"}))
    assert len(lines(extract(html).text)) == len(STORY) + 1


def test_a_sentence_about_a_photo_stays() -> None:
    for sentence in (
        "The photo shows the harbour wall.",
        "Photography is allowed on the pier.",
        "Image 1 of 8",
        "Shutterstock shares fell 5% on Tuesday.",
        "Reuters reported the deal on Monday.",
        "Fotografie ist am Pier erlaubt.",
        "Bildung: die Schule am Hafen",
        "Fotos zeigen die Mauer.",
    ):
        assert not plus.is_credit(sentence)
    for credit in (
        "Photo by Lisa Jennings",
        "Getty Images / Holger Leue",
        "Holger Leue/AFP",
        "Image source: NASA",
        "(Image credit: Getty Images)",
        "Foto: ATON",
        "Bild von Pixabay",
        "Titelbild: Hafen am Abend",
        "Bildquelle: Stadtarchiv",
        "Zdjęcie: PAP",
    ):
        assert plus.is_credit(credit)


def test_a_heading_whose_links_were_pruned_is_out_of_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # ``orphan_headings``: ``link_pruning`` removes the list of links; its heading, alone in
    # its box, goes with it.
    links = "".join(f"<li><a href='/story/{i}'>Another story about the town number {i}</a></li>" for i in range(5))
    heading = "More reading on the harbour, the council and the winter storms"
    related = f"<div class='box'><h3>{heading}</h3><ul>{links}</ul></div>"
    html = story_page(last=related)
    assert lines(extract(html).text) == STORY
    monkeypatch.setattr(rules, "OFF", frozenset({"orphan_headings"}))
    assert lines(extract(html).text) == [*STORY, heading]


def test_a_heading_over_its_section_or_alone_stays() -> None:
    section = "<div class='box'><h3>What happens next</h3><p>Work starts in May.</p></div>"
    assert lines(extract(story_page(last=section)).text) == [*STORY, "What happens next", "Work starts in May."]
    # Nothing left out after it in its box (a picture, not text): the heading stays.
    figure = "<div class='box'><h3>The wall in March</h3><img src='wall.jpg'></div>"
    assert lines(extract(story_page(last=figure)).text) == [*STORY, "The wall in March"]


@pytest.mark.parametrize(
    "line",
    [
        "<p><strong>Read more:</strong> <a href='/s/1'>The harbour's first wall, built in 1820</a></p>",
        "<p>Lesen Sie auch: <a href='/s/2'>Der Hafen und seine Mauer</a></p>",
        "<p><em>Czytaj też: <a href='/s/3'>Mur w porcie</a></em></p>",
    ],
)
def test_a_read_also_line_in_the_story_is_out_of_the_text(line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # ``read_also_lines``: a stock line and a colon opening the line, then a link to another story.
    body = "".join(f"<p>{p}</p>" + (line if i == 2 else "") for i, p in enumerate(STORY))
    html = story_page().replace("".join(f"<p>{p}</p>" for p in STORY), body)
    assert lines(extract(html).text) == STORY
    monkeypatch.setattr(rules, "OFF", frozenset({"read_also_lines"}))
    assert lines(extract(html).text) != STORY


def test_a_line_opening_with_a_stock_phrase_but_not_linking_stays() -> None:
    line = "Read more: the council's report, which the harbour master wrote."
    assert lines(extract(story_page(last=f"<p>{line}</p>")).text) == [*STORY, line]
    linked = "<p>Read more about the wall in <a href='/r'>the council's report</a>.</p>"
    assert lines(extract(story_page(last=linked)).text) == [*STORY, "Read more about the wall in the council's report."]
