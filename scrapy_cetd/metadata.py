"""Article metadata read beside the extraction: headline, authors, dates, language, ...

Sources, in order of trust (the first that gives a valid value wins, field by field):

1. JSON-LD (schema.org ``Article``, ``NewsArticle``, ``BlogPosting`` and the like, inside
   ``@graph`` or lists, ``author`` as text, object, list or ``@id`` reference);
2. OpenGraph, Twitter and ``<meta>`` tags (``article:published_time``, ``author``,
   ``dc.*``, ``parsely-*``, a ``twitter:label``/``twitter:data`` "Written by" pair, ...);
3. microdata (``itemprop``);
4. ``<time datetime>``;
5. the byline near the headline (``rel=author``, ``class`` with ``author``/``byline``,
   then a "By NAME" text run);
6. a date in the URL;
7. for the author only: the first ``itemprop=author`` near the headline (a forum
   thread's first post, :func:`_first_in_body`), then a signature after the text
   (:func:`_signed_after_the_text`).

The headline is the ``<h1>`` (or, without one, the ``<h2>``) that agrees with the
declared title (:func:`_headline`, :data:`_H1_MIN_AGREEMENT`).  The declared publish date
is checked against the dates shown at the headline (the dateline, :data:`DATELINE_RUNS`,
:func:`_check_declared_date`); a person in the byline goes before the site signing its
own page (:func:`_put_people_first`).  The rules were chosen by two-fold
cross-validation on the first dev half (``benchmarks/metadata_folds.py``,
docs/metadata.md).

Every value is checked before it is kept (an author that is a URL, an e-mail address or a
date is no author; a date must parse), so garbage gives no value, never an exception.  The
JSON-LD texts are collected by the page model before its cleaning removes ``<script>``
(:attr:`scrapy_cetd.page.Page.json_ld`) and parsed once, shared with cetd-plus's readers
(:meth:`scrapy_cetd.page.Page.declared_objects`); everything else is read from the cleaned
tree.
"""

from __future__ import annotations

import html
import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from email.utils import parsedate_to_datetime
from itertools import chain, compress, islice
from typing import Any
from urllib.parse import urljoin, urlsplit

from lxml import etree
from w3lib.url import safe_url_string

from .page import BLOCK_TAGS, Page, attribute_items, element_text, normalize_space
from .parsing import displayed_text, storable_text, url_has_host

__all__ = [
    "Metadata",
    "clean_author",
    "date_from_url",
    "article_body",
    "detect_language",
    "extract_metadata",
    "parse_date",
    "strip_site_name",
]


#: The longest string a metadata field holds (a title, a description, a URL); a longer
#: one is the page's garbage and gives no value.
_MAX_VALUE_CHARS = 100_000


@dataclass
class Metadata:
    """Typed article metadata; every field is ``None`` (or empty) when the page does not say.

    Dates are ISO 8601: ``YYYY-MM-DD``, or a datetime with its offset when the page gives
    a time (``2024-05-01T09:30:00+02:00``).  ``language`` is a BCP 47 tag.  URLs are
    absolute when the page's URL is known.  ``page_type`` is only what the page declares
    (schema.org ``@type`` or ``og:type``).
    """

    title: str | None = None
    authors: list[str] = field(default_factory=list)
    date_published: str | None = None
    date_modified: str | None = None
    language: str | None = None
    site_name: str | None = None
    description: str | None = None
    canonical_url: str | None = None
    image: str | None = None
    tags: list[str] = field(default_factory=list)
    section: str | None = None
    page_type: str | None = None

    def __post_init__(self) -> None:
        """Every string as the outputs write text: no lone surrogates (JSON ``\\ud800``
        escapes), which no UTF-8 feed can encode, and no control characters; a string
        longer than :data:`_MAX_VALUE_CHARS` is no value (a page's garbage, not a title)."""
        for name, value in vars(self).items():
            if isinstance(value, str):
                setattr(self, name, _shown(value) if len(value) <= _MAX_VALUE_CHARS else None)
            elif isinstance(value, list):
                items = (item for item in value if not isinstance(item, str) or len(item) <= _MAX_VALUE_CHARS)
                setattr(self, name, [_shown(item) if isinstance(item, str) else item for item in items])

    def to_dict(self) -> dict[str, Any]:
        """A plain ``dict`` of all fields."""
        return asdict(self)


def _shown(text: str) -> str:
    return storable_text(displayed_text(text))


# --- dates -------------------------------------------------------------------------------

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            "jan january janv janvier jän jänner januar enero ene gennaio gen janeiro januari января stycznia"
            " ocak tammikuuta ledna ianuarie"
            " ιανουαρίου січня januára január",
            "feb february febr februar fév févr février febrero febbraio fevereiro fev februari февраля lutego"
            " şubat helmikuuta února februarie"
            " φεβρουαρίου лютого februára február",
            "mar march mär märz mars marzo março maart marts марта marca mart maaliskuuta března maret martie"
            " μαρτίου березня március márc",
            "apr april avr avril abril abr aprile апреля kwietnia nisan huhtikuuta dubna aprilie"
            " απριλίου квітня apríla április ápr",
            "may mai mayo maggio mag maio mei maj мая maja mayıs toukokuuta května"
            " μαΐου травня mája május máj",
            "jun june juin juni junio giugno giu junho июня czerwca haziran kesäkuuta června iunie"
            " ιουνίου червня júna június jún",
            "jul july juil juillet juli julio luglio lug julho июля lipca temmuz heinäkuuta července iulie"
            " ιουλίου липня júla július júl",
            "aug august août agosto ago augustus augusti августа sierpnia ağustos elokuuta srpna agustus"
            " αυγούστου серпня augusztus",
            "sep sept september septembre septiembre settembre set setembro сентября września eylül syyskuuta"
            " září septembrie"
            " σεπτεμβρίου вересня septembra szeptember szept",
            "oct october okt oktober octobre octubre ottobre ott outubro out октября października ekim lokakuuta"
            " října octombrie"
            " οκτωβρίου жовтня októbra október",
            "nov november novembre noviembre novembro ноября listopada kasım marraskuuta listopadu noiembrie"
            " νοεμβρίου листопада novembra",
            "dec december dez dezember déc décembre diciembre dic dicembre dezembro desember декабря grudnia"
            " aralık joulukuuta prosince decembrie"
            " δεκεμβρίου грудня decembra",
        ),
        1,
    )
    for name in names.split()
}
_ISO = re.compile(
    r"(?P<y>(?:19|20)\d\d)-?(?P<m>[01]\d)-?(?P<d>[0-3]\d)"
    r"(?:[T ](?P<H>[0-2]\d):?(?P<M>[0-5]\d)(?::?(?P<S>[0-5]\d|60)(?:[.,]\d+)?)?\s*(?P<z>Z|[+-][0-2]\d(?::?[0-5]\d)?)?)?"
)
_MONTH_NAME = r"(?P<mon>[^\W\d_]{3,12})\.?"
_ORDINAL = r"(?:st|nd|rd|th|er)?"  # "4th", French "1er"
_TEXT_DATES = (
    # May 4, 2023 / May 4th 2023 / May 4,2023 / Dec-04-2023
    re.compile(
        _MONTH_NAME + r"(?:\s+|-)(?P<d>[0-3]?\d)" + _ORDINAL + r"(?:,\s*|\s+|-)(?P<y>(?:19|20)\d\d)\b",
        re.IGNORECASE,
    ),
    # 4 May 2023 / 4. Mai 2023 / 4 de mayo de 2023 / 19-Dec-2025 / 4th of May, 2023
    re.compile(
        r"\b(?P<d>[0-3]?\d)" + _ORDINAL + r"\.?(?:\s+of|\s+de)?(?:\s+|-)" + _MONTH_NAME
        + r"(?:,?\s+(?:de\s+)?|-)(?P<y>(?:19|20)\d\d)\b",
        re.IGNORECASE,
    ),
    # 2023-May-04 / 2023. május 4. (Hungarian, the year first)
    re.compile(r"\b(?P<y>(?:19|20)\d\d)(?:-|\.?\s+)" + _MONTH_NAME + r"(?:-|\s+)(?P<d>[0-3]?\d)\b", re.IGNORECASE),
)
_NUMERIC_DATES = (
    re.compile(r"\b(?P<y>(?:19|20)\d\d)[/.](?P<m>[01]?\d)[/.](?P<d>[0-3]?\d)\b"),
    # 2025年12月20日 (Chinese, Japanese), 2025년 12월 20일 (Korean)
    re.compile(r"(?P<y>(?:19|20)\d\d)\s*[年년]\s*(?P<m>[01]?\d)\s*[月월]\s*(?P<d>[0-3]?\d)\s*[日일]"),
    # 04.05.2023, 4. 5. 2023 (Czech, Slovak)
    re.compile(r"\b(?P<d>[0-3]?\d)\.\s?(?P<m>[01]?\d)\.\s?(?P<y>(?:19|20)\d\d)\b"),
    # 4 tháng 5, 2023 / ngày 4 tháng 5 năm 2023 (Vietnamese)
    re.compile(r"\b(?P<d>[0-3]?\d)\s+tháng\s+(?P<m>[01]?\d)(?:,\s*|\s+năm\s+)(?P<y>(?:19|20)\d\d)\b", re.IGNORECASE),
)
#: ``12/19/2025``, ``19/12/2025``, ``11-29-2024``: month and day in either order, read only
#: when the order shows (a number above 12, or both the same); ``03/04/2024`` is no date.
#: First dev half, two folds (with ``19-Dec-2025`` and the Spanish and Italian month
#: abbreviations): date 0.892 / 0.903 -> 0.901 / 0.903, false positives 38 / 41 -> 40 / 43.
_SLASHED_DATE = re.compile(r"\b(?P<a>[0-3]?\d)(?P<sep>[/-])(?P<b>[0-3]?\d)(?P=sep)(?P<y>(?:19|20)\d\d)\b")
#: Dates in URLs: ``/2024/05/01/``, ``/2024-05-01``, ``/20240501/``.
_URL_DATE = re.compile(
    r"/(?P<y>(?:19|20)\d\d)[/_-](?P<m>[01]?\d)[/_-](?P<d>[0-3]?\d)(?:[/_-]|\.html?|$)"
    r"|[/_-](?P<y2>(?:19|20)\d\d)(?P<m2>[01]\d)(?P<d2>[0-3]\d)(?:[/_-]|\.html?|$)"
)
_MIN_YEAR = 1995
#: The year every date pattern above holds.
_YEAR = re.compile(r"(?:19|20)\d\d")


