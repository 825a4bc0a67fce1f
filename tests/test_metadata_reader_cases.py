"""What a reader would flag, each case on a small hand-made page: published and modified
dates kept apart in every source, dates where news sites outside the English-speaking web
put them, every person of a byline, an organisation or site name that is no author, an
outlet glued to a name, a front page's own title."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapy_cetd import extract
from scrapy_cetd.metadata import Metadata, date_from_url, extract_metadata, parse_date
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html

BODY = "<p>" + "The council met on Tuesday to discuss the new bridge and its costs. " * 6 + "</p>"


SKY = {"@type": "Organization", "name": "Sky"}


def ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def meta_of(head: str = "", body: str = "", title: str = "Bridge costs double", url: str | None = None) -> Metadata:
    html = f"<html><head><title>{title}</title>{head}</head><body>{body}{BODY}</body></html>"
    result = extract(html, url=url)
    assert result.metadata is not None
    return result.metadata


# --- published or modified ---------------------------------------------------------------


def test_a_shown_updated_time_is_not_the_publish_date() -> None:
    head = (
        '<meta property="article:published_time" content="2018-01-29T13:12:59-08:00">'
        '<meta name="DC.date.issued" content="2018-01-29"><meta name="publish-date" content="2018-01-29">'
        '<meta property="article:modified_time" content="2019-02-01T10:48:39-08:00">'
    )
    body = (
        "<h1>Bridge costs double</h1>"
        '<p>Updated <time itemprop="dateUpdated" datetime="2019-02-01T10:48:39-08:00">Feb 1, 2019</time></p>'
    )
    meta = meta_of(head, body)
    assert meta.date_published == "2018-01-29T13:12:59-08:00"
    assert meta.date_modified == "2019-02-01T10:48:39-08:00"


def test_a_shown_modified_date_without_a_mark_is_still_what_the_reader_sees() -> None:
    """The rule kept from the first dev half: the page shows its modified date alone, unmarked."""
    head = (
        '<meta property="article:published_time" content="2018-01-29">'
        '<meta property="article:modified_time" content="2019-02-01">'
    )
    meta = meta_of(head, "<h1>Bridge costs double</h1><p>Feb 1, 2019</p>")
    assert meta.date_published == "2019-02-01"


def test_json_ld_keeps_published_and_modified_apart() -> None:
    head = ld({"@type": "NewsArticle", "headline": "Bridge costs double",
               "datePublished": "2020-03-03", "dateModified": "2021-05-05"})
    meta = meta_of(head, "<h1>Bridge costs double</h1>")
    assert (meta.date_published, meta.date_modified) == ("2020-03-03", "2021-05-05")


def test_microdata_date_updated_is_the_modified_date() -> None:
    body = (
        '<article itemscope itemtype="https://schema.org/NewsArticle"><h1 itemprop="headline">Bridge costs double</h1>'
        '<meta itemprop="dateUpdated" content="2021-05-05"><meta itemprop="datePublished" content="2020-03-03">'
        "</article>"
    )
    meta = meta_of(body=body)
    assert (meta.date_published, meta.date_modified) == ("2020-03-03", "2021-05-05")


def test_an_updated_time_element_is_the_modified_date_not_the_published_one() -> None:
    body = (
        "<h1>Bridge costs double</h1>"
        '<p><time class="updated" datetime="2021-05-05">May 5, 2021</time> '
        '<time class="published" datetime="2020-03-03">March 3, 2020</time></p>'
    )
    meta = meta_of(body=body)
    assert (meta.date_published, meta.date_modified) == ("2020-03-03", "2021-05-05")


@pytest.mark.parametrize("label", ["Updated:", "Aktualisiert am", "Mis à jour le", "Actualizado el"])
def test_a_dateline_labelled_updated_does_not_replace_the_declared_date(label: str) -> None:
    head = (
        '<meta property="article:published_time" content="2018-01-29">'
        '<meta property="article:modified_time" content="2019-02-01">'
    )
    meta = meta_of(head, f"<h1>Bridge costs double</h1><p>{label}</p><p>01.02.2019</p>")
    assert meta.date_published == "2018-01-29"


# --- dates worldwide ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("٢٣ مارس ٢٠٢١", "2021-03-23"),  # Arabic, Arabic-Indic digits
        ("الثلاثاء 23 مارس، 2021", "2021-03-23"),  # the Arabic comma
        ("۲۳ مارس ۲۰۲۱", "2021-03-23"),  # Persian digits
        ("12 آذار 2021", "2021-03-12"),  # Levantine month name
        ("2021. március 23.", "2021-03-23"),  # Hungarian
        ("22 de outubro de 2010", "2010-10-22"),
    ],
)
def test_dates_in_other_scripts_and_digits(text: str, expected: str) -> None:
    assert parse_date(text) == expected


def test_an_arabic_dateline_dates_the_page() -> None:
    meta = meta_of(body="<h1>Bridge costs double</h1><p>نشر في ٢٣ مارس ٢٠٢١</p>")
    assert meta.date_published == "2021-03-23"


def test_a_second_declared_date_that_the_page_shows_is_the_publish_date() -> None:
    """JSON-LD and ``<meta>`` declare two days; the dateline shows the meta's: the reader's date."""
    head = ld({"@type": "NewsArticle", "headline": "Bridge costs double", "datePublished": "2023-11-03T10:25:56+00:00"})
    shown = "<h1>Bridge costs double</h1><p>6. November 2023, 15:25 Uhr</p>"
    meta = meta_of(head + '<meta property="article:published_time" content="2023-11-06T14:25:00+00:00">', shown)
    assert meta.date_published == "2023-11-06T14:25:00+00:00"
    assert meta_of(head, shown).date_published == "2023-11-03T10:25:56+00:00"  # a later shown day alone: declared


def test_a_date_opening_a_paragraph_after_the_headline_dates_the_page() -> None:
    words = " Der Arbeitsmarkt ist gut in das Jahr gestartet, die Zahl der Arbeitslosen sank im Januar deutlich."
    assert meta_of(body=f"<h1>Bridge costs double</h1><p>01.02.2022 –{words}</p>").date_published == "2022-02-01"
    assert meta_of(body=f"<h1>Bridge costs double</h1><p>Am 01.02.2022{words}</p>").date_published is None


@pytest.mark.parametrize("name", ["ptime", "pdate", "og:regdate", "article:publicationdate", "displaydate"])
def test_publish_date_meta_names_of_news_sites_elsewhere(name: str) -> None:
    assert meta_of(f'<meta name="{name}" content="2021-03-23 10:20:00">').date_published == "2021-03-23T10:20:00"


@pytest.mark.parametrize(
    "url",
    [
        "http://news.example.cn/n1/2021/0323/c1001-32058285.html",  # year, then month and day
        "http://news.example.cn/2021-03/23/c_1127243456.htm",  # year and month, then day
        "http://www.example.gov.cn/zhengce/t20210323_123456.html",  # "t" and the date
        "https://example.com/2021/03/23/bridge/",
    ],
)
def test_dates_in_urls_of_news_sites_elsewhere(url: str) -> None:
    assert date_from_url(url) == "2021-03-23"


def test_a_number_in_a_url_is_no_date() -> None:
    assert date_from_url("https://example.com/2021/1399/bridge/") is None


# --- authors -----------------------------------------------------------------------------


def test_every_person_of_a_byline_of_links() -> None:
    body = (
        "<h1>Bridge costs double</h1>"
        '<p>By <a href="/team/stefan-becket/">Stefan Becket</a>, <a href="/team/kathryn-watson/">Kathryn Watson</a>,'
        ' <a href="/team/grace-segers/">Grace Segers</a></p>'
    )
    assert meta_of(body=body).authors == ["Stefan Becket", "Kathryn Watson", "Grace Segers"]


def test_every_person_of_the_byline_when_the_page_declares_the_first() -> None:
    body = (
        "<h1>Bridge costs double</h1>"
        '<p>By <a href="/team/stefan-becket/">Stefan Becket</a>, <a href="/team/kathryn-watson/">Kathryn Watson</a>,'
        ' <a href="/team/grace-segers/">Grace Segers</a></p>'
    )
    meta = meta_of('<meta name="author" content="Stefan Becket">', body)
    assert meta.authors == ["Stefan Becket", "Kathryn Watson", "Grace Segers"]


def test_an_organization_is_no_author_and_becomes_the_site_name() -> None:
    head = ld({"@type": "NewsArticle", "headline": "Bridge costs double", "author": SKY})
    meta = meta_of(head, "<h1>Bridge costs double</h1>")
    assert meta.authors == []
    assert meta.site_name == "Sky"


def test_an_organization_gives_way_to_the_person_in_the_byline() -> None:
    head = ld({"@type": "NewsArticle", "headline": "Bridge costs double", "author": SKY})
    meta = meta_of(head, "<h1>Bridge costs double</h1><p>By Ann Lee</p>")
    assert meta.authors == ["Ann Lee"]


def test_the_site_name_as_author_is_no_author() -> None:
    head = '<meta name="author" content="futurezone.at"><meta property="og:site_name" content="futurezone">'
    meta = meta_of(head, "<h1>Bridge costs double</h1>", url="https://futurezone.at/digital-life/bridge/1234")
    assert meta.authors == []
    assert meta.site_name == "futurezone"


def test_an_outlet_glued_to_the_name_is_dropped() -> None:
    head = '<meta name="author" content="Finian Cunningham. Sputnik International">'
    assert meta_of(head, "<h1>Bridge costs double</h1><p>by Finian Cunningham</p>").authors == ["Finian Cunningham"]


def test_an_initial_is_no_outlet() -> None:
    assert meta_of('<meta name="author" content="John F. Kennedy">').authors == ["John F. Kennedy"]


# --- titles ------------------------------------------------------------------------------


def test_a_front_page_keeps_its_own_title_not_the_top_storys() -> None:
    body = "<h1>Storm closes the harbour bridge</h1>"
    meta = meta_of(body=body, title="Daily Example - News you can trust", url="https://dailyexample.com/")
    assert meta.title == "News you can trust"


def test_an_article_under_a_site_first_title_keeps_its_headline() -> None:
    body = "<h1>Storm closes the harbour bridge</h1>"
    url = "https://dailyexample.com/2024/05/01/storm/"
    meta = meta_of(body=body, title="Daily Example - News you can trust", url=url)
    assert meta.title == "Storm closes the harbour bridge"


# --- htmldate, the last fallback -----------------------------------------------------------

ABBR_ONLY = '<h1>Bridge costs double</h1><p><abbr class="published" title="2021-03-23T10:00:00">23 Mar</abbr></p>'


def dated(head: str = "", body: str = "", with_htmldate: bool = True) -> str | None:
    html = f"<html><head><title>Bridge costs double</title>{head}</head><body>{body}{BODY}</body></html>"
    return extract_metadata(Page(parse_html(html)), with_htmldate=with_htmldate).date_published


def test_htmldate_when_asked_dates_a_page_our_sources_cannot() -> None:
    pytest.importorskip("htmldate")
    assert dated(body=ABBR_ONLY) == "2021-03-23"
    assert dated(body=ABBR_ONLY, with_htmldate=False) is None  # the default: not asked


def test_without_htmldate_installed_that_page_has_no_date(monkeypatch: pytest.MonkeyPatch) -> None:
    from scrapy_cetd.metadata import dates

    monkeypatch.setattr(dates, "_htmldate_finder", lambda: None)
    assert dated(body=ABBR_ONLY) is None


def test_a_date_of_ours_is_not_asked_of_htmldate(monkeypatch: pytest.MonkeyPatch) -> None:
    from scrapy_cetd.metadata import dates

    asked: list[object] = []

    def failing(*args: object, **kwargs: object) -> str:
        asked.append(args)
        raise ValueError("a library failing on a page")

    monkeypatch.setattr(dates, "_htmldate_finder", lambda: failing)
    assert dated('<meta property="article:published_time" content="2020-01-02">') == "2020-01-02"
    assert not asked
    assert dated(body=ABBR_ONLY) is None  # its failure is no date, never ours
    assert len(asked) == 1


def test_htmldate_is_asked_from_extract_and_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("htmldate")
    from scrapy_cetd.cli import main

    html = f"<html><head><title>Bridge costs double</title></head><body>{ABBR_ONLY}{BODY}</body></html>"
    assert extract(html, with_htmldate=True).metadata.date_published == "2021-03-23"  # type: ignore[union-attr]
    assert extract(html).metadata.date_published is None  # type: ignore[union-attr]
    page = tmp_path / "page.html"
    page.write_text(html, encoding="utf-8")
    for flags, expected in ((["--htmldate"], "2021-03-23"), ([], None)):
        assert main(["extract", str(page), "--format", "json", *flags]) == 0
        assert json.loads(capsys.readouterr().out)["metadata"]["date_published"] == expected
