"""The metadata rules chosen by two-fold cross-validation on the first dev half
(docs/metadata.md), each on a small hand-made page."""

from __future__ import annotations

import json

import pytest

from scrapy_cetd import extract
from scrapy_cetd.metadata import Metadata, clean_author, parse_date, strip_site_name

BODY = "<p>" + "The council met on Tuesday to discuss the new bridge and its costs. " * 6 + "</p>"


def ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def meta_of(head: str = "", body: str = "", title: str = "Bridge costs double", url: str | None = None) -> Metadata:
    html = f"<html><head><title>{title}</title>{head}</head><body>{body}{BODY}</body></html>"
    result = extract(html, url=url)
    assert result.metadata is not None
    return result.metadata


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12/19/2025", "2025-12-19"),  # month first: the day is above 12
        ("Published: 27/05/2024", "2024-05-27"),  # day first
        ("11-29-2024, 09:03 AM", "2024-11-29"),
        ("03/03/2026 19:44", "2026-03-03"),  # the same either way
        ("03/04/2024", None),  # March or April: no date
        ("| Updated on 19-Dec-2025", "2025-12-19"),
        ("on 04-ago-2021 5:11:10", "2021-08-04"),  # Spanish "agosto", abbreviated
        ("13/14/2024", None),
        ("发布时间：2024年3月5日 10:00", "2024-03-05"),  # Chinese and Japanese
        ("2025년 12월 20일", "2025-12-20"),  # Korean
        ("20 декабря 2025 г.", "2025-12-20"),  # Russian, Polish: the month in the genitive
        ("20 grudnia 2025", "2025-12-20"),
        ("3 maart 2024", "2024-03-03"),  # Dutch, Swedish
        ("12 augusti 2023", "2023-08-12"),
        ("3 października 2024", "2024-10-03"),  # a month name of 12 letters
        ("12 Aralık 2025", "2025-12-12"),  # Turkish, Finnish, Czech, Romanian, Indonesian
        ("12. kesäkuuta 2025", "2025-06-12"),
        ("5. září 2025", "2025-09-05"),
        ("1er décembre 2025", "2025-12-01"),  # ordinals: French "1er", English "5th of"
        ("Last updated on 5th of December, 2025", "2025-12-05"),
        ("December 5,2025", "2025-12-05"),  # no space after the comma
        ("Dec-05-2025", "2025-12-05"),  # dashes, month first or year first
        ("2025-Dec-05", "2025-12-05"),
        ("Version 3 of 2024", None),
    ],
)
def test_numeric_dates_in_either_order_and_dashed_month_names(text: str, expected: str | None) -> None:
    assert parse_date(text) == expected


def test_the_dateline_is_read_at_the_h1_that_agrees_with_the_title() -> None:
    body = "<h1>Search</h1>" + "<p>Menu</p><p>Close</p>" * 35 + "<h1>Bridge costs double</h1><p>December 24, 2024</p>"
    assert meta_of(body=body).date_published == "2024-12-24"


def test_without_h1_the_dateline_is_read_at_the_h2_that_agrees_with_the_title() -> None:
    body = "<h2>Latest</h2><p>Ads</p><h2>Bridge costs double</h2><p>December 17, 2025</p>"
    assert meta_of(body=body).date_published == "2025-12-17"
    # an <h2> unlike the title is no headline: no dateline, no date
    assert meta_of(body="<h2>Latest</h2><p>December 17, 2025</p>").date_published is None


def test_without_h1_or_h2_the_dateline_is_read_at_the_h3_or_h4_that_agrees_with_the_title() -> None:
    body = "<h4>Latest</h4><h4>Bridge costs double</h4><p>BRISTOL, Dec 20, 2025 - The</p>"
    assert meta_of(body=body).date_published == "2025-12-20"
    # a heading unlike the title is no headline: no dateline, no date
    assert meta_of(body="<h4>Latest</h4><p>BRISTOL, Dec 20, 2025 - The</p>").date_published is None


