"""The authors: the people who wrote the page.

Order of strategies (:func:`find_authors`; the first that names anyone wins):

1. the declared authors: JSON-LD (:mod:`.json_ld`), ``<meta>`` (:mod:`.metas`), microdata
   (:mod:`.microdata`), in that order of trust; when the site signs the page itself (an
   ``Organization``, or its own name), the person a shown byline names goes first
   (:func:`_put_people_first`), and a "By NAME" line at the headline naming other people
   goes first too (:func:`_put_shown_byline_first`);
2. a byline element near the headline (``rel=author``, a link to a writer's page, a class
   with "author" or "byline": :func:`_from_byline`);
3. a "By NAME" text run at the headline (:func:`_author_near_headline`);
4. a name beside the dateline's date (:func:`_name_beside_the_date`);
5. an ``itemprop=author`` before or after the headline's region (a forum thread's first
   post, :func:`_first_in_body`);
6. a signature after the text (:func:`_signed_after_the_text`);
7. a forum's user name (:data:`~.headline._USER_NAME_CLASS`).

How a name reads (no "By", no job title, several names split) is
:func:`scrapy_cetd.structured_data.clean_author`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import chain, compress, islice
from typing import Any

from lxml import etree

from ..page import Page, element_text
from ..structured_data.names import (
    AUTHOR_LABELS,
    BY_LINE,
    BY_WORDS,
    clean_author,
    matches_site,
    site_keys,
    written_as_a_name,
)
from ..structured_data.text import name_key
from .common import _put
from .dates import _date_runs
from .headline import _NEAR_HEADLINE, _USER_NAME_CLASS, DATELINE_RUNS
from .microdata import _ITEMPROP_NAME, _value_of
from .titles import Headline
from .urls import _PLAIN_HOST

__all__ = [
    "find_authors",
    "_MAX_AUTHORS",
    "_merge_authors",
    "_signed_by_site",
    "_site_keys_once",
]

#: At most this many author values are read from one source, and names kept: a byline
#: names a few people (JSON-LD lists are read to 20 too); 10^5 ``<meta name=author>``
#: tags took 50 s to merge name by name.
_MAX_AUTHORS = 20


def _merge_authors(values: Iterable[Any]) -> list[str]:
    """The names of the first :data:`_MAX_AUTHORS` values, each once, in order."""
    names: dict[str, None] = {}
    for value in islice(values, _MAX_AUTHORS):
        names.update(dict.fromkeys(clean_author(value)))
    return list(names)[:_MAX_AUTHORS]


def _first_in_body(
    page: Page, h1: int | None, scanned: tuple[int, int], users: list[etree._Element]
) -> tuple[list[str], list[str]]:
    """The first ``itemprop=author`` (or ``creator``), and the first user name (below),
    from :data:`_NEAR_HEADLINE` elements before the headline's region to as many after the
    headline, when nothing at the headline names the author: a forum thread's first post
    (whose author block often comes before the thread's ``<h1>``); the ``scanned`` range
    (:func:`_scan`'s) is skipped for the microdata and its ``users`` are taken there.
    First dev half, two folds: author 0.832 / 0.853 -> 0.836 / 0.872, false positives
    20 / 27 -> 21 / 27 (from the body's start to 2000 elements after the headline; 500
    and 200 elements, kept, before and after gain the same with one false positive less,
    at a third of the time); read from the headline on, it gained none.

    The user name is an element whose class word ends with "username"
    (:data:`_USER_NAME_CLASS`) and whose whole text is one name (:func:`clean_author`;
    greetings and account menus are none), taken failing every other source.  First dev
    half, two folds: author 0.850 / 0.877 -> 0.864 / 0.886, false positives 21 / 27 ->
    21 / 27 ("Sign in" and "Hi" were the only ones, before the class word had to end with
    the user name and "sign in", "account", "hi" became no name words).  Read in the
    microdata's loop and :func:`_scan`'s, it costs 0.00x lxml's parse more on the median
    page (run on its own, 0.14x)."""
    start, stop = scanned
    elements = page.elements
    before = elements[max(0, start - _NEAR_HEADLINE) : start]
    after = elements[stop : max(stop, (h1 or 0) + _NEAR_HEADLINE)]
    user: list[str] | None = None
    for element in chain(before, [None], after):
        if element is None:  # the headline's region, scanned already
            for candidate in users if not user else ():
                user = _user_name(candidate)
                if user:
                    break
            continue
        prop = element.get(b"itemprop")
        if prop and prop.strip() in ("author", "creator"):
            inner = _ITEMPROP_NAME(element)
            return clean_author(_value_of(inner[0] if inner else element)), []
        if not user:
            names = element.get(b"class")
            if names and "ser" in names and _USER_NAME_CLASS.search(names):
                user = _user_name(element)
    return [], user or []


def _user_name(element: etree._Element) -> list[str]:
    text = element_text(element)
    return [text] if clean_author(text) == [text] else []


_BY_LABEL = re.compile(
    r"^(?:(?:written|posted|published|reported)\s+)?" + BY_WORDS + r"\s*:?$|^" + AUTHOR_LABELS + r"\s*:$",
    re.IGNORECASE,
)


#: What both start with: the runs worth testing, found by one ``map`` over the window.
_BY_START = re.compile(f"(?:written|posted|published|reported|{BY_WORDS}|{AUTHOR_LABELS})", re.IGNORECASE)


def _looks_like_a_name(text: str) -> bool:
    """One word (a user name), or words whose first and last start with a capital (or a
    letter of a script without case: "محمد علي", "김민수 기자")."""
    words = text.split()
    return len(words) == 1 or not (words[0][0].islower() or words[-1][0].islower())


#: A drop-down's option is a choice, not a byline: a shop's sort order "By Review" (one
#: first-half dev page gave the author "Review").
_OPTION_TAGS = frozenset(("option", "optgroup"))


#: A run between two names of a byline: a comma, "&", "and" (or its word in a few languages).
_NAME_LIST_SEPARATOR = re.compile(r"^(?:[,;&]|and|und|et|y|e|i|og|en)$", re.IGNORECASE)


def _listed(texts: list[str], first: int, stop: int) -> str:
    """Run ``first`` with the names listed after it, each in a run of its own behind a
    separator run (:data:`_NAME_LIST_SEPARATOR`): "By" "Stefan Becket" "," "Kathryn
    Watson" "," "Grace Segers", the names being links."""
    parts = [texts[first]]
    j = first + 1
    while j + 1 < stop and len(parts) < 2 * _MAX_AUTHORS and _NAME_LIST_SEPARATOR.match(texts[j]):
        parts += (texts[j], texts[j + 1])
        j += 2
    return " ".join(parts)


def _author_near_headline(page: Page, start: int | None, before: int, after: int) -> list[str]:
    """Names in a "By NAME" text run near the first ``<h1>`` (or a "By"/"Written by" run
    followed by the name's run; the dateline's window), when no markup names the author.
    Two-fold cross-validation on the first dev half: author 0.787 / 0.787 -> 0.818 /
    0.820, false positives 17 / 27 -> 20 / 27 (bylines on unlabelled pages)."""
    if start is None:
        return []
    texts = page.run_collapsed
    first, stop = max(0, start - before), min(len(texts), start + after + 1)
    for k in compress(range(first, stop), map(_BY_START.match, islice(texts, first, stop))):
        text = texts[k]  # runs are collapsed: no space at either end
        if len(text) > 120 or page.tags[page.run_owner[k]] in _OPTION_TAGS:
            continue
        if BY_LINE.match(text):
            names = clean_author(_listed(texts, k, stop))
        elif _BY_LABEL.match(text) and k + 1 < stop:
            names = clean_author(_listed(texts, k + 1, stop))
        else:
            continue
        if names and all(_looks_like_a_name(name) for name in names):
            return names  # a sentence ("By following the tips below, ...") names no one
    return []


#: A signature run: "By NAME" (``line``; "Started by NAME, DATE", a forum thread's: first
#: dev half, two folds, author 0.895 / 0.924 -> 0.895 / 0.929, false positives unchanged),
#: or a run that ends with "by" ("Posted by", "Article by", "Last updated May 3, 2025 by";
#: ``label``), the next run being the name.
_SIGNATURE = re.compile(  # runs are collapsed: one space between words
    r"(?P<line>(?:(?:written|posted|reported|started) )?by ?:? \S.*)"
    r"|(?P<label>(?:(?:article|post|posted|written|published|authored|created|contributed) by"
    r"|(?:last )?(?:updated|modified)\b[\w,. ]{0,40} by) ?:?)$",
    re.IGNORECASE,
)


_SIGNED_RUNS = 150


_SEPARATOR_RUN = re.compile(r"^[|•·—–/-]?$")


#: What a run listing names holds besides them: "A, B and C", "A & B".
_LIST_RESIDUE = re.compile(r"[\s,&]|\band\b")


def _name_beside_the_date(
    page: Page, start: int | None, site_names: Iterable[str | None], title: str | None, topics: Iterable[str],
    run_dates: dict[int, str | None],
) -> list[str]:
    """A person's name in the run beside the dateline's first date (before or after it, a
    separator run such as "·" between them): "Dec 17, 2025" "Julian K. Arni".  The run
    holds names only, each of two or more words, every word capitalised (but particles:
    "van", "de"), the first not "The"; not the site's name, nor words of the title (a
    blog's name, a kicker), nor the page's declared section or one of its tags
    (``topics``: "North Korea" beside a news agency's date), nor a button or a link to a
    category or tag page.  Failing the sources before it.  First dev half, two folds:
    author 0.882 / 0.900 -> 0.886 / 0.915, false positives 21 / 27 unchanged (the
    ``topics`` guard changed no page); the guards after "two or more words" were
    added on seeing the first version's five false positives (both folds: 22 / 29, two
    site names, a title, a category link, a menu button), so these fold numbers are not
    a clean cross-validation."""
    if start is None:
        return []
    keys = site_keys(site_names)
    title_key = name_key(title or "")
    topic_keys = {name_key(topic) for topic in topics}
    texts = page.run_collapsed
    dated = next(_date_runs(texts, start, *DATELINE_RUNS, run_dates), None)
    if dated is None:
        return []
    for step in (1, -1):
        j = dated[0] + step
        while 0 <= j < len(texts) and _SEPARATOR_RUN.match(texts[j]):
            j += step
        if 0 <= j < len(texts) and j != start and len(texts[j]) <= 60:
            names = clean_author(texts[j])
            if (
                names
                and _only_names(texts[j], names)
                and all(written_as_a_name(name, keys, title_key) for name in names)
                and topic_keys.isdisjoint(map(name_key, names))
                and not _taxonomy_or_control(page.elements[page.run_owner[j]])
            ):
                return names
    return []


_TAXONOMY_LINK = re.compile(r"/(?:category|categories|tags?|topics?|section|sections)/", re.IGNORECASE)


def _taxonomy_or_control(element: etree._Element) -> bool:
    """A button, or a link to a category, tag or section page (a post's category beside
    its date)."""
    return element.tag == "button" or (element.tag == "a" and bool(_TAXONOMY_LINK.search(element.get("href") or "")))


def _only_names(text: str, names: list[str]) -> bool:
    """Whether ``text`` is the list of ``names`` and nothing else (no title, no label)."""
    for name in names:
        text = text.replace(name, " ")
    return not _LIST_RESIDUE.sub("", text)


def _signed_after_the_text(page: Page, start: int | None) -> list[str]:
    """Failing every other source, a "By NAME"/"Written by NAME" run, or a run ending with
    "by" and the name's run, up to :data:`_SIGNED_RUNS` runs after the headline (250
    gained the same): a blog signs its post at its end.  A "By" run here must name people by two or more words.
    First dev half, two folds: author 0.836 / 0.872 -> 0.845 / 0.877, false positives
    21 / 27 -> 22 / 27; any run ending in "by" ("Sort by") added 32 false positives, a
    bare "by" run 3 for 3 more authors (forum threads)."""
    if start is None:
        return []
    texts = page.run_collapsed[start + 1 : start + _SIGNED_RUNS]
    for k, match in enumerate(map(_SIGNATURE.match, texts)):
        if match is None or len(texts[k]) > 80:
            continue
        if match["line"]:
            names = clean_author(texts[k])
            if names and all(len(name.split()) > 1 and _looks_like_a_name(name) for name in names):
                return names
        elif k + 1 < len(texts):
            names = clean_author(texts[k + 1])
            if names and all(_looks_like_a_name(name) for name in names):
                return names
    return []


_MAX_AUTHOR_SOURCES = 8


def _from_byline(bylines: list[etree._Element], found: dict[str, Any]) -> None:
    for element in bylines:
        if element.tag in ("meta", "link", "body", "html", "article", "main", "section"):
            continue
        text = element_text(element)
        if not text or len(text) > 120:
            continue
        names = clean_author(text)
        if names:
            _put(found, "authors", names)
            if len(found["author_candidates"]) >= _MAX_AUTHOR_SOURCES:
                return


def _signed_by_site(found: dict[str, Any], keys: Callable[[], set[str]]) -> bool:
    """Whether the most trusted author is the site itself (:func:`_names_the_site`; the
    site's ``keys`` from :func:`_site_keys_once`)."""
    candidates = found.get("author_candidates")
    return bool(candidates) and _names_the_site(candidates[0], found, keys())


def _site_keys_once(site_names: Iterable[str | None], url: str | None) -> Callable[[], set[str]]:
    """:func:`_author_site_keys`, made when first read, then kept for the page's other reads."""
    made: list[set[str]] = []

    def keys() -> set[str]:
        if not made:
            made.append(_author_site_keys(site_names, url))
        return made[0]

    return keys


#: A domain ending written after a site's name ("futurezone.at", "BRIGITTE.de").
_DOMAIN_ENDING = re.compile(r"\.[a-z]{2,3}$", re.IGNORECASE)


def _author_site_keys(site_names: Iterable[str | None], url: str | None) -> set[str]:
    """The site's names as keys (:func:`~scrapy_cetd.structured_data.names.site_keys`), and
    its whole host without "www." ("speicherguide.de")."""
    keys = site_keys(site_names)
    host = _PLAIN_HOST.match(url or "")
    if host:
        keys.add(name_key(host[1].lower().removeprefix("www.")))
    return keys


def _names_the_site(names: list[str], found: dict[str, Any], keys: set[str]) -> bool:
    """Whether an author list names the site, not a person: a JSON-LD ``Organization``
    (or another type that is no person), or names that are each the site's name, its
    publisher's or its host's, a domain ending allowed ("Spiegel Online", "futurezone.at")."""
    if names is found.get("ld_organisation"):
        return True
    return all(
        name_key(name) in keys or ("." in name and name_key(_DOMAIN_ENDING.sub("", name)) in keys) for name in names
    )


def _has_person(found: dict[str, Any], keys: Callable[[], set[str]], checked: dict[int, bool]) -> bool:
    """Whether a source has named a person (:func:`_names_the_site`, the site's ``keys``
    made only when a source named someone); each list is read once (``checked``, by its id)."""
    for names in found.get("author_candidates", ()):
        person = checked.get(id(names))
        if person is None:
            person = checked[id(names)] = not _names_the_site(names, found, keys())
        if person:
            return True
    return False


#: How many of the shown bylines are read for a person when the site signs the page: the
#: first may hold the outlet beside the name ("Brian Truitt USA TODAY", the outlet in an
#: element of its own), the next the name alone.  First dev half, two folds (was 1): author
#: 0.886 / 0.915 -> 0.886 / 0.919, false positives unchanged.
_SHOWN_BYLINES = 3


def _put_people_first(
    page: Page, bylines: list[etree._Element], headline_run: int | None, site_names: Iterable[str | None],
    found: dict[str, Any],
) -> None:
    """When the site signs the page (:func:`_signed_by_site`), the person named in its
    byline (or in a "By NAME" run at the headline) goes before it: the dev labels name the
    person the reader sees.  First dev half, two folds: author 0.818 / 0.820 -> 0.818 /
    0.829 (one page lost on fold 1, a listing signed by its site), false positives
    unchanged; a site's name matched by containment ("The Investopedia Team") lost one
    more page and gained none.  The first of :data:`_SHOWN_BYLINES` bylines that names no
    site is taken."""
    keys = site_keys(site_names)
    shown: dict[str, Any] = {}
    _from_byline(bylines, shown)
    _put(shown, "authors", _author_near_headline(page, headline_run, *DATELINE_RUNS))
    for names in shown.get("author_candidates", ())[:_SHOWN_BYLINES]:
        if not any(matches_site(name_key(name), keys) for name in names):
            found["author_candidates"].insert(0, names)
            break


def _put_shown_byline_first(page: Page, headline_run: int | None, found: dict[str, Any]) -> None:
    """When a "By NAME" run at the headline names people, each by two or more words, none
    of them the declared author (nor containing it, nor contained in it), they go first:
    the reader sees them (a declared author left by an earlier editor or an uploader's
    user name).  First dev half, two folds: author 0.868 / 0.896 -> 0.882 / 0.900, false
    positives unchanged; one-word names too ("By TurboTaxLisa" against the declared "Lisa
    Greene-Lewis") lost one page of fold 2."""
    shown = _author_near_headline(page, headline_run, *DATELINE_RUNS)
    if not shown or not all(len(name.split()) > 1 for name in shown):
        return
    declared = [name_key(name) for name in found["author_candidates"][0]]
    shown_keys = [name_key(name) for name in shown]
    if not any(a in b or b in a for a in shown_keys for b in declared):
        found["author_candidates"].insert(0, shown)
    elif len(shown) > len(declared) and all(any(b in a for a in shown_keys) for b in declared):
        found["author_candidates"].insert(0, shown)  # every person of the byline, not the first only


#: A name of two to four words and, after a full stop, the outlet it wrote for: "Finian
#: Cunningham. Sputnik International" (an initial's stop, "John F. Kennedy", is none).
_OUTLET_AFTER_NAME = re.compile(r"^((?:[^\W\d_][\w'’-]+ ){1,3}[^\W\d_][\w'’-]+)\. [A-Z].*$")


def _without_outlet(name: str) -> str:
    """``name`` without an outlet glued to it after a full stop (:data:`_OUTLET_AFTER_NAME`)."""
    return _OUTLET_AFTER_NAME.sub(r"\1", name) if ". " in name else name


def _authors(found: dict[str, Any], keys: Callable[[], set[str]]) -> tuple[list[str], str | None]:
    """The most trusted author list that names a person, and the organisation's name when
    only the site signs the page (:func:`_names_the_site`): an organisation is no author."""
    candidates = found.get("author_candidates", ())
    for names in candidates:
        if not _names_the_site(names, found, keys()):
            return list(dict.fromkeys(map(_without_outlet, names))), None
    return [], (candidates[0][0] if candidates else None)


def find_authors(
    page: Page, headline: Headline, found: dict[str, Any], bylines: list[etree._Element],
    users: list[etree._Element], scanned: tuple[int, int], signed_by_site: bool, keys: Callable[[], set[str]],
) -> tuple[list[str], str | None]:
    """The authors, from the first source that names any, in this order: the declared
    ones (JSON-LD, ``<meta>``, microdata: in ``found``), with the person a shown byline
    names put first when the site signs the page (:func:`_put_people_first`) or when the
    shown "By" line names others (:func:`_put_shown_byline_first`); a byline element
    (:func:`_from_byline`); a "By NAME" run at the headline (:func:`_author_near_headline`);
    a name beside the dateline's date (:func:`_name_beside_the_date`); an
    ``itemprop=author`` before or after the headline's region (:func:`_first_in_body`); a
    signature after the text (:func:`_signed_after_the_text`); a forum's user name.  A
    source that names only the site (a JSON-LD ``Organization``, the site's name:
    :func:`_names_the_site`) names no author: the sources at the headline are read (the
    scans of the body only when no source named anyone: they cost 0.03x lxml's parse on
    the median page, for next to no person), and failing all, the organisation's name is
    returned second, for the site's name; the site's ``keys`` are :func:`_site_keys_once`'s."""
    run = headline.run
    checked: dict[int, bool] = {}
    if signed_by_site:
        _put_people_first(page, bylines, run, headline.site_names, found)
    elif _has_person(found, keys, checked):
        _put_shown_byline_first(page, run, found)
    if not _has_person(found, keys, checked):
        _from_byline(bylines, found)
    if not _has_person(found, keys, checked):
        _put(found, "authors", _author_near_headline(page, run, *DATELINE_RUNS))
    if not _has_person(found, keys, checked):
        topics = [*found.get("tags", ()), *filter(None, [found.get("section")])]
        names = _name_beside_the_date(
            page, run, headline.site_names, headline.declared_source, topics, headline.run_dates
        )
        _put(found, "authors", names)
    if not found.get("author_candidates"):  # the body's scans only when no source named anyone
        in_microdata, user = _first_in_body(page, headline.element, scanned, users)
        _put(found, "authors", in_microdata)
        if not found.get("author_candidates"):
            _put(found, "authors", _signed_after_the_text(page, run))
        if not found.get("author_candidates"):
            _put(found, "authors", user)
    return _authors(found, keys)
