"""What a reader of the page sees: parts the page marks as not content, posts a story
quotes, and a comment section's moderation notice (cetd-plus, small hand-made pages)."""

from __future__ import annotations

import pytest

from scrapy_cetd import extract
from scrapy_cetd.algorithms.plus import rules

STORY = [
    f"Paragraph {i} of the story: the council voted on Tuesday to rebuild the harbour wall, and the work "
    "starts in spring with money from the regional fund."
    for i in range(8)
]


def story_page(middle: str = "", after: str = "", inside_after: str = "") -> str:
    paragraphs = [f"<p>{p}</p>" for p in STORY]
    body = "".join(paragraphs[:4]) + middle + "".join(paragraphs[4:]) + inside_after
    return (
        "<html><head><title>Harbour wall</title></head><body><header><nav><a href='/'>Home</a></nav></header>"
        f"<main><article><h1>Harbour wall</h1><div class='story'>{body}</div></article>{after}</main></body></html>"
    )


def rails(label: str) -> str:
    """Three columns of section teasers, more text than the story."""
    columns = "".join(
        f"<div><h3>{section}</h3>"
        + "".join(
            f"<p>Headline {i} from {section.lower()} on the state of the regional roads and trains this week</p>"
            "<p>32M ago</p>"
            for i in range(5)
        )
        + f"<p>More in {section}</p></div>"
        for section in ("World", "Politics", "Popular")
    )
    return f"<div class='{label}'>{columns}</div>"


def test_rails_labelled_nocontent_are_not_the_story(monkeypatch: pytest.MonkeyPatch) -> None:
    html = story_page(inside_after=rails("rail nocontent"))
    assert extract(html).text.splitlines() == STORY
    assert "More in Politics" in extract(story_page(inside_after=rails("rail"))).text  # the label removes them
    monkeypatch.setattr(rules, "OFF", frozenset({"not_content"}))
    assert "More in Politics" in extract(html).text  # a noise label would not: they outweigh the story


TWEET = (
    '<blockquote class="twitter-tweet"><p lang="en" dir="ltr">The ferry will run every hour from May, the mayor '
    'said today <a href="https://t.co/abc">pic.twitter.com/abc</a></p>&mdash; Harbour Town (@harbourtown) '
    '<a href="https://twitter.com/harbourtown/status/1">May 1, 2025</a></blockquote>'
)


@pytest.mark.parametrize("box", ["<figure class='social-embed'>{}</figure>", "<div class='social-media-post'>{}</div>"])
def test_an_embedded_tweet_quoted_in_the_story_is_kept(box: str, monkeypatch: pytest.MonkeyPatch) -> None:
    html = story_page(middle=box.format(TWEET))
    text = extract(html).text
    assert "The ferry will run every hour from May" in text and text.count("Paragraph") == len(STORY)
    monkeypatch.setattr(rules, "OFF", frozenset({"quoted_embeds"}))
    assert "The ferry will run every hour from May" not in extract(html).text  # the box's social label took it


def test_a_share_bar_labelled_social_still_goes() -> None:
    bar = "<div class='social-share'><p>Share this story with your friends on the networks you use</p></div>"
    assert "Share this story" not in extract(story_page(middle=bar)).text


NOTICE = (
    "ATENÇÃO: Comentários com textos ininteligíveis, ofensivos ou fora do assunto não serão aprovados pelo moderador."
)
COMMENTS = (
    "<div id='comments'><h3>Comentários</h3><div class='c'><p>Muito boa a reportagem, parabéns ao jornal pelo "
    "trabalho.</p></div><div class='c'><p>Concordo com o leitor acima, a obra é necessária.</p></div></div>"
)


def test_a_moderation_notice_beside_the_comments_is_not_the_story(monkeypatch: pytest.MonkeyPatch) -> None:
    html = story_page(inside_after=f"<p class='aviso'>{NOTICE}</p>{COMMENTS}")
    result = extract(html, with_comments=True)
    assert result.text.splitlines() == STORY
    assert "Muito boa a reportagem" in result.comments and "ATENÇÃO" not in result.comments
    monkeypatch.setattr(rules, "OFF", frozenset({"comment_notices"}))
    assert NOTICE in extract(html).text


def test_a_story_line_about_comments_far_from_a_comment_section_stays() -> None:
    line = "The council's comments on the plan were moderated by the mayor at the public meeting."
    html = story_page(middle=f"<p>{line}</p>", inside_after=COMMENTS)
    assert line in extract(html).text
