"""Hostile input for every registered algorithm: generated and mutated HTML (Hypothesis)
give no exception, and pathological pages (deep nesting, huge text without tags, control
characters, lone surrogates) are extracted in bounded time."""

from __future__ import annotations

import json
import re
import signal
from urllib.parse import urljoin

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_cetd import Page, algorithm_names, extract, extract_tree
from scrapy_cetd.page import normalize_space
from scrapy_cetd.parsing import EmptyDocument, parse_html
from tests.scrapy_items import SITE

ALGORITHMS = list(algorithm_names())
RIVER = (SITE / "article-river.html").read_text(encoding="utf-8")

TAGS = ["div", "p", "span", "a", "table", "tr", "td", "ul", "li", "h1", "b", "nav", "article", "script",
        "style", "br", "img", "button", "select", "pre", "html", "body", "head", "title", "o:p", "template"]
ATTRIBUTES = ["", " hidden", ' style="display:none"', ' role="main"', ' aria-modal="true"', ' class="x"',
              ' href="/a"', " id=a", ' style="visibility: hidden"']
#: Text with what real pages carry by mistake: control characters, lone surrogates, NULs,
#: entities, stray "<" and "&".
TEXT = st.lists(
    st.one_of(
        st.sampled_from(list("abc xyz\n\t.,<>&;\"'")),
        st.sampled_from(["\x00", "\x01", "\x0b", "\x0c", "\x1f", "\ud800", "\udfff", "\ufffd", "&amp;", "&#0;",
                         "&#xd800;", "é", "\u200b"]),
        st.characters(),
    ),
    max_size=40,
).map("".join)


@st.composite
def html_trees(draw: st.DrawFn, depth: int = 0) -> str:
    """Markup from a small grammar: nested elements (closed or not) with attributes and text."""
    parts = []
    for _ in range(draw(st.integers(0, 4 if depth < 4 else 0))):
        if draw(st.booleans()):
            parts.append(draw(TEXT))
        else:
            tag = draw(st.sampled_from(TAGS))
            inner = draw(html_trees(depth + 1))
            close = draw(st.sampled_from([f"</{tag}>", "", f"</{draw(st.sampled_from(TAGS))}>"]))
            parts.append(f"<{tag}{draw(st.sampled_from(ATTRIBUTES))}>{inner}{close}")
    return "".join(parts)


@st.composite
def mutated_pages(draw: st.DrawFn) -> str:
    """A real article page with slices deleted, repeated or replaced by generated markup."""
    page = RIVER
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(page)))
        end = draw(st.integers(start, min(len(page), start + 400)))
        kind = draw(st.sampled_from(["delete", "repeat", "insert"]))
        if kind == "delete":
            page = page[:start] + page[end:]
        elif kind == "repeat":
            page = page[:end] + page[start:end] * draw(st.integers(2, 20)) + page[end:]
        else:
            page = page[:start] + draw(html_trees()) + page[start:]
    return page


#: Control characters no output may hold (a browser displays none of them).
CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

FUZZ = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _extract_everything(html: str | bytes) -> None:
    """Every algorithm, every output (the cleaned HTML's links made absolute), and the
    result as UTF-8 JSON, as the CLI and the feeds write it."""
    for algorithm in ALGORITHMS:
        result = extract(
            html, algorithm=algorithm, url="https://example.com/news/a.html", with_markdown=True, with_comments=True
        )
        assert isinstance(result.text, str) and isinstance(result.html, str) and isinstance(result.markdown, str)
        assert result.text or result.reason
        for output in (result.text, result.html, result.markdown, result.comments):
            assert not CONTROLS.search(output), (algorithm, output)
        json.dumps(result.to_dict(), ensure_ascii=False).encode("utf-8")


@FUZZ
@given(html_trees())
def test_generated_markup_never_raises(html: str) -> None:
    _extract_everything(html)
    _extract_everything(html.encode("utf-8", "surrogatepass"))


@FUZZ
@given(mutated_pages())
def test_mutated_pages_never_raise(html: str) -> None:
    _extract_everything(html)