def test_a_published_label_anywhere_after_the_headline_when_nothing_else_dates_the_page() -> None:
    filler = "".join(f"<p>Paragraph {k} of the story about the bridge.</p>" for k in range(80))
    labelled = f"<h1>Bridge costs double</h1>{filler}<div><p>Published</p><p>Feb 2, 2023</p></div>"
    assert meta_of(body=labelled).date_published == "2023-02-02"
    # an unlabelled date that far from the headline is no publish date
    unlabelled = f"<h1>Bridge costs double</h1>{filler}<div><p>Feb 2, 2023</p></div>"
    assert meta_of(body=unlabelled).date_published is None


@pytest.mark.parametrize(
    "label", ["Published", "Veröffentlicht am", "Publié le", "Publicado el", "Pubblicato il", "Опубликовано:"]
)
def test_a_published_label_in_any_of_its_languages(label: str) -> None:
    filler = "".join(f"<p>Paragraph {k} of the story about the bridge.</p>" for k in range(80))
    labelled = f"<h1>Bridge costs double</h1>{filler}<div><p>{label} 02.02.2023</p></div>"
    assert meta_of(body=labelled).date_published == "2023-02-02"


def test_a_members_join_date_is_not_the_publish_date() -> None:
    body = "<h1>Bridge costs double</h1><p>ann_lee</p><p>Joined:</p><p>Nov 4, 2011</p><p>Dec 18, 2025</p>"
    assert meta_of(body=body).date_published == "2025-12-18"
    # the same dates without the label: the first one shown is taken
    unlabelled = "<h1>Bridge costs double</h1><p>ann_lee</p><p>Nov 4, 2011</p><p>Dec 18, 2025</p>"
    assert meta_of(body=unlabelled).date_published == "2011-11-04"


def test_the_last_replys_time_is_not_the_threads_date() -> None:
    last_reply = '<p>last post by</p><a href="/m/ggery">ggery</a><time datetime="2024-09-26">Sep 26</time>'
    first_post = '<p>JosephF</p><p>Discussion starter</p><time datetime="2024-01-03T11:23:42-05:00">Jan 3</time>'
    body = f"<h1>Bridge costs double</h1>{last_reply}{first_post}"
    assert meta_of(body=body).date_published == "2024-01-03T11:23:42-05:00"


def test_a_byline_at_the_headline_naming_someone_else_goes_before_the_declared_author() -> None:
    head = '<meta name="author" content="Luke Daigle">'
    body = "<h1>Bridge costs double</h1><p>November 3, 2023</p><p>By: Paul Fenaroli</p>"
    assert meta_of(head, body).authors == ["Paul Fenaroli"]
    # the declared author shown: it stays; a one-word name (a user name) does not go first
    assert meta_of(head, "<h1>Bridge costs double</h1><p>By Luke Daigle</p>").authors == ["Luke Daigle"]
    assert meta_of(head, "<h1>Bridge costs double</h1><p>By LukeD</p>").authors == ["Luke Daigle"]


@pytest.mark.parametrize(
    ("dateline", "expected"),
    [
        ("<span>Dec 17, 2025</span><span>Julian K. Arni</span>", ["Julian K. Arni"]),
        ("<span>Trond Teigen</span><span>·</span><span>17 December 2025</span>", ["Trond Teigen"]),
        ("<span>Dec 17, 2025</span><span>Ann Lee and Bo Chen</span>", ["Ann Lee", "Bo Chen"]),
        # controls: a category link, the site's name, a title, a menu button, a sentence
        ('<span>Dec 17, 2025</span><a href="/category/news/">Local News</a>', []),
        ("<span>Dec 17, 2025</span><span>The Daily Courier</span>", []),
        ("<span>Dec 17, 2025</span><span>Bridge Costs</span>", []),
        ("<span>Dec 17, 2025</span><button>Developer Tools</button>", []),
        ("<span>Dec 17, 2025</span><span>Read the Story</span>", []),
    ],
)
def test_a_name_beside_the_datelines_date(dateline: str, expected: list[str]) -> None:
    assert meta_of(body=f"<h1>Bridge costs double</h1>{dateline}").authors == expected


@pytest.mark.parametrize(
    "head",
    [
        '<meta property="article:section" content="North Korea">',
        '<meta name="keywords" content="bridges, North Korea">',
    ],
)
def test_the_pages_section_or_tag_beside_the_date_is_no_author(head: str) -> None:
    body = "<h1>Bridge costs double</h1><span>Aug 20, 2019</span><span>North Korea</span>"
    assert meta_of(head, body).authors == []
    # the control: a name beside the date on the same page
    assert meta_of(head, body.replace("North Korea", "Kim Soo-yeon")).authors == ["Kim Soo-yeon"]


