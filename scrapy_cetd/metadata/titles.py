"""The title, and the headline it is usually read from.

The headline (:func:`find_headline`) is the first ``<h1>`` that agrees with the declared
title, else the first ``<h1>``, else an agreeing ``<h2>``-``<h4>`` (:func:`_headline`).
Order of strategies for the title (:func:`page_title`):

1. an ``<h1>`` the page also declares as its title (:func:`_confirmed_heading`);
2. the first ``<h1>`` when it agrees with the declared title (:data:`_H1_MIN_AGREEMENT`)
   and is no dated copy of it, or when the declared title is the site's name and a motto;
3. the declared title (JSON-LD ``headline``, ``og:title`` and the other ``<meta>``
   titles, the microdata's ``headline``, ``<title>``) without the site's name
   (:func:`strip_site_name`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..page import Page, normalize_space
from ..structured_data.dates import parse_date
from ..structured_data.names import matches_site, site_keys
from ..structured_data.text import WORD, name_key, unescape
from .headline import _MAX_HEADINGS, _first_with_tag, _heading_text, _headline_run, _names_the_site
from .urls import _PLAIN_HOST, _host_name

__all__ = [
    "find_headline",
    "Headline",
    "page_title",
    "strip_site_name",
]

_TITLE_SEPARATORS = re.compile(r"\s+(?:[|\-–—:·•»«/]|::|~)\s+")


def strip_site_name(title: str | None, site_names: Iterable[str | None] = ()) -> str | None:
    """``title`` without a site-name prefix or suffix ("Headline | Site", "Site - Headline").

    A part is dropped when it matches a known site name (``og:site_name``, the publisher,
    the host name); otherwise the last part (a suffix) is dropped when it has at most four
    words and at most half the length of the rest ("Best Movers in NYC 2025 | Top 19
    Companies").  First dev half, two folds, a half instead of a third: title exact
    0.795 / 0.805 -> 0.803 / 0.813, none lost; dropping a short first part as well gained
    4 pages on fold 1 but lost one ("Git - git-commit Documentation") for one on fold 2.
    The first part is dropped only when it is the site's name or inside it, not when it
    contains it ("Gymshark Arrival T-Shirt - Black | Gymshark", "Visual Studio Community |
    Download"): title exact 0.816 / 0.826 -> 0.819 / 0.832, token F1 0.918 / 0.918 ->
    0.925 / 0.927 (one page lost: "Liberty University Online Tuition and Fees | ...")."""
    if not title:
        return title
    title = normalize_space(title)
    parts = _TITLE_SEPARATORS.split(title)
    if len(parts) < 2:
        return title
    keys = site_keys(site_names)
    if keys:
        kept = [part for k, part in enumerate(parts) if not matches_site(name_key(part), keys, contained=k > 0)]
        if kept and len(kept) < len(parts):
            return _rejoin(title, kept)
    if len(parts[-1]) * 2 <= len(" ".join(parts[:-1])) and len(parts[-1].split()) <= 4:
        return _rejoin(title, parts[:-1])
    return title


def _without_glued_part(heading: str | None, title: str | None) -> str | None:
    """An ``<h1>`` that is the ``<title>``'s first part with another of its parts glued on
    ("... de la InfantaUltima Hora Mallorca": the site's name, a link inside the heading,
    against the title "... de la Infanta » Local » Ultima Hora Mallorca") is that first
    part; any other heading is itself.  Seen on a news page outside the dev set; no first
    dev half page has one."""
    if not heading or not title:
        return heading
    first, *others = _TITLE_SEPARATORS.split(normalize_space(title))
    if others and heading.startswith(first) and heading[len(first) :].strip() in others:
        return first
    return heading


def _site_first(title: str | None, site_names: Iterable[str | None]) -> bool:
    """Whether ``title`` is the site's name and one more part ("Reddit - The heart of the
    internet"): a home page's title, its motto or a section after the name, which a page
    rendered by scripts keeps on every page.  Then an ``<h1>`` unlike it is still the
    headline.  First dev half, two folds: title exact 0.829 / 0.840 -> 0.835 / 0.840,
    token F1 0.932 / 0.931 -> 0.937 / 0.931 (two pages, both of one site; none lost)."""
    if not title:
        return False
    parts = _TITLE_SEPARATORS.split(normalize_space(title))
    keys = site_keys(site_names)
    return len(parts) == 2 and bool(keys) and matches_site(name_key(parts[0]), keys, contained=False)


def _rejoin(title: str, parts: list[str]) -> str:
    """The title from its first kept part to its last, separators as they were."""
    start = title.find(parts[0])
    end = title.rfind(parts[-1]) + len(parts[-1])
    return title[start:end].strip() if 0 <= start < end else " ".join(parts)


#: The ``<h1>`` is the headline when its words agree this much (token F1) with the declared
#: title (JSON-LD, og:title, else ``<title>``): the labelled titles of the dev pages are
#: most often the visible headline, which sites shorten or reword in their meta tags
#: (first half: title exact 0.76 -> 0.79, token F1 0.89 -> 0.905; 0.2 and 0.5 did worse).
_H1_MIN_AGREEMENT = 0.35


def _title_words(title: str | None) -> Counter[str]:
    """A title's words (lower case), counted once per page for every :func:`_agreement`."""
    return Counter(WORD.findall(title.lower())) if title else Counter()


#: Forum software's label before a thread's title: "Thread: ..." (vBulletin), "View topic -
#: ..." (phpBB), "Topic: ...".  First dev half, two folds: title exact 0.824 / 0.840 ->
#: 0.829 / 0.840, none lost.
_FORUM_LABEL = re.compile(r"^(?:thread|topic|view topic)\s*[:\-–—]\s+", re.IGNORECASE)


def _headline(page: Page, declared_words: Counter[str], h1s: list[int], h1_texts: list[str]) -> int | None:
    """The page model's index of the headline: the first ``<h1>`` whose words agree with
    the declared title (:data:`_H1_MIN_AGREEMENT`), else the first ``<h1>``; on a page
    without ``<h1>``, the first ``<h2>`` that agrees, else ``<h3>``, else ``<h4>``.  The
    dateline and the byline are read around it.  First dev half, two folds: date 0.901 /
    0.903 -> 0.909 / 0.907, false positives 40 / 43 -> 39 / 43 (pages whose first ``<h1>``
    is a search box's, or that have none); ``<h3>`` and ``<h4>`` (third session): date
    0.914 / 0.925 -> 0.914 / 0.929, author 0.868 / 0.891 -> 0.868 / 0.896, false positives
    unchanged.  ``declared_words`` are the declared title's (:func:`_title_words`),
    ``h1_texts`` the ``<h1>``s' texts (:func:`_heading_text`)."""
    if not declared_words:
        return h1s[0] if h1s else None
    for k, text in zip(h1s, h1_texts):
        if _agreement(text, declared_words) >= _H1_MIN_AGREEMENT:
            return k
    if h1s:
        return h1s[0]
    for tag in ("h2", "h3", "h4"):
        for k in _first_with_tag(page, tag, _MAX_HEADINGS):
            if _agreement(_heading_text(page.elements[k]), declared_words) >= _H1_MIN_AGREEMENT:
                return k
    return None


def _agreement(text: str, words: Counter[str]) -> float:
    """The token F1 of ``text``'s words against a title's ``words`` (:func:`_title_words`)."""
    x = WORD.findall(text.lower())
    if not x or not words:
        return 0.0
    return 2 * sum((Counter(x) & words).values()) / (len(x) + words.total())


def _meta_titles(metas: dict[str, list[str]]) -> list[str]:
    """The page's ``og:title`` and ``twitter:title``."""
    return [values[0] for key in ("og:title", "twitter:title") if (values := metas.get(key))]


def _heading_words(text: str) -> tuple[str, ...]:
    """A heading's or a title's words in lower case, "and" left out: "&" is no word
    ("Discounts, Coupons & Promo Codes" is "discounts, coupons, and promo codes")."""
    return tuple(word for word in WORD.findall(text.lower()) if word != "and")


def _confirmed_heading(
    h1_texts: list[str], declared: Iterable[str | None], site_names: Iterable[str | None]
) -> str | None:
    """The first ``<h1>`` whose words are those of a declared title (JSON-LD, ``og:title``,
    ``twitter:title``, ``<title>``) or of its first part ("Introduction - From Zero to
    QED", "News | Site"), unless they are the site's name, without a site-name suffix
    (:func:`strip_site_name`) and a Sphinx "¶": the page names its headline twice.  First
    dev half, two folds: title exact 0.803 / 0.813 -> 0.816 / 0.826, token F1 0.910 /
    0.908 -> 0.918 / 0.918, none lost (with any part, not only the first, one page was
    lost: a subreddit's name in an ``<h1>`` and at the end of the ``<title>``).  A heading
    holding the site's name is the site's only when it is that name or inside it
    ("Terminix discounts, coupons, and promo codes" is no site name; with "&" read as
    "and" and "site-hero" no class of the site's name, first dev half: title exact 0.835 /
    0.840 -> 0.835 / 0.842, none lost)."""
    headings = []
    for text in h1_texts:
        text = unescape(text.rstrip("¶ ")) or ""
        words = _heading_words(text)
        if words:
            headings.append((text, words))
    if not headings:
        return None
    parts: dict[tuple[str, ...], str] = {}
    for title in dict.fromkeys(filter(None, declared)):
        title = unescape(title) or ""
        parts.setdefault(_heading_words(title), title)
        first = _TITLE_SEPARATORS.split(title, maxsplit=1)[0]
        if first != title:
            parts.setdefault(_heading_words(first), first)
    keys = None
    for text, words in headings:
        part = parts.get(words)
        if part is not None:
            keys = site_keys(site_names) if keys is None else keys
            if not matches_site(name_key(part), keys, False) and not matches_site(name_key(text), keys, False):
                return strip_site_name(text, site_names)
    return None


def _dated_copy(heading: str, declared: str) -> bool:
    """Whether the ``<h1>`` is the declared title with a date written into it ("Dec 18
    2025 Preparing a transition", "... Posted on July 1, 2024 by infuy"): the declared
    title is the headline then.  First dev half, two folds: title exact 0.819 / 0.832 ->
    0.821 / 0.834, token F1 0.925 / 0.927 -> 0.925 / 0.928, none lost."""
    words = WORD.findall(declared.lower())
    if len(words) < 2 or declared.lower() not in heading.lower():
        return False
    return parse_date(heading) is not None and parse_date(declared) is None


@dataclass
class Headline:
    """The page's headline, found once and read by every field: its element and text run
    (the dateline and the byline are read around them), the site's names, the declared
    title, the ``<h1>`` texts that may be the title, and the date of each text run read
    around it once read (``None``: none), for the byline's rules and the date's alike
    (:func:`.dates._date_runs`)."""

    element: int | None
    run: int | None
    site_names: tuple[str | None, ...]
    declared_source: str | None
    declared: str | None
    declared_words: Counter[str]
    title_h1_texts: list[str]
    run_dates: dict[int, str | None] = field(default_factory=dict)


def find_headline(page: Page, found: dict[str, Any], site_name: str | None) -> Headline:
    """The headline (:func:`_headline`) against the declared title without the site's
    name; an ``<h1>`` that names the site (:func:`_names_the_site`) is one more name of
    the site, and no candidate for the title."""
    url = page.url
    names: tuple[str | None, ...] = (site_name, found.get("ld_site"), _host_name(url))
    h1s = _first_with_tag(page, "h1", _MAX_HEADINGS)
    h1_texts = [_heading_text(page.elements[k]) for k in h1s]  # read once: headline and title
    title_h1_texts = h1_texts
    host = _PLAIN_HOST.match(url or "")
    home = url[: host.end(1)] if url and host else None  # "https://example.com"
    site_heading = next((k for k, i in enumerate(h1s) if _names_the_site(page.elements[i], home)), None)
    if site_heading is not None:  # the site's name set as a heading: a name of the site, not the title
        names = (*names, h1_texts[site_heading])
        title_h1_texts = h1_texts[:site_heading] + h1_texts[site_heading + 1 :]
    declared_source = found.get("title") or page.title
    declared = strip_site_name(declared_source, names)
    declared_words = _title_words(declared)
    h1 = _headline(page, declared_words, h1s, h1_texts)
    return Headline(h1, _headline_run(page, h1), names, declared_source, declared, declared_words, title_h1_texts)


def _front_page(url: str | None) -> bool:
    """Whether ``url`` is a site's front page (no path, no query): its title is its own,
    not the top story's ``<h1>``, even when it is the site's name and a motto."""
    host = _PLAIN_HOST.match(url or "")
    return host is not None and url is not None and url[host.end(1) :] in ("", "/")


def page_title(page: Page, headline: Headline, found: dict[str, Any], metas: dict[str, list[str]]) -> str | None:
    """The title, in this order: an ``<h1>`` the page declares as its title too
    (:func:`_confirmed_heading`); else the first ``<h1>``, without the site's name, when it
    agrees with the declared title (:data:`_H1_MIN_AGREEMENT`) and is no dated copy of it
    (:func:`_dated_copy`), or when the declared title is the site's name and a motto
    (:func:`_site_first`; not on a front page, whose own title that is:
    :func:`_front_page`); else the declared title (JSON-LD ``headline``, ``og:title`` and
    the other ``<meta>`` titles, the microdata's ``headline``, ``<title>``) without the
    site's name (:func:`strip_site_name`).  A forum's label ("Thread: ") is dropped."""
    names = headline.site_names
    declared, declared_words = headline.declared, headline.declared_words
    if (found.get("title") or page.title) != headline.declared_source:  # the microdata's headline
        declared = strip_site_name(found.get("title") or page.title, names)
        declared_words = _title_words(declared)
    title = _confirmed_heading(headline.title_h1_texts, (found.get("title"), *_meta_titles(metas), page.title), names)
    if title is None:
        heading = next(filter(None, headline.title_h1_texts), None)
        heading = _without_glued_part(strip_site_name(unescape(heading), names), page.title)
        if heading and declared and _agreement(heading, declared_words) < _H1_MIN_AGREEMENT:
            if _front_page(page.url) or not _site_first(headline.declared_source, names):  # else a motto
                heading = None  # an <h1> unlike the declared title is a section's or the site's heading
        elif heading and declared and _dated_copy(heading, declared):
            heading = None
        title = heading or declared
    if title:
        title = _FORUM_LABEL.sub("", title, count=1) or title
    return title or None
