"""Responses read from archived records (:mod:`scrapy_cetd.responses`, ``scrapy-cetd warc``) are
typed, skipped and decoded as the crawl's Scrapy types, skips and decodes them."""

from __future__ import annotations

import codecs

import pytest
from scrapy.http import Headers, HtmlResponse, TextResponse
from scrapy.responsetypes import responsetypes

from scrapy_cetd import extract
from scrapy_cetd.crawl.middlewares import _decoded_text, response_skip_reason
from scrapy_cetd.responses import page_text, response_kind, skip_reason
from tests.charset_pages import UNDECLARED_PAGES

PAGE = "<html><head><title>Café</title></head><body><p>Déjà vu – “quoted”</p></body></html>"
#: Latin-1 can hold it.
LATIN = "<html><head><title>Café</title></head><body><p>Déjà vu, « à la française »</p></body></html>"
DOCTYPE = "<!DOCTYPE html><html><body><p>Plain</p></body></html>"

#: (headers, URL, body): each way a response gets its type and its charset.
CASES = [
    ({"Content-Type": "text/html; charset=utf-8"}, "http://a.test/", PAGE.encode()),
    ({"Content-Type": "text/html"}, "http://a.test/", b'<meta charset="windows-1252">' + PAGE.encode("cp1252")),
    ({"Content-Type": "text/html; charset=iso-8859-1"}, "http://a.test/", PAGE.encode()),  # UTF-8 under a Latin-1 label
    ({"Content-Type": "text/html; charset=utf-16"}, "http://a.test/", codecs.BOM_UTF16_LE + PAGE.encode("utf-16-le")),
    ({"Content-Type": "text/html; charset=base64"}, "http://a.test/", PAGE.encode()),  # no text encoding
    ({"Content-Type": "text/html"}, "http://a.test/", LATIN.encode("latin-1")),  # undeclared: detected
    ({"Content-Type": "text/plain"}, "http://a.test/", DOCTYPE.encode()),  # sniffed
    ({"Content-Type": "text/plain"}, "http://a.test/", b"just text"),
    ({"Content-Type": "application/xhtml+xml"}, "http://a.test/", PAGE.encode()),
    ({"Content-Type": "application/xml"}, "http://a.test/", b'<?xml version="1.0"?><html><body>x</body></html>'),
    ({"Content-Type": "application/json"}, "http://a.test/", b'{"html": "<html>"}'),
    ({"Content-Type": "image/png"}, "http://a.test/a.png", b"\x89PNG\r\n\x1a\n"),
    ({"Content-Type": "application/octet-stream"}, "http://a.test/page.html", PAGE.encode()),
    ({"Content-Type": "application/octet-stream"}, "http://a.test/file", b"\x00\x01\x02"),
    ({"Content-Type": "text/html", "Content-Encoding": "compress"}, "http://a.test/", b"\x1f\x9d\x90"),
    ({"Content-Type": "text/html", "Content-Encoding": "compress"}, "http://a.test/x.html", PAGE.encode()),
    ({"Content-Disposition": 'attachment; filename="a.html"'}, "http://a.test/get", PAGE.encode()),
    ({"Content-Disposition": "attachment"}, "http://a.test/get", DOCTYPE.encode()),
    ({}, "http://a.test/story.htm", PAGE.encode()),
    ({}, "http://a.test/story", DOCTYPE.lower().encode()),
    ({}, "http://a.test/story", DOCTYPE.encode()),
    ({}, "http://a.test/story", b'<?xml version="1.0"?><!doctype html><html><p>x</p></html>'),
    ({}, "http://a.test/feed.xml", b"<rss></rss>"),
    ({}, "http://a.test/story", b"\x01\x02<html>"),
    ({}, "http://a.test/story", b""),
    ({"Content-Type": ""}, "http://a.test/story.php", PAGE.encode()),
    ({"Content-Type": "text/html"}, "http://a.test/", b" \r\n "),
    ({"Content-Type": "text/html"}, "http://a.test/", b"\x89PNG\r\n\x1a\n" + bytes(64)),
]


def _scrapy_response(headers: dict[str, str], url: str, body: bytes, status: int = 200) -> object:
    scrapy_headers = Headers(headers)
    cls = responsetypes.from_args(headers=scrapy_headers, url=url, body=body)
    return cls(url=url, status=status, headers=scrapy_headers, body=body)


def _scrapy_kind(response: object) -> str:
    return "html" if isinstance(response, HtmlResponse) else "text" if isinstance(response, TextResponse) else "other"


@pytest.mark.parametrize(("headers", "url", "body"), CASES)
def test_a_record_is_typed_and_skipped_as_scrapy_types_and_skips_it(
    headers: dict[str, str], url: str, body: bytes
) -> None:
    named = {name.lower(): value for name, value in headers.items()}
    response = _scrapy_response(headers, url, body)
    assert response_kind(named, url, body) == _scrapy_kind(response)
    for status, limit in ((200, 0), (404, 0), (200, 10)):
        expected = response_skip_reason(_scrapy_response(headers, url, body, status), limit)
        assert skip_reason(response_kind(named, url, body), status, body, limit) == expected


@pytest.mark.parametrize(("headers", "url", "body"), [case for case in CASES if b"<" in case[2]])
def test_a_record_is_decoded_as_the_crawl_decodes_it(headers: dict[str, str], url: str, body: bytes) -> None:
    named = {name.lower(): value for name, value in headers.items()}
    response = TextResponse(url=url, headers=Headers(headers), body=body)
    assert page_text(body, named.get("content-type")) == _decoded_text(response)


@pytest.mark.parametrize(("name", "encoding", "page", "sentence"), UNDECLARED_PAGES, ids=lambda v: str(v)[:12])
def test_a_body_that_declares_no_charset_is_decoded_as_extract_decodes_it(
    name: str, encoding: str, page: bytes, sentence: str
) -> None:
    response = TextResponse(url="http://a.test/", headers=Headers({"Content-Type": "text/html"}), body=page)
    assert sentence in _decoded_text(response)
    assert extract(_decoded_text(response)).text == extract(page).text


def test_the_cases_cover_every_kind_and_reason() -> None:
    kinds, reasons = set(), set()
    for headers, url, body in CASES:
        named = {name.lower(): value for name, value in headers.items()}
        kinds.add(response_kind(named, url, body))
        reasons.add(skip_reason(response_kind(named, url, body), 200, body, 0))
    assert kinds == {"html", "text", "other"}
    assert reasons == {None, "non_html", "empty", "binary"}
    assert page_text(PAGE.encode(), "text/html; charset=base64") == PAGE  # no text encoding: ignored
