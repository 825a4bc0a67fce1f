"""cetd-plus: each rule on a hand-made page, the diagnostics, and the fixture quality gate."""

from __future__ import annotations

import re

import pytest

from scrapy_cetd import extract
from scrapy_cetd.algorithms import plus
from scrapy_cetd.algorithms.plus import blocks, data, statistics
from scrapy_cetd.extraction import Selection
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html
from scrapy_cetd.render import render

PROSE = (
    "The committee met on Tuesday to discuss the new budget for the coming year, and "
    "after a long debate the members agreed on most of the proposed changes."
)


def page_of(html: str) -> Page:
    return Page.from_tree(parse_html(html))


def index_of(page: Page, element_id: str) -> int:
    return page.index[page.body.xpath(f"//*[@id='{element_id}']")[0]]


def paragraphs(count: int, text: str = PROSE) -> str:
    return "".join(f"<p>{i} {text}</p>" for i in range(count))


def test_counts_without_removed_subtree_keep_its_tail() -> None:
    page = page_of("<body><div id='d'><p>aaaa</p><footer>bbbbbb<a>cc</a></footer>tail</div></body>")
    roots = plus.removed_roots(page)
    assert [page.tags[r] for r in roots] == ["footer"]
    counts = statistics.counts_without(page, roots)
    d = index_of(page, "d")
    # p's 4 characters and the footer's tail "tail"; the footer and its link are gone.
    assert counts.chars[d] == 8
    assert counts.tag_count[d] == 1
    assert counts.link_chars[d] == 0
    assert counts.link_tags[d] == 0
    # The shared page model is unchanged: 4 + 6 + 2 + 4 characters, 3 tags, 1 link.
    assert (page.chars[d], page.tag_count[d], page.link_chars[d], page.link_tags[d]) == (16, 3, 2, 1)


def test_dialogs_footers_and_captions_are_removed_from_the_content() -> None:
    html = (
        "<body><div id='main'>"
        f"{paragraphs(6)}"
        "<figure><img src='x.png'><figcaption>Photo credit Agency Name</figcaption></figure>"
        "<div role='dialog'><p>Subscribe to our newsletter today please</p></div>"
        "<div aria-modal='true'><p>Accept all cookies on this website</p></div>"
        "<dialog open><p>Sign in to continue reading this</p></dialog>"
        "<footer><p>Copyright the publisher, all rights reserved</p></footer>"
        "</div></body>"
    )
    faithful = extract(html, algorithm="cectd-ds").text
    assert "newsletter" in faithful and "Copyright" in faithful
    result = extract(html, algorithm="cetd-plus", diagnostics=True)
    for noise in ("Photo credit", "newsletter", "cookies", "Sign in", "Copyright"):
        assert noise not in result.text
    assert result.text.count("committee met") == 6
    removed = result.diagnostics["removed"]
    assert [name.split("[")[0] for name in removed] == ["figcaption", "div", "div", "dialog", "footer"]


def test_block_ratio_keeps_blocks_at_or_above_a_tenth_of_the_top() -> None:
    # Three different tags: no repeated group, so only the ratio decides.
    page = page_of("<body><div id='a'>a</div><p id='b'>b</p><section id='c'>c</section></body>")
    a, b, c = (index_of(page, x) for x in "abc")
    density_sum = [0.0] * len(page)
    density_sum[a], density_sum[b], density_sum[c] = 100.0, 9.99, 10.0
    kept, report = plus.filter_blocks(page, [a, b, c], a, density_sum, 0.1, 3, {})
    assert kept == [a, c]
    decisions = [decision for _, _, decision in report()]
    assert decisions[0] == "kept: top block"
    assert decisions[1] == "dropped: DensitySum < 0.1 x the top block's"
    assert decisions[2] == "kept: DensitySum >= 0.1 x the top block's"
    assert [value for _, value, _ in report()] == [100.0, 9.99, 10.0]
    assert plus.filter_blocks(page, [a, b, c], a, density_sum, 0.0, 3, {})[0] == [a, b, c]


