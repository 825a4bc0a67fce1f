"""Article metadata from small hand-made pages, one source kind each, plus conflicts and garbage."""

from __future__ import annotations

import json
import time

import pytest

from scrapy_cetd import extract
from scrapy_cetd.evaluation.metadata import score_author, score_date, score_title
from scrapy_cetd.metadata import Metadata, clean_author, extract_metadata, parse_date, strip_site_name
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html

BODY = "<p>" + "The council met on Tuesday to discuss the new bridge and its costs. " * 6 + "</p>"


def page(head: str = "", body: str = "", lang: str = "") -> str:
    attribute = f' lang="{lang}"' if lang else ""
    return f"<html{attribute}><head><title>Page</title>{head}</head><body>{body}{BODY}</body></html>"


def ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def meta_of(html: str, url: str | None = "https://news.example.com/story") -> Metadata:
    result = extract(html, url=url)
    assert result.metadata is not None
    return result.metadata


def test_json_ld_graph_with_author_reference() -> None:
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebSite", "@id": "#site", "name": "The Daily Example"},
            {"@type": "Person", "@id": "#ann", "name": "Ann Lee"},
            {
                "@type": "NewsArticle", "headline": "Bridge costs double", "author": {"@id": "#ann"},
                "datePublished": "2024-05-01T09:30:00+02:00", "dateModified": "2024-05-02",
                "image": {"@type": "ImageObject", "url": "/img/bridge.jpg"}, "keywords": "bridge, council",
                "articleSection": "Local",
            },
        ],
    }
    meta = meta_of(page(ld(graph)))
    assert meta.title == "Bridge costs double"
    assert meta.authors == ["Ann Lee"]
    assert meta.date_published == "2024-05-01T09:30:00+02:00" and meta.date_modified == "2024-05-02"
    assert meta.image == "https://news.example.com/img/bridge.jpg"
    assert meta.tags == ["bridge", "council"] and meta.section == "Local"
    assert meta.declared_page_type == "NewsArticle" and meta.site_name == "The Daily Example"


@pytest.mark.parametrize(
    ("nodes", "image"),
    [
        # Yoast's graph: the article's image is a reference to an ImageObject node.
        ([{"@type": "ImageObject", "@id": "https://news.example.com/story#primaryimage", "url": "/up/bridge.jpg"}],
         "https://news.example.com/up/bridge.jpg"),
        ([{"@type": "ImageObject", "@id": "https://news.example.com/story#primaryimage", "contentUrl": ["/a.png"]}],
         "https://news.example.com/a.png"),
        # A reference to no node names no file: og:image is read instead.
        ([], "https://cdn.example.com/og.jpg"),
    ],
)
def test_json_ld_image_reference_is_resolved_never_taken_for_the_address(nodes: list[object], image: str) -> None:
    article = {
        "@type": "Article", "headline": "Bridge costs double",
        "image": {"@id": "https://news.example.com/story#primaryimage"},
    }
    head = ld({"@context": "https://schema.org", "@graph": [article, *nodes]})
    head += '<meta property="og:image" content="https://cdn.example.com/og.jpg">'
    assert meta_of(page(head)).image == image


@pytest.mark.parametrize(
    ("author", "names"),
    [
        ({"@type": "Person", "name": "By Ann Lee"}, ["Ann Lee"]),
        ([{"@type": "Person", "name": "Ann Lee"}, {"@type": "Person", "name": "Bo Chen"}], ["Ann Lee", "Bo Chen"]),
        (["Ann Lee", "Bo Chen"], ["Ann Lee", "Bo Chen"]),
    ],
)
def test_json_ld_author_as_object_and_as_list(author: object, names: list[str]) -> None:
    data = [{"@type": "BlogPosting", "headline": "H", "author": author}]
    assert meta_of(page(ld(data))).authors == names


def test_opengraph_tags_only() -> None:
    head = (
        '<meta property="og:title" content="Bridge costs double | The Daily Example">'
        '<meta property="og:site_name" content="The Daily Example">'
        '<meta property="article:published_time" content="2024-05-01T07:00:00Z">'
        '<meta name="author" content="Ann Lee">'
        '<meta property="og:type" content="article"><meta property="og:locale" content="en_GB">'
        '<meta property="og:image" content="https://cdn.example.com/a.jpg">'
        '<link rel="canonical" href="/story">'
    )
    meta = meta_of(page(head))
    assert meta.title == "Bridge costs double"
    assert meta.date_published == "2024-05-01T07:00:00+00:00"
    assert meta.authors == ["Ann Lee"] and meta.declared_page_type == "article" and meta.language == "en-GB"
    assert meta.canonical_url == "https://news.example.com/story"


