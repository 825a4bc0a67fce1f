"""The publish and modified dates.

Order of strategies for the publish date (:func:`find_dates`):

1. the declared date: JSON-LD ``datePublished`` (:mod:`.json_ld`), ``<meta>``
   (``article:published_time`` and the others, :mod:`.metas`), microdata
   (:mod:`.microdata`), in that order of trust;
2. else the first ``<time>`` not labelled as another date (a member's, the last reply's);
3. either checked against the dateline shown at the headline
   (:func:`_check_declared_date`): a date labelled "Published", the declared modified
   date shown alone, or an earlier shown date wins; without a declared date the
   dateline's date is taken;
4. else a date shown up to :data:`~.headline.NEAR_HEADLINE_RUNS` runs after the headline;
5. else the URL's date (:func:`date_from_url`);
6. else a date labelled "Published" anywhere after the headline
   (:func:`_published_label_after`);
7. else, when asked (``extract_metadata(..., with_htmldate=True)``) and htmldate is
   installed (the ``metadata`` extra), htmldate's date (:func:`_htmldate`): more dates
   and more false positives, at a cost that the default does not pay (docs/metadata.md).

The modified date is the declared one unless it falls before the publish date
(:func:`_modified_after`).  How a date reads is
:func:`scrapy_cetd.structured_data.parse_date`'s.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from itertools import compress, islice
from typing import Any
from urllib.parse import urlsplit

from lxml import etree

from ..page import Page, element_text
from ..structured_data.dates import parse_date, valid_day
from ..structured_data.text import DIGIT
from .common import _put
from .headline import DATELINE_RUNS, NEAR_HEADLINE_RUNS, _first_with_tag
from .titles import Headline

__all__ = [
    "date_from_url",
    "find_dates",
    "_date_runs",
]

#: Dates in URLs: ``/2024/05/01/``, ``/2024-05-01``, ``/20240501/``, ``/2024-05/01/``,
#: ``/2024/0501/`` and ``/t20240501_`` (Chinese news and government sites).
_URL_DATE = re.compile(
    r"/(?P<y>(?:19|20)\d\d)[/_-](?P<m>[01]?\d)[/_-](?P<d>[0-3]?\d)(?:[/_-]|\.html?|$)"
    r"|[/_-]t?(?P<y2>(?:19|20)\d\d)(?P<m2>[01]\d)(?P<d2>[0-3]\d)(?:[/_-]|\.html?|$)"
    r"|/(?P<y3>(?:19|20)\d\d)/(?P<m3>[01]\d)(?P<d3>[0-3]\d)/"
)


def date_from_url(url: str | None) -> str | None:
    """A date written in the URL's path (``/2024/05/01/``, ``-20240501``), or ``None`` (as
    for a URL that does not parse, ``http://[::1``)."""
    if not url:
        return None
    try:
        path = urlsplit(url).path
    except ValueError:
        return None
    match = _URL_DATE.search(path)
    if not match:
        return None
    if match["y"]:
        day = valid_day(int(match["y"]), int(match["m"]), int(match["d"]))
    elif match["y2"]:
        day = valid_day(int(match["y2"]), int(match["m2"]), int(match["d2"]))
    else:
        day = valid_day(int(match["y3"]), int(match["m3"]), int(match["d3"]))
    return day.isoformat() if day else None


_MAX_TIMES = 5


def _dates_near_headline(
    page: Page, start: int | None, before: int, after: int, run_dates: dict[int, str | None],
    first_only: bool = False,
) -> list[str]:
    """The dates written in short text runs near the headline's text run ``start`` (from
    ``before`` runs before it to ``after`` runs after it), in page order: the dateline."""
    if start is None:
        return []
    texts = page.run_collapsed
    dates = []
    for k, value in _date_runs(texts, start, before, after, run_dates):
        if not _labelled_as_other_date(texts, k):
            dates.append(value)
            if first_only:
                break
    return dates


def _date_runs(
    texts: list[str], start: int, before: int, after: int, run_dates: dict[int, str | None]
) -> Iterator[tuple[int, str]]:
    """The text runs from ``before`` runs before run ``start`` to ``after`` runs after it
    that hold a date, with it, in page order: short runs, and longer ones that open with it
    (a paragraph's dateline, "01.02.2022 – Der Arbeitsmarkt ...", within
    :data:`_OPENING_CHARS`).  On the three dev sets (``scrapy-cetd evaluate ...
    --metadata``): trafilatura-eval date 0.864 -> 0.868 (3 pages), wcxb-dev and the false
    positives unchanged.  Each run is read once a page: ``run_dates`` keeps its date
    (``None``: none) for the next window (:attr:`.titles.Headline.run_dates`)."""
    for k in range(max(0, start - before), min(len(texts), start + after + 1)):
        value = run_dates.get(k, False)
        if value is False:
            value = run_dates[k] = _run_date(texts[k])
        if value:
            yield k, value


