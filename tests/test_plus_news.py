"""cetd-plus on news pages: each kind of noise on a hand-made page, the comments
output, the headline, datelines, and two robustness cases (a deep page, a bare fragment)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapy_cetd import extract
from scrapy_cetd.algorithms import labels, plus
from scrapy_cetd.algorithms.plus import data, pruning, reading, rules, statistics
from scrapy_cetd.cli import main
from scrapy_cetd.crawl.settings import CetdConfig
from scrapy_cetd.outputs import OUTPUTS
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html

STORY = [
    f"Paragraph {i}: the council agreed on Tuesday to rebuild the old harbour wall before the "
    f"winter storms, after engineers found cracks along most of its length last spring."
    for i in range(6)
]
HEADLINE = "Council agrees to rebuild the harbour wall"


def news_page(*, after_story: str = "", in_article: str = "", before_body: str = "") -> str:
    """A news page: headline, optional parts before the story's body, the story with
    optional parts at its end, parts after the article."""
    body = "".join(f"<p>{p}</p>" for p in STORY)
    return (
        f"<html><head><title>{HEADLINE} | The Gazette</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/world'>World</a></nav>"
        f"<main><article><h1>{HEADLINE}</h1>{before_body}"
        f"<div class='story'>{body}{in_article}</div></article>{after_story}</main>"
        "</body></html>"
    )


def lines(text: str) -> list[str]:
    return text.splitlines()


def comment_section(count: int) -> str:
    items = "".join(
        f"<li class='comment'><a href='/u/{i}'>reader{i}</a> <time>{i}h ago</time>"
        f"<p>Comment {i}: I have walked along that wall every morning for years and I am glad "
        f"somebody is finally doing something about the state it is in.</p>"
        f"<a class='reply' href='#r'>Reply</a></li>"
        for i in range(count)
    )
    return (
        f"<section id='comments'><h2>{count} comments</h2><ol>{items}</ol>"
        "<div id='respond'><p>Comments are moderated and may take a while to appear.</p>"
        "<form><textarea></textarea><button>Post comment</button></form></div></section>"
    )


def test_comments_are_out_of_the_text_and_in_the_comments_output() -> None:
    # Forty comments outweigh the story; they lie in <main>, beside the article.
    result = extract(news_page(after_story=comment_section(40)), with_comments=True)
    assert lines(result.text) == STORY
    assert "Comment 0: I have walked" in result.comments
    assert "Comment 39: I have walked" in result.comments
    assert "Comments are moderated" not in result.comments  # the form's notice
    assert "Paragraph" not in result.comments
    # Asked for only: the default leaves it empty, and other algorithms have none.
    assert extract(news_page(after_story=comment_section(3))).comments == ""
    faithful = extract(news_page(after_story=comment_section(3)), algorithm="cectd-ds", with_comments=True)
    assert faithful.comments == ""


WORDPRESS_REPLY = (
    "<div id='respond' class='comment-respond'><h3 id='reply-title'>Leave a Reply</h3>"
    "<form id='commentform'><p class='comment-notes'>Your email address will not be published."
    " Required fields are marked *</p><p><label>Comment *</label><textarea></textarea></p>"
    "<p><label>Name *</label><input></p><p><label>Email *</label><input></p></form></div>"
)


def test_the_reply_form_is_no_comment() -> None:
    """A comment section holding only its reply form (and its heading) gives no comments;
    with comments posted, the form stays out of them."""
    empty = f"<section id='comments'><h2>0 Comments</h2>{WORDPRESS_REPLY}</section>"
    assert extract(news_page(after_story=empty), with_comments=True).comments == ""
    posted = comment_section(2).replace("</section>", WORDPRESS_REPLY + "</section>")
    comments = extract(news_page(after_story=posted), with_comments=True).comments
    assert "Comment 1: I have walked" in comments and "Comments are moderated" not in comments
    assert "Leave a Reply" not in comments and "will not be published" not in comments
    assert "Post comment" not in comments and "2 comments" not in comments


def test_links_and_icons_are_no_comments() -> None:
    """A listing's "Comment" links and a comment count are links alone, an icon sprite's
    ``<symbol id="icon-commenting"><title>`` is a graphic, and a highlighter's
    ``hljs-comment`` is code: no comments from them (the code stays in the text);
    a posted comment keeps its linked author and its "Reply" link (taken whole)."""
    teasers = "".join(
        f"<p>Teaser {i}: {STORY[i][:60]}</p><a class='entry-comments' href='/s/{i}#comments'>Comment</a>"
        for i in range(3)
    )
    sprite = "<svg style='width:0'><symbol id='icon-commenting'><title>commenting</title></symbol></svg>"
    listing = news_page(after_story=f"<div class='teasers'>{teasers}</div>{sprite}")
    assert extract(listing, with_comments=True).comments == ""
    code = "<pre><code><span class='hljs-comment'># clone the repository</span>\ngit clone x</code></pre>"
    result = extract(news_page(in_article=code), with_comments=True)
    assert result.comments == "" and "# clone the repository" in result.text
    counted = comment_section(2).replace("<h2>2 comments</h2>", "<a class='comments-link' href='#c'>2 Comments</a>")
    posted = counted.replace("</section>", WORDPRESS_REPLY + "</section>")
    comments = extract(news_page(after_story=posted), with_comments=True).comments
    assert "reader1 1h ago" in comments and "Comment 1: I have walked" in comments
    assert "2 Comments" not in comments


def test_labels_alone_are_no_comments_and_short_comments_stay() -> None:
    """A section of labels and controls ("Loading Comments", a count) holds no posted
    comment; beside a longer comment, a short one ("great work!") stays."""
    labels_only = "<div id='comments'><h3>Comments</h3><span>Loading Comments</span></div>"
    assert extract(news_page(after_story=labels_only), with_comments=True).comments == ""
    short = comment_section(1).replace("</ol>", "<li class='comment'><p>great work!</p></li></ol>")
    comments = extract(news_page(after_story=short), with_comments=True).comments
    assert "Comment 0: I have walked" in comments and "great work!" in comments


NOTICES = [
    "This site uses Akismet to reduce spam. Learn how your comment data is processed.",
    "You must be logged in to post a comment.",
    "Share your thoughts...",
    "There are no comments added yet.",
]


def test_a_comment_forms_notices_are_no_comments() -> None:
    """The notices of a comment form are no reader's words (on the first 748 dev pages 9
    comments outputs held them, 5 nothing else); an invitation is one only as a line of
    its own, and a large part is kept whole."""
    notices = "".join(f"<p>{notice}</p>" for notice in NOTICES)
    only = f"<div id='comments'><h3>Leave a Reply</h3>{notices}</div>"
    assert extract(news_page(after_story=only), with_comments=True).comments == ""
    section = comment_section(2).replace("</ol>", f"</ol>{notices}")
    comments = extract(news_page(after_story=section), with_comments=True).comments
    assert "Comment 1: I have walked" in comments
    assert not any(notice in comments for notice in NOTICES)
    own_words = "Share your thoughts with the council too: I wrote to them twice about the wall."
    section = comment_section(1).replace("</ol>", f"<li class='comment'><p>{own_words}</p></li></ol>")
    assert own_words in extract(news_page(after_story=section), with_comments=True).comments
    long_reply = "<p>" + " ".join(["The wall needs work, and this site uses Akismet."] * 10) + "</p>"
    section = comment_section(1).replace("</ol>", f"<li class='comment'>{long_reply}</li></ol>")
    assert "this site uses Akismet" in extract(news_page(after_story=section), with_comments=True).comments


def test_a_forum_page_keeps_its_posts() -> None:
    # The top block lies in a comment-labelled list: the posts are the content.
    posts = "".join(f"<div class='comment-body'><p>Post {i}: {STORY[i]}</p></div>" for i in range(5))
    html = f"<html><body><div id='comments'>{posts}</div></body></html>"
    result = extract(html, with_comments=True)
    assert all(f"Post {i}:" in result.text for i in range(5))
    assert result.comments == ""


@pytest.mark.parametrize(
    ("label", "noise"),
    [
        # A teaser river: cards of a headline, a summary and a timestamp (up to half the
        # story's length: ``labelled_parts``'s guard, NOISE_MAX_SHARE).
        (
            "related-stories",
            "".join(
                f"<div class='card'><h3>Storm closes ferry route {i}</h3><p>The ferry will not "
                f"sail until the weekend, the operator said.</p><span>{i}M ago</span></div>"
                for i in range(4)
            ),
        ),
        ("author-bio", "<b>Jane Reporter</b> Biography: Jane covers the coast. @janereporter jane@example.com"),
        ("newsletter-signup", "Follow by Email. Get all latest content delivered straight to your inbox."),
        ("sidebar", "Recent in Sports: Rowing club wins at the autumn head. Random Posts: a list of posts."),
        ("gallery", "Image 1 of 8. Caption. Close. Previous. Next."),
        ("wp-caption-text", "(Image: © The Gazette photographer, used with permission)"),
        ("social-links", "Follow us on every network you can think of, today and every day."),
    ],
)
def test_labelled_parts_in_the_article_are_pruned(label: str, noise: str, monkeypatch: pytest.MonkeyPatch) -> None:
    html = news_page(in_article=f"<div class='{label}'>{noise}</div>")
    assert lines(extract(html).text) == STORY
    # Without the label the same part is kept: the label is what removes it (``subscribe_calls``
    # and ``photo_credits``, which read the sign-up box's and the credit's text, off).
    monkeypatch.setattr(rules, "OFF", frozenset({"subscribe_calls", "photo_credits"}))
    assert lines(extract(html.replace(label, "box")).text) != STORY


@pytest.mark.parametrize("attribute", ["data-component", "data-testid", "data-module", "data-ga-category"])
def test_a_part_named_by_a_data_attribute_is_pruned(attribute: str) -> None:
    # Utility classes say nothing; the component's name is in a data-* attribute.
    box = (
        f"<section class='relative my-12 mx-auto p-8' {attribute}='newsletter-signup'>"
        "<div class='font-bold'>Awesome offers, hand-picked for you.</div>"
        "<div class='mt-2'>Sign up now for the Gazette Deals e-mail, every morning.</div></section>"
    )
    html = news_page(in_article=box)
    assert lines(extract(html).text) == STORY
    assert lines(extract(html.replace(attribute, "data-x")).text) != STORY  # other data-* say nothing
    story = html.replace("<div class='story'>", f"<div class='story' {attribute}='article-body'>")
    assert lines(extract(story).text) == STORY  # a name without a noise word removes nothing


def test_a_labelled_part_holding_most_of_the_text_is_kept() -> None:
    # A "sidebar" word on an element with more than half the top block's text is not noise.
    big = "".join(f"<p>{p.replace('Paragraph', 'Section')}</p>" for p in STORY * 2)
    html = news_page(in_article=f"<div class='with-sidebar'>{big}</div>")
    assert "Section 5" in extract(html).text


def test_form_parts_are_out_of_the_text() -> None:
    options = "".join(f"<option>Industry {i}</option>" for i in range(40))
    form = (
        f"<form class='lead'><p>Request our free ebook about harbour walls today.</p><select>{options}</select></form>"
    )
    assert lines(extract(news_page(in_article=form)).text) == STORY


def test_the_headline_is_out_of_the_text() -> None:
    result = extract(news_page())
    assert lines(result.text) == STORY  # starts with the story's first paragraph
    assert result.title == HEADLINE  # the metadata's headline: the site name removed
    # A heading that is not the page's title stays (documentation pages use h1 for sections).
    page = Page.from_tree(parse_html(f"<body><h1>{HEADLINE}</h1><h1>Background</h1></body>"))
    title = f"{HEADLINE} | The Gazette"
    assert pruning._is_headline(page, 1, title) and not pruning._is_headline(page, 2, title)


def test_labels_are_words_at_a_word_start() -> None:
    assert labels.label_of("comment-list ") == labels.COMMENT
    assert labels.label_of(" respond") == labels.COMMENT
    assert labels.label_of("relatedPosts x") == labels.NOISE
    assert labels.label_of("entry-content post-body") is None
    assert labels.label_of("breadcrumbs") == labels.NOISE
    assert labels.label_of("shadow-box") is None  # "share"/"ad" are not inside other words


def test_camel_case_labels_are_cut_into_words() -> None:
    assert labels.label_of("ArticleComments") == labels.COMMENT
    assert labels.label_of("divCommentFooter") == labels.COMMENT
    assert labels.label_of("ipsBreadcrumb") == labels.NOISE
    assert labels.label_of("AdvisorResourcesCTA_advisorCta__ex5AL") == labels.ARTICLE_NOISE
    assert labels.label_of("styles_signUpButton") == labels.NOISE  # the uncut "signup" still counts
    assert labels.label_of("ArticleBody mainContent") is None


def test_comments_output_in_settings_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "comments" in OUTPUTS

    class Settings(dict):
        def getbool(self, name: str, default: bool) -> bool:
            return bool(self.get(name, default))

        def getdict(self, name: str, default: dict) -> dict:
            return dict(self.get(name, default))

    config = CetdConfig.from_settings(Settings(CETD_OUTPUT_FIELDS={"text": "text", "comments": "comments"}))
    assert config.options.comments and config.options.keywords()["with_comments"]
    assert not CetdConfig.from_settings(Settings()).options.comments
    page = tmp_path / "page.html"
    page.write_text(news_page(after_story=comment_section(3)), encoding="utf-8")
    assert main(["extract", "--format", "json", "--with-comments", str(page)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert "Comment 2: I have walked" in printed["comments"]
    assert "Comment" not in printed["text"]


def test_a_fragment_without_block_elements_gives_its_text() -> None:
    assert extract("Just a line of plain text, no tags at all.").text == "Just a line of plain text, no tags at all."
    text = "Some text with <b>bold</b> and <a href='x'>a link</a> in it."
    assert extract(text).text == "Some text with bold and a link in it."


class CountingList(list):
    """A list counting its item reads (the scan's work)."""

    reads = 0

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        CountingList.reads += 1
        return super().__getitem__(index)


@pytest.mark.parametrize("depth", [2_000, 20_000])
def test_pruning_reads_each_element_a_bounded_number_of_times_at_any_depth(depth: int) -> None:
    # Every span is a kept block nested in the previous one: the scan must not restart in
    # each (quadratic: 2e8 reads at 20,000 deep), but read each element a few times.
    page = Page.from_tree(parse_html("<html><body>" + "<span>x" * depth))
    counts = statistics.counts_without(page, [])
    counts.chars = CountingList(counts.chars)
    CountingList.reads = 0
    blocks = list(range(1, len(page)))
    kept, removed, _ = pruning.prune(page, blocks, blocks[0], counts, 0.8, {})
    assert kept == blocks and not any(removed)
    assert CountingList.reads <= 4 * len(page)
    assert extract("<html><body>" + "<span>x" * depth).text.count("x") == depth


class CountingTags(list):
    """A list counting the items read from it, by iteration or slicing."""

    reads = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        for item in super().__iter__():
            CountingTags.reads += 1
            yield item

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        found = super().__getitem__(index)
        CountingTags.reads += len(found) if isinstance(index, slice) else 1
        return found


@pytest.mark.parametrize("count", [2_000, 8_000])
def test_pruning_reads_the_tags_of_many_side_by_side_blocks_once(count: int) -> None:
    # Thousands of kept blocks side by side: the scan of each read the tag list from its
    # start (a quadratic on a flat page of 40,000 small blocks: 24 s).
    page = Page.from_tree(parse_html("<html><body>" + "<div><p>words</p><p>more</p></div>" * count))
    blocks = page.positions("div")
    page.tags = CountingTags(page.tags)
    CountingTags.reads = 0
    kept, _, _ = pruning.prune(page, blocks, blocks[0], statistics.counts_without(page, []), 0.8, {})
    assert kept == blocks
    assert CountingTags.reads <= 4 * len(page)


def story_page(first: str = "", last: str = "") -> str:
    """A news page whose story body starts with ``first`` and ends with ``last``."""
    body = "".join(f"<p>{p}</p>" for p in STORY)
    return (
        f"<html><head><title>{HEADLINE}</title></head><body><main><article>"
        f"<div class='story'>{first}{body}{last}</div></article></main></body></html>"
    )


def assert_only_the_story_stays(html: str, off: frozenset[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``html``'s text is the story alone; with the rules ``off`` off,
    the part it removed is kept."""
    assert lines(extract(html).text) == STORY
    monkeypatch.setattr(rules, "OFF", off)
    assert lines(extract(html).text) != STORY


@pytest.mark.parametrize(
    ("first", "last"),
    [
        ("<p>Updated Nov 25, 2025 5:00 am PST</p>", "<p>Last updated on November 15, 2025</p>"),
        ("<div><span>By Ann Lee</span> | <span>March 3, 2024</span></div><p>4 min read</p>", ""),
        ("<p>Published 2025-12-20 in World</p>", "<div>Posted 3 hours ago</div>"),
        ("<p>By Stefan Becket, Kathryn Watson</p>", ""),  # a byline without a date
        ("<p>Von Hans Müller</p><p>Veröffentlicht am 4. März 2025</p>", ""),  # the metadata's languages
        ("<p>Updated 5:27 am CST</p>", "<p>Posted at 9:15 a.m. ET</p>"),  # a labelled time alone
    ],
)
def test_datelines_at_the_story_edges_are_out_of_the_text(
    first: str, last: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_only_the_story_stays(story_page(first, last), frozenset({"datelines"}), monkeypatch)


def test_a_sentence_with_a_date_stays() -> None:
    sentence = "On March 3, 2024 the council first heard of the cracks, from a fisherman."
    assert lines(extract(story_page(f"<p>{sentence}</p>")).text) == [sentence, *STORY]
    assert plus.is_dateline("January 21, 2025") and plus.is_dateline("3 min read")
    assert not plus.is_dateline("In May 2020, prices rose sharply in all markets.")
    assert not plus.is_dateline(sentence)
    assert not plus.is_dateline("The meeting was updated at 5:30 pm after the storm damaged roofs.")


def test_a_sentence_opening_with_by_stays() -> None:
    for sentence in ("By Monday the council had closed the harbour road.", "By the way", "By Ann Lee and others"):
        assert lines(extract(story_page(f"<p>{sentence}</p>")).text) == [sentence, *STORY]


@pytest.mark.parametrize(
    "stock",
    [
        "<div class='slot'>Advertisement</div>",
        "<p>Share this article:</p>",
        "<h3>Related stories</h3>",
        "<div>Image 1 of 8</div>",
        "<p>STORY CONTINUES BELOW ADVERTISEMENT</p>",
        "<div><span>Caption</span> <button>Close</button></div>",
        "<div><span>Show Caption</span></div>",
        "<p>12 comments</p>",
        "<p><strong>Tags:</strong></p>",
        "<p>Kommentare geschlossen</p>",
        "<h4>Like it? Share it!</h4>",
        "<div><span>Drucken</span></div>",
        "<h2>NOTAS RELACIONADAS</h2>",
        "<h3>Weitere Informationen:</h3>",  # German boxes' headings and controls
        "<p><strong>Schon gelesen?</strong></p>",
        "<div><span>Kommentieren</span></div>",
    ],
)
def test_stock_lines_inside_the_story_are_out_of_the_text(stock: str, monkeypatch: pytest.MonkeyPatch) -> None:
    body = "".join(f"<p>{p}</p>" + (stock if i == 2 else "") for i, p in enumerate(STORY))
    html = news_page().replace("".join(f"<p>{p}</p>" for p in STORY), body)
    assert lines(extract(html).text) == STORY
    monkeypatch.setattr(rules, "OFF", frozenset({"stock_lines"}))  # ``stock_lines`` off: the line is kept
    assert lines(extract(html).text) != STORY


def test_a_stock_phrase_inside_a_sentence_stays() -> None:
    line = "Read more about the harbour in the council's report."
    assert lines(extract(story_page(last=f"<p>{line}</p>")).text) == [*STORY, line]
    assert plus.is_stock_line("Advertisement") and not plus.is_stock_line(line)


def test_an_authors_bio_at_the_story_end_is_out_of_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    bio = (
        "<p>Jane Roe is a reporter covering the coast and its harbours for The Gazette. "
        "Write to her at jane@example.com.</p>"
    )
    assert lines(extract(story_page(last=bio)).text) == STORY
    assert plus.is_bio("Archie is a writer from South London.")
    # Not a bio: no name first, or not about a writer.
    assert not plus.is_bio("It was developed by an American company and covers 24 languages.")
    assert not plus.is_bio("Mayor Ann Lee is a former harbour engineer and a keen sailor.")
    monkeypatch.setattr(rules, "OFF", frozenset({"author_bio"}))  # ``author_bio`` off: the bio is kept
    assert lines(extract(story_page(last=bio)).text) != STORY


def test_article_noise_labels_count_on_articles_only() -> None:
    promo = "<div class='cta-box'><p>Book a free harbour tour with our partners today and save.</p></div>"
    assert lines(extract(story_page(last=promo)).text) == STORY
    assert labels.label_of("cta-box") == labels.ARTICLE_NOISE
    # A service page (not prose standing alone): its call to action is its content.
    service = (
        "<html><body><main><div class='offer'><h2>Harbour tours</h2><ul>"
        + "".join(f"<li>Tour {i}: two hours along the old harbour wall with a guide.</li>" for i in range(6))
        + "</ul>"
        + promo
        + "</div></main></body></html>"
    )
    assert "Book a free harbour tour" in extract(service).text


def test_legal_lines_at_the_story_end_are_out_of_the_text() -> None:
    legal = "<p>Copyright © 2023 The Gazette. All rights reserved. Terms of use apply.</p>"
    assert lines(extract(story_page(last=legal)).text) == STORY
    assert plus.is_legal("© 2025 The Gazette") and plus.is_legal("Text and photos: all rights reserved.")
    assert not plus.is_legal("The copyright office said on Monday it would review the case.")


def declared_page(article_body: str, *, in_article: str = "", after_story: str = "") -> str:
    """A news page declaring ``article_body`` as its JSON-LD ``articleBody``."""
    data = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle", "articleBody": article_body})
    page = news_page(in_article=in_article, after_story=after_story)
    return page.replace("</head>", f'<script type="application/ld+json">{data}</script></head>')


BIO_TEXT = (
    "Sam Porter has spent twenty years in harbour towns along the coast, sailing small boats "
    "and photographing old piers in all kinds of weather."
)
BIO = f"<div class='writer'><p>{BIO_TEXT}</p></div>"
PROMO_TEXT = "Get our weekend briefing: the best of the week's local news, delivered free every Saturday."
PROMO = f"<div><p>{PROMO_TEXT}</p></div>"


def test_parts_the_declared_article_body_does_not_hold_are_out_of_the_text() -> None:
    # ``declared_body``: the bio and the promo carry no label and no writer word; only the page's
    # JSON-LD articleBody, which holds the story and not them, tells them apart.
    page = declared_page("\n\n".join(STORY), in_article=BIO + PROMO)
    result = extract(page, diagnostics=True)
    assert lines(result.text) == STORY
    assert len(result.diagnostics["declared_body"]) == 2
    assert lines(extract(news_page(in_article=BIO + PROMO)).text) == [*STORY, BIO_TEXT, PROMO_TEXT]


def test_a_declared_body_written_as_html_counts_as_its_text() -> None:
    body = "".join(f"<p>{p.replace(',', '&#44;')}</p>" for p in STORY)
    assert lines(extract(declared_page(body, in_article=PROMO)).text) == STORY


@pytest.mark.parametrize(
    "article_body",
    [
        STORY[0],  # a teaser: the body of a paywalled story, under DECLARED_MIN_COVER of the text
        "Subscribe to read the full story about the harbour wall. " * 30,  # another text
        "",
    ],
)
def test_a_declared_body_that_does_not_hold_the_story_changes_nothing(article_body: str) -> None:
    page = declared_page(article_body, in_article=PROMO)
    assert extract(page).text == extract(news_page(in_article=PROMO)).text


def test_a_story_paragraph_missing_from_the_declared_body_stays_when_it_shares_its_words() -> None:
    # Lines are judged by word 3-grams, not as exact strings: a paragraph the site edited
    # after writing its JSON-LD ("on Tuesday" became "on Wednesday") stays.
    edited = [STORY[0].replace("on Tuesday", "on Wednesday"), *STORY[1:]]
    page = declared_page("\n\n".join(STORY)).replace(STORY[0], edited[0], 1)
    page = page.replace(f"<p>{STORY[0]}</p>", f"<p>{edited[0]}</p>")
    assert lines(extract(page).text) == edited


def test_code_and_tables_stay_though_the_declared_body_leaves_them_out() -> None:
    code = "<pre>harbour.rebuild(wall=True, before='winter')\nprint('done')</pre>"
    table = "<table><tr><td>Section</td><td>Cracks found</td></tr><tr><td>North pier</td><td>14</td></tr></table>"
    text = extract(declared_page("\n\n".join(STORY), in_article=code + table)).text
    assert "harbour.rebuild(wall=True, before='winter')" in text and "North pier" in text


def test_declared_body_is_read_from_json_ld_graphs_and_garbage_gives_none() -> None:
    from scrapy_cetd.metadata import article_body
    from scrapy_cetd.page import json_ld_objects

    graph = json.dumps({"@graph": [{"@type": "WebPage"}, {"@type": "Article", "articleBody": "A &amp; <b>B</b>"}]})
    assert article_body(json_ld_objects(graph)) == "A & B"
    garbage = ['{"articleBody": ', '{"@type": "Article", "articleBody": 3}', "[" * 100_000]
    assert article_body(object for text in garbage for object in json_ld_objects(text)) is None


@pytest.mark.parametrize(
    "call",
    [
        "<p>Sign up today and get the harbour newsletter every Friday.</p>",
        "<div class='box'><h3>Get the Gazette daily</h3><p>Subscribe to our free newsletter: the day's "
        "local news, delivered to your inbox every morning.</p><p>By subscribing you agree to our terms.</p></div>",
        "<p>If stories like this one matter to you, please consider supporting our newsroom with a donation.</p>",
        "<p>To read the rest of this story subscribe to Gazette+.</p>",
        "<p><em>Follow the Gazette on Facebook, X and Instagram for the latest local news.</em></p>",
    ],
)
def test_calls_to_subscribe_or_support_after_the_story_are_out_of_the_text(
    call: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_only_the_story_stays(story_page(last=call), frozenset({"subscribe_calls"}), monkeypatch)


def test_a_story_line_about_newsletters_or_donations_stays() -> None:
    line = "The harbour trust said donations from 300 families had paid for the survey."
    assert lines(extract(story_page(last=f"<p>{line}</p>")).text) == [*STORY, line]
    assert plus.is_call("Sign up for our newsletter") and plus.is_call("Don't miss a post: get them in your inbox.")
    # No call, or not addressed to the reader.
    assert not plus.is_call(line)
    assert not plus.is_call("Its newsletter reached 40,000 subscribers by June.")
    assert not plus.is_call("It’s important to sign up for automated contributions to each savings plan.")
    assert plus.is_call("Follow AP on Facebook, X, Instagram, YouTube and TikTok")
    assert not plus.is_call("Follow the plant spacing rules on the back of seed packs.")
    assert not plus.is_call("The council will follow the advice it was given on Facebook, a spokesman said.")


@pytest.mark.parametrize(
    ("first", "last"),
    [
        ("<p><i>This article contains affiliate links that may earn us a commission at no cost to you.</i></p>", ""),
        ("", "<p>Products are chosen independently by our editors. Purchases through our links may earn us a fee.</p>"),
    ],
)
def test_affiliate_disclosures_at_the_story_edges_are_out_of_the_text(
    first: str, last: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_only_the_story_stays(story_page(first, last), frozenset({"affiliate_disclosures"}), monkeypatch)


def test_a_story_line_about_commissions_stays() -> None:
    line = "Agents earn a commission of 6% on each sale, the harbour survey found."
    assert lines(extract(story_page(last=f"<p>{line}</p>")).text) == [*STORY, line]
    assert plus.is_disclosure("This post may contain affiliate links. Read more on my About page!")
    assert not plus.is_disclosure(line)


@pytest.mark.parametrize(
    "text",
    [
        "SIGN-UP now, it is free for you",
        "Get our NEWSLETTERS",
        "Straight to your Inbox",
        "Subscribing takes you a minute",
        "Donations keep us going",
        "Join us on Patreon",
        "Please Consider a gift to our team",
        "Support Independent journalism, support us",
        "FOLLOW us on WhatsApp",
    ],
)
def test_every_call_the_pattern_finds_passes_the_word_filter(text: str) -> None:
    assert data.CALL.search(text) and reading.holds_any(text, data.CALL_WORDS)
    assert plus.is_call(text)


@pytest.mark.parametrize(
    "text",
    [
        "We use AFFILIATE links",
        "We may Earn a Commission",
        "we receive us a compensation",
        "Our Paid Promotion policy",
        "At No Extra Cost To You, we",
        "Our products are Chosen Independently",
        "We selected these Independently Selected picks",
    ],
)
def test_every_disclosure_the_pattern_finds_passes_the_word_filter(text: str) -> None:
    assert data.DISCLOSURE.search(text) and reading.holds_any(text, data.DISCLOSURE_WORDS)
    assert plus.is_disclosure(text)