def _valid_day(year: int, month: int, day: int) -> date | None:
    try:
        value = date(year, month, day)
    except ValueError:
        return None
    today = date.today()  # a year ahead at most (compared as tuples: no 29 February to build)
    if year < _MIN_YEAR or (year, month, day) > (today.year + 1, today.month, today.day):
        return None
    return value


def parse_date(text: Any) -> str | None:
    """An ISO 8601 date (``YYYY-MM-DD``) or datetime with offset from ``text``; ``None``
    when it holds no valid date.  Reads ISO 8601 (basic or extended), ``YYYY/MM/DD``,
    ``DD.MM.YYYY``, ``YYYY年MM月DD日`` (and Korean ``년 월 일``) and dates with month names
    (English, French, German, Spanish, Italian, Portuguese, Dutch, the Scandinavian
    languages, Turkish, Romanian, Indonesian, Hungarian, and Polish, Russian, Ukrainian,
    Czech, Slovak, Finnish and Greek in the genitive: "20 grudnia 2025", "20 декабря
    2025", "20 Δεκεμβρίου 2025"), with ordinals ("5th of December", "1er décembre"), dashes
    ("Dec-05-2025", "2025-Dec-05"), the year first ("2025. december 5.") and Vietnamese
    numbers ("5 tháng 12, 2025")."""
    if not isinstance(text, str):
        return None
    text = text.strip()[:200]
    if not _YEAR.search(text):  # each pattern below has one: most text runs fail here at once
        return None
    match = _ISO.search(text)
    if match:
        day = _valid_day(int(match["y"]), int(match["m"]), int(match["d"]))
        if day is not None:
            if match["H"] is None:
                return day.isoformat()
            return _with_time(day, match)
    if _RFC_2822.match(text):
        try:
            stamp = parsedate_to_datetime(text)
        except (TypeError, ValueError):
            pass  # not a valid date: read on as text
        else:
            if _valid_day(stamp.year, stamp.month, stamp.day) is None:
                return None
            offset = stamp.utcoffset()
            if offset is not None and abs(offset) > _MAX_OFFSET:
                stamp = stamp.replace(tzinfo=None)
            return stamp.isoformat()
    for pattern in _TEXT_DATES:
        for match in pattern.finditer(text):
            month = _MONTHS.get(match["mon"].lower())
            if month:
                day = _valid_day(int(match["y"]), month, int(match["d"]))
                if day is not None:
                    return day.isoformat()
    for pattern in _NUMERIC_DATES:
        match = pattern.search(text)
        if match:
            day = _valid_day(int(match["y"]), int(match["m"]), int(match["d"]))
            if day is not None:
                return day.isoformat()
    match = _SLASHED_DATE.search(text)
    if match:
        a, b = int(match["a"]), int(match["b"])
        if a == b or max(a, b) > 12:
            day = _valid_day(int(match["y"]), min(a, b), max(a, b))
            if day is not None:
                return day.isoformat()
    return None


#: An e-mail or HTTP date with its time ("Wed, 01 May 2024 09:30:00 GMT"), as some
#: ``<meta>`` dates and feeds write them.
_RFC_2822 = re.compile(r"(?:[A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+(?:19|20)\d\d\s+\d{1,2}:\d{2}")
#: The largest UTC offset in use (UTC+14, Kiribati); a larger one is no zone.
_MAX_OFFSET = timedelta(hours=14)


def _with_time(day: date, match: re.Match[str]) -> str:
    """The datetime of an ISO match: a leap second (``:60``) read as ``:59``, an offset
    beyond :data:`_MAX_OFFSET` (``+29:59``) dropped."""
    hour, minute, second = int(match["H"]), int(match["M"]), min(int(match["S"] or 0), 59)
    if hour > 23:
        return day.isoformat()
    stamp = datetime(day.year, day.month, day.day, hour, minute, second).isoformat()
    zone = match["z"]
    if not zone:
        return stamp
    if zone == "Z":
        return stamp + "+00:00"
    digits = zone[1:].replace(":", "")
    hours, minutes = digits[:2], digits[2:4] or "00"
    if timedelta(hours=int(hours), minutes=int(minutes)) > _MAX_OFFSET:
        return stamp
    return f"{stamp}{zone[0]}{hours}:{minutes}"


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
        day = _valid_day(int(match["y"]), int(match["m"]), int(match["d"]))
    else:
        day = _valid_day(int(match["y2"]), int(match["m2"]), int(match["d2"]))
    return day.isoformat() if day else None


# --- authors -----------------------------------------------------------------------------

_BY = re.compile(
    r"^\s*(?:(?:written|posted|published|reported|reporting|started|words|text|story|photos?|article)\s+)?"
    r"(?:by|from|von|par|por|di|door|av|af|autor(?:in)?|author|authors|auteur|escrito por|texto|texte|testo|tekst"
    r"|redacción|автор|yazar|kirjoittaja|napisał[a]?|tác giả|από|συντάκτης|بقلم)\s*[:\-]?\s+",
    re.IGNORECASE,
)
#: "BySummer Swann": a "By" label run into the name without a space.
_GLUED_BY = re.compile(r"^By(?=[A-Z][a-z])")
#: A byline's date or time after the names ("Maria Okafor 2026-11-14", "Ann Lee on May 4").
_DATE_AFTER_NAME = re.compile(
    r"\s+(?:[|•·—–-]\s*)?(?:(?:on|updated|published|posted)\s+)?"
    r"(?=\d|(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|"
    r"august|september|october|november|december)\.?\s+\d|may\s+\d)",
    re.IGNORECASE,
)
#: A label run into the name without a space: "Reyan PerumalPublished", "Luke KimDecember".
_GLUED_LABEL = re.compile(
    r"(?<=[a-z])(?:Published|Updated|Posted|Member|Verified|January|February|March|April|June|July|August|"
    r"September|October|November|December|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)(?=[\s\d.,]|$)).*$"
)
_LOWER_UPPER = re.compile(r"[a-z][A-Z]")  # where a glued label can start
_NO_NAME_CHAR = re.compile(r"[!?()\[\]{}<>=#*]")  # no name holds one
_EMAIL = re.compile(r"\S+@\S+\.\w+")
_URLISH = re.compile(r"^(?:https?:|www\.|/)|\.(?:com|org|net|html?)\b", re.IGNORECASE)
#: What separates names: punctuation, or "and" ("und", "et", "y") as a word (the words
#: in one group: 5.4 -> 3.2 us a split).
_AUTHOR_SPLIT = re.compile(r"\s*(?:[,;|&\n]|\b(?:and|und|et|y)\b)\s*", re.IGNORECASE)
#: Words that make a byline fragment a job title, a role or a date rather than a name
#: (whole words, in any case), and the phrases that do.
_NOT_A_NAME_WORDS = frozenset(
    """by reporter reporters correspondent correspondents columnist columnists journalist journalists learn
    about our policy policies updated published posted minute minutes read ago comment comments share follow
    admin administrator guest anonymous unknown photo photos image getty reuters afp press copyright senior
    chief director manager professor founder ceo bio written name author authors undefined null none
    webmaster authorized dealer says wrote reply replies member moderator since joined verified buyer from
    insights login logout register account hi hello welcome january february march april june july august
    september october november december feb apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun
    monday tuesday wednesday thursday friday saturday sunday""".split()
)
_NOT_A_NAME_PHRASES = ("all rights", "head of", "log in", "log out", "sign in", "sign up", "view all")
_NOT_A_NAME = re.compile(rf"\b(?:{'|'.join((*sorted(_NOT_A_NAME_WORDS), *_NOT_A_NAME_PHRASES))})\b", re.IGNORECASE)
_NOT_A_NAME_PHRASE = re.compile(rf"\b(?:{'|'.join(_NOT_A_NAME_PHRASES)})\b", re.IGNORECASE)
_PHRASE_FIRST_WORDS = frozenset(phrase.split()[0] for phrase in _NOT_A_NAME_PHRASES)