def test_main_region_restricts_blocks_only_when_the_top_block_is_in_it() -> None:
    page = page_of(
        "<body><aside><div id='side'>s</div></aside><main><div id='top'>t</div><div id='in'>i</div></main></body>"
    )
    top, side, inner = (index_of(page, x) for x in ("top", "side", "in"))
    assert plus.main_region(page) == (page.index[page.body.find(".//main")], "first <main>")
    density_sum = [50.0] * len(page)
    density_sum[top] = 100.0
    kept, report = plus.filter_blocks(page, [side, top, inner], top, density_sum, 0.1, 3, {})
    assert kept == [top, inner]
    assert report()[0][2] == "dropped: outside the main region"
    # The top block outside the main region: no restriction.
    assert plus.filter_blocks(page, [side, top, inner], side, density_sum, 0.1, 3, {})[0] == [side, top, inner]


def test_main_region_falls_back_to_role_main_then_a_single_article() -> None:
    assert plus.main_region(page_of("<body><div role='main' id='m'>x</div><main>y</main></body>"))[1] == "first <main>"
    role = page_of("<body><article>a</article><div role='main' id='m'>x</div></body>")
    assert plus.main_region(role) == (index_of(role, "m"), "first role=main")
    single = page_of("<body><div><article id='a'>a</article></div></body>")
    assert plus.main_region(single) == (index_of(single, "a"), "single <article>")
    assert plus.main_region(page_of("<body><article>a</article><article>b</article></body>")) is None


def test_tag_positions_are_the_page_models_positions_found_in_one_scan() -> None:
    page = page_of(
        "<body><main><article><p>a</p><pre>b<footer>c</footer></pre></article><aside><dl><dt>d</dt></dl></aside>"
        "<table><tr><td><figcaption>e</figcaption></td></tr></table><dialog>f</dialog><article>g</article></main>"
        "<footer><main>h</main></footer></body>"
    )
    positions = plus.tag_positions(page)
    assert set(positions) == data.LOOKED_UP_TAGS
    for tag in data.LOOKED_UP_TAGS:
        assert positions[tag] == page.positions(tag), tag
    assert len(positions["footer"]) == 2 and len(positions["article"]) == 2
    # The rules read the same elements from them as from their own scans.
    assert plus.removed_roots(page, positions) == plus.removed_roots(page)
    assert plus.main_region(page, positions) == plus.main_region(page)


def test_peers_of_the_top_blocks_item_are_kept_below_the_ratio() -> None:
    page = page_of(
        "<body><ul><li class='post'><p id='p0'>x</p></li><li class='post'><p id='p1'>y</p></li>"
        "<li class='post'><p id='p2'>z</p></li></ul><div id='other'>o</div></body>"
    )
    p0, p1, p2, other = (index_of(page, x) for x in ("p0", "p1", "p2", "other"))
    density_sum = [1.0] * len(page)
    density_sum[p0] = 100.0
    info: dict = {}
    kept, report = plus.filter_blocks(page, [p0, p1, p2, other], p0, density_sum, 0.1, 3, info)
    assert kept == [p0, p1, p2]
    assert info["peer_items"] == 3
    assert report()[1][2] == "kept: inside a peer of the top block's repeated item"
    assert report()[3][2].startswith("dropped: DensitySum")
    # Two items are not a repeated group.
    assert plus.filter_blocks(page, [p0, p1, p2, other], p0, density_sum, 0.1, 4, {})[0] == [p0]


def test_divs_told_apart_by_their_ids_alone_are_no_repeated_group() -> None:
    # The page's columns, <div id='left'>, <div id='story'>, <div id='right'>: three
    # classless divs, each a part of its own, not three items alike.
    page = page_of(
        "<body><div id='wrap'><div id='left'><p id='p0'>x</p></div><div id='story'><p id='p1'>y</p></div>"
        "<div id='right'><p id='p2'>z</p></div></div></body>"
    )
    p0, p1, p2 = (index_of(page, x) for x in ("p0", "p1", "p2"))
    density_sum = [1.0] * len(page)
    density_sum[p1] = 100.0
    info: dict = {}
    assert plus.filter_blocks(page, [p0, p1, p2], p1, density_sum, 0.1, 3, info)[0] == [p1]
    assert "peer_items" not in info
    # Classless sections (a manual's chapters), divs alike by their class and divs whose
    # ids differ in digits only (a forum's posts, div#post1, div#post2) still are.
    for item in ("<section id='{}'>", "<div class='col' id='{}'>", "<div id='post{}'>"):
        close = "</section>" if item.startswith("<section") else "</div>"
        columns = "".join(item.format(f"c{i}") + f"<p id='p{i}'>x</p>{close}" for i in range(3))
        page = page_of(f"<body><div id='wrap'>{columns}</div></body>")
        p0, p1, p2 = (index_of(page, f"p{i}") for i in range(3))
        density_sum = [1.0] * len(page)
        density_sum[p1] = 100.0
        assert plus.filter_blocks(page, [p0, p1, p2], p1, density_sum, 0.1, 3, {})[0] == [p0, p1, p2]


