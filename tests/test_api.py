"""The public API: options, validation, and a clear result for every kind of bad input."""

from __future__ import annotations

import gzip
import inspect
import re
import subprocess
import sys
from collections.abc import Callable

import pytest
from lxml import etree

from scrapy_cetd import (
    DEFAULT_ALGORITHM,
    EmptyDocument,
    Extraction,
    Page,
    algorithm_names,
    extract,
    extract_tree,
    get_algorithm,
    parse_html,
)
from scrapy_cetd.limits import DEFAULT_MAX_ELEMENTS, EXTRACT_MAX_SIZE
from scrapy_cetd.parsing import decode_html
from tests.charset_pages import UNDECLARED_PAGES

ARTICLE = (
    "<html><head><title>News</title></head><body><nav><a href='/'>Home</a> <a href='/w'>World</a></nav>"
    "<article><h1>Headline</h1><p>The first paragraph of the story, long enough to matter here.</p>"
    "<p>The second paragraph continues the story with more detail and more words.</p></article>"
    "<footer><a href='/c'>Contact</a></footer></body></html>"
)


def test_extract_returns_text_html_and_title() -> None:
    result = extract(ARTICLE, url="https://example.com/a")
    assert isinstance(result, Extraction)
    assert "The first paragraph of the story" in result.text
    assert result.html.startswith('<html><head><meta charset="utf-8"><title>News</title></head><body>')
    assert result.title == "News"  # the <h1> "Headline" shares no word with the <title>
    assert result.url == "https://example.com/a"
    assert result.algorithm == DEFAULT_ALGORITHM == "cetd-plus"
    assert result.threshold_coefficient == get_algorithm(DEFAULT_ALGORITHM).default_coefficient
    assert result.reason is None
    assert result.to_dict()["text"] == result.text


def test_html_output_is_optional() -> None:
    full = extract(ARTICLE)
    text_only = extract(ARTICLE, with_html=False)
    assert text_only.html == "" and full.html
    assert text_only.text == full.text and text_only.title == full.title


def test_text_breaks_lines_at_blocks_and_spaces_inline_boundaries() -> None:
    result = extract(
        "<html><body><div><p>alpha <span>beta</span> <b>gamma</b></p><ul><li>one</li><li>two</li></ul>"
        "<p>line<br>break</p></div></body></html>",
        threshold_coefficient=0,
    )
    assert result.text == "alpha beta gamma\none\ntwo\nline\nbreak"


def test_words_split_by_inline_tags_stay_whole_as_a_browser_shows_them() -> None:
    glued = (
        "<p><span class='dropcap'>T</span>he harbour's <b>Nyong</b>'<b>o</b>'s wall, "
        "re<a href='/b'>built</a> in <i>May</i>.</p>"
        "<p>Join our <strong>Game D</strong><strong>ay Parties</strong> at the <span>coun</span><span>cil</span>.</p>"
    )
    apart = (
        "<p><span>id</span> <span>string</span> <span>New Listing</span>Vase "
        "<span>Parts</span>1385 <img src='a.png'>x<img src='b.png'>y</p>"
    )
    html = f"<html><body><article>{glued}{apart}</article></body></html>"
    result = extract(html, threshold_coefficient=0, with_markdown=True)
    assert result.text.splitlines() == [
        "The harbour's Nyong'o's wall, rebuilt in May.",
        "Join our Game Day Parties at the council.",
        "id string New Listing Vase Parts 1385 x y",
    ]
    # The Markdown has the text's words, and ``**Nyong**'**o**'s`` still reads as emphasis.
    paragraphs = result.markdown.split("\n\n")
    assert paragraphs[0] == "The harbour's **Nyong**'**o**'s wall, re[built](/b) in *May*."
    assert paragraphs[1] == "Join our **Game Day Parties** at the council."


#: A story in which words are written across inline tags with nothing between them, after
#: a ``<title>`` in the body (no browser shows one) and before a rail of short links.
SPLIT_WORDS_STORY = (
    "<html><head><title>Parties at the council</title></head><body><title>Hidden body title</title>"
    "<nav><a href='/'>Home</a><a href='/news'>News</a></nav><article><h1>Parties at the council</h1>"
    "<p>The <strong>Game D</strong><strong>ay Parties</strong> return to the <span>coun</span><span>cil</span>"
    " hall this spring, with music, food and games for every age group in the town.</p>"
    "<p>Tickets are free, but the organisers ask visitors to register online before the first "
    "weekend, as the hall holds only three hundred people at a time.</p>"
    "<ul><li>First</li><li>Second</li></ul></article></body></html>"
)