def _not_a_name(part: str) -> bool:
    """Whether ``part`` holds one of the :data:`_NOT_A_NAME_WORDS` or phrases.  An ASCII
    part is read by its words (set look-ups: the 117 alternatives of :data:`_NOT_A_NAME`
    took 4 to 18 us a search, most of :func:`clean_author`'s time); another by the pattern,
    whose case-insensitive matching is Unicode's ("İ" is "i")."""
    if not part.isascii():
        return _NOT_A_NAME.search(part) is not None
    words = _WORD.findall(part.lower())
    return not _NOT_A_NAME_WORDS.isdisjoint(words) or (
        not _PHRASE_FIRST_WORDS.isdisjoint(words) and _NOT_A_NAME_PHRASE.search(part) is not None
    )


_CREDENTIALS = frozenset("PhD Ph.D MD M.D DO RN Jr Sr II III Esq MBA MSc BSc".split())
#: The words of a job written after a name ("Staff Writer", "Contributing Editor").  Not
#: read alone: a byline "Podium Staff" or "The Currency editors" is the author the labels
#: of the dev pages give.
_ROLE_WORDS = frozenset(
    "staff writer writers editor editors contributor contributing associate assistant deputy executive "
    "managing special freelance general features news sports business".split()
)
_HANDLE = re.compile(r"^@\w+$")
#: What a news byline writes after the name and is not the name: a wire's credit in
#: parentheses ("Jane Doe (AP)"), a user handle ("Jane Doe @janedoe").
_CREDIT_AFTER_NAME = re.compile(r"\s+(?:\([A-Z]{2,5}\)|@\w+)$")
#: Parts of a byline that name no author: an outlet the piece was written for ("for The
#: Courier", "Special to The Times"), the editor ("Editing by Bob Roe").
_NOT_AN_AUTHOR_PART = re.compile(r"^(?:for\s|special to\s|(?:additional\s+)?editing\b|edited\b)", re.IGNORECASE)
#: The job words that end a byline written without a comma ("Jane Doe Staff Writer").
_JOB_TAIL = frozenset("writer writers editor editors contributor reporter correspondent columnist".split())
_JOB_WORDS = _ROLE_WORDS | _JOB_TAIL | {"senior", "chief"}


def _without_job_tail(part: str) -> str:
    """``part`` without the job words that end it ("Jane Doe Senior Staff Writer"), when a
    name of two words or more stays and is not a team's ("The Currency editors")."""
    words = part.split()
    if len(words) < 3 or words[-1].lower() not in _JOB_TAIL or words[0].lower() == "the":
        return part
    while len(words) > 2 and words[-1].lower() in _JOB_WORDS:
        words.pop()
    return " ".join(words)


#: A forum's user name with digits after its letters ("Ejp55230", "luizjr4") is a name.
#: First dev half, two folds: author 0.818 / 0.829 -> 0.832 / 0.853, no false positive
#: more (the other names on those forum pages had been taken instead).  One run of digits
#: anywhere after the first two letters ("Need2KnowLion", "ron1cne"): 0.891 / 0.919 ->
#: 0.895 / 0.924, no false positive more; digits anywhere gave one more ("mdel...q6vkpg2ma0ci",
#: an account's id); the letters before them are no month ("May2024").
_USER_NAME = re.compile(r"^(?P<letters>[^\W\d_]{2,})(?:[^\W\d]|[.-])*\d+(?:[^\W\d]|[.-])*$")


def _is_user_name(text: str) -> bool:
    """Whether ``text`` is a user name with digits (:data:`_USER_NAME`), its letters no month."""
    match = _USER_NAME.match(text)
    return match is not None and match["letters"].lower() not in _MONTHS


_MAX_NAME_WORDS = 5
_MAX_NAME_CHARS = 60


def clean_author(text: Any) -> list[str]:
    """Person names from an author value: no "By", no job titles, e-mail addresses or
    URLs; several names split on commas, ``and``, ``&``.  Garbage gives ``[]``."""
    if not isinstance(text, str):
        return []
    text = normalize_space(_unescape(text) or "")  # JSON-LD escapes its names too: "Maria &amp; Katerina"
    if not text or len(text) > 200:
        return []
    text = _BY.sub("", _GLUED_BY.sub("", text))
    if _DIGIT.search(text):  # (each test below that needs a character is skipped without it)
        text = _DATE_AFTER_NAME.split(text, maxsplit=1)[0]
    names = []
    for part in _AUTHOR_SPLIT.split(text):
        if _NOT_AN_AUTHOR_PART.match(part):
            continue
        part = _CREDIT_AFTER_NAME.sub("", _BY.sub("", part)).strip(" .:-–—|/·•\"'")
        if not part or ":" in part or ("@" in part and _EMAIL.search(part)) or _URLISH.search(part):
            continue
        if _HANDLE.match(part):
            continue
        part = (_GLUED_LABEL.sub("", part) if _LOWER_UPPER.search(part) else part).strip()
        if not part or _NO_NAME_CHAR.search(part):
            continue
        part = _without_job_tail(part)
        if (any(map(str.isdigit, part)) and not _is_user_name(part)) or _not_a_name(part):
            continue
        words = part.split()
        if len(words) > _MAX_NAME_WORDS or len(part) > _MAX_NAME_CHARS or not part[0].isalpha():
            continue
        if len(words) == 1 and part.lower() in _MONTHS:
            continue  # "Jan 5, 2024": a month; "Jan Kowalski" is a name
        if names and len(words) == 1 and (part.isupper() or part in _CREDENTIALS):
            continue  # "Dylan Bailey, MS, RD": a credential after a name
        if names and _ROLE_WORDS.issuperset(map(str.lower, words)):
            continue  # "John Smith, Staff Writer": the job after a name
        if part.isupper() and len(words) > 1:
            part = part.title()
        if part not in names:
            names.append(part)
    return names


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


# --- titles ------------------------------------------------------------------------------

_TITLE_SEPARATORS = re.compile(r"\s+(?:[|\-–—:·•»«/]|::|~)\s+")


_NOT_ALNUM = re.compile(r"[\W_]+")  # \w is what str.isalnum() accepts, and "_"


def _key(text: str) -> str:
    """A name's letters and digits in lower case (``"The Motley Fool"``: ``themotleyfool``)."""
    return _NOT_ALNUM.sub("", text.lower())


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
    keys = _site_keys(site_names)
    if keys:
        kept = [part for k, part in enumerate(parts) if not _matches_site(_key(part), keys, contained=k > 0)]
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
    keys = _site_keys(site_names)
    return len(parts) == 2 and bool(keys) and _matches_site(_key(parts[0]), keys, contained=False)


def _site_keys(site_names: Iterable[str | None]) -> set[str]:
    """The comparison keys (:func:`_key`) of the site's names, the empty one left out."""
    return {_key(name) for name in site_names if name} - {""}


def _matches_site(part: str, keys: set[str], contained: bool = True) -> bool:
    return bool(part) and any(
        part == key or (len(part) >= 4 and (part in key or (contained and key in part))) for key in keys
    )


def _rejoin(title: str, parts: list[str]) -> str:
    """The title from its first kept part to its last, separators as they were."""
    start = title.find(parts[0])
    end = title.rfind(parts[-1]) + len(parts[-1])
    return title[start:end].strip() if 0 <= start < end else " ".join(parts)


_WORD = re.compile(r"\w+")
#: The ``<h1>`` is the headline when its words agree this much (token F1) with the declared
#: title (JSON-LD, og:title, else ``<title>``): the labelled titles of the dev pages are
#: most often the visible headline, which sites shorten or reword in their meta tags
#: (first half: title exact 0.76 -> 0.79, token F1 0.89 -> 0.905; 0.2 and 0.5 did worse).
_H1_MIN_AGREEMENT = 0.35


def _title_words(title: str | None) -> Counter[str]:
    """A title's words (lower case), counted once per page for every :func:`_agreement`."""
    return Counter(_WORD.findall(title.lower())) if title else Counter()


def _unescape(text: str | None) -> str | None:
    """Entities escaped twice (``&amp;#8217;`` in the source): the text as shown."""
    return html.unescape(text) if text and "&" in text else text


# --- JSON-LD -----------------------------------------------------------------------------

_PERSON_TYPES = {"Person", "Author", "ProfilePage"}
_ARTICLE_TYPE = re.compile(r"(?:Article|BlogPosting|Posting|Report|Review|Recipe|HowTo)$")
_PAGE_TYPE = re.compile(r"(?:Page|WebSite)$")


def _types(item: dict[str, Any]) -> list[str]:
    value = item.get("@type")
    values = value if isinstance(value, list) else [value]
    return [v.rsplit("/", 1)[-1] for v in values if isinstance(v, str)]