def test_small_repeated_items_after_a_lone_article_are_dropped() -> None:
    comments = "".join(f"<li class='comment'><p id='c{i}'>Thanks for sharing {i}</p></li>" for i in range(3))
    page = page_of(f"<body><div id='post'>{paragraphs(5)}</div><ol>{comments}</ol></body>")
    post = index_of(page, "post")
    firsts = [index_of(page, f"c{i}") for i in range(3)]
    density_sum = [50.0] * len(page)
    density_sum[post] = 100.0
    info: dict = {}
    kept, report = plus.filter_blocks(page, [post, *firsts], post, density_sum, 0.1, 3, info)
    assert kept == [post]
    assert info["top_is_lone_prose"] is True
    assert report()[1][2].startswith("dropped: after the article, in a small repeated item li.comment")
    # Four paragraphs are not an article: the comments stay.
    short = page_of(f"<body><div id='post'>{paragraphs(4)}</div><ol>{comments}</ol></body>")
    post = index_of(short, "post")
    firsts = [index_of(short, f"c{i}") for i in range(3)]
    assert plus.filter_blocks(short, [post, *firsts], post, density_sum, 0.1, 3, {})[0] == [post, *firsts]


def test_a_storys_sections_alike_its_first_are_no_items_after_it() -> None:
    """A story cut in sections after each image: the sections share a class word with the
    first (``body-text first``, ``body-text section``) and stay; teasers after it still go."""
    sections = "".join(
        f"<div class='body-text section'><p id='s{i}'>Section {i} of the story goes on.</p></div>"
        f"<div class='body-image section'><img src='/{i}.jpg'></div>"
        for i in range(3)
    )
    first = f"<div class='body-text first'><div id='post'>{paragraphs(5)}</div></div>"
    html = f"<body><article>{first}{sections}</article></body>"
    page = page_of(html)
    post = index_of(page, "post")
    firsts = [index_of(page, f"s{i}") for i in range(3)]
    density_sum = [50.0] * len(page)
    density_sum[post] = 100.0
    kept, _ = plus.filter_blocks(page, [post, *firsts], post, density_sum, 0.1, 3, {})
    assert kept == [post, *firsts]
    teasers = page_of(html.replace("body-text section", "teaser section"))
    post = index_of(teasers, "post")
    firsts = [index_of(teasers, f"s{i}") for i in range(3)]
    assert plus.filter_blocks(teasers, [post, *firsts], post, density_sum, 0.1, 3, {})[0] == [post]


def test_pre_is_one_block() -> None:
    code = "".join(f"<span>token{i}</span> = compute_the_value({i}, other_argument)\n" for i in range(50))
    page = page_of(f"<body><div id='doc'>{paragraphs(3)}<pre id='code'>{code}</pre></div></body>")
    density = page.composite_text_density
    faithful = page.density_sum(density, composite=True)
    pre = index_of(page, "code")
    # Faithful DensitySum: 50 token runs of about 35 characters outweigh three paragraphs.
    assert max(range(1, len(page)), key=faithful.__getitem__) == pre
    sums = statistics.density_sums(page, density, [], plus.tag_positions(page))
    assert sums[pre] == density[pre]
    assert sums[pre + 1 : page.end[pre]] == [0.0] * (page.end[pre] - pre - 1)
    assert max(range(1, len(page)), key=sums.__getitem__) == index_of(page, "doc")