@pytest.mark.parametrize("name", ["review-author", "woocommerce-review__author", "comment-author", "Quote_author"])
def test_a_reviewers_or_commenters_name_is_no_byline(name: str) -> None:
    assert meta_of(body=f'<h1>Bridge costs double</h1><span class="{name}">Laura Blake</span>').authors == []
    # the control: the same name in a byline
    byline = '<h1>Bridge costs double</h1><span class="author">Laura Blake</span>'
    assert meta_of(body=byline).authors == ["Laura Blake"]


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ('<h1 class="menu-title">The Rust Programming Language</h1>', "What is Ownership?"),
        ('<h1><a href="https://book.example/">The Rust Programming Language</a></h1>', "What is Ownership?"),
        ('<h1 class="site-title"><a href="/">The Rust Programming Language</a></h1>', "What is Ownership?"),
        # the control: an <h1> that does not say it is the site's name is the headline
        ('<h1 class="website-heading">The Rust Programming Language</h1>', "The Rust Programming Language"),
    ],
)
def test_an_h1_naming_the_site_is_no_title_and_is_dropped_from_it(heading: str, expected: str) -> None:
    title = "What is Ownership? - The Rust Programming Language"
    assert meta_of(body=heading, title=title, url="https://book.example/ch04-01.html").title == expected


@pytest.mark.parametrize("title", ["Thread: Bridge costs double", "View topic - Bridge costs double"])
def test_a_forums_label_before_the_threads_title_is_dropped(title: str) -> None:
    assert meta_of(title=title).title == "Bridge costs double"
    assert meta_of(title="Threads of gold").title == "Threads of gold"  # a word, not the label


def test_other_meta_names_for_the_publish_date() -> None:
    assert meta_of('<meta name="w-published-date" content="2025-05-27T06:03:43Z">').date_published == (
        "2025-05-27T06:03:43+00:00"
    )
    assert meta_of('<meta name="published" content="July 17, 2025">').date_published == "2025-07-17"
    assert meta_of('<meta name="publisher" content="12/19/2025">').date_published is None


def test_a_person_in_the_byline_goes_before_the_site_signing_the_page() -> None:
    organisation = {"@type": "Organization", "name": "GlossGenius"}
    head = ld({"@type": "Article", "headline": "Bridge costs double", "author": organisation})
    byline = '<h1>Bridge costs double</h1><div class="post-author">Shauna Mitchell</div>'
    assert meta_of(head, byline).authors == ["Shauna Mitchell"]
    # the site's own name as the author, the same in the byline: a site is no author
    signed = {"@type": "Person", "name": "GlossGenius"}
    head = ld({"@type": "Article", "headline": "Bridge costs double", "author": signed})
    head += '<meta property="og:site_name" content="GlossGenius">'
    assert meta_of(head, '<h1>Bridge costs double</h1><div class="author">GlossGenius</div>').authors == []
    assert meta_of(head, "<h1>Bridge costs double</h1>").authors == []
    # a person-typed author is no organisation, whatever the byline says
    ann = {"@type": "Person", "name": "Ann Lee"}
    person = ld({"@type": "Article", "headline": "Bridge costs double", "author": ann})
    assert meta_of(person, byline).authors == ["Ann Lee"]


def test_a_byline_holding_the_outlet_beside_the_person_gives_the_person() -> None:
    signed = {"@type": "Person", "name": ", USA TODAY"}  # a CMS's empty name, then the outlet
    head = ld({"@type": "NewsArticle", "headline": "Bridge costs double", "author": signed})
    head += '<meta property="og:site_name" content="USA TODAY">'
    byline = (
        '<h1>Bridge costs double</h1><div class="byline-section"><span class="author">'
        '<a href="/staff/1/brian-truitt/">Brian Truitt</a></span> <span>USA TODAY</span></div>'
    )
    assert meta_of(head, byline).authors[0] == "Brian Truitt"