def _text(value: Any) -> str | None:
    """A plain string from a JSON-LD value (``{"@value": ...}``, first of a list)."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("@value") or value.get("name")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        value = str(value)
    if not isinstance(value, str) or len(value) > _MAX_VALUE_CHARS:
        return None
    value = normalize_space(_unescape(value) or "")
    return value or None


def _url(value: Any, by_id: dict[str, dict[str, Any]]) -> str | None:
    """A JSON-LD image's address: the value, or an ``ImageObject``'s ``url`` or
    ``contentUrl``, a reference (``{"@id": ".../#primaryimage"}``, as Yoast writes it)
    looked up in the page's graph first.  An ``@id`` names a node, not a file: on 60 of the
    first 749 WCXB dev pages it was taken for the image's address."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        if "url" not in value and "contentUrl" not in value and isinstance(value.get("@id"), str):
            value = by_id.get(value["@id"], value)
        value = value.get("url") or value.get("contentUrl")
        if isinstance(value, list):
            value = value[0] if value else None
    return value.strip() if isinstance(value, str) and value.strip() else None


def _ld_authors(value: Any, by_id: dict[str, dict[str, Any]]) -> list[str]:
    values = value if isinstance(value, list) else [value]
    names: list[Any] = []
    for item in values[:_MAX_AUTHORS]:
        if isinstance(item, dict):
            if "name" not in item and isinstance(item.get("@id"), str):
                item = by_id.get(item["@id"], item)
            if len(values) > 1 and _types(item) and not set(_types(item)) & _PERSON_TYPES:
                continue  # an Organization beside the people who wrote
            name = item.get("name")
            if isinstance(name, list):
                name = name[0] if name else None
            if not isinstance(name, str):
                given, family = item.get("givenName"), item.get("familyName")
                name = " ".join(p for p in (given, family) if isinstance(p, str)) or None
            names.append(name)
        else:
            names.append(item)
    return _merge_authors(names)


def _is_organisation(value: Any, by_id: dict[str, dict[str, Any]]) -> bool:
    """Whether a JSON-LD ``author`` is typed, and typed as no person (an ``Organization``)."""
    items = value if isinstance(value, list) else [value]
    types = set()
    for item in items[:_MAX_AUTHORS]:
        if not isinstance(item, dict):
            return False
        if "@type" not in item and isinstance(item.get("@id"), str):
            item = by_id.get(item["@id"], item)
        types.update(_types(item))
    return bool(types) and not types & _PERSON_TYPES


#: A site's internal field written as a keyword ("locale: US", "contentId: 15cd...",
#: "displayType: listicle"): a lower-case identifier and a colon.  On 5 first-half dev
#: pages every such keyword was one; a subject label is capitalised ("Travel: Europe").
_FIELD_KEYWORD = re.compile(r"[a-z][A-Za-z_-]*:\s")


#: What separates a tag's words in its key (:func:`_keywords`): a tag and its slug are one tag.
_TAG_WORD_GAP = re.compile(r"[\s_-]+")


def _keywords(value: Any) -> list[str]:
    """The tags of a keywords field (a list, or text split at commas), each once: a tag
    written twice, as the site shows it and as its URL slug ("weight-loss,Weight Loss,
    diets,Diets": e-mail tools' ``sailthru.tags``, on 4 of their 8 first-half dev pages),
    is kept in the form with capitals or spaces, where the first was written."""
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list):
        return []
    tags: dict[str, str] = {}  # by key: lower case, words joined by "-"
    for item in value[:50]:
        text = _text(item)
        if not text or len(text) > 80 or _FIELD_KEYWORD.match(text):
            continue
        key = _TAG_WORD_GAP.sub("-", text.lower())
        kept = tags.get(key)
        if kept is None or (kept.islower() and " " not in kept and (" " in text or not text.islower())):
            tags[key] = text
    return list(tags.values())


def _from_json_ld(objects: list[dict[str, Any]], found: dict[str, Any]) -> None:
    if not objects:
        return
    by_id = {item["@id"]: item for item in objects if isinstance(item.get("@id"), str)}
    typed = [(item, _types(item)) for item in objects]
    articles = [(o, types) for o, types in typed if any(map(_ARTICLE_TYPE.search, types))]
    pages = [  # an object typed as both is the article
        (o, types) for o, types in typed
        if any(map(_PAGE_TYPE.search, types)) and not any(map(_ARTICLE_TYPE.search, types))
    ]
    for item, types in articles[:1]:
        found.setdefault("page_type", types[0])
        _put(found, "title", _text(item.get("headline")) or _text(item.get("name")))
        author = item.get("author") or item.get("creator")
        names = _ld_authors(author, by_id)
        _put(found, "authors", names)
        if names and _is_organisation(author, by_id):
            found["ld_organisation"] = names
        _put(found, "date_published", parse_date(_text(item.get("datePublished")) or _text(item.get("dateCreated"))))
        _put(found, "date_modified", parse_date(_text(item.get("dateModified"))))
        _put(found, "description", _text(item.get("description")))
        _put(found, "image", _url(item.get("image"), by_id) or _url(item.get("thumbnailUrl"), by_id))
        _put(found, "tags", _keywords(item.get("keywords")))
        _put(found, "section", _text(item.get("articleSection")))
        _put(found, "language", _language(_text(item.get("inLanguage"))))
        publisher = item.get("publisher")
        if isinstance(publisher, dict) and "name" not in publisher and isinstance(publisher.get("@id"), str):
            publisher = by_id.get(publisher["@id"])
        _put(found, "ld_site", _text(publisher) if isinstance(publisher, dict) else None)
    for item, types in pages[:1]:
        found.setdefault("page_type", types[0])
        if not articles:
            _put(found, "authors", _ld_authors(item.get("author"), by_id))
            _put(found, "date_published", parse_date(_text(item.get("datePublished"))))
            _put(found, "date_modified", parse_date(_text(item.get("dateModified"))))
        _put(found, "description", _text(item.get("description")))
        _put(found, "language", _language(_text(item.get("inLanguage"))))
    for item, types in typed:
        if "WebSite" in types:
            _put(found, "ld_site", _text(item.get("name")))
            break


# --- <meta> tags -------------------------------------------------------------------------

_META_SOURCES: dict[str, tuple[str, ...]] = {
    "title": ("og:title", "twitter:title", "dc.title", "dcterms.title", "parsely-title", "sailthru.title", "title"),
    "authors": (
        "author", "article:author", "dc.creator", "dcterms.creator", "parsely-author", "sailthru.author", "byl",
        "citation_author", "og:article:author", "article.author", "cxenseparse:author",
    ),
    "date_published": (
        "article:published_time", "og:article:published_time", "article:published", "datepublished",
        "parsely-pub-date", "sailthru.date", "pubdate", "publishdate", "publish-date", "publish_date",
        "published_time", "published-date", "article.published", "dc.date.issued", "dcterms.issued",
        "dcterms.created", "dc.date.created", "dc.date", "dcterms.date", "citation_publication_date",
        "citation_date", "og:published_time", "date", "release_date", "article_date_original",
        "cxenseparse:recs:publishtime", "other:published",
    ),
    "date_modified": (
        "article:modified_time", "og:article:modified_time", "datemodified", "og:updated_time",
        "dcterms.modified", "dc.date.modified", "last-modified", "lastmod", "article.updated",
    ),
    "site_name": ("og:site_name", "application-name", "apple-mobile-web-app-title", "twitter:site"),
    "description": ("description", "og:description", "twitter:description", "dc.description", "dcterms.description"),
    "image": ("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"),
    "tags": ("article:tag", "news_keywords", "keywords", "parsely-tags", "sailthru.tags"),
    "section": ("article:section", "parsely-section", "section", "category"),
    "language": ("content-language", "og:locale", "dc.language", "dcterms.language", "language"),
    "page_type": ("og:type",),
}


def _metas(root: etree._Element) -> dict[str, list[str]]:
    """``<head>``'s ``<meta>`` contents by lower-cased ``name``/``property``/``itemprop``/
    ``http-equiv``, in document order (a ``<meta itemprop>`` in the body is microdata), and
    its ``<link rel=canonical>`` as ``link:canonical``."""
    metas: dict[str, list[str]] = {}
    head = next(root.iterchildren("head"), None)  # root.find("head"), without ElementPath
    for meta in (head if head is not None else root).iter("meta", "link"):  # one pass
        if meta.tag == "link":
            if (meta.get("rel") or "").strip().lower() == "canonical" and (meta.get("href") or "").strip():
                metas.setdefault("link:canonical", []).append(meta.get("href", "").strip())
            continue
        content, keys = "", []
        for attribute, value in attribute_items(meta):  # one call, not five; linear in the attributes
            if attribute == "content":
                content = value.strip()
            elif attribute in _META_KEYS and value:
                keys.append(value)
        if content and keys and len(content) <= _MAX_VALUE_CHARS:
            text = _unescape(content) or ""
            for key in keys:
                metas.setdefault(key.strip().lower(), []).append(text)
    return metas


_META_KEYS = frozenset(("property", "name", "itemprop", "http-equiv"))