def test_links_asides_and_their_content_are_never_blocks() -> None:
    card_html = f"<a id='card' href='/x'><div>{paragraphs(3)}</div></a>"
    page = page_of(f"<body><div id='d'>{paragraphs(2)}</div>{card_html}</body>")
    density = page.composite_text_density
    faithful = page.density_sum(density, composite=True)
    card = index_of(page, "card")
    assert max(range(1, len(page)), key=faithful.__getitem__) > card  # faithful: a block inside the link
    sums = statistics.density_sums(page, density, [], plus.tag_positions(page))
    assert sums[card : page.end[card]] == [0.0] * (page.end[card] - card)
    assert sums[:card] == faithful[:card]
    assert max(range(1, len(page)), key=sums.__getitem__) == index_of(page, "d")
    aside = page_of(f"<body><div id='d'>{paragraphs(2)}</div><aside id='s'><div>{paragraphs(3)}</div></aside></body>")
    sums = statistics.density_sums(aside, aside.composite_text_density, [], plus.tag_positions(aside))
    s = index_of(aside, "s")
    assert sums[s : aside.end[s]] == [0.0] * (aside.end[s] - s)


def test_an_aside_left_open_around_the_story_is_no_aside() -> None:
    """A sidebar's unclosed ``<div>`` nests the page's ``<article>`` in its ``<aside>``: the
    story is still read, not the header."""
    header = "<div class='head'><p>Your most important touchpoint for the digital industry.</p></div>"
    sidebar = "<aside class='sidebar'><div class='menu'><a href='/a'>Marketing</a> <a href='/b'>Social</a><div>"
    story = f"<article><h1>Stories get longer</h1>{paragraphs(4)}</article>"
    text = extract(f"<html><body>{header}{sidebar}{story}</body></html>").text
    assert "0 The committee met" in text and "3 The committee met" in text
    assert "touchpoint" not in text
    # An aside of teasers, each an <article>, beside a longer story stays out.
    teasers = "".join(f"<article><p>Teaser {i}: a short line about another story.</p></article>" for i in range(3))
    html = f"<html><body><div>{paragraphs(4)}</div><aside>{teasers}</aside></body></html>"
    assert "Teaser 1" not in extract(html).text


def test_tables_between_kept_blocks_are_rescued_unless_link_dense() -> None:
    page = page_of(
        "<body><p id='a'>a</p><table id='t'><tr><td>1 2 3 4</td></tr></table>"
        "<table id='links'><tr><td><a>menu link</a></td></tr></table><p id='b'>b</p>"
        "<table id='after'><tr><td>x</td></tr></table></body>"
    )
    a, b = index_of(page, "a"), index_of(page, "b")
    counts = statistics.counts_without(page, [])
    info: dict = {}
    assert blocks.rescue_structures(page, [a, b], counts, info, plus.tag_positions(page)) == [index_of(page, "t")]
    assert info["rescued_structures"] == [f"table#t[{index_of(page, 't')}]"]


def test_link_dense_parts_of_a_kept_block_are_pruned() -> None:
    links = "".join(f"<li><a href='/{i}'>Another story number {i}</a></li>" for i in range(4))
    more = paragraphs(3, "More of the story.")
    html = f"<body><div id='story'>{paragraphs(3)}<ul id='rel'>{links}</ul>{more}</div><div>menu</div></body>"
    result = extract(html, algorithm="cetd-plus", diagnostics=True)
    assert "Another story" not in result.text
    assert "More of the story." in result.text and "committee met" in result.text
    assert [name.split("[")[0] for name in result.diagnostics["pruned"]] == ["ul#rel"]
    assert "Another story number 3" in extract(html, algorithm="cetd-plus", link_prune=2).text


def test_a_repeated_passage_is_emitted_once_a_repeated_line_is_kept() -> None:
    passage = (
        "<div class='share'><p>Share this article with your friends, family and colleagues</p>"
        "<p>Read more stories like this one on our site</p></div>"
    )
    html = (
        f"<body><div><p>Kyle Busch</p>{paragraphs(3)}{passage}"
        f"{paragraphs(1, 'Middle.')}{passage}<table><tr><td>Kyle Busch</td></tr></table></div></body>"
    )
    text = extract(html, algorithm="cetd-plus").text
    assert text.count("Share this article") == 1 and text.count("Read more") == 1
    assert text.count("Kyle Busch") == 2  # a single line is never left out
    assert extract(html, algorithm="cetd-plus", dedupe_min_chars=0).text.count("Share this article") == 2


def test_renderer_dedupe_is_opt_in() -> None:
    copy = "<div><p>same line here</p><p>and the next</p></div>"
    page = page_of(f"<body>{copy}{copy}</body>")
    assert render(page, Selection(threshold=None, subtrees={0}))[0].count("same line here") == 2
    assert render(page, Selection(threshold=None, subtrees={0}, dedupe_min_chars=10))[0].count("same line here") == 1