@pytest.mark.parametrize(
    "path", ["/author/jane-doe/", "/authors/jane-doe", "/staff/1234/jane-doe/", "/contributors/jdoe"]
)
def test_a_link_to_a_writers_page_is_a_byline(path: str) -> None:
    byline = f'<h1>Bridge costs double</h1><p><a href="https://news.example{path}">Jane Doe</a></p>'
    assert meta_of(body=byline).authors == ["Jane Doe"]


def test_a_link_to_the_staff_directory_is_no_byline() -> None:
    byline = '<h1>Bridge costs double</h1><p><a href="https://news.example/staff/">Our Staff Today</a></p>'
    assert meta_of(body=byline).authors == []


def test_user_names_with_digits_are_names() -> None:
    assert clean_author("Ejp55230") == ["Ejp55230"]
    assert clean_author("luizjr4") == ["luizjr4"]
    assert clean_author("2024") == clean_author("Q3") == clean_author("Posted 12") == []
    assert clean_author("Insights from") == []  # a byline's label, the name in the next element


def test_a_forum_threads_first_post_author_in_microdata() -> None:
    post = (
        '<div class="message"><span itemprop="author" itemscope><span itemprop="name">{}</span></span>'
        "<p>" + "My projector is getting long in the tooth, any advice on a new one? " * 3 + "</p></div>"
    )
    headline = "<div>" * 6 + "<h1>Bridge costs double</h1>" + "</div>" * 6  # the first post is outside its box
    body = post.format("JosephF") + headline + post.format("eljaycanuck") * 3
    assert meta_of(body=body).authors == ["JosephF"]


@pytest.mark.parametrize(
    ("published", "modified", "shown", "expected"),
    [
        ("2025-06-12", "2025-06-10", "November 2, 2022", "2022-11-02"),  # an earlier shown date
        ("2022-10-24", "2022-12-02", "October 30, 2022", "2022-10-24"),  # a later one: declared
        ("2025-08-21", "2025-08-20", "<p>Published</p><p>Apr 26, 2023</p><p>Updated Aug 21, 2025</p>", "2023-04-26"),
        ("2025-08-21", "2025-08-20", "<p>Posted on: Sep 1, 2025</p>", "2025-09-01"),  # labelled, even later
    ],
)
def test_a_date_shown_at_the_headline_against_the_declared_one(
    published: str, modified: str, shown: str, expected: str
) -> None:
    head = ld({"@type": "Article", "headline": "Bridge costs double", "datePublished": published,
               "dateModified": modified})
    assert meta_of(head, f"<h1>Bridge costs double</h1><div>{shown}</div>").date_published == expected


def test_without_a_declared_date_the_published_label_wins_over_the_first_date() -> None:
    body = "<h1>Bridge costs double</h1><p>Updated Aug 21, 2025</p><p>Published: Apr 26, 2023</p>"
    assert meta_of(body=body).date_published == "2023-04-26"


def test_a_line_break_in_the_headline_is_a_space() -> None:
    body = "<h1>Data Analytics<span><br>Agency</span> <!-- hero --> in Ohio</h1>"
    assert meta_of(body=body, title="Data Analytics Agency in Ohio | Punto").title == "Data Analytics Agency in Ohio"
    assert meta_of(body="<h1>Beg<b>in</b>ner guide</h1>", title="Beginner guide").title == "Beginner guide"


@pytest.mark.parametrize(
    ("signature", "expected"),
    [
        ("<p>Article by</p><p>Matias Heikkilä</p>", ["Matias Heikkilä"]),
        ("<p>Last updated March 3, 2025 by</p><p>Erik Demaine</p>", ["Erik Demaine"]),
        ("<p>Written by John Crenshaw</p>", ["John Crenshaw"]),
        ("<p>Sort by</p><p>Featured</p>", []),  # a control, not a signature
        ("<p>By this time</p>", []),  # a sentence
    ],
)
def test_a_post_signed_after_its_text(signature: str, expected: list[str]) -> None:
    paragraphs = "".join(f"<p>Paragraph {k} of the story, long enough to be text.</p>" for k in range(40))
    assert meta_of(body=f"<h1>Bridge costs double</h1>{paragraphs}{signature}").authors == expected