@pytest.mark.parametrize("name", algorithm_names())
def test_every_algorithm_joins_words_across_inline_tags_and_drops_a_title_in_the_body(name: str) -> None:
    result = extract(SPLIT_WORDS_STORY, algorithm=name, with_markdown=True)
    for output in (result.text, result.markdown.replace("**", "")):
        # A selection by tag path (CEPR) or by line may leave the inline runs out; kept, they are whole.
        assert "Game D " not in output and "coun " not in output
        assert "Game" not in output or "The Game Day Parties return to the council hall" in output
        assert "Hidden body title" not in output
    assert "Hidden body title" not in result.html
    if "First" in result.text:  # block elements still separate
        assert "First\nSecond" in result.text
    assert result.title == "Parties at the council"
    if name in ("cetd-plus", "cectd-ds", "lineblock", "wlr"):
        assert "The Game Day Parties return to the council hall" in result.text
        assert "<strong>Game D</strong><strong>ay Parties</strong>" in result.html  # shown as "Game Day"


def test_a_title_in_the_body_is_the_title_only_without_one_in_the_head() -> None:
    page = "<html><body><title>Shown nowhere</title><p>One paragraph of text.</p></body></html>"
    result = extract(page, threshold_coefficient=0)
    assert result.text == "One paragraph of text."
    assert result.title == "Shown nowhere"  # document.title reads the first <title>, wherever it is


def test_bytes_decoding_uses_declared_charset() -> None:
    html = "<html><head><meta charset='windows-1251'></head><body><p>Привет, мир! Это текст.</p></body></html>"
    assert "Привет, мир!" in extract(html.encode("windows-1251")).text
    assert "Привет" in extract(html.replace("windows-1251", "koi8-r").encode("koi8-r")).text


@pytest.mark.parametrize(("name", "encoding", "page", "sentence"), UNDECLARED_PAGES, ids=lambda v: str(v)[:12])
def test_a_page_in_a_legacy_encoding_that_declares_none_is_read_in_it(
    name: str, encoding: str, page: bytes, sentence: str
) -> None:
    assert sentence in extract(page).text  # windows-1252, the fallback before detection, gave mojibake
    assert extract(page.decode(encoding)).text == extract(page).text


def test_a_long_menu_in_ascii_does_not_hide_the_text_from_the_detector() -> None:
    _, encoding, page, sentence = next(case for case in UNDECLARED_PAGES if case[0] == "windows-1251")
    page = page.replace(b"<nav>", b"<nav>" + b"<a href='/x'>Menu item</a> " * 300)
    assert sentence in extract(page).text


def test_a_declared_charset_wins_over_the_detected_one() -> None:
    html = "<html><head><meta charset='koi8-r'></head><body><p>Привет, мир! Это текст о погоде.</p></body></html>"
    body = html.encode("windows-1251")  # read as declared, as a browser reads it
    assert extract(body).text == body.decode("koi8-r").split("<p>")[1].split("</p>")[0]
    http = "text/html; charset=windows-1251"
    assert extract(body, content_type=http).text == "Привет, мир! Это текст о погоде."  # the header first


def test_content_type_charset_is_honoured() -> None:
    body = "<html><body><p>Café crème brûlée, déjà vu.</p></body></html>".encode("latin-1")
    assert "Café crème" in extract(body, content_type="text/html; charset=iso-8859-1").text


@pytest.mark.parametrize(
    ("encoding", "damage"),
    [("cp1252", b""), ("utf-16-le", b""), ("utf-16-be", b""), ("utf-8", b"\xe9")],
)
def test_bytes_without_a_declared_charset_are_detected(encoding: str, damage: bytes) -> None:
    """Nothing declared: windows-1252 (the HTML standard's fallback) for bytes that are not
    UTF-8, UTF-16 without a BOM, and UTF-8 with a damaged byte still UTF-8."""
    text = "Le café très populaire à Montréal ouvre ses portes, déjà célèbre. " * 3
    body = f"<html><head><title>Été</title></head><body><p>{text}</p></body></html>".encode(encoding)
    if damage:
        body = body.replace(b"</p>", damage + b"</p>")
    assert extract(body).text.startswith(text.strip())