_WRITTEN_BY = re.compile(r"^(?:written by|author|authors|by)\s*:?$", re.IGNORECASE)


def _twitter_author(metas: dict[str, list[str]]) -> list[str]:
    """The author in the ``twitter:labelN``/``twitter:dataN`` pairs ("Written by", a name)
    that WordPress SEO plugins write (first dev half: one more author, no false positive)."""
    for number in "1234":
        labels = metas.get(f"twitter:label{number}")
        if labels and _WRITTEN_BY.match(labels[0].strip()):
            return clean_author((metas.get(f"twitter:data{number}") or [""])[0])
    return []


#: Any other ``<meta>`` naming a publish date ("published", "w-published-date"), read after
#: the known names.  First dev half, two folds: date +1 / +1 page, no false positive.
_PUBLISHED_META = re.compile(r"publish(?!er)|pub[-_.]?date")


#: The ``<meta>`` names that hold one person each, often surname first: Highwire's
#: ``citation_author`` (Google Scholar's) and Dublin Core's creator ("Roy, Aniruddha").
_SURNAME_FIRST_KEYS = frozenset(("citation_author", "dc.creator", "dcterms.creator"))
_COMPANY_SUFFIXES = frozenset("inc ltd llc gmbh corp co plc ag sa".split())
_SURNAME_COMMA_GIVEN = re.compile(r"^([^\W\d_][\w'’-]*(?: [\w'’-]+)?), ((?:[^\W\d_][\w'’.-]*)(?: [\w'’.-]+){0,2})$")


def _given_name_first(value: str) -> str:
    """A name written "Surname, Given" as "Given Surname" ("Jong, Michiel de" -> "Michiel de
    Jong"), each of a list split at ";"; split at the comma it read as two names.  Not a job,
    a credential or a team after the comma ("Jane Doe, Editor", "Dylan Bailey, MS"), nor
    words in lower case but particles."""
    if ";" in value:
        return "; ".join(_given_name_first(part.strip()) for part in value.split(";"))
    match = _SURNAME_COMMA_GIVEN.match(value.strip())
    if match is None:
        return value
    surname, given = match.groups()
    words = given.split()
    if (
        any(not (word[0].isupper() or word in _NAME_PARTICLES) for word in words)
        or not words[0][0].isupper()
        or given.rstrip(".") in _CREDENTIALS
        or (len(given) > 1 and given.isupper() and "." not in given)
        or given.lower().rstrip(".") in _COMPANY_SUFFIXES
        or any(word.lower().rstrip(".") in _JOB_WORDS for word in words)
        or _not_a_name(given)
    ):
        return value
    return f"{given} {surname}"


def _from_metas(metas: dict[str, list[str]], found: dict[str, Any]) -> None:
    if not found.get("date_published"):
        known = _META_SOURCES["date_published"]
        other = [v for key, values in metas.items() if _PUBLISHED_META.search(key) and key not in known for v in values]
        if other:
            metas["other:published"] = other
    for name, keys in _META_SOURCES.items():
        if name == "authors":
            _put(found, name, _twitter_author(metas))
        if found.get(name) or metas.keys().isdisjoint(keys):  # (most of a page's fields name none)
            continue
        if name == "authors":  # lazily: _merge_authors reads the first _MAX_AUTHORS values only
            names = (
                _given_name_first(value) if key in _SURNAME_FIRST_KEYS else value
                for key in keys
                for value in metas.get(key, ())
            )
            _put(found, name, _merge_authors(names))
            continue
        values = [value for key in keys for value in metas.get(key, ())]
        if name.startswith("date_"):
            _put(found, name, next(filter(None, map(parse_date, values)), None))
        elif name == "tags":
            _put(found, name, _keywords(",".join(values)))
        elif name == "language":
            _put(found, name, next(filter(None, map(_language, values)), None))
        elif name == "site_name":
            _put(found, name, next((normalize_space(v) for v in values if not _not_a_site_name(v)), None))
        elif name == "image":
            _put(found, name, _secure_image(normalize_space(values[0]), metas))
        else:
            _put(found, name, normalize_space(values[0]))


def _secure_image(image: str, metas: dict[str, list[str]]) -> str:
    """``og:image`` by HTTPS where the page names the same address so
    (``og:image:secure_url``, Open Graph's "alternate url to use if the webpage requires
    HTTPS"): Shopify's pages give both, the first by plain HTTP (7 first-half dev pages)."""
    if image.startswith("http://"):
        secure = "https://" + image[7:]
        if any(normalize_space(value) == secure for value in metas.get("og:image:secure_url", ())):
            return secure
    return image


# --- microdata, <time>, byline -----------------------------------------------------------

_MICRODATA_PROPS = frozenset({"headline", "author", "creator", "datePublished", "dateCreated", "dateModified"})
_MAX_BYLINES = 30
_MAX_TIMES = 5


#: A microdata item's ``name`` property (an ``author`` item's name), compiled once.
_ITEMPROP_NAME = etree.XPath("descendant::*[@itemprop='name']")


def _value_of(element: etree._Element) -> str:
    for attribute in ("content", "datetime", "value"):
        value = element.get(attribute)
        if value:
            return value
    return element_text(element)


#: The byline and the article's microdata sit near its headline: the region searched is the
#: subtree of the first ``<h1>``'s ancestor this many levels up (the whole body without an
#: ``<h1>``), which halved the search's time on the first 150 dev pages.
_REGION_LEVELS = 4
#: ... and at most this many elements from its start: on the first dev half the scores
#: are the same (700, 1000 and 1500 elements; 500 lost two authors), the metadata's CPU
#: time 13% less than without a bound.
_REGION_ELEMENTS = 700


_MAX_HEADINGS = 10


def _first_with_tag(page: Page, tag: str, limit: int) -> list[int]:
    """The page model's indices of the first ``limit`` elements with ``tag``, in document
    order, found in its tag list (``list.index`` runs in C) rather than by walking the tree
    (every node, text nodes included, scattered in memory).  ``<h1>``, ``<h2>`` and
    ``<time>`` looked up so, the
    metadata's median time on the first dev half went from 0.404x to 0.385x lxml's parse
    (``benchmarks/metadata_identity.py``: both versions in one run)."""
    tags = page.tags
    found: list[int] = []
    k = -1
    while len(found) < limit:
        try:
            k = tags.index(tag, k + 1)
        except ValueError:
            break
        found.append(k)
    return found


#: Forum software's label before a thread's title: "Thread: ..." (vBulletin), "View topic -
#: ..." (phpBB), "Topic: ...".  First dev half, two folds: title exact 0.824 / 0.840 ->
#: 0.829 / 0.840, none lost.
_FORUM_LABEL = re.compile(r"^(?:thread|topic|view topic)\s*[:\-–—]\s+", re.IGNORECASE)


#: A class word starting so ("site-title", "siteName", "logo", "brand", "masthead"), or
#: mdBook's "menu-title"; not "website-..." nor another part of the site ("site-hero").
_SITE_HEADING_CLASS = re.compile(
    r"(?:^|[^a-z])(?:site[-_]?(?:title|name|logo|brand|header)|logo|brand|masthead)|menu-title", re.IGNORECASE
)


def _names_the_site(heading: etree._Element, home: str | None) -> bool:
    """Whether an ``<h1>`` is the site's name set as a heading (blog themes, mdBook): its
    class says so (:data:`_SITE_HEADING_CLASS`), or it links to the site's ``home`` page.  Its
    text is then one of the site's names (dropped from the title: "What is Ownership? -
    The Rust Programming Language") and no candidate for the title; the dateline is still
    read at it.  First dev half, two folds: title exact 0.821 / 0.834 -> 0.824 / 0.840,
    token F1 0.925 / 0.928 -> 0.930 / 0.931, none lost."""
    if _SITE_HEADING_CLASS.search(heading.get("class") or ""):
        return True
    for link in heading.iter("a"):
        href = (link.get("href") or "").strip()
        if href in ("/", "./", "index.html") or (home and href.rstrip("/") == home):
            return True
    return False


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
    x = _WORD.findall(text.lower())
    if not x or not words:
        return 0.0
    return 2 * sum((Counter(x) & words).values()) / (len(x) + words.total())


def _heading_text(element: etree._Element) -> str:
    """A heading's text, a line break read as a space ("News Product<br>Management").
    First dev half, two folds: title exact 0.784 / 0.805 -> 0.795 / 0.805, none lost."""
    if next(element.iter("br"), None) is None:
        return element_text(element)
    parts = []
    for event, node in etree.iterwalk(element, events=("start", "end", "comment", "pi")):
        if event == "start":
            parts.append(" " if node.tag == "br" else node.text or "")
        elif node is not element:
            parts.append(node.tail or "")
    return normalize_space("".join(parts))


def _meta_titles(metas: dict[str, list[str]]) -> list[str]:
    """The page's ``og:title`` and ``twitter:title``."""
    return [values[0] for key in ("og:title", "twitter:title") if (values := metas.get(key))]