def test_microdata_only() -> None:
    body = (
        '<article itemscope itemtype="https://schema.org/Article"><h2 itemprop="headline">Bridge costs double</h2>'
        '<span itemprop="author" itemscope><span itemprop="name">Ann Lee</span></span>'
        '<meta itemprop="datePublished" content="2024-05-01"></article>'
    )
    meta = meta_of(page(body=body))
    assert (meta.title, meta.authors, meta.date_published) == ("Bridge costs double", ["Ann Lee"], "2024-05-01")


def test_byline_only() -> None:
    body = '<h1>Bridge costs double</h1><p class="byline">By Ann Lee and Bo Chen, Staff Reporters</p>'
    meta = meta_of(page(body=body, lang="en"))
    assert meta.authors == ["Ann Lee", "Bo Chen"] and meta.language == "en"


@pytest.mark.parametrize(
    ("title", "h1", "expected"),
    [
        ("Bridge costs double, council says | The Daily Example", "Bridge costs double", "Bridge costs double"),
        ("Bridge costs double | The Daily Example", "Latest news", "Bridge costs double"),
    ],
)
def test_the_h1_is_the_headline_when_it_agrees_with_the_title(title: str, h1: str, expected: str) -> None:
    html = f"<html><head><title>{title}</title></head><body><h1>{h1}</h1>{BODY}</body></html>"
    assert meta_of(html).title == expected


def test_date_only_in_the_url() -> None:
    meta = meta_of(page(), url="https://news.example.com/2024/05/01/bridge-costs-double/")
    assert meta.date_published == "2024-05-01"


@pytest.mark.parametrize("url", ["http://[::1/2024/05/01/story", "https://[bad/"])
def test_a_page_url_that_does_not_parse_gives_no_host_or_url_date(url: str) -> None:
    html = page(head='<link rel="canonical" href="https://news.example.com/story">', body="<h1>Page</h1>")
    meta = meta_of(html, url=url)
    assert meta.title == "Page"
    assert meta.date_published is None
    assert meta.canonical_url == "https://news.example.com/story"  # absolute: it needs no base


def test_dateline_near_the_headline() -> None:
    meta = meta_of(page(body="<h1>Bridge</h1><div>Updated May 4, 2024</div>"), url=None)
    assert meta.date_published == "2024-05-04"


@pytest.mark.parametrize(
    ("published", "modified", "shown", "expected"),
    [
        ("2024-05-01", "2024-06-10", "May 20, 2024", "2024-05-01"),  # a shown date unlike both: declared
        ("2024-05-01", "2024-06-10", "June 10, 2024", "2024-06-10"),  # the shown modified date, unmarked
        ("2024-05-01", "2024-06-10", "Updated June 10, 2024", "2024-05-01"),  # marked as the modified one
        ("2024-05-01", "2024-06-10", "May 1, 2024 · Updated June 10, 2024", "2024-05-01"),  # both shown
        ("2025-12-01", "2025-12-01", "April 24, 2020", "2020-04-24"),  # a build stamp, an earlier date shown
        ("2025-12-01", "2025-12-01", "December 20, 2025", "2025-12-01"),  # a later shown date: declared
    ],
)
def test_the_declared_date_checked_against_the_dateline(
    published: str, modified: str, shown: str, expected: str
) -> None:
    head = ld({"@type": "Article", "headline": "Bridge", "datePublished": published, "dateModified": modified})
    meta = meta_of(page(head, f"<h1>Bridge</h1><div>{shown}</div>"), url=None)
    assert meta.date_published == expected


def test_author_in_twitter_label_and_data() -> None:
    head = '<meta name="twitter:label1" content="Written by"><meta name="twitter:data1" content="Tyler Brown">'
    assert meta_of(page(head)).authors == ["Tyler Brown"]


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        ("<p>By Sofia Gonzalez</p>", ["Sofia Gonzalez"]),
        ("<p>Written by</p><p>Edzel Tabing</p>", ["Edzel Tabing"]),
        ("<p>By following the tips below, you stay safe.</p>", []),
    ],
)
def test_author_in_a_by_line_near_the_headline(byline: str, expected: list[str]) -> None:
    assert meta_of(page(body=f"<h1>Bridge</h1>{byline}"), url=None).authors == expected