def _run_date(text: str) -> str | None:
    if len(text) > _DATELINE_MAX_CHARS:
        if not text[:1].isdigit():
            return None
        text = text[:_OPENING_CHARS]
    return parse_date(text) if DIGIT.search(text) else None


#: How far into a long run its opening date may reach ("27. Januar 2022 - ").
_OPENING_CHARS = 20


#: Labels of dates that are not the page's: a member's, the last reply's (forum threads:
#: "Joined Nov 4, 2011", "last post by" NAME DATE), in the dateline and on ``<time>``.  First
#: dev half, two folds: date 0.914 / 0.938 -> 0.918 / 0.951, false positives unchanged.
_OTHER_DATE_LABEL = re.compile(
    r"(?:joined|member since|registered|last (?:post|reply|activity|seen|visit)|latest (?:post|reply))\b",
    re.IGNORECASE,
)


def _labelled_as_other_date(texts: list[str], k: int) -> bool:
    """Whether run ``k``'s date has a label of :data:`_OTHER_DATE_LABEL`: in the run, or
    in one of the three before it up to the nearest run with a digit (another date, a count)."""
    for j in range(k, max(-1, k - 4), -1):
        if _OTHER_DATE_LABEL.match(texts[j]):
            return True
        if j < k and DIGIT.search(texts[j]):
            return False
    return False


#: "Updated" (or "Modified", "Last updated") before a date, also in other languages:
#: "Aktualisiert", "Mis à jour", "Actualizado", "Atualizado", "Aggiornato", "Bijgewerkt",
#: "Zaktualizowano", "Обновлено", "Päivitetty", "Güncellenme", "Frissítve".  A date so
#: labelled is the modified one, never the publish date.
_UPDATE_LABEL = re.compile(
    r"^(?:(?:last\s+)?(?:updated|modified|edited)|aktualisiert|zuletzt\s+aktualisiert|mis\s+à\s+jour|actualizado"
    r"|atualizado|aggiornato|bijgewerkt|zaktualizowano|обновлено|päivitetty|güncellenme|frissítve)\b",
    re.IGNORECASE,
)
#: A class or ``itemprop`` that marks an element as the modified date.
_UPDATE_MARK = re.compile(r"updated|modified|dateUpdated|dateModified", re.IGNORECASE)


def _marked_as_update(page: Page, run: int) -> bool:
    """Whether text run ``run``'s date is the modified one: labelled so in the run or the
    one before (:data:`_UPDATE_LABEL`), or its element or that element's parent marked so
    by its ``itemprop`` or class (:data:`_UPDATE_MARK`: ``<time itemprop="dateUpdated">``,
    ``<span class="updated">``)."""
    texts = page.run_collapsed
    if _UPDATE_LABEL.match(texts[run]) or (run > 0 and _UPDATE_LABEL.match(texts[run - 1])):
        return True
    k = page.run_owner[run]
    for _ in range(2):
        if k < 0:
            break
        element = page.elements[k]
        if _UPDATE_MARK.search(element.get("itemprop") or "") or _UPDATE_MARK.search(element.get("class") or ""):
            return True
        k = page.parent[k]
    return False


def _time_is_update(page: Page, k: int) -> bool:
    """Whether the ``<time>`` element ``k`` is the modified date (:func:`_marked_as_update`
    of its text run, or its own ``itemprop`` or class)."""
    element = page.elements[k]
    if _UPDATE_MARK.search(element.get("itemprop") or "") or _UPDATE_MARK.search(element.get("class") or ""):
        return True
    try:
        run = page.run_key.index(2 * k)
    except ValueError:
        return False
    return _marked_as_update(page, run)


def _time_labelled_as_other_date(page: Page, k: int) -> bool:
    """Whether the ``<time>`` element ``k``'s text run has a label of :data:`_OTHER_DATE_LABEL`."""
    try:
        run = page.run_key.index(2 * k)
    except ValueError:
        return False
    return _labelled_as_other_date(page.run_collapsed, run)