#: Pages that once took minutes (reproductions of the reports, at full size), and the
#: time every algorithm gets on each, once the page is parsed: generous (2 cores shared
#: with other jobs), where the old code took 10 s to minutes.
PATHOLOGICAL = {
    "50,000 nested spans": "<html><body>" + "<span>x" * 50_000,
    "200,000 nested divs": "<html><body>" + "<div>x" * 200_000,
    "5,000 nested tables": "<html><body>" + "<table><tr><td>x" * 5_000,
    "10 MB of text without tags": "word " * 2_000_000,
    "50,000 nested hidden spans": "<html><body><p>Visible text of the page.</p>" + "<span hidden>" * 50_000 + "x",
    # lxml's items() took 10 s for each element of them (libxml2's parse takes 5 s)
    "the story in elements of 60,000 attributes": "<html><body>"
    + "".join(f"<{tag} " + " ".join(f'{tag}{i}="v"' for i in range(60_000)) + ">" for tag in ("div", "p"))
    + "Words of the story. " * 50,
    # the comments output walked each comment part's path to body: 24 s
    "20,000 comment parts 20,000 levels deep": "<html><body>" + "<div>" * 20_000
    + "<p>" + "The story of the page goes on here. " * 30 + "</p>"
    + "<div class='comment'><p>A reader wrote a comment about it.</p></div>" * 20_000,
}
SECONDS_PER_ALGORITHM = 10.0


class _OverTime(Exception):
    pass


def _over_time(signum: int, frame: object) -> None:
    raise _OverTime


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_pathological_pages_take_bounded_time(name: str) -> None:
    """Each algorithm gets ``SECONDS_PER_ALGORITHM`` of CPU time (a profiling timer stops
    one that runs over, so a regression costs seconds, not hours)."""
    page = Page.from_tree(parse_html(PATHOLOGICAL[name]))
    slow = []
    previous = signal.signal(signal.SIGPROF, _over_time)
    try:
        for algorithm in ALGORITHMS:
            signal.setitimer(signal.ITIMER_PROF, SECONDS_PER_ALGORITHM)
            try:
                extract_tree(page, algorithm=algorithm, with_comments=True)
            except _OverTime:
                slow.append(algorithm)
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
    finally:
        signal.signal(signal.SIGPROF, previous)
    assert not slow, f"{name}: over {SECONDS_PER_ALGORITHM} CPU seconds: {slow}"


def test_control_characters_and_surrogates_are_not_errors() -> None:
    control = extract("<html><body><p>Some words<span hidden>x</span>\x01 after.</p></body></html>")
    assert control.text == "Some words after."
    story = "<p>" + "Words of the story before the bad character. " * 10 + "\ud800 and the rest after it.</p>"
    for depth in (0, 3000):  # shallow: libxml2; deeper than 2048: the depth-unlimited parser
        html = "<html><body>" + "<div>" * depth + story + "</body></html>"
        page = Page.from_tree(parse_html(html))
        assert page.run_collapsed[-1].endswith("\ufffd and the rest after it.")  # nothing cut off
        assert extract(html, algorithm="cetd-ds").text.endswith("\ufffd and the rest after it.")
        _extract_everything(html)


@pytest.mark.parametrize("as_bytes", [False, True])
def test_control_characters_leave_no_output(as_bytes: bool) -> None:
    """libxml2 keeps control characters in the text (of bytes and of ``str`` alike): every
    output drops them, vertical tab and form feed become spaces, and the words agree."""
    story = "Words of the story,\x01 long enough\x0cto be the page's content. " * 5
    html = (
        "<html><head><title>The\x02 title</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<p>{story}</p><p>\x07</p></body></html>"
    )
    result = extract(html.encode() if as_bytes else html, with_markdown=True)
    for output in (result.text, result.html, result.markdown, result.title):
        assert not CONTROLS.search(output)
    assert result.title == "The title"
    assert result.text == normalize_space("Words of the story, long enough to be the page's content. " * 5)
    assert result.markdown.split() == result.text.split()


@pytest.mark.parametrize("as_bytes", [False, True])
def test_c1_controls_are_read_as_a_browser_reads_them(as_bytes: bool) -> None:
    """U+0080-U+009F mean nothing in a text: ``&#150;`` is windows-1252's en dash, as the HTML
    standard and browsers read it, and UTF-8 read as Latin-1 ("Youâ\x80\x99re") is repaired
    (43 dev pages hold such characters or references).  "Ã©" stays (it may be meant), the five codes
    windows-1252 leaves undefined go, U+0085 is a space, and every output has the same words."""
    story = (
        "Words of the story &#150; &#147;quoted&#148;. You\u00e2\u0080\u0099re paying \u00e2\u0082\u00ac150, "
        "caf\u00c3\u00a9 stays, un\u0081defined goes,\u0085next line. "
    ) * 3
    html = f"<html><head><title>It&#146;s \u00e2\u0080\u0094 a title</title></head><body><p>{story}</p></body></html>"
    result = extract(html.encode() if as_bytes else html, with_markdown=True)
    assert result.title == "It\u2019s \u2014 a title"
    assert result.text == normalize_space(
        "Words of the story \u2013 \u201cquoted\u201d. You\u2019re paying \u20ac150, "
        "caf\u00c3\u00a9 stays, undefined goes, next line. " * 3
    )
    for output in (result.text, result.html, result.markdown):
        assert not re.search("[\x80-\x9f]", output)
    words = re.findall(r"\w+", result.text)
    assert re.findall(r"\w+", result.markdown) == words
    assert re.findall(r"\w+", re.sub("<[^>]*>", " ", result.html.split("<body>")[1])) == words