def test_json_ld_wins_over_meta_tags() -> None:
    head = ld({"@type": "Article", "headline": "From JSON-LD", "author": "Ann Lee", "datePublished": "2024-05-01"}) + (
        '<meta property="og:title" content="From OpenGraph"><meta name="author" content="Bo Chen">'
        '<meta property="article:published_time" content="2023-01-01">'
    )
    meta = meta_of(page(head))
    assert (meta.title, meta.authors, meta.date_published) == ("From JSON-LD", ["Ann Lee"], "2024-05-01")


def test_garbage_gives_no_value_and_no_exception() -> None:
    head = (
        '<script type="application/ld+json">{"@type": "Article", "headline": </script>'
        '<meta property="article:published_time" content="not a date">'
        '<meta name="author" content="https://www.facebook.com/example">'
        '<meta property="article:author" content="editor@example.com">'
    )
    meta = meta_of(page(head), url="https://news.example.com/story")
    assert meta.authors == [] and meta.date_published is None
    assert meta.title == "Page"


def test_text_fields_are_text() -> None:
    """A description written as markup comes out as its text (angle brackets that are not
    HTML stay); a "section" holding a summary is none; a page is not modified before it
    is published; an image's address is escaped; a site's internal fields are no tags."""
    article = {
        "@type": "Article", "headline": "H", "datePublished": "2024-05-03", "dateModified": "2024-05-01",
        "description": "<p>We built <strong>Mini</strong>, a <a href='/x'>server</a>.</p><p>It runs.</p>",
        "articleSection": "A summary of the story, which some sites give here instead of the section's name.",
        "image": "/files/Link Photo.png",
    }
    meta = meta_of(page(ld(article)))
    assert meta.description == "We built Mini, a server. It runs."
    assert meta.section is None and meta.date_modified is None and meta.date_published == "2024-05-03"
    assert meta.image == "https://news.example.com/files/Link%20Photo.png"
    article.update(description="Use Result&lt;bool, Error&gt; here", dateModified="2024-05-04", articleSection="Local")
    article["keywords"] = ["Travel: Europe", "locale: US", "contentId: 15cd344d", "rail"]
    meta = meta_of(page(ld(article)))
    assert meta.description == "Use Result<bool, Error> here"
    assert meta.tags == ["Travel: Europe", "rail"]
    assert (meta.section, meta.date_modified) == ("Local", "2024-05-04")


def test_a_sort_order_is_no_byline() -> None:
    """A shop's "Sort: By Review" drop-down beside the headline names no author; a byline
    there does."""
    sort = "<select><option>By Price</option><option>By Review</option></select>"
    story = "<p>" + "The blend is smooth and the tin keeps it fresh for weeks. " * 6 + "</p>"
    html = f"<html><head><title>Coffee</title></head><body><h1>Coffee</h1>{sort}{story}</body></html>"
    assert extract(html).metadata.authors == []
    signed = html.replace(sort, sort + "<p>By Jane Doe</p>")
    assert extract(signed).metadata.authors == ["Jane Doe"]


def test_an_address_is_no_section_and_no_site_name() -> None:
    """A page giving its own URL as ``articleSection``, or a link as its site's name, has
    no such section or name; the next source's name is read."""
    article = {"@type": "Article", "headline": "H", "articleSection": "https://news.example.com/blog/story/"}
    head = (
        '<meta name="twitter:site" content="http://@courier">'
        '<meta name="application-name" content="https://news.example.com/">'
        '<meta name="apple-mobile-web-app-title" content="The Courier">'
    )
    meta = meta_of(page(ld(article) + head))
    assert meta.section is None and meta.site_name == "The Courier"


def test_a_tag_and_its_slug_are_one_tag() -> None:
    """A site writing each tag twice, as shown and as its slug (``sailthru.tags``), gives
    each tag once, as shown, in the order first written; different tags stay apart."""
    head = '<meta name="sailthru.tags" content="weight-loss,Weight Loss,diets,Diets,Prevention-US,diet-plans,C++,c">'
    meta = meta_of(page(head))
    assert meta.tags == ["Weight Loss", "Diets", "Prevention-US", "diet-plans", "C++", "c"]