def test_wrong_declared_charset_falls_back_to_utf8() -> None:
    body = "<html><head><meta charset='utf-16'></head><body><p>Grüße aus Köln, schöne Stadt.</p></body></html>"
    result = extract(body.encode("utf-8"))
    assert "Grüße aus Köln" in result.text


@pytest.mark.parametrize("label", ["iso-8859-1", "windows-1252", "windows-1251"])
@pytest.mark.parametrize("where", ["meta", "header"])
def test_utf8_bytes_under_a_legacy_charset_label_are_read_as_utf8(label: str, where: str) -> None:
    """Valid UTF-8 beyond ASCII is UTF-8 whatever the label: read as declared, "’" became
    "â€™"; a page truly in the legacy encoding keeps its label (test above)."""
    meta = f"<meta http-equiv='content-type' content='text/html; charset={label}'>" if where == "meta" else ""
    body = f"<html><head>{meta}</head><body><p>It’s Grüße – 5 € • ok, the otters’ river.</p></body></html>"
    content_type = f"text/html; charset={label}" if where == "header" else None
    text = extract(body.encode("utf-8"), content_type=content_type).text
    assert text == "It’s Grüße – 5 € • ok, the otters’ river."


def test_a_legacy_page_that_is_not_utf8_keeps_its_label() -> None:
    body = "<html><head><meta charset='iso-8859-1'></head><body><p>Ã© and Â® as written, café.</p></body></html>"
    assert extract(body.encode("latin-1")).text == "Ã© and Â® as written, café."


def test_invalid_utf8_is_replaced_not_fatal() -> None:
    body = b"<html><head><meta charset='utf-8'></head><body><p>valid text \xff\xfe here and more</p></body></html>"
    result = extract(body)
    assert "valid text" in result.text and "here and more" in result.text


@pytest.mark.parametrize(
    ("prefix", "content_type"),
    [
        ("", None),  # no charset anywhere: valid UTF-8 bytes go to the parser undecoded
        ("<meta charset='utf-8'>", None),
        ("", "text/html; charset=UTF-8"),
        ("\ufeff", None),  # a BOM: decoded first
        ("<?xml version='1.0' encoding='utf-8'?>", None),  # an XML declaration: decoded first
        ("<meta charset='windows-1252'>", None),  # declared otherwise: decoded first
    ],
)
def test_bytes_and_text_give_the_same_tree(prefix: str, content_type: str | None) -> None:
    page = (
        f"{prefix}<html><head><title>Ünïcode ✓</title></head>"
        "<body><p>Grüße, 東京, emoji 🎉 — “quotes”.</p></body></html>"
    )
    data = page.encode("cp1252", "replace") if "1252" in prefix else page.encode("utf-8")
    expected = data.decode("cp1252") if "1252" in prefix else page.lstrip("\ufeff")
    from_bytes = parse_html(data, content_type=content_type)
    from_text = parse_html(expected)
    assert etree.tostring(from_bytes, encoding="unicode") == etree.tostring(from_text, encoding="unicode")
    assert "Grüße" in extract(data, content_type=content_type).text