#: "Published" (or "Posted", "Created") before a date, also in other languages: "Veröffentlicht
#: am", "Erstellt am", "Publié le", "Publicado el", "Pubblicato il", "Gepubliceerd op", "Opublikowano",
#: "Опубликовано", "Julkaistu", "Yayınlanma", "Publicat".  The first letters are tested
#: first: mapped over every run of a page, the pattern took 0.75 us a run, 0.43 us so.
_PUBLISHED_LABEL = re.compile(
    r"^(?=[fpcvgojyоe])(?:(?:first\s+)?(?:published|posted|created)(?:\s+on)?|veröffentlicht(?:\s+am)?|publié(?:\s+le)?"
    r"|erstellt(?:\s+am)?"
    r"|publicado(?:\s+(?:el|em))?|pubblicato(?:\s+il)?|gepubliceerd(?:\s+op)?|opublikowano|опубликовано|julkaistu"
    r"|yayınlanma(?:\s+tarihi)?|publicat(?:\s+pe)?)\s*:?(?:\s|$)",
    re.IGNORECASE,
)


def _published_label_date(page: Page, start: int | None) -> str | None:
    """A date in the dateline labelled "Published" (or "Posted", "Created"), in its own
    text run or the run before it."""
    if start is None:
        return None
    texts = page.run_collapsed
    before, after = DATELINE_RUNS
    for k in range(max(1, start - before), min(len(texts), start + after + 1)):
        text = texts[k]
        if len(text) <= _DATELINE_MAX_CHARS and DIGIT.search(text):
            if _PUBLISHED_LABEL.match(text) or _PUBLISHED_LABEL.match(texts[k - 1]):
                value = parse_date(text)
                if value:
                    return value
    return None


def _published_label_after(page: Page, start: int) -> str | None:
    """Failing every other source, a date labelled "Published" (or "Posted", "Created")
    anywhere from the headline's run ``start`` on, in the label's run or the next (a post
    dated at its end).  The labels are found by one ``map`` of the pattern over the runs.
    First dev half, two folds: date 0.914 / 0.929 -> 0.914 / 0.938, false positives
    unchanged."""
    texts = page.run_collapsed
    for k in compress(range(start, len(texts)), map(_PUBLISHED_LABEL.match, islice(texts, start, None))):
        for text in texts[k : k + 2]:
            if len(text) <= _DATELINE_MAX_CHARS:
                value = parse_date(text)
                if value:
                    return value
    return None


def _check_declared_date(
    page: Page, start: int | None, found: dict[str, Any], run_dates: dict[int, str | None]
) -> None:
    """The declared (JSON-LD, meta, microdata, ``<time>``) publish date stays, with three
    checked exceptions read from the dateline (:data:`DATELINE_RUNS`):

    - a date labelled "Published" (or "Posted", "Created") is shown, and it is another
      day (:func:`_published_label_date`);
    - a second declared publish date (a ``<meta>``'s beside JSON-LD's, ``other_published``)
      is shown and the first is not: the page declares both, the reader sees that one
      (three dev sets: wcxb-dev date 0.876 -> 0.879, trafilatura-eval 0.859 -> 0.864, false
      positives unchanged);
    - the page shows its declared *modified* date at the headline and not the published
      one: readers (and the dev labels) take the date they see;
    - the first date shown at the headline is earlier than the declared one (a stamp the
      site writes when it builds or edits the page).

    Without a declared date the labelled date, else the first date of the dateline, is
    taken.  Chosen by two-fold cross-validation on the first dev half (odd/even pages),
    date share per fold, on the earlier rules (before the headline and date-format rules
    of this version): the dateline always first 0.884 / 0.929, declared always first
    0.879 / 0.841, declared with the modified exception 0.879 / 0.885, and an earlier
    shown date when the declared dates are the same day 0.892 / 0.903.  In this version:
    that rule 0.914 / 0.912; any earlier shown date 0.914 / 0.920 (no page lost); with the
    "Published" label 0.914 / 0.925 (this rule)."""
    declared = found.get("date_published")
    visible = _dates_near_headline(page, start, *DATELINE_RUNS, run_dates, first_only=not declared)
    if not visible:
        return
    labelled = _published_label_date(page, start)
    if not declared:
        found["date_published"] = labelled or visible[0]
        return
    days = [value[:10] for value in visible]
    modified = found.get("date_modified")
    if labelled and labelled[:10] != declared[:10]:
        found["date_published"] = labelled
        return
    if declared[:10] in days:
        return
    other = next(filter(None, map(parse_date, found.get("other_published", ()))), None)
    if other and other[:10] in days:
        found["date_published"] = other
    elif modified and modified[:10] in days and not _shown_as_update(page, start, modified[:10], run_dates):
        found["date_published"] = modified
    elif days[0] < declared[:10]:
        found["date_published"] = visible[0]