def test_urls_are_absolute_or_none() -> None:
    """Relative URLs resolve against the document's base (``<base href>``, else the page's
    URL); without one they cannot be made absolute and are left out."""
    head = '<link rel="canonical" href="/story"><meta property="og:image" content="img/a.jpg">'
    meta = meta_of(page(head), url=None)
    assert (meta.canonical_url, meta.image) == (None, None)
    extra_slashes = '<meta property="og:image" content="https:////cdn.example.org/a.jpg">'
    assert meta_of(page(extra_slashes)).image == "https://cdn.example.org/a.jpg"
    meta = meta_of(page(head + '<base href="https://cdn.example.org/news/">'), url=None)
    assert (meta.canonical_url, meta.image) == ("https://cdn.example.org/story", "https://cdn.example.org/news/img/a.jpg")


def test_an_image_named_by_https_too_is_given_by_https() -> None:
    """Shopify's ``og:image`` is plain HTTP with the same address by HTTPS beside it
    (``og:image:secure_url``); another secure image does not replace the first."""
    shop = (
        '<meta property="og:image" content="http://shop.example.com/cdn/wallet.jpg?v=1">'
        '<meta property="og:image:secure_url" content="https://shop.example.com/cdn/wallet.jpg?v=1">'
    )
    assert meta_of(page(shop)).image == "https://shop.example.com/cdn/wallet.jpg?v=1"
    other = shop.replace("https://shop.example.com/cdn/wallet.jpg", "https://cdn.example.net/other.jpg")
    assert meta_of(page(other)).image == "http://shop.example.com/cdn/wallet.jpg?v=1"


def test_declared_language_variants_and_http_dates_with_their_time() -> None:
    head = '<meta property="article:published_time" content="Wed, 01 May 2024 09:30:00 GMT">'
    meta = meta_of(page(head, lang="de-DE-1996"))
    assert (meta.language, meta.date_published) == ("de-DE-1996", "2024-05-01T09:30:00+00:00")


def test_without_metadata_the_title_is_the_pages() -> None:
    result = extract(page(ld({"@type": "Article", "headline": "H"})), with_metadata=False)
    assert result.metadata is None and result.title == "Page"
    assert "metadata" in result.to_dict()


def test_an_svg_icons_title_is_not_the_pages_title() -> None:
    icons = (
        '<svg style="display:none"><symbol id="li"><title>LinkedIn</title><path d="M0 0"/></symbol></svg>'
        '<a href="/share"><svg><title>Facebook</title><use href="#fb"/></svg></a>'
    )
    story = "<p>" + "The desk rises and falls at the touch of a button, quietly. " * 6 + "</p>"
    html = f"<html><head></head><body>{icons}<main><h1>Deep Standing Desk</h1>{story}</main></body></html>"
    assert extract(html, with_metadata=False).title is None  # no <title> of its own
    assert extract(html).title == "Deep Standing Desk"  # the headline
    with_title = html.replace("<head></head>", "<head><title>Deep Standing Desk | Uplift</title></head>")
    assert extract(with_title, with_metadata=False).title == "Deep Standing Desk | Uplift"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-05-01T09:30:00.000Z", "2024-05-01T09:30:00+00:00"),
        ("2024-05-01T09:30:00-0500", "2024-05-01T09:30:00-05:00"),
        ("May 4th, 2023", "2023-05-04"),
        ("4. Mai 2023", "2023-05-04"),
        ("04.05.2023", "2023-05-04"),
        ("4. 5. 2023", "2023-05-04"),  # Czech, Slovak
        ("4 Μαΐου 2023", "2023-05-04"),  # Greek, Ukrainian, Slovak and Hungarian month names
        ("4 травня 2023 р.", "2023-05-04"),
        ("4. mája 2023", "2023-05-04"),
        ("2023. május 4.", "2023-05-04"),  # the year first
        ("2023. máj. 4.", "2023-05-04"),
        ("ngày 4 tháng 5 năm 2023", "2023-05-04"),  # Vietnamese
        ("4 Tháng 5, 2023", "2023-05-04"),
        ("2024-02-30", None),
        ("&amp;#8211;", None),
        ("yesterday", None),
        (None, None),
    ],
)
def test_parse_date(text: str | None, expected: str | None) -> None:
    assert parse_date(text) == expected