@pytest.mark.parametrize(
    "invalid",
    [b"\xff\xfe", b"caf\xe9", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\xe2\x82", b"end \xc3"],
)
@pytest.mark.parametrize("content_type", [None, "text/html; charset=utf-8"])
def test_invalid_bytes_declared_utf8_read_as_decoding_reads_them(invalid: bytes, content_type: str | None) -> None:
    # UTF-8 declared: the bytes go to libxml2 unchecked; an invalid sequence must become
    # U+FFFD as when decoding with replacement first (libxml2 replaces a truncated sequence
    # byte by byte, Python once: the count may differ, nothing else).
    meta = b"" if content_type else b"<meta charset='utf-8'>"
    data = b"<html><head>" + meta + b"</head><body><p>Gr\xc3\xbc\xc3\x9fe " + invalid + b" tail</p></body></html>"
    decoded = decode_html(data, content_type)[1]
    assert "\ufffd" in decoded
    from_bytes = etree.tostring(parse_html(data, content_type=content_type), encoding="unicode")
    from_text = etree.tostring(parse_html(decoded), encoding="unicode")
    assert re.sub("\ufffd+", "\ufffd", from_bytes) == re.sub("\ufffd+", "\ufffd", from_text)


def test_extract_tree_accepts_a_parsed_tree() -> None:
    root = parse_html(ARTICLE)
    result = extract_tree(root, url="u")
    assert "second paragraph" in result.text and result.url == "u"


def test_algorithm_registry_and_validation() -> None:
    names = algorithm_names()
    assert {"cetd-ds", "cectd-ds", "cectd-s"} <= set(names)
    with pytest.raises(ValueError, match="unknown algorithm 'nope'; choose one of: .*cectd-ds"):
        extract(ARTICLE, algorithm="nope")
    with pytest.raises(ValueError, match="threshold_coefficient.*out of range"):
        extract(ARTICLE, threshold_coefficient=-1)
    with pytest.raises(ValueError, match="must be a number"):
        extract(ARTICLE, threshold_coefficient="high")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown parameter.*window"):
        extract(ARTICLE, window=3)


LINKED = (
    "<html><head><title>News</title><link rel='canonical' href='/story'>"
    "<meta property='og:image' content='/lead.jpg'></head><body><article><h1>Headline</h1>"
    "<p>The first paragraph of the story, long enough to matter here, <a href='/rel'>with a link</a>.</p>"
    "<p>The second paragraph continues the story with more detail and more words.</p></article></body></html>"
)


def test_extract_tree_takes_the_url_given_with_a_page_for_that_call_only() -> None:
    from_tree = extract_tree(parse_html(LINKED), url="https://x.example/a/")
    page = Page.from_tree(parse_html(LINKED))
    given = extract_tree(page, url="https://x.example/a/")
    assert given.url == from_tree.url == "https://x.example/a/"
    assert 'href="https://x.example/rel"' in given.html and given.html == from_tree.html
    assert given.metadata is not None and given.metadata == from_tree.metadata
    assert given.metadata.canonical_url == "https://x.example/story"
    assert given.metadata.image == "https://x.example/lead.jpg"
    # The Page is not changed: without a url the next call has the Page's own (none here).
    assert page.url is None
    again = extract_tree(page)
    assert again.url is None and 'href="/rel"' in again.html
    assert again.metadata is not None and again.metadata.canonical_url is None  # nothing to resolve it against
    own = Page.from_tree(parse_html(LINKED), "https://own.example/p")
    assert extract_tree(own).url == "https://own.example/p"
    assert extract_tree(own, url="https://x.example/a/").url == "https://x.example/a/"
    assert own.url == "https://own.example/p" and 'href="https://own.example/rel"' in extract_tree(own).html


@pytest.mark.parametrize("kind", [bytearray, memoryview])
def test_bytes_like_input_is_read_as_bytes(kind: type) -> None:
    data = ARTICLE.replace("Headline", "\u00dcberschrift").encode("utf-8")
    result = extract(kind(data))
    assert result == extract(data) and "\u00dcberschrift" in result.html
    assert etree.tostring(parse_html(kind(data))) == etree.tostring(parse_html(data))


BYTES_LIKE = r"must be str or a bytes-like object \(bytes, bytearray, memoryview\), not "


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: extract(None), f"extract\\(\\) argument 'html' {BYTES_LIKE}NoneType"),
        (lambda: extract(123), f"extract\\(\\) argument 'html' {BYTES_LIKE}int"),
        (lambda: extract(ARTICLE, url=123), r"extract\(\) argument 'url' must be str or None, not int"),
        (lambda: extract(ARTICLE, content_type=b"text/html"), r"argument .content_type. must be str or None"),
        (lambda: extract(ARTICLE, algorithm=None), r"extract\(\) argument 'algorithm' must be str, not NoneType"),
        (lambda: extract_tree(ARTICLE), r"argument 'tree' must be an lxml element .* not str \(use extract\(\)"),
        (lambda: extract_tree(None), r"extract_tree\(\) argument 'tree' must be an lxml element .*, not NoneType"),
        (lambda: extract_tree(parse_html(ARTICLE), url=1.5), r"extract_tree\(\) argument 'url' must be str or None"),
        (lambda: extract_tree(parse_html(ARTICLE), algorithm=1), r"argument 'algorithm' must be str, not int"),
        (lambda: parse_html(None), f"parse_html\\(\\) argument 'data' {BYTES_LIKE}NoneType"),
        (lambda: Page.from_tree(parse_html(ARTICLE), 123), r"url must be str or None, not int"),
        (lambda: get_algorithm(None), r"get_algorithm\(\) argument 'name' must be str, not NoneType"),
    ],
)
def test_arguments_of_the_wrong_type_raise_type_error_naming_them(call: Callable[[], object], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        call()


@pytest.mark.parametrize("name", algorithm_names())
def test_every_algorithm_rejects_non_finite_options_by_name(name: str) -> None:
    for option in ("threshold_coefficient", *get_algorithm(name).params):
        for bad in (float("nan"), float("inf"), float("-inf"), "nan"):
            with pytest.raises(ValueError, match=f"{name}: parameter '{option}' must be a finite number"):
                extract(ARTICLE, algorithm=name, **{option: bad})


def test_the_docstring_of_extract_names_every_option() -> None:
    doc = extract.__doc__ or ""
    options = [name for name in inspect.signature(extract).parameters if name != "params"]
    assert [name for name in options if f"``{name}" not in doc] == []
    assert "**params" in doc and "ValueError" in doc and "TypeError" in doc
    assert len(doc.splitlines()) <= 25  # short enough for help()


def test_diagnostics_on_request() -> None:
    assert extract(ARTICLE).diagnostics is None
    info = extract(ARTICLE, diagnostics=True).diagnostics
    assert info is not None
    selected = [node for node in info["nodes"] if node["selected"]]
    assert selected and all({"C", "T", "LC", "LT", "TD", "CTD"} <= set(node) for node in info["nodes"])
    assert info["selected"][0].startswith("article")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("", "empty"),
        (b"", "empty"),
        ("  \n\t  ", "empty"),
        (b"\x00\x01\x02\x03" * 300, "binary:binary"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj", "binary:pdf"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "binary:png"),
        (gzip.compress(b"<html><body>zipped</body></html>"), "binary:gzip"),
        ("<html><head><title>Head only</title></head></html>", "no-text"),
        ("<html><body><div><img src='a.png'></div></body></html>", "no-text"),
        ("<html><frameset><frame src='a.html'><frame src='b.html'></frameset></html>", "frameset"),
    ],
)
def test_bad_input_gives_an_empty_extraction_with_a_reason(data: str | bytes, reason: str) -> None:
    result = extract(data)
    assert result.text == "" and result.html == ""
    assert result.reason == reason
    assert not result