def test_diagnostics_explain_every_block() -> None:
    html = f"<body><nav><a href='/'>Home</a></nav><main><article>{paragraphs(6)}</article></main><p>Aside</p></body>"
    result = extract(html, algorithm="cetd-plus", diagnostics=True)
    info = result.diagnostics
    assert info["top_block"].startswith("article")
    assert info["main_region"].endswith("(first <main>)")
    assert info["threshold"] == pytest.approx(result.threshold)
    assert info["blocks"] and all(entry["decision"].startswith(("kept: ", "dropped: ")) for entry in info["blocks"])
    assert result.text.splitlines()[0].startswith("0 The committee")


def test_coefficient_is_capped_at_one() -> None:
    with pytest.raises(ValueError, match="threshold_coefficient"):
        extract("<p>x</p>", algorithm="cetd-plus", threshold_coefficient=1.2)
    assert extract(f"<body>{paragraphs(2)}</body>", algorithm="cetd-plus", threshold_coefficient=0.9).text


def test_a_noscript_notice_about_javascript_is_removed_and_noscript_content_stays() -> None:
    """``removed_elements``: a short ``<noscript>`` speaking of JavaScript is a notice (16 tuning pages
    on 15 sites up, none down); a longer one, or one without the word, is content."""
    notice = "<noscript><div>JavaScript is disabled. Please enable JavaScript.</div></noscript>"
    posts = paragraphs(6, "A post kept where scripts do not run. JavaScript is mentioned. ")  # over 300
    opening = "<noscript><p>Our shop opens at nine.</p></noscript>"
    html = f"<html><body><main>{paragraphs(6)}{notice}<noscript>{posts}</noscript>{opening}</main></body></html>"
    text = extract(html, algorithm="cetd-plus").text
    assert "JavaScript is disabled" not in text
    assert "A post kept where scripts do not run." in text and "Our shop opens at nine." in text
    statistics.NOSCRIPT_NOTICE_MAX_CHARS, saved = 0, statistics.NOSCRIPT_NOTICE_MAX_CHARS
    try:
        assert "JavaScript is disabled" in extract(html, algorithm="cetd-plus").text
    finally:
        statistics.NOSCRIPT_NOTICE_MAX_CHARS = saved


def test_a_noscript_holding_escaped_markup_is_removed() -> None:
    """``removed_elements``: a ``<noscript>`` whose text is escaped markup (its fallback tags as a
    serializer stored them) is no content, though with no tags inside it is the page's
    densest text: the story is chosen, not the tracking pixel's URL."""
    pixel = "https://stats.example.com/?c1=2&amp;name=story.page&amp;" + "&amp;".join(f"k{i}=v{i}" for i in range(80))
    escaped = f'<noscript>\n&lt;img src="{pixel}" height="1" width="1" alt=""&gt;</noscript>'
    html = f"<html><body><div class='story'>{paragraphs(6)}</div>{escaped}</body></html>"
    assert "<img" in extract(html, algorithm="cectd-ds").text  # the faithful algorithm takes it
    text = extract(html, algorithm="cetd-plus").text
    assert PROSE in text and "<img" not in text and "stats.example.com" not in text


def test_a_headings_permalink_sign_is_in_no_output() -> None:
    """``removed_elements``: Sphinx's and MkDocs's permalink after each heading (a link whose whole text
    is "¶") is left out of the text, the Markdown and the HTML; a pilcrow in prose, and a
    same-page link with words, stay.  The faithful algorithm keeps it."""
    permalink = '<a class="headerlink" href="#{0}" title="Link to this heading">¶</a>'
    story = (
        f"<h2>Cache middleware{permalink.format('cache')}</h2>{paragraphs(3)}"
        f"<h3><code>UpdateCacheMiddleware</code>{permalink.format('update')}</h3>{paragraphs(3)}"
        "<p>The sign ¶ marks a paragraph; see <a href='#cache'>the cache section</a>.</p>"
    )
    html = f"<html><body><nav><a href='/'>Home</a></nav><main>{story}</main></body></html>"
    assert "Cache middleware¶" in extract(html, algorithm="cectd-ds").text
    result = extract(html, algorithm="cetd-plus", with_markdown=True)
    lines = result.text.splitlines()
    assert "Cache middleware" in lines and "UpdateCacheMiddleware" in lines
    assert result.text.count("¶") == 1 and "The sign ¶ marks a paragraph; see the cache section." in lines
    assert result.markdown.count("¶") == 1 and "## Cache middleware\n" in result.markdown
    assert result.html.count("¶") == 1 and 'href="#cache"' in result.html