def test_clean_author() -> None:
    assert clean_author("By Maria Okafor 2026-11-14") == ["Maria Okafor"]
    assert clean_author("Dylan Bailey, MS, RD") == ["Dylan Bailey"]
    assert clean_author("John Smith, Staff Writer") == clean_author("John Smith, Contributing Editor") == ["John Smith"]
    assert clean_author("Podium Staff") == ["Podium Staff"]  # a byline of the staff is an author
    assert clean_author("ann@example.com") == clean_author("https://example.com/ann") == []
    assert clean_author(42) == []


@pytest.mark.parametrize(
    ("metas", "expected"),
    [
        (["Roy, Aniruddha", "Patel, Jyoti"], ["Aniruddha Roy", "Jyoti Patel"]),  # Google Scholar's tags
        (["Kaufman, Jeff T."], ["Jeff T. Kaufman"]),
        (["Jong, Michiel de"], ["Michiel de Jong"]),  # a particle stays with the surname
        (["Smith, J.; Doe, K."], ["J. Smith", "K. Doe"]),
        (["Jane Doe"], ["Jane Doe"]),
        (["Jane Doe, Editor"], ["Jane Doe"]),  # a job after the comma: the name stays first
        (["Dylan Bailey, MS"], ["Dylan Bailey"]),
    ],
)
def test_citation_authors_written_surname_first_are_one_person_each(metas: list[str], expected: list[str]) -> None:
    head = "".join(f'<meta name="citation_author" content="{name}">' for name in metas)
    assert meta_of(page(head)).authors == expected


@pytest.mark.parametrize("name", ["DC.creator", "dcterms.creator"])
def test_dublin_core_creators_written_surname_first(name: str) -> None:
    assert meta_of(page(f'<meta name="{name}" content="Jong, Michiel de">')).authors == ["Michiel de Jong"]


def test_only_one_person_tags_are_read_surname_first() -> None:
    """A plain ``author`` meta with a comma names two people, as bylines do."""
    assert meta_of(page('<meta name="author" content="Roy, Patel">')).authors == ["Roy", "Patel"]


def test_an_author_name_escaped_in_json_ld_is_read_as_shown() -> None:
    """Yoast writes entities into JSON-LD strings: "Maria &amp; Katerina" is two people, no "amp"."""
    data = {"@type": "Article", "headline": "A trip", "author": {"@type": "Person", "name": "Maria &amp; Katerina"}}
    assert meta_of(page(ld(data))).authors == ["Maria", "Katerina"]


@pytest.mark.parametrize(
    "byline",
    [
        "Door Jan Jansen", "Autor: Jan Kowalski", "Napisał Jan Kowalski", "Redacción: Jan Pérez", "Texto: Jan Silva",
        "Автор: Jan Petrov", "Yazar: Jan Yılmaz", "Kirjoittaja: Jan Virtanen", "Tác giả: Jan Nguyễn", "Από Jan Papas",
    ],
)
def test_bylines_labelled_in_other_languages_and_the_name_jan(byline: str) -> None:
    assert clean_author(byline) == [byline.split()[-2] + " " + byline.split()[-1]]


def test_a_month_alone_is_no_name() -> None:
    assert clean_author("Jan 5, 2024") == clean_author("Jan. 2024") == clean_author("Mai") == []
    assert clean_author("Jane Doe, Jan 5") == ["Jane Doe"]


@pytest.mark.parametrize(
    "byline",
    [
        "Jane Doe (AP)",  # a wire's credit
        "Jane Doe @janedoe",  # a handle
        "By Jane Doe, for The Courier",  # the outlet written for
        "By Jane Doe, Special to The Times",
        "Reporting by Jane Doe; Editing by Bob Roe",  # the editor is no author
        "Jane Doe Senior Staff Writer",  # the job without a comma
        "Jane Doe Contributor",
    ],
)
def test_news_bylines_give_the_name_alone(byline: str) -> None:
    assert clean_author(byline) == ["Jane Doe"]


def test_a_teams_byline_keeps_its_job_word() -> None:
    assert clean_author("The Currency editors") == ["The Currency editors"]
    assert clean_author("Sports Editor") == ["Sports Editor"]