@pytest.mark.parametrize("html", ["<div></html>\x01", b"<p>Story.</p></body></html>\x01 after\x02 the end"])
def test_control_characters_after_the_document(html: str | bytes) -> None:
    """Text after ``</html>`` is moved into the body (as a browser does), control
    characters and all: it used to raise ``ValueError`` from lxml's setter (found by
    :func:`test_generated_markup_never_raises`)."""
    _extract_everything(html)


#: A page with a link, an image and a ``<base href>`` that does not parse.
LINKED = (
    '<html><head><base href="http://["><title>T</title></head><body><p>'
    + "Words of the story, long enough to be the page's content. " * 4
    + '<a href="/next">next</a></p><img src="a.png" alt="A"></body></html>'
)


@pytest.mark.parametrize(
    ("url", "kept_as"),
    [
        ("http://[::1", "http://[::1"),  # does not parse: links stay as written
        ("http://ex\x00ample.com/a b", "http://ex%00ample.com/a%20b"),
        ("http://\udcff.example/x", "http://%ED%B3%BF.example/x"),
        ("   ", None),
    ],
)
def test_hostile_page_urls_are_not_errors(url: str, kept_as: str | None) -> None:
    """Page URLs as a WARC record or a command line may carry them: unparsable, with
    control characters, spaces or lone surrogates (percent-encoded, as a browser does)."""
    for html in (LINKED, LINKED.replace('<base href="http://[">', "")):
        result = extract(html, url=url, with_markdown=True, with_comments=True)
        json.dumps(result.to_dict(), ensure_ascii=False).encode("utf-8")  # UTF-8 output holds it all
        assert result.url == kept_as
        assert "Words of the story" in result.text
        next_link = "/next" if kept_as in (None, "http://[::1") else urljoin(kept_as, "/next")
        assert f'href="{next_link}"' in result.html
        assert f"]({next_link})" in result.markdown


def test_control_characters_in_a_link_of_a_bytes_page() -> None:
    """libxml2 keeps them in an attribute when it parses bytes; the cleaned HTML and the
    Markdown both give them percent-encoded (lxml refuses to set them as they are)."""
    link = b'<a href="/a\x0cb\x01c">x</a>'
    html = b"<html><body><p>" + b"Words of the story, long enough. " * 5 + link + b"</p></body></html>"
    result = extract(html, url="http://example.com/", with_markdown=True)
    assert 'href="http://example.com/a%0Cb%01c"' in result.html
    assert "[x](http://example.com/a%0Cb%01c)" in result.markdown
    assert "Words of the story" in result.text
    relative = extract(html, with_markdown=True)  # no base: libxml2's serializer encodes them
    assert 'href="/a%0Cb%01c"' in relative.html
    assert "[x](/a%0Cb%01c)" in relative.markdown


@pytest.mark.parametrize("blank", [b"", b" \x0b\x0c\t\r\n", "", " \u3000\xa0\u2028\n"])
def test_blank_input_is_empty(blank: str | bytes) -> None:
    # What ``strip`` removes, read without copying the page: ASCII whitespace for bytes,
    # Unicode whitespace for text.
    with pytest.raises(EmptyDocument, match="empty"):
        parse_html(blank)


def test_an_xml_declaration_after_leading_space_is_read() -> None:
    # Leading whitespace is passed over (as ``lstrip`` would) to find the declaration:
    # its charset decodes the bytes, and the declaration is not content.
    page = b'\n  <?xml version="1.0" encoding="iso-8859-1"?><html><body><p>caf\xe9 au lait</p></body></html>'
    assert extract(page).text == "caf\u00e9 au lait"


def test_utf16_without_bom_follows_the_http_charset() -> None:
    body = "<html><body><p>Hello from a page in UTF-16, without a byte order mark.</p></body></html>"
    for encoding, label in (("utf-16-le", "utf-16le"), ("utf-16-be", "utf-16be"), ("utf-16-le", "utf-16")):
        result = extract(body.encode(encoding), content_type=f"text/html; charset={label}")
        assert result.text == "Hello from a page in UTF-16, without a byte order mark.", label