def test_a_short_suffix_after_a_separator_is_dropped() -> None:
    assert strip_site_name("Best Residential Movers in NYC 2025 | Top 19 Companies") == (
        "Best Residential Movers in NYC 2025"
    )
    assert strip_site_name("15 Language Learning Apps Compared - Personally Tested") == (
        "15 Language Learning Apps Compared"
    )
    # a second half as long as the first is part of the title
    assert strip_site_name("Cats and dogs: a history of two house pets") == "Cats and dogs: a history of two house pets"
    assert strip_site_name("Electrical safety - Overview of the rules") == "Electrical safety - Overview of the rules"


@pytest.mark.parametrize(
    ("head", "title", "body", "expected"),
    [
        # the <h1> is the <title>'s first part: the rest is the site's or the section's
        ("", "News | National Student Support Accelerator", "<h1>News</h1>", "News"),
        ("", "Introduction - From Zero to QED", "<h1>From Zero to QED</h1><h1>Introduction</h1>", "Introduction"),
        # the <h1> is og:title, the JSON-LD headline a summary
        (
            ld({"@type": "Article", "headline": "Sample menus"})
            + '<meta property="og:title" content="7 days of healthy meals">',
            "7 days of healthy meals - Magazine",
            "<h1>7 days of healthy meals</h1>",
            "7 days of healthy meals",
        ),
        # a Sphinx heading's "¶"
        ("", "Quickstart — Flask Documentation (3.1.x)", "<h1>Quickstart¶</h1>", "Quickstart"),
        # an <h1> with the site's name is not the headline
        (
            '<meta property="og:site_name" content="TFH Online Forum">',
            "Which fish to buy - TFH Online Forum",
            "<h1>TFH Online Forum</h1><h1>Which fish to buy</h1>",
            "Which fish to buy",
        ),
        # the whole title in the <h1> still loses its short suffix
        (
            "",
            "Best Residential Movers in NYC 2025 | Top 19 Companies",
            "<h1>Best Residential Movers in NYC 2025 | Top 19 Companies</h1>",
            "Best Residential Movers in NYC 2025",
        ),
    ],
)
def test_the_h1_that_a_declared_title_confirms(head: str, title: str, body: str, expected: str) -> None:
    assert meta_of(head, body, title=title).title == expected


@pytest.mark.parametrize(
    ("post", "expected"),
    [
        ('<dt><a class="username" href="/u/1">galitsyn</a></dt>', ["galitsyn"]),  # phpBB
        ('<div><a class="bigusername" href="/u/2">microfast</a></div>', ["microfast"]),  # vBulletin
        ('<div class="PostUser"><h3 class="PostUser-name">antonjw</h3></div>', ["antonjw"]),  # Flarum
        ('<div class="username">Hi <span class="welcome-name"></span></div>', []),  # a greeting
        ('<span class="username-sign-in">Sign in</span>', []),  # an account menu
        ('<a class="username">http://spam.example.com</a>', []),  # garbage: a URL
        ('<a class="username"></a>', []),
    ],
)
def test_a_forum_threads_first_poster_by_user_name_class(post: str, expected: list[str]) -> None:
    body = f"<h1>Bridge costs double</h1>{post}"
    assert meta_of(body=body).authors == expected


def test_a_user_name_class_without_a_name_before_the_headline_is_passed_over() -> None:
    """The greeting of an account menu before the thread does not hide its first poster."""
    body = (
        '<header><div class="username">Hi</div></header>'
        + '<main><div><div><div><h1>Bridge costs double</h1><a class="username" href="/u/1">galitsyn</a>'
        + "</div></div></div></main>"
    )
    assert meta_of(body=body).authors == ["galitsyn"]


def test_a_first_part_that_contains_the_site_name_is_the_headline() -> None:
    title = "Gymshark Arrival T-Shirt - Black | Gymshark"
    assert strip_site_name(title, ["Gymshark"]) == "Gymshark Arrival T-Shirt - Black"
    title = "Visual Studio Community | Download Latest Free Version"
    assert strip_site_name(title, ["Visual Studio"]) == title  # was "Download Latest Free Version"
    # a later part that contains it is still the site's
    assert strip_site_name("Why ISO images grow / Arch Linux Forums", ["archlinux"]) == "Why ISO images grow"