_DATELINE_MAX_CHARS = 80


def _shown_as_update(page: Page, start: int, day: str, run_dates: dict[int, str | None]) -> bool:
    """Whether every dateline run showing ``day`` marks it as the modified date
    (:func:`_marked_as_update`: "Updated", ``<time itemprop="dateUpdated">``): then it is
    no sign that the page's publish date is that day."""
    window = _date_runs(page.run_collapsed, start, *DATELINE_RUNS, run_dates)
    runs = [k for k, value in window if value[:10] == day]
    return bool(runs) and all(_marked_as_update(page, k) for k in runs)


def _modified_after(modified: str | None, published: str | None) -> str | None:
    """The modified date, unless it falls on a day before the publish date (a page cannot
    be changed before it is published; on the 4 labelled of the 6 first-half dev pages
    where it did, the publish date was the label's: the modified date was the wrong one)."""
    if modified and published and modified[:10] < published[:10]:
        return None
    return modified


@functools.cache
def _htmldate_finder() -> Callable[..., Any] | None:
    """htmldate's ``find_date`` when installed (the ``metadata`` extra), else ``None``
    (looked up once: a failed import searches the path again every time)."""
    try:
        from htmldate import find_date
    except ImportError:
        return None
    return find_date


def _htmldate(page: Page) -> str | None:
    """Failing every source of ours, htmldate's date, in its fast mode (``original_date``,
    no ``extensive_search``), read from the page model's tree written out again (htmldate
    prunes a tree it is given in place).  Measured as the first source and as the last
    fallback on the three dev sets: the fallback is the better, but it parses the page
    again on every page without a date of ours: off by default (docs/metadata.md)."""
    find_date = _htmldate_finder()
    if find_date is None:
        return None
    try:
        value = find_date(
            etree.tostring(page.root, encoding="unicode", method="html"),
            url=page.url, original_date=True, extensive_search=False,
        )
    except Exception:  # a library on hostile input: its failure is no date, never ours
        return None
    return parse_date(value)


def find_dates(
    page: Page, headline: Headline, found: dict[str, Any], with_htmldate: bool = False
) -> tuple[str | None, str | None]:
    """The publish and modified dates.  The publish date, in this order: the declared
    one (JSON-LD, ``<meta>``, microdata: in ``found``); else the first ``<time>`` not
    labelled as another date (:data:`_OTHER_DATE_LABEL`); either checked against the
    dateline at the headline's text run (:func:`_check_declared_date`, which also
    takes the dateline's date when nothing is declared); else a date shown up to
    :data:`~.headline.NEAR_HEADLINE_RUNS` runs after the headline; else the URL's date
    (:func:`date_from_url`); else a date labelled "Published" anywhere after the headline
    (:func:`_published_label_after`); else, when asked (``with_htmldate``) and htmldate
    is installed, its date (:func:`_htmldate`).  The modified date is the declared one, unless it
    falls before the publish date (:func:`_modified_after`)."""
    run, run_dates = headline.run, headline.run_dates
    if not found.get("date_published"):
        for k in _first_with_tag(page, "time", _MAX_TIMES):
            element = page.elements[k]
            value = parse_date(element.get("datetime") or element_text(element))
            if not value or _time_labelled_as_other_date(page, k):
                continue
            if _time_is_update(page, k):
                _put(found, "date_modified", value)
                continue
            found["date_published"] = value
            break
    _check_declared_date(page, run, found, run_dates)
    if not found.get("date_published"):
        late = _dates_near_headline(page, run, *NEAR_HEADLINE_RUNS, run_dates, first_only=True)
        _put(found, "date_published", (late[0] if late else None) or date_from_url(page.url))
    if not found.get("date_published"):
        _put(found, "date_published", _published_label_after(page, run or 0))
    if with_htmldate and not found.get("date_published"):
        _put(found, "date_published", _htmldate(page))
    published = found.get("date_published")
    return published, _modified_after(found.get("date_modified"), published)