@pytest.mark.parametrize("as_bytes", [False, True])
def test_content_after_the_closing_html_tag_is_in_the_body(as_bytes: bool) -> None:
    # A "</body></html>" after the site's header, then the article: a browser shows the
    # article in the body; libxml2 alone puts it in a second <html> outside the page.
    html = (
        "<html><head><title>Otters</title></head><body><header><a href='/'>Home</a></header>"
        "</body></html>\n<div class='story'><p>Otters have returned to the river after forty years, "
        "volunteers said on Monday.</p><p>The animals were seen near the old mill.</p></div>"
        "<footer>Contact</footer><!-- a comment after the document -->"
    )
    root = parse_html(html.encode() if as_bytes else html)
    body = root.find("body")
    assert [child.tag for child in body] == ["header", "div", "footer"]
    assert extract(html).text.startswith("Otters have returned to the river")
    # Text straight after "</html>", outside any element, is kept too.
    loose = parse_html("<html><body><p>First.</p></body></html>Loose words<p>Last.</p>")
    assert normalize_space(" ".join(loose.find("body").itertext())) == "First. Loose words Last."


@pytest.mark.parametrize("label", ["cp500", "cp037", "IBM037"])
def test_an_ascii_incompatible_charset_label_is_ignored(label: str) -> None:
    # EBCDIC labels read ASCII markup as other letters and C1 controls: the whole page
    # became garbage with no reason given (a crawl flagged it binary).  The HTML standard
    # knows no such encoding and ignores the label.
    body = "<html><head><meta charset={}></head><body><p>Grüße aus Köln, sagte sie.</p></body></html>"
    expected = "Grüße aus Köln, sagte sie."
    assert extract(body.format(label).encode()).text == expected
    assert extract(body.format("x").encode(), content_type=f"text/html; charset={label}").text == expected
    from scrapy.http import HtmlResponse

    from scrapy_cetd.crawl.middlewares import _decoded_text

    response = HtmlResponse("https://example.com/", body=body.format(label).encode())
    assert expected in _decoded_text(response)


@pytest.mark.parametrize("label", ["hex", "base64", "rot13", "idna", "punycode", "undefined"])
def test_a_charset_label_naming_no_text_encoding_is_ignored(label: str) -> None:
    # Python codecs that are no text encodings (LookupError) or fail on markup
    # (UnicodeError): extraction raised, and one such record ended a WARC run.
    body = "<html><head><meta charset={}></head><body><p>Grüße aus Köln, sagte sie.</p></body></html>"
    assert_label_ignored(label, body, "Grüße aus Köln, sagte sie.")


def assert_label_ignored(label: str, body: str, expected: str) -> None:
    """``body`` (with ``{}`` where its ``<meta charset>`` goes) labelled ``label`` in its
    ``<meta>`` or in the HTTP header gives ``expected``: in ``extract`` and in the crawl's
    decoding."""
    assert extract(body.format(label).encode()).text == expected
    assert extract(body.format("x").encode(), content_type=f"text/html; charset={label}").text == expected
    from scrapy.http import HtmlResponse

    from scrapy_cetd.crawl.middlewares import _decoded_text

    headers = {"Content-Type": f"text/html; charset={label}"}
    response = HtmlResponse("https://example.com/", body=body.format("x").encode(), headers=headers)
    assert expected in _decoded_text(response)


def test_noncharacters_leave_no_output_and_no_double_space() -> None:
    html = "<p>Words &#xFFFE; and &#xFFFF; and \ufdd0 here, \x01 kept.</p>"
    result = extract(html, algorithm="cectd-ds", with_markdown=True)
    assert result.text == result.markdown == "Words and and here, kept."
    assert "\ufffe" not in result.html and "\uffff" not in result.html


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-be", "utf-32", "utf-32-be", "utf-32-le"])
def test_every_byte_order_mark_is_read(encoding: str) -> None:
    """A page in UTF-8, UTF-16 or UTF-32 that starts with its byte order mark is read by it
    (the crawl reads them so, through Scrapy's response.text); a UTF-32-BE page, starting
    with NULs, was taken for binary data."""
    body = "<html><body><p>Hello from a page that starts with its byte order mark, caf\u00e9.</p></body></html>"
    data = body.encode(encoding)
    if not encoding.endswith("sig") and encoding not in ("utf-16", "utf-32"):
        data = "\ufeff".encode(encoding) + data
    assert extract(data).text == "Hello from a page that starts with its byte order mark, caf\u00e9."


@pytest.mark.parametrize("label", ["unicode-escape", "raw_unicode_escape"])
def test_a_charset_label_that_rewrites_backslashes_is_ignored(label: str) -> None:
    # Python's escape codecs read bytes as Latin-1 and "\u003c" as "<": a page so labelled
    # came out as mojibake with C1 controls, and an escape in its text became markup.
    # No browser knows the label; it is ignored, as the EBCDIC ones are.
    body = "<html><head><meta charset={}></head><body><p>Grüße aus Köln: \\u003cb\\u003e, C:\\\\temp.</p></body></html>"
    assert_label_ignored(label, body, "Grüße aus Köln: \\u003cb\\u003e, C:\\\\temp.")