def test_parse_html_raises_empty_document() -> None:
    with pytest.raises(EmptyDocument) as info:
        parse_html(b"%PDF-1.4 binary")
    assert info.value.reason == "binary:pdf"


def test_missing_body_and_broken_markup() -> None:
    assert extract("<p>Just a fragment of text, without html or body tags.").text == (
        "Just a fragment of text, without html or body tags."
    )
    broken = "<html><body><div><p>Unclosed paragraph <b>bold <i>both</div><p>Next one</table></span></body>"
    assert "Unclosed paragraph bold both" in extract(broken, threshold_coefficient=0).text


def test_xml_declaration_in_text_input() -> None:
    page = '<?xml version="1.0" encoding="utf-8"?><html><body><p>XHTML page text here.</p></body></html>'
    assert extract(page).text == "XHTML page text here."


def test_deeply_nested_page_loses_no_content() -> None:
    depth = 100_000
    html = "<html><body><p>top</p>" + "<div>" * depth + "deep text" + "</div>" * depth + "<p>end</p></body></html>"
    result = extract(html, threshold_coefficient=0, max_elements=0)
    assert result.text == "top\ndeep text\nend"
    assert result.html.count("<div>") == depth


def test_deep_page_with_names_lxml_cannot_hold() -> None:
    # Past libxml2's depth limit the page is rebuilt by the fallback tokenizer; Word's <o:p>
    # and an attribute-like tag name are left out as elements, their text kept.
    depth = 3000
    inner = "<p>deep <o:p>office</o:p> text <x=y>odd</x=y></p>"
    html = "<html><body>" + "<div>" * depth + inner + "</div>" * depth + "</body></html>"
    result = extract(html, threshold_coefficient=0)
    assert result.text == "deep office text odd"