def test_strip_site_name() -> None:
    assert strip_site_name("Bridge costs double | The Daily Example", ["The Daily Example"]) == "Bridge costs double"
    assert strip_site_name("The Daily Example - Bridge costs double", ["The Daily Example"]) == "Bridge costs double"
    assert strip_site_name("Cats: a history of the house cat", []) == "Cats: a history of the house cat"


def test_scores() -> None:
    assert score_title("Bridge costs double!", "bridge costs DOUBLE") == (True, 1.0)
    assert score_title("Bridge costs", "Bridge costs double")[1] == pytest.approx(0.8)
    assert score_author(["Ann Lee", "Bo Chen"], "Ann Lee and Bo Chen")
    assert not score_author(["Bo Chen"], "Ann Lee")
    assert score_date("2024-05-01T23:00:00+00:00", "2024-05-01") and not score_date(None, "2024-05-01")


def test_language_detected_when_the_page_declares_none() -> None:
    pytest.importorskip("py3langid")  # the ``metadata`` extra (in ``test``)
    assert meta_of(page()).language == "en"
    german = "<p>" + "Der Gemeinderat hat am Dienstag über die neue Brücke und ihre Kosten beraten. " * 6 + "</p>"
    assert meta_of(f"<html><body>{german}</body></html>").language == "de"
    assert meta_of(page(lang="fr-ca")).language == "fr-CA"  # declared wins, as BCP 47


def test_byline_labels_run_into_names() -> None:
    assert clean_author("Reyan PerumalPublished Dec 3") == ["Reyan Perumal"]
    assert clean_author("DeMarco Jones") == ["DeMarco Jones"]
    assert clean_author("Feb") == clean_author("Coming Soon! New colours") == []


@pytest.mark.parametrize(
    "url",
    [
        "https://news.example.com/img/a.jpg",
        "http://cdn.example.org",
        "https://news.example.com/a?size=2",
        "https://news.example.com/a#top",
        "https://news.example.com/a?",  # urljoin drops an empty query or fragment
        "https://news.example.com/a#",
        "https://news.example.com/a\tb",  # and a tab
        "https://news.example.com/a;v=1",
        "HTTPS://News.Example.com/a",
        "https://user@news.example.com:8080/a",
        "//cdn.example.org/a.jpg",
        "/img/a.jpg",
        "a.jpg",
        "ftp://files.example.org/a",
        "https://news.example.com/files/Link Photo.png",
        "https://news.example.com/café.jpg",
    ],
)
@pytest.mark.parametrize("base", ["https://news.example.com/2024/story", "http://www.example.org/"])
def test_urls_are_made_absolute_as_urljoin_does(url: str, base: str) -> None:
    """The plain absolute URLs kept without calling ``urljoin`` are those it returns
    unchanged; w3lib escapes what a URL cannot hold as it is (a space, "é")."""
    from urllib.parse import urljoin, urlsplit

    from w3lib.url import safe_url_string

    from scrapy_cetd.metadata.urls import _absolute, _host_name

    joined = urljoin(base, url)
    unsafe = any(not "\x21" <= ch <= "\x7e" or ch in '"<>\\^`{|}' for ch in joined)
    assert _absolute(url, base) == (safe_url_string(joined) if unsafe else joined)
    host = urlsplit(url).hostname
    expected = [p for p in (host or "").split(".") if p not in ("www", "m", "amp")]
    assert _host_name(url) == (expected[-2] if len(expected) >= 2 else None)


def test_lone_surrogates_and_control_characters_never_reach_the_metadata() -> None:
    # JSON escapes decode to what no UTF-8 feed can encode (a lone surrogate made the CLI,
    # the WARC command and a crawl's feed fail, losing the items after it) or no browser shows.
    data = (
        '{"@type": "NewsArticle", "headline": "Harbour\\ud800 wall", "author": "Ann\\u0001 Lee",'
        ' "description": "Cracks\\u0000 found", "publisher": {"name": "The\\u0003 Gazette"}, "keywords": ["a\\udfffb"]}'
    )
    page = f'<html><head><script type="application/ld+json">{data}</script></head><body><p>x</p></body></html>'
    metadata = extract(page, url="https://example.com/a").metadata
    assert metadata is not None
    assert (metadata.title, metadata.authors) == ("Harbour\ufffd wall", ["Ann Lee"])
    assert metadata.description == "Cracks found"
    assert (metadata.site_name, metadata.tags) == ("The Gazette", ["a\ufffdb"])
    json.dumps(metadata.to_dict(), ensure_ascii=False).encode("utf-8")


