"""The short texts the rules recognise (a dateline, a bio, a stock line, a legal line, a call
to subscribe, a disclosure, a contributor's note, a credit, an author's box, a poster's
statistic, a comment form's notice), each with the length beyond which it is never read."""

from __future__ import annotations

from ...page import Page
from ...structured_data import is_byline, parse_date
from .data import (
    BIO,
    CALL,
    CALL_WORDS,
    COMMENT_FORM_NOTICE,
    COMMENT_INVITATION,
    CREDIT,
    DATE,
    DATELINE_WORDS,
    DISCLOSURE,
    DISCLOSURE_WORDS,
    FORUM_STAT,
    ITALIC_TAGS,
    LEGAL,
    NOTE,
    SITE_VOICE,
    STOCK_LINE,
    TO_READER,
    WORD,
)
from .reading import chars_in, holds_any

#: ``datelines``: a dateline is a text of at most this many characters holding a date (a month
#: name with a day or a year, a numeric date, "N min read", "N hours ago") and, besides the
#: date and dateline words ("Updated", "Published on", "By", times), at most
#: ``DATELINE_OTHER_WORDS`` words (a name, a section).  0 turns the rule off.
DATELINE_MAX_CHARS = 100


DATELINE_OTHER_WORDS = 3


#: ``stock_lines``: an element of at most this many characters whose whole text is one of the web's
#: stock lines for a part that is not the story: an ad slot's label, a share or follow
#: bar's lead, a sign-up call, a "related" or "read more" header, a gallery's or a
#: player's controls, a comment count.
#: 0 turns the rule off.
STOCK_MAX_CHARS = 40


#: ``author_bio``: an author's bio is a text of at most this many characters that opens with a
#: name (up to four capitalised words, not a pronoun or an article) followed by "is",
#: "was", "covers", ... and, within 200 characters, a word saying the person writes
#: (writer, journalist, reporter, editor, ...).  0 turns the rule off.
BIO_MAX_CHARS = 500


#: ``legal_lines``: a legal line is a text of at most this many characters that opens with a
#: copyright sign or word, or says "all rights reserved" (0 turns the rule off).
LEGAL_MAX_CHARS = 400


#: ``subscribe_calls``: a call to subscribe or to support the site after the story is a text of at most
#: this many characters asking for a sign-up, a subscription or a donation ("Sign up for
#: our newsletter", "Get the latest posts delivered to your inbox", "Please consider
#: supporting our journalism"), or to follow the site on a social network ("Follow AP on
#: Facebook, X, Instagram, YouTube and TikTok"; tuning half: one article up, none down;
#: held out once, articles' shingle precision 0.9275 -> 0.9276), addressed to the reader.
#: A whole box (its heading, its pitch, its fine print) is one such text: 300 characters
#: caught 6 tuning pages, 800 ten, 1500 the same ten.  0 turns the rule off.
CALL_MAX_CHARS = 800


#: ``affiliate_disclosures``: an affiliate disclosure at the story's edges is a text of at most this many
#: characters saying the site earns from the links or picks its products independently
#: ("This post contains affiliate links", "we may earn a commission", "Products are chosen
#: independently by our editors"), in the site's own voice.  0 turns the rule off.
DISCLOSURE_MAX_CHARS = 500


def is_dateline(text: str) -> bool:
    """``datelines``: ``text`` (whitespace collapsed) is a dateline ("Updated Nov 25, 2025 5:00 am
    PST", "Published 2025-12-20 in News", "By Ann Lee | March 3, 2024", "3 min read", and a
    labelled time alone: "Updated 5:27 am CST", no first-half page changed), or
    a byline without a date ("By Ann Lee, Bo Roe": :func:`~scrapy_cetd.metadata.is_byline`;
    first dev half: one article changed, F1 0.9926 -> 0.9959, the folds' means unchanged
    at four decimals)."""
    if len(text) > DATELINE_MAX_CHARS:
        return False
    if not DATE.search(text) and parse_date(text) is None:  # the metadata's dates: 21 languages
        return is_byline(text)
    rest = DATELINE_WORDS.sub(" ", DATE.sub(" ", text))
    return len(WORD.findall(rest)) <= DATELINE_OTHER_WORDS


def is_bio(text: str) -> bool:
    """``author_bio``: ``text`` (whitespace collapsed) is an author's bio ("Jane Roe is a reporter
    covering the coast.")."""
    return len(text) <= BIO_MAX_CHARS and BIO.match(text) is not None