def test_a_twenty_megabyte_page() -> None:
    paragraph = "<p>" + "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 3 + "</p>\n"
    nav = "<ul>" + "".join(f"<li><a href='/{i}'>Link {i}</a></li>" for i in range(30)) + "</ul>"
    body = nav + "<article>" + paragraph * (20_000_000 // len(paragraph)) + "</article>" + nav
    html = f"<html><head><title>Big</title></head><body>{body}</body></html>".encode()
    assert len(html) >= 20_000_000
    assert extract(html, algorithm="cectd-ds").reason == "too_large"  # over the default 8 MiB
    # cetd-plus would emit the repeated paragraph once
    result = extract(html, algorithm="cectd-ds", max_size=0, max_elements=0)
    assert result.text.count("Lorem ipsum") == 3 * (20_000_000 // len(paragraph))
    assert "Link 1" not in result.text


# --- limits ----------------------------------------------------------------------------------------


def test_markup_over_max_size_is_not_parsed() -> None:
    page = b"<html><body><p>" + b"Words of the story. " * 10 + b"</p></body></html>"
    assert extract(page, max_size=len(page)).text
    result = extract(page, max_size=len(page) - 1, url="https://example.com/a")
    assert (result.text, result.reason, result.url) == ("", "too_large", "https://example.com/a")
    assert extract(page.decode(), max_size=len(page) - 1).reason == "too_large"  # a str: its characters
    huge = page + b" " * EXTRACT_MAX_SIZE
    assert extract(huge).reason == "too_large"
    assert extract(huge, max_size=0).text == extract(page).text


def test_pages_over_max_elements_give_an_empty_result() -> None:
    page = "<html><body>" + "<p>Words of the story, one paragraph of many.</p>" * (DEFAULT_MAX_ELEMENTS - 2)
    assert extract(page, algorithm="cectd-ds", with_metadata=False).text  # html, body and the <p>s
    page += "<p>One more.</p>"
    assert extract(page, algorithm="cectd-ds", with_metadata=False).reason == "too_many_elements"
    assert extract(page, algorithm="cectd-ds", with_metadata=False, max_elements=0).text
    assert extract("<p>a</p><p>b</p>", max_elements=3).reason == "too_many_elements"  # html, body, p, p


@pytest.mark.parametrize(("argument", "value", "error"), [
    ("max_size", -1, ValueError), ("max_elements", -5, ValueError),
    ("max_size", "8M", TypeError), ("max_elements", 1.5, TypeError), ("max_size", True, TypeError),
])
def test_limits_are_whole_numbers(argument: str, value: object, error: type[Exception]) -> None:
    with pytest.raises(error, match=argument):
        extract("<p>x</p>", **{argument: value})


_PEAK_OF_A_CALL = r"""
import resource, sys
from scrapy_cetd import extract
unit = sys.argv[1].encode()
page = b"<html><body>" + unit * ((8 * 1024 * 1024 - 40) // len(unit)) + b"</body></html>"
extract(b"<p>warm-up</p>")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = extract(page)
print(result.reason, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
"""


@pytest.mark.parametrize("unit", ["<div>", "<p>", "<p>Some words in a paragraph.</p>"])
def test_the_default_limits_keep_a_call_under_a_few_hundred_mb(unit: str) -> None:
    """The worst markup under the default size limit (8 MiB of elements) is parsed, then
    refused for its elements: its peak (measured in a fresh process, ``ru_maxrss``) stays
    under 512 MB (measured: 16 MiB of nested ``<div>`` took 872 MB)."""
    out = subprocess.run([sys.executable, "-c", _PEAK_OF_A_CALL, unit], capture_output=True, text=True, check=True)
    reason, growth_mib = out.stdout.split()
    assert reason == "too_many_elements"
    assert int(growth_mib) < 512