def _heading_words(text: str) -> tuple[str, ...]:
    """A heading's or a title's words in lower case, "and" left out: "&" is no word
    ("Discounts, Coupons & Promo Codes" is "discounts, coupons, and promo codes")."""
    return tuple(word for word in _WORD.findall(text.lower()) if word != "and")


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
        text = _unescape(text.rstrip("¶ ")) or ""
        words = _heading_words(text)
        if words:
            headings.append((text, words))
    if not headings:
        return None
    parts: dict[tuple[str, ...], str] = {}
    for title in dict.fromkeys(filter(None, declared)):
        title = _unescape(title) or ""
        parts.setdefault(_heading_words(title), title)
        first = _TITLE_SEPARATORS.split(title, maxsplit=1)[0]
        if first != title:
            parts.setdefault(_heading_words(first), first)
    keys = None
    for text, words in headings:
        part = parts.get(words)
        if part is not None:
            keys = _site_keys(site_names) if keys is None else keys
            if not _matches_site(_key(part), keys, False) and not _matches_site(_key(text), keys, False):
                return strip_site_name(text, site_names)
    return None


def _dated_copy(heading: str, declared: str) -> bool:
    """Whether the ``<h1>`` is the declared title with a date written into it ("Dec 18
    2025 Preparing a transition", "... Posted on July 1, 2024 by infuy"): the declared
    title is the headline then.  First dev half, two folds: title exact 0.819 / 0.832 ->
    0.821 / 0.834, token F1 0.925 / 0.927 -> 0.925 / 0.928, none lost."""
    words = _WORD.findall(declared.lower())
    if len(words) < 2 or declared.lower() not in heading.lower():
        return False
    return parse_date(heading) is not None and parse_date(declared) is None


def _headline_run(page: Page, h1: int | None) -> int | None:
    """The index of the ``<h1>``'s own text run (or the first run after it), or ``None``."""
    if h1 is None:
        return None
    try:
        return page.run_key.index(2 * h1)  # found in C
    except ValueError:
        return next((k for k, key in enumerate(page.run_key) if key >= 2 * h1), None)


def _headline_region(page: Page, h1: int | None) -> tuple[int, int]:
    """The element index range (preorder) searched for bylines and microdata."""
    if h1 is None:
        return 0, min(len(page), _REGION_ELEMENTS)
    region = h1
    for _ in range(_REGION_LEVELS):
        if page.parent[region] < 0:
            break
        region = page.parent[region]
    return region, min(page.end[region], region + _REGION_ELEMENTS)


#: An author class of a review, a comment, a testimonial or a quotation: another's name
#: ("review-author", "woocommerce-review__author").  First dev half, two folds: author
#: false positives 21 / 27 -> 19 / 25 (product pages' reviewers), author share unchanged.
_OTHERS_AUTHOR_CLASS = re.compile(r"review|comment|testimonial|quote", re.IGNORECASE)


#: A link to a writer's own page: ``/author/NAME`` and the other paths news sites give
#: their writers (``/authors/``, ``/staff/``, ``/contributors/``, ``/writers/``, ...; a
#: slug after it, so the staff directory's own page is none).  First dev half, two folds
#: (was ``/author/`` anywhere): author 0.886 / 0.919 -> 0.891 / 0.919, false positives
#: unchanged; ``/profile/`` and ``/people/`` too gave 0.891 / 0.905, false positives 19 / 25
#: -> 23 / 29 (links to social-network profiles and account pages).
_BYLINE_LINK = re.compile(
    r"/(?:authors?|staff|contributors?|writers?|journalists?|reporters?|columnists?|byline)/[^/?#]"
)


def _scan(
    page: Page, h1: int | None, with_bylines: bool = True
) -> tuple[list[tuple[str, etree._Element]], list[etree._Element], list[etree._Element]]:
    """The body's microdata properties we read (``itemprop``), its byline candidates
    (``rel=author``, a link to a writer's page (:data:`_BYLINE_LINK`), or a class with "author" or
    "byline", either case of the first letter) and its user names (:data:`_USER_NAME_CLASS`),
    in one loop over the page model's elements.  The ``/author/`` link, first dev half,
    two folds: author 0.864 / 0.886 -> 0.868 / 0.891, false positives unchanged (any
    ``/author`` in the link added one on each fold).  On the first 150 dev pages this loop
    took a third of the time of two XPath queries with the same tests.  The attribute
    names are bytes, which lxml takes as they are (a ``str`` name is encoded at every
    ``get``: a fifth of its time; first dev half, median 0.316x -> 0.309x lxml's parse).
    Without ``with_bylines`` (the author is known, the site does not sign the page) only
    the microdata is read."""
    props: list[tuple[str, etree._Element]] = []
    bylines: list[etree._Element] = []
    users: list[etree._Element] = []
    start, stop = _headline_region(page, h1)
    for element, tag in zip(page.elements[start:stop], page.tags[start:stop]):
        prop = element.get(b"itemprop")
        if prop and prop.strip() in _MICRODATA_PROPS:
            props.append((prop.strip(), element))
        if not with_bylines:
            continue
        names = element.get(b"class")
        if (names and ("uthor" in names or "yline" in names) and not _OTHERS_AUTHOR_CLASS.search(names)) or (
            tag == "a" and (element.get(b"rel") == "author" or _BYLINE_LINK.search(element.get(b"href") or ""))
        ):
            if len(bylines) < _MAX_BYLINES:
                bylines.append(element)
        elif names and "ser" in names and len(users) < _MAX_BYLINES and _USER_NAME_CLASS.search(names):
            users.append(element)
    return props, bylines, users


def _from_microdata(props: list[tuple[str, etree._Element]], found: dict[str, Any]) -> None:
    authors: list[str] = []
    for prop, element in props:
        if prop in ("author", "creator"):
            if authors:
                continue
            inner = _ITEMPROP_NAME(element)
            authors = clean_author(_value_of(inner[0]) if inner else _value_of(element))
        elif prop == "headline":
            _put(found, "title", normalize_space(_value_of(element)))
        elif prop == "dateModified":
            _put(found, "date_modified", parse_date(_value_of(element)))
        else:
            _put(found, "date_published", parse_date(_value_of(element)))
    _put(found, "authors", authors)


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


#: A class word that ends with "username" (phpBB's ``username`` and ``username-coloured``,
#: vBulletin's ``bigusername``, Flarum's ``PostUser-name``); not "username-sign-in".
_USER_NAME_CLASS = re.compile(r"[uU]ser[-_]?[nN]ame(?:-coloured)?(?:\s|$)")


def _user_name(element: etree._Element) -> list[str]:
    text = element_text(element)
    return [text] if clean_author(text) == [text] else []


_NEAR_HEADLINE = 200


def _dates_near_headline(
    page: Page, start: int | None, before: int, after: int, first_only: bool = False
) -> list[str]:
    """The dates written in short text runs near the headline's text run ``start`` (from
    ``before`` runs before it to ``after`` runs after it), in page order: the dateline."""
    if start is None:
        return []
    texts = page.run_collapsed
    dates = []
    for k, value in _date_runs(texts, max(0, start - before), min(len(texts), start + after + 1)):
        if not _labelled_as_other_date(texts, k):
            dates.append(value)
            if first_only:
                break
    return dates


def _date_runs(texts: list[str], first: int, stop: int) -> Iterator[tuple[int, str]]:
    """The short text runs from ``first`` to ``stop`` that hold a date, with it, in page order."""
    for k in range(first, stop):
        if len(texts[k]) <= _DATELINE_MAX_CHARS and _DIGIT.search(texts[k]):
            value = parse_date(texts[k])
            if value:
                yield k, value


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
        if j < k and _DIGIT.search(texts[j]):
            return False
    return False


def _time_labelled_as_other_date(page: Page, k: int) -> bool:
    """Whether the ``<time>`` element ``k``'s text run has a label of :data:`_OTHER_DATE_LABEL`."""
    try:
        run = page.run_key.index(2 * k)
    except ValueError:
        return False
    return _labelled_as_other_date(page.run_collapsed, run)