# --- hostile values: a clear result, in linear time ------------------------------------


def test_a_meta_of_many_attributes_is_read_in_linear_time() -> None:
    # lxml's items() looks each value up by name: 40,000 attributes took 4.9 s (quadratic)
    attributes = " ".join(f'data-x{i}="v"' for i in range(30_000))
    model = Page(parse_html(page(f'<meta {attributes} name="author" content="Ann Lee">')), None)
    start = time.process_time()
    authors = extract_metadata(model).authors
    assert authors == ["Ann Lee"] and time.process_time() - start < 1.0


def test_thousands_of_author_metas_give_the_first_names_only() -> None:
    # merged name by name, 10^5 such tags took 50 s; now the first 20 values are read
    names = (f"Alice {chr(65 + i % 26)}{chr(97 + i // 26 % 26)}son" for i in range(5000))
    head = "".join(f'<meta name="author" content="{name}">' for name in names)
    authors = meta_of(page(head)).authors
    assert authors[:2] == ["Alice Aason", "Alice Bason"] and len(authors) == 20


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Wed, 01 May 1900 09:30:00 GMT", None),  # an HTTP date out of the years read
        ("Sat, 01 May 2077 09:30:00 GMT", None),
        ("Wed, 01 May 0024 09:30:00 +0000", None),  # no two-digit year read as 2024
        ("Wed, 01 May 2024 09:30:00 +2000", "2024-05-01T09:30:00"),  # no zone beyond UTC+14
        ("2024-05-01T09:30:00+29:59", "2024-05-01T09:30:00"),
        ("2024-05-01T09:30:00-25:00", "2024-05-01T09:30:00"),
        ("2024-05-01T09:30:00+14:00", "2024-05-01T09:30:00+14:00"),
        ("2024-05-01T23:59:60Z", "2024-05-01T23:59:59+00:00"),  # a leap second keeps its zone
    ],
)
def test_dates_out_of_range_or_with_impossible_zones(text: str, expected: str | None) -> None:
    assert parse_date(text) == expected


@pytest.mark.parametrize(
    "url",
    [
        "http://ex ample.com/x",
        "http://a<b>.com/",
        "http://a.com:99999/",
        "http://a.com:port/",
        "http://" + "é" * 71 + ".com/",  # a label IDNA cannot encode
    ],
)
def test_urls_with_no_valid_host_or_port_are_no_value(url: str) -> None:
    head = f'<link rel="canonical" href="{url}"><meta property="og:image" content="{url}">'
    meta = meta_of(page(head))
    assert (meta.canonical_url, meta.image) == (None, None)


@pytest.mark.parametrize("base", ["http://ex ample.com/", "javascript:void(0)", "http://a.com:99999/"])
def test_a_base_href_that_is_no_url_is_passed_over(base: str) -> None:
    head = f'<base href="{base}"><link rel="canonical" href="story-2">'
    assert meta_of(page(head), url="https://news.example.com/a/story").canonical_url == (
        "https://news.example.com/a/story-2"
    )


def test_non_finite_numbers_and_huge_strings_give_no_value() -> None:
    article = {"@type": "Article", "headline": "H" * 200_000, "description": float("inf")}
    head = ld({**article, "keywords": [float("nan"), "Bridges"]})  # written as Infinity, NaN
    meta = meta_of(page(head))
    assert meta.description is None and meta.tags == ["Bridges"]
    assert meta.title is None or len(meta.title) < 1000
    assert Metadata(title="T" * 200_000, page_type="Web" * 50_000 + "Page").title is None


def test_user_names_with_one_run_of_digits_are_names() -> None:
    assert clean_author("Need2KnowLion") == ["Need2KnowLion"] and clean_author("ron1cne") == ["ron1cne"]
    assert clean_author("paul2009") == ["paul2009"]
    # an account's id, a month glued to a year: no names
    assert clean_author("mdelatorreq6vkpg2ma0ci") == clean_author("May2024") == []