def is_stock_line(text: str) -> bool:
    """``stock_lines``: ``text`` (whitespace collapsed) is a stock line ("Advertisement", "Share
    this article:", "Related stories", "Image 3 of 8")."""
    return len(text) <= STOCK_MAX_CHARS and STOCK_LINE.fullmatch(text) is not None


def is_legal(text: str) -> bool:
    """``legal_lines``: ``text`` (whitespace collapsed) is a legal line ("Copyright © 2023 NPR. All
    rights reserved. ...")."""
    return len(text) <= LEGAL_MAX_CHARS and LEGAL.match(text) is not None


def is_call(text: str) -> bool:
    """``subscribe_calls``: ``text`` (whitespace collapsed) asks the reader to subscribe, sign up or
    support the site ("Subscribe to our newsletter", "Please consider a donation")."""
    if len(text) > CALL_MAX_CHARS or not holds_any(text, CALL_WORDS):
        return False
    return CALL.search(text) is not None and TO_READER.search(text) is not None


def is_disclosure(text: str) -> bool:
    """``affiliate_disclosures``: ``text`` (whitespace collapsed) discloses the site's affiliate links ("This
    post contains affiliate links; we may earn a commission at no cost to you.")."""
    return (
        len(text) <= DISCLOSURE_MAX_CHARS
        and holds_any(text, DISCLOSURE_WORDS)
        and DISCLOSURE.search(text) is not None
        and SITE_VOICE.search(text) is not None
    )


COMMENT_INVITATION_MAX_CHARS = 60


def is_comment_form_notice(text: str) -> bool:
    """Whether a comment section's part is its form's notice ("This site uses Akismet to
    reduce spam.", "You must be logged in to post a comment.", "Share your thoughts...")."""
    if len(text) <= COMMENT_INVITATION_MAX_CHARS and COMMENT_INVITATION.fullmatch(text):
        return True
    return COMMENT_FORM_NOTICE.search(text) is not None


#: ``forum_furniture``: a short element (at most ``FORUM_STAT_MAX_CHARS`` characters) whose whole text
#: is one of a poster's statistics as forum software prints them beside each post ("Posts:
#: 65703", "Joined: Mon Jul 19, 2021 12:00 am", "Join Date: Aug 2012", "Reaction score 10",
#: "4 Likes").  0 turns this half of the rule off.
FORUM_STAT_MAX_CHARS = 60


def is_forum_stat(text: str) -> bool:
    """``forum_furniture``: ``text`` is a poster's statistic ("Posts: 65703", "Join Date: Aug 2012")."""
    return len(text) <= FORUM_STAT_MAX_CHARS and FORUM_STAT.fullmatch(text.strip()) is not None


# --- ``contributor_notes``: contributors' notes -----------------------------------------------

#: ``contributor_notes``: on an article, a contributor's note after the story (an op-ed's "Jane Roe is a
#: professor of law at ...", set in italics as news sites print it) is a text of at most
#: this many characters, at least ``NOTE_MIN_ITALIC`` of it in ``<em>`` or ``<i>``, opening
#: with a name and "is", "was", "has been", "serves", ...  ``author_bio`` asks a bio for a writer
#: word; this note names the contributor's day job instead.  0 turns the rule off.
NOTE_MAX_CHARS = 500


NOTE_MIN_ITALIC = 0.9


def is_contributor_note(page: Page, i: int, text: str) -> bool:
    """``contributor_notes``: element ``i`` (its text ``text``, whitespace collapsed) is a contributor's
    note: short, opening with a name and a verb of what the person is or does, and set in
    italics (read only when the text matches)."""
    if len(text) > NOTE_MAX_CHARS or NOTE.match(text) is None:
        return False
    return chars_in(page, i, ITALIC_TAGS) >= NOTE_MIN_ITALIC * page.chars[i]


# --- ``photo_credits``: photo credits ---------------------------------------------------------

#: ``photo_credits``: on an article, a block-level element of at most this many characters inside a
#: kept block whose whole text is a picture's credit ("Photo: Shutterstock", "Image credit:
#: © Depositphotos.com/Ann Lee", "Getty Images / Holger Leue", "Credit: Apple", "Photo by
#: Lisa Jennings", "AP Photo/John Doe") is removed: a caption's credit line that no caption
#: label or ``<figcaption>`` (``removed_elements`` and ``labelled_parts``) took with it.  0 turns the rule off.
CREDIT_MAX_CHARS = 100


def is_credit(text: str) -> bool:
    """``photo_credits``: ``text`` (whitespace collapsed) is a picture's credit ("Photo: Shutterstock",
    "Getty Images / Holger Leue", "(Image: © Future)")."""
    return len(text) <= CREDIT_MAX_CHARS and CREDIT.fullmatch(text) is not None