#: "Published" (or "Posted", "Created") before a date, also in other languages: "Veröffentlicht
#: am", "Publié le", "Publicado el", "Pubblicato il", "Gepubliceerd op", "Opublikowano",
#: "Опубликовано", "Julkaistu", "Yayınlanma", "Publicat".  The first letters are tested
#: first: mapped over every run of a page, the pattern took 0.75 us a run, 0.43 us so.
_PUBLISHED_LABEL = re.compile(
    r"^(?=[fpcvgojyо])(?:(?:first\s+)?(?:published|posted|created)(?:\s+on)?|veröffentlicht(?:\s+am)?|publié(?:\s+le)?"
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
        if len(text) <= _DATELINE_MAX_CHARS and _DIGIT.search(text):
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


#: "By" in the languages whose bylines read so and whose sentences seldom open with it
#: ("Von", "Napisał", "Από", "بقلم"; not "Par", "Por", "Door", "Di": "Par ailleurs", "Por
#: favor" would give a one-word name), and the labels written with a colon ("Autor:",
#: "Автор:", "Yazar:", "Texto:", "Redacción:", "Tác giả:").
_BY_WORDS = "(?:by|von|napisał|napisała|από|بقلم)"
_AUTHOR_LABELS = (
    "(?:authors?|autor|autorin|auteur|автор|yazar|kirjoittaja|texto|texte|testo|tekst|redacción|tác giả|συντάκτης)"
)
_BY_LABEL = re.compile(
    r"^(?:(?:written|posted|published|reported)\s+)?" + _BY_WORDS + r"\s*:?$|^" + _AUTHOR_LABELS + r"\s*:$",
    re.IGNORECASE,
)
_BY_LINE = re.compile(
    r"^(?:(?:written|posted|reported)\s+)?" + _BY_WORDS + r"\s*:?\s+\S|^" + _AUTHOR_LABELS + r"\s*:\s*\S",
    re.IGNORECASE,
)
#: What both start with: the runs worth testing, found by one ``map`` over the window.
_BY_START = re.compile(f"(?:written|posted|published|reported|{_BY_WORDS}|{_AUTHOR_LABELS})", re.IGNORECASE)


def _looks_like_a_name(text: str) -> bool:
    """One word (a user name), or words whose first and last start with a capital (or a
    letter of a script without case: "محمد علي", "김민수 기자")."""
    words = text.split()
    return len(words) == 1 or not (words[0][0].islower() or words[-1][0].islower())


#: A drop-down's option is a choice, not a byline: a shop's sort order "By Review" (one
#: first-half dev page gave the author "Review").
_OPTION_TAGS = frozenset(("option", "optgroup"))


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
        if _BY_LINE.match(text):
            names = clean_author(text)
        elif _BY_LABEL.match(text) and k + 1 < stop:
            names = clean_author(texts[k + 1])
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
_NAME_PARTICLES = frozenset("de da di del der den van von la le du dos bin al".split())


def _name_beside_the_date(
    page: Page, start: int | None, site_names: Iterable[str | None], title: str | None, topics: Iterable[str] = ()
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
    keys = _site_keys(site_names)
    title_key = _key(title or "")
    topic_keys = {_key(topic) for topic in topics}
    texts = page.run_collapsed
    before, after = DATELINE_RUNS
    dated = next(_date_runs(texts, max(0, start - before), min(len(texts), start + after + 1)), None)
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
                and all(_written_as_a_name(name, keys, title_key) for name in names)
                and topic_keys.isdisjoint(map(_key, names))
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


def _written_as_a_name(name: str, site_keys: set[str], title_key: str) -> bool:
    words = name.split()
    key = _key(name)
    return (
        len(words) > 1
        and words[0] != "The"
        and all(word[0].isupper() or word in _NAME_PARTICLES for word in words)
        and not _matches_site(key, site_keys)
        and key not in title_key
    )


def is_byline(text: str) -> bool:
    """Whether ``text`` (whitespace collapsed) is a byline and nothing else: "By" (or its
    word in another language, :data:`_BY_LINE`) and people's names, each of two or more
    capitalised words ("By Stefan Becket, Kathryn Watson", "Von Hans Müller").  cetd-plus
    (rule 13) leaves such a line at the story's edges out of the text; the metadata reads
    the names as the authors."""
    if len(text) > 120 or not _BY_LINE.match(text):
        return False
    names = clean_author(text)
    return bool(names) and all(_written_as_a_name(name, set(), "") for name in names)


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


def _check_declared_date(page: Page, start: int | None, found: dict[str, Any]) -> None:
    """The declared (JSON-LD, meta, microdata, ``<time>``) publish date stays, with three
    checked exceptions read from the dateline (:data:`DATELINE_RUNS`):

    - a date labelled "Published" (or "Posted", "Created") is shown, and it is another
      day (:func:`_published_label_date`);
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
    visible = _dates_near_headline(page, start, *DATELINE_RUNS, first_only=not declared)
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
    if modified and modified[:10] in days:
        found["date_published"] = modified
    elif days[0] < declared[:10]:
        found["date_published"] = visible[0]


_MAX_AUTHOR_SOURCES = 8
#: The dateline: the text runs from 3 before the ``<h1>``'s text to 15 after it, read to
#: check the declared date (:func:`_check_declared_date`); failing every source, a date up
#: to 60 runs after.
DATELINE_RUNS = (3, 15)
NEAR_HEADLINE_RUNS = (5, 60)
_DATELINE_MAX_CHARS = 80
_DIGIT = re.compile(r"\d")


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


# --- language ----------------------------------------------------------------------------

_LANGUAGE = re.compile(
    r"^([a-zA-Z]{2,3})(?:[-_]([a-zA-Z]{4}))?(?:[-_]([a-zA-Z]{2}|\d{3}))?((?:[-_](?:[a-zA-Z0-9]{5,8}|\d[a-zA-Z0-9]{3}))*)$"
)


def _language(value: str | None) -> str | None:
    """A BCP 47 tag (``en``, ``en-US``, ``zh-Hant-TW``, ``de-DE-1996``) from a declared
    value, or ``None``."""
    if not value:
        return None
    match = _LANGUAGE.match(value.strip().split(",")[0].strip())
    if not match or match[1].lower() in ("xx", "und", "zxx", "mul"):
        return None
    tag = match[1].lower()
    if match[2]:
        tag += "-" + match[2].title()
    if match[3]:
        tag += "-" + match[3].upper()
    if match[4]:  # variants ("de-DE-1996", "en-GB-oxendict")
        tag += match[4].replace("_", "-").lower()
    return tag


#: Enough text to tell a language apart (py3langid's own tests use sentences).
_DETECTION_CHARS = 1000


def detect_language(text: str) -> str | None:
    """The language of ``text`` by py3langid (``metadata`` extra), ``None`` without it or
    for text too short to tell (under 50 characters)."""
    if len(text) < 50:
        return None
    try:
        import py3langid
    except ImportError:
        return None
    language, _ = py3langid.classify(text[:_DETECTION_CHARS])
    return _language(language)


# --- assembling --------------------------------------------------------------------------


def _put(found: dict[str, Any], name: str, value: Any) -> None:
    """Keep ``value`` for ``name`` unless a more trusted source already gave one; author
    lists are all kept, in order of trust, and chosen at the end (:func:`_authors`)."""
    if not value:
        return
    if name == "authors":
        found.setdefault("author_candidates", []).append(value)
    elif not found.get(name):
        found[name] = value


def _signed_by_site(found: dict[str, Any], site_names: Iterable[str | None]) -> bool:
    """Whether the most trusted author is the site itself: a JSON-LD ``Organization``, or
    names that are the site's name, its publisher's or its host's."""
    candidates = found.get("author_candidates")
    if not candidates:
        return False
    if candidates[0] is found.get("ld_organisation"):
        return True
    keys = _site_keys(site_names)
    return all(_key(name) in keys for name in candidates[0])


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
    keys = _site_keys(site_names)
    shown: dict[str, Any] = {}
    _from_byline(bylines, shown)
    _put(shown, "authors", _author_near_headline(page, headline_run, *DATELINE_RUNS))
    for names in shown.get("author_candidates", ())[:_SHOWN_BYLINES]:
        if not any(_matches_site(_key(name), keys) for name in names):
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
    declared = [_key(name) for name in found["author_candidates"][0]]
    if not any(a in b or b in a for a in map(_key, shown) for b in declared):
        found["author_candidates"].insert(0, shown)


def _authors(found: dict[str, Any]) -> list[str]:
    """The most trusted author list.  (An author equal to the site's name is kept: the
    dev labels name the organisation when it signs its own pages.)"""
    for names in found.get("author_candidates", ()):
        return names
    return []


#: An ``http(s)`` URL with a plain host (letters, digits, dots, hyphens: no user, port or
#: IPv6 literal), the host read without ``urlsplit``.
_PLAIN_HOST = re.compile(r"https?://([A-Za-z0-9.-]+)(?:[/?#]|\Z)")
#: ... and with a path only (no query, fragment, parameters or whitespace): a URL that
#: ``urljoin`` returns unchanged against any base that parses.  The two spare the URL
#: parser's Python code on most pages: on the first dev half, the metadata's median time
#: 0.388x -> 0.364x lxml's parse (``benchmarks/metadata_identity.py``, both versions in one run).
_PLAIN_ABSOLUTE = re.compile(r"https?://[A-Za-z0-9.-]+(?:/[^?#;\s]*)?")


def _absolute(url: str | None, base: str | None) -> str | None:
    """``url`` made absolute against ``base``, and escaped as a URL must be (a space as
    ``%20``, as a browser sends it: ``.../Facebook Link Photo.png`` on a dev page);
    ``None`` when it cannot be made absolute (a relative URL, and no base)."""
    if not url:
        return None
    url = url.strip()
    if _PLAIN_ABSOLUTE.fullmatch(url) and url.isascii():
        return url
    url = _EXTRA_SLASHES.sub(r"\1//", url, count=1)
    try:
        url = urljoin(base, url) if base else url
        if _UNSAFE_IN_URL.search(url):  # w3lib's escaping costs as much as the join: only where needed
            url = safe_url_string(url)
    except ValueError:
        return None
    # w3lib writes a host IDNA can encode in ASCII and leaves one it cannot as it was
    return url if url_has_host(url) and url.isascii() else None


#: What a URL cannot hold as it is: whitespace, controls, characters beyond ASCII, and
#: ``"<>\^`{|}``.
_UNSAFE_IN_URL = re.compile(r'[^\x21-\x7e]|["<>\\^`{|}]')


#: ``https:////host/...``: a browser reads the host after any number of slashes (WHATWG
#: URL, "special authority ignore slashes state"); ``urljoin`` finds no host there.
_EXTRA_SLASHES = re.compile(r"^(https?:)/{3,}", re.IGNORECASE)


#: The inline elements a text value's markup uses besides the block-level ones.
_INLINE_TAGS = frozenset("a abbr b bdi bdo cite code em font i img kbd mark q s small span strong sub sup u".split())
#: An HTML element's tag written into a text value (a JSON-LD ``description`` holding the
#: post's first paragraph as markup: 9 of the first 749 WCXB dev pages); not any text in
#: angle brackets, which a plain description about code has (``Result<bool, Error>``).
_MARKUP_TAG = re.compile(
    r"</?(" + "|".join(sorted(BLOCK_TAGS | _INLINE_TAGS, key=len, reverse=True)) + r")(?=[\s/>])[^<>]*>",
    re.IGNORECASE,
)


def _plain_text(text: str | None) -> str | None:
    """A description as text: entities decoded (once more where they were escaped twice),
    tags taken out, whitespace collapsed."""
    if not text:
        return None
    text = _unescape(text) or ""
    if "<" in text:
        text = _MARKUP_TAG.sub(_tag_space, text)
    return normalize_space(text) or None


def article_body(objects: Iterable[dict[str, Any]]) -> str | None:
    """The longest ``articleBody`` of these JSON-LD objects, as plain text
    (:func:`_plain_text`), or ``None``.  Read by cetd-plus's rule 17, from
    :meth:`~scrapy_cetd.page.Page.declared_objects` ``("articleBody")``."""
    bodies = [item["articleBody"] for item in objects if isinstance(item.get("articleBody"), str)]
    return _plain_text(max(bodies, key=len)) if bodies else None


def object_types(objects: Iterable[dict[str, Any]]) -> Iterator[list[str]]:
    """The schema.org types (``"Product"``, ``"NewsArticle"``) of each JSON-LD object (top
    level, ``@graph`` member, ``mainEntity``; not an object's property: a review's
    ``itemReviewed``).  Read by cetd-plus's rule 20 and its article test, from
    :meth:`~scrapy_cetd.page.Page.declared_objects`."""
    return map(_types, objects)


def _tag_space(tag: re.Match[str]) -> str:
    """A block-level tag separates words; an inline one (``<strong>``, ``<a>``) does not."""
    name = tag.group(1).lower()
    return " " if name in BLOCK_TAGS else ""


#: A section is a name, at most as long as a tag (:func:`_keywords`): one first-half dev
#: page gave its summary as ``articleSection``, another its own URL.
_SECTION_MAX_CHARS = 80


def _section(text: str | None) -> str | None:
    return text if text and len(text) <= _SECTION_MAX_CHARS and "://" not in text else None


def _not_a_site_name(value: str) -> bool:
    """A handle (``twitter:site``'s "@courier") or an address ("http://@courier") names no site."""
    return value.startswith("@") or "://" in value


def _modified_after(modified: str | None, published: str | None) -> str | None:
    """The modified date, unless it falls on a day before the publish date (a page cannot
    be changed before it is published; on the 4 labelled of the 6 first-half dev pages
    where it did, the publish date was the label's: the modified date was the wrong one)."""
    if modified and published and modified[:10] < published[:10]:
        return None
    return modified


def _host_name(url: str | None) -> str | None:
    """The site's name in the URL's host (``www.riverside-courier.com``: ``riverside-courier``),
    ``None`` for a URL with no such host or that does not parse."""
    if not url:
        return None
    plain = _PLAIN_HOST.match(url)
    try:
        host = plain[1].lower() if plain else urlsplit(url).hostname or ""
    except ValueError:
        return None
    parts = [p for p in host.split(".") if p not in ("www", "m", "amp")]
    return parts[-2] if len(parts) >= 2 else None


def extract_metadata(page: Page, text: str = "") -> Metadata:
    """The metadata of a parsed page; ``text`` (the extracted text) is used only to
    detect the language when the page declares none."""
    root = page.root
    url = page.url
    found: dict[str, Any] = {}
    _from_json_ld(page.declared_objects(), found)
    metas = _metas(root)
    _from_metas(metas, found)
    site_name = found.get("site_name") or found.get("ld_site")
    names = (site_name, found.get("ld_site"), _host_name(url))
    h1s = _first_with_tag(page, "h1", _MAX_HEADINGS)
    h1_texts = [_heading_text(page.elements[k]) for k in h1s]  # read once: headline and title
    title_h1_texts = h1_texts
    host = _PLAIN_HOST.match(url or "")
    home = url[: host.end(1)] if host else None  # "https://example.com"
    site_heading = next((k for k, i in enumerate(h1s) if _names_the_site(page.elements[i], home)), None)
    if site_heading is not None:  # the site's name set as a heading: a name of the site, not the title
        names = (*names, h1_texts[site_heading])
        title_h1_texts = h1_texts[:site_heading] + h1_texts[site_heading + 1 :]
    declared_source = found.get("title") or page.title
    declared = strip_site_name(declared_source, names)
    declared_words = _title_words(declared)
    h1 = _headline(page, declared_words, h1s, h1_texts)
    headline_run = _headline_run(page, h1)
    props: list[tuple[str, etree._Element]] = []
    bylines: list[etree._Element] = []
    users: list[etree._Element] = []
    signed_by_site = _signed_by_site(found, names)
    scanned = (0, 0)
    if not (found.get("author_candidates") and found.get("date_published")) or signed_by_site:
        scanned = _headline_region(page, h1)
        props, bylines, users = _scan(page, h1, not found.get("author_candidates") or signed_by_site)
        _from_microdata(props, found)
    if not found.get("date_published"):
        for k in _first_with_tag(page, "time", _MAX_TIMES):
            element = page.elements[k]
            value = parse_date(element.get("datetime") or element_text(element))
            if value and not _time_labelled_as_other_date(page, k):
                found["date_published"] = value
                break
    if signed_by_site:
        _put_people_first(page, bylines, headline_run, names, found)
    elif found.get("author_candidates"):
        _put_shown_byline_first(page, headline_run, found)
    if not found.get("author_candidates"):
        _from_byline(bylines, found)
    if not found.get("author_candidates"):
        _put(found, "authors", _author_near_headline(page, headline_run, *DATELINE_RUNS))
    if not found.get("author_candidates"):
        topics = [*found.get("tags", ()), *filter(None, [found.get("section")])]
        _put(found, "authors", _name_beside_the_date(page, headline_run, names, declared_source, topics))
    if not found.get("author_candidates"):
        in_microdata, user = _first_in_body(page, h1, scanned, users)
        _put(found, "authors", in_microdata)
        if not found.get("author_candidates"):
            _put(found, "authors", _signed_after_the_text(page, headline_run))
        if not found.get("author_candidates"):
            _put(found, "authors", user)
    _check_declared_date(page, headline_run, found)
    if not found.get("date_published"):
        late = _dates_near_headline(page, headline_run, *NEAR_HEADLINE_RUNS, first_only=True)
        _put(found, "date_published", (late[0] if late else None) or date_from_url(url))
    if not found.get("date_published"):
        _put(found, "date_published", _published_label_after(page, headline_run or 0))

    if (found.get("title") or page.title) != declared_source:  # the microdata's headline
        declared = strip_site_name(found.get("title") or page.title, names)
        declared_words = _title_words(declared)
    title = _confirmed_heading(title_h1_texts, (found.get("title"), *_meta_titles(metas), page.title), names)
    if title is None:
        heading = next(filter(None, title_h1_texts), None)
        heading = _without_glued_part(strip_site_name(_unescape(heading), names), page.title)
        if heading and declared and _agreement(heading, declared_words) < _H1_MIN_AGREEMENT:
            if not _site_first(declared_source, names):  # else the declared title is the site's motto
                heading = None  # an <h1> unlike the declared title is a section's or the site's heading
        elif heading and declared and _dated_copy(heading, declared):
            heading = None
        title = heading or declared
    if title:
        title = _FORUM_LABEL.sub("", title, count=1) or title

    canonical = (metas.get("link:canonical") or metas.get("og:url") or [None])[0]
    base = page.base_url
    language = _language(root.get("lang")) or _language(root.get("xml:lang")) or found.get("language")
    if language is None and text:
        language = detect_language(text)
    return Metadata(
        title=title or None,
        authors=_authors(found),
        date_published=found.get("date_published"),
        date_modified=_modified_after(found.get("date_modified"), found.get("date_published")),
        language=language,
        site_name=site_name,
        description=_plain_text(found.get("description")),
        canonical_url=_absolute(canonical, base),
        image=_absolute(found.get("image"), base),
        tags=found.get("tags") or [],
        section=_section(found.get("section")),
        page_type=found.get("page_type"),
    )