@pytest.mark.parametrize(
    "h1",
    [
        "<h1><span>Dec 18 2025</span> Preparing a transition</h1>",
        "<h1>Preparing a transition <small>Posted on July 1, 2024 by infuy</small></h1>",
    ],
)
def test_a_date_written_into_the_h1_is_not_the_headlines(h1: str) -> None:
    assert meta_of(body=h1, title="Preparing a transition").title == "Preparing a transition"
    # a date that is part of the declared title stays
    h1 = "<h1>Markets on May 3, 2025: live updates</h1>"
    assert meta_of(body=h1, title="Markets on May 3, 2025").title == "Markets on May 3, 2025: live updates"


def test_a_link_to_the_authors_page_is_a_byline() -> None:
    body = '<h1>Bridge costs double</h1><p><a href="/blog/author/ann-lee-and-bo-chen">Ann Lee and Bo Chen</a></p>'
    assert meta_of(body=body).authors == ["Ann Lee", "Bo Chen"]
    # a link to "/authorization" is none
    assert meta_of(body='<h1>Bridge costs double</h1><a href="/authorization">Card Authorization</a>').authors == []


@pytest.mark.parametrize(
    ("byline", "name"),
    [
        ("Von Hans Müller", "Hans Müller"),
        ("Autor: Jan Kowalski", "Jan Kowalski"),
        ("Автор: Иван Петров", "Иван Петров"),
        ("Redacción: María López", "María López"),
        ("بقلم محمد علي", "محمد علي"),  # a script without case
    ],
)
def test_a_byline_run_in_another_language_names_the_author(byline: str, name: str) -> None:
    assert meta_of(body=f"<h1>Bridge costs double</h1><p>{byline}</p>").authors == [name]


@pytest.mark.parametrize("sentence", ["Par ailleurs", "Por favor", "Door de regen"])
def test_a_sentence_opening_with_by_in_another_language_names_no_one(sentence: str) -> None:
    assert meta_of(body=f"<h1>Bridge costs double</h1><p>{sentence}</p>").authors == []


def test_a_title_of_the_sites_name_and_its_motto_does_not_overrule_the_headline() -> None:
    body = "<h1>Enameled cast iron pan and metal</h1>"
    meta = meta_of(body=body, title="Reddit - The heart of the internet", url="https://www.reddit.com/r/castiron/x")
    assert meta.title == "Enameled cast iron pan and metal"
    # with the name last, an <h1> unlike the title is a section's: the title stays
    meta = meta_of(body="<h1>Latest news</h1>", title="Bridge costs double | Riverside", url="https://riverside.com/a")
    assert meta.title == "Bridge costs double"


def test_a_headline_holding_the_sites_name_and_an_ampersand_is_still_the_headline() -> None:
    body = '<h1 class="site-hero__heading">Terminix discounts, coupons, and promo codes</h1>'
    head = ld({"@type": "WebPage", "headline": "Pest control deals and offers"})
    meta = meta_of(head=head, body=body, title="Terminix Discounts, Coupons &amp; Promo Codes | Terminix",
                   url="https://www.terminix.com/coupons/")
    assert meta.title == "Terminix discounts, coupons, and promo codes"
    # a heading that is the site's name is none
    meta = meta_of(body='<h1 class="site-title">Terminix</h1>', title="Promo codes | Terminix",
                   url="https://www.terminix.com/coupons/")
    assert meta.title == "Promo codes"


def test_a_thread_started_by_someone_names_its_author() -> None:
    body = "<h1>How is everyone using AI?</h1><p>Started by Biology Forums, June 04, 2024, 11:23:55 AM</p>"
    assert meta_of(body=body).authors == ["Biology Forums"]


def test_a_headline_with_another_title_part_glued_on_is_the_titles_first_part() -> None:
    """The site's name as a link inside the ``<h1>``, with no space before it."""
    title = "Council agrees to rebuild the harbour wall » Local » The Gazette"
    body = "<h1><span>Council agrees to rebuild the harbour wall</span><a href='/local'>The Gazette</a></h1>"
    assert meta_of(body=body, title=title).title == "Council agrees to rebuild the harbour wall"
    # the control: a headline going on with words of its own stays whole
    longer = body.replace("The Gazette", ", says the mayor")
    assert meta_of(body=longer, title=title).title == "Council agrees to rebuild the harbour wall, says the mayor"