def test_nothing_inside_code_is_pruned() -> None:
    """``not_blocks`` reads a ``<pre>`` as one block, and the pruning scan leaves it whole: its
    code lines "print", "next" and "close" were stock lines to ``stock_lines``."""
    lines = ["for line in lines:", "    print", "    next", "close"]
    code = "<pre><code>" + "\n".join(f"<div class='line'>{line}</div>" for line in lines) + "</code></pre>"
    story = f"{paragraphs(6)}{code}{paragraphs(6)}"
    html = f"<html><body><nav><a href='/'>Home</a></nav><article>{story}</article></body></html>"
    assert "\n".join(lines) in extract(html, algorithm="cetd-plus").text
    # the same lines outside code are stock lines
    loose = code.replace("<pre><code>", "<div>").replace("</code></pre>", "</div>")
    assert "close" not in extract(html.replace(code, loose), algorithm="cetd-plus").text.splitlines()
    # a <pre> that is a kept block of its own
    listing = "<pre>" + "\n".join(f"<div class='line'>{line}</div>" for line in lines * 30) + "</pre>"
    apart = f"<html><body><div>{paragraphs(6)}</div><div>{listing}</div><div>{paragraphs(6)}</div></body></html>"
    assert extract(apart, algorithm="cetd-plus").text.count("close") == 30


def test_no_table_cell_is_a_stock_line() -> None:
    """A cell's text is data: "Close" heads a column of share prices, "Print" is a step."""
    prices = (
        "<table><tr><th>Date</th><th>Open</th><th>High</th><th>Low</th><th>Close</th></tr>"
        "<tr><td>Nov 20</td><td>101.2</td><td>103.5</td><td>100.1</td><td>102.8</td></tr></table>"
    )
    steps = "<table><tr><td>1</td><td>Print</td></tr><tr><td>2</td><td>Next</td></tr></table>"
    html = f"<html><body><article>{paragraphs(6)}{prices}{steps}{paragraphs(6)}</article></body></html>"
    lines = extract(html, algorithm="cetd-plus").text.splitlines()
    assert "Date | Open | High | Low | Close" in lines and "1 | Print" in lines and "2 | Next" in lines
    # a line of its own is still a stock line
    alone = html.replace(steps, "<div>Print</div>")
    assert "Print" not in extract(alone, algorithm="cetd-plus").text.splitlines()


def test_media_fallback_text_is_removed() -> None:
    """``removed_elements``: what a ``<video>``, ``<audio>``, ``<canvas>`` or ``<iframe>`` holds is
    fallback content, never shown by a browser that plays or draws them."""
    tags = ("video", "audio", "canvas", "iframe")
    fallbacks = "".join(f"<{tag}>Your browser does not support the {tag} element.</{tag}>" for tag in tags)
    text = extract(f"<html><body><main>{paragraphs(6)}{fallbacks}</main></body></html>", algorithm="cetd-plus").text
    assert "does not support" not in text and PROSE in text


def test_each_rule_has_one_name_in_code_and_docs_and_no_rule_is_numbered() -> None:
    """The rules' names (``rules.RULES``) are the switches in the code and the headings of
    docs/cetd-plus.md; no text calls a rule by a number, even across a line break."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    code = "\n".join(path.read_text() for path in (root / "scrapy_cetd" / "algorithms" / "plus").glob("*.py"))
    docs = (root / "docs" / "cetd-plus.md").read_text()
    for name in plus.rules.RULES:
        assert f'rules.on("{name}")' in code, name
        assert f"`{name}`" in docs, name
    numbered = re.compile(r"\brules?\s+\d+[a-z]?(?![\d.])", re.IGNORECASE)
    texts = [docs, *(path.read_text() for path in (root / "scrapy_cetd").rglob("*.py"))]
    assert not [match.group() for text in texts for match in numbered.finditer(text)]
