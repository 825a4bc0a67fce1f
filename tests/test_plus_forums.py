"""cetd-plus on forum threads (``forum_furniture``): the posts' text stays, the furniture forum software
sets around each post (signatures, the poster's title, banner and statistics, the similar
threads) goes; hand-made pages in the markup of phpBB and XenForo."""

from __future__ import annotations

import pytest

from scrapy_cetd import extract
from scrapy_cetd.algorithms.plus import is_forum_stat, rules

POSTS = [
    f"Post {i}: I replaced the thermostat in my boiler last week and the pressure still drops "
    f"overnight, so I suspect a slow leak somewhere near the expansion vessel or the valve."
    for i in range(6)
]
NAMES = [f"plumber{i}" for i in range(6)]


def phpbb_thread(*, signature: bool = True) -> str:
    """A phpBB thread: each post with its author, the poster's profile (title, statistics)
    and a signature."""
    posts = "".join(
        f"<div class='post bg{i % 2}' id='p{i}'><div class='inner'>"
        f"<div class='postbody'><p class='author'>by <strong>{name}</strong> » Mon Jul 1, 2024</p>"
        f"<div class='content'>{text}</div>"
        + (
            f"<div class='signature' id='sig{i}'>Proud owner of {i + 2} vintage radiators and a dog.</div>"
            if signature
            else ""
        )
        + f"</div><dl class='postprofile' id='profile{i}'><dt><a href='/u/{i}'>{name}</a></dt>"
        f"<dd class='profile-rank'>Regular</dd><dd class='profile-posts'><strong>Posts:</strong> "
        f"<a href='/s/{i}'>{1000 + i}</a></dd><dd class='profile-joined'><strong>Joined:</strong> "
        f"Sat Aug 0{i + 1}, 2015 4:20 pm</dd></dl></div></div>"
        for i, (name, text) in enumerate(zip(NAMES, POSTS))
    )
    return (
        "<html><head><title>Boiler pressure drops overnight - Plumbing forum</title></head><body>"
        "<div id='wrap'><h2>Boiler pressure drops overnight</h2>"
        f"<div id='page-body'>{posts}</div></div></body></html>"
    )


def xenforo_thread() -> str:
    """A XenForo thread: each message with the poster's name, title, banner and statistics,
    and a block of similar threads under the thread."""
    messages = "".join(
        f"<article class='message message--post'><div class='message-inner'><div class='message-cell--user'>"
        f"<div class='message-userDetails'><h4 class='message-name'>{name}</h4>"
        f"<h5 class='userTitle message-userTitle'>Full Member</h5>"
        f"<div class='userBanner message-userBanner'>7+ Year Member</div></div>"
        f"<div class='message-userExtras'><dl class='pairs pairs--justified'><dt>Joined</dt><dd>Jun 29, 2016</dd></dl>"
        f"<dl class='pairs pairs--justified'><dt>Messages</dt><dd>{11 + i}</dd></dl>"
        f"<dl class='pairs pairs--justified'><dt>Reaction score</dt><dd>10</dd></dl></div></div>"
        f"<div class='message-cell--main'><div class='message-content'><div class='bbWrapper'>{text}</div>"
        f"</div></div></div></article>"
        for i, (name, text) in enumerate(zip(NAMES, POSTS))
    )
    similar = "".join(
        f"<div class='structItem structItem--thread'><div class='structItem-title'>"
        f"<a href='/t/{i}'>Radiator cold at the top number {i}</a></div>"
        f"<ul><li>Replies</li><li>{i + 3}</li><li>Views</li><li>{i}K</li></ul></div>"
        for i in range(8)
    )
    return (
        "<html><head><title>Boiler pressure drops overnight | Plumbing forum</title></head><body>"
        "<div class='p-body-main'><div class='p-body-pageContent'>"
        f"<div class='block block--messages'><div class='block-body'>{messages}</div></div>"
        "<div class='block-container block--similarContents'><h3 class='block-minorHeader'>Similar threads</h3>"
        f"<div class='structItemContainer'>{similar}</div></div>"
        "</div></div></body></html>"
    )


def test_a_phpbb_thread_keeps_the_posts_and_loses_signatures_and_statistics() -> None:
    text = extract(phpbb_thread()).text
    for post in POSTS:
        assert post in text
    assert "vintage radiators" not in text  # the signatures
    assert "Posts:" not in text and "Joined:" not in text  # the poster's statistics
    assert "plumber3" in text  # the poster's name stays


def test_without_forum_furniture_the_signatures_and_statistics_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "OFF", frozenset({"forum_furniture"}))
    text = extract(phpbb_thread()).text
    assert "vintage radiators" in text
    assert "Posts:" in text and "Joined:" in text


def test_the_diagnostics_name_the_forum_parts() -> None:
    result = extract(phpbb_thread(), diagnostics=True)
    parts = result.diagnostics["forum_furniture"]
    assert sum(part.startswith("div#sig") for part in parts) == len(POSTS)
    # The profiles the content holds (``rescued_structures`` rescues those between the first and the last
    # kept post): their statistics.
    assert sum(part.startswith("dd.profile-posts") for part in parts) == len(POSTS) - 1
    unsigned = extract(phpbb_thread(signature=False), diagnostics=True).diagnostics["forum_furniture"]
    assert not any(part.startswith("div#sig") for part in unsigned)


def test_a_xenforo_thread_loses_the_posters_title_banner_and_statistics() -> None:
    text = extract(xenforo_thread()).text
    for post in POSTS:
        assert post in text
    for furniture in (
        "Full Member",
        "7+ Year Member",
        "Reaction score",
        "Jun 29, 2016",
        "Similar threads",
        "Radiator cold",
    ):
        assert furniture not in text
    assert "plumber5" in text


def test_a_labelled_ancestor_of_the_story_is_never_removed() -> None:
    # A page whose whole story lies in an element labelled "signature" (a site's
    # "signature series"): the top block's ancestors stay.
    story = "".join(f"<p>{post}</p>" for post in POSTS)
    html = f"<html><body><div class='signature-series'><div class='story'>{story}</div></div></body></html>"
    assert extract(html).text.splitlines() == POSTS


@pytest.mark.parametrize(
    "text",
    [
        "Posts: 65703",
        "Joined: Mon Jul 19, 2021 12:00 am",
        "Join Date: Aug 2012",
        "Registered: 2012-09-03",
        "Reaction score 10",
        "Likes Received:",
        "4 Likes",
        "1 Like",
    ],
)
def test_a_posters_statistic_is_one(text: str) -> None:
    assert is_forum_stat(text)


@pytest.mark.parametrize(
    "text",
    [
        "reputation",
        "Messages",
        "Joined the team in 2019",
        "Registered nurses earn more than they did",
        "Founded: 1998",
        "Posts: " + "x" * 60,
    ],
)
def test_other_short_texts_are_no_statistic(text: str) -> None:
    assert not is_forum_stat(text)


def test_a_statistic_in_a_sentence_stays() -> None:
    # The scan reads an element whose whole text is a statistic: a label inside a
    # paragraph ("the <b>Posts: 12</b> line") is inline in a longer text, and stays.
    story = "".join(f"<p>{post}</p>" for post in POSTS)
    html = (
        f"<html><body><div>{story}<p>The profile shows a <b>Posts: 12</b> line under each name.</p></div></body></html>"
    )
    assert "The profile shows a Posts: 12 line under each name." in extract(html).text
