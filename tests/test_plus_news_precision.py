"""cetd-plus's precision rules for news pages (rules 22-): each on a hand-made article,
with the rule on (only the story stays) and off (the part comes back), and the story
intact where the rule must not fire."""

from __future__ import annotations

import pytest

from scrapy_cetd import extract
from scrapy_cetd.algorithms import plus
from tests.test_plus_news import STORY, lines, story_page


@pytest.mark.parametrize(
    "part",
    [
        "<p class='views-disclaimer'>The views expressed by the authors of this blog are their own.</p>",
        "<p class='disclaimer'>Accuracy and availability of transcripts may vary.</p>",
        "<p class='article-cta'>Already have an account? Log in to keep reading.</p>",
        "<p class='txt-disclaimer'>Examples are provided to illustrate real-world usage.</p>",
    ],
)
def test_a_paragraph_labelled_as_article_noise_is_out_of_the_text(
    part: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Rule 22: the article-only labels (cta, promo, teaser, disclaimer) read on <p> too.
    html = story_page(last=part)
    assert lines(extract(html).text) == STORY
    monkeypatch.setattr(plus, "ARTICLE_LABELLED_TAGS", frozenset())
    assert lines(extract(html).text)[:-1] == STORY


def test_a_labelled_paragraph_stays_off_an_article() -> None:
    # Rule 22 reads the labels on articles only: on a page whose top block is not prose
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
