"""How people's names read: :func:`clean_author` (the names in an author value: no "By",
no job title, e-mail address or URL, several names split), :func:`is_byline`, and the
comparison of a name with the site's (:func:`site_keys`, :func:`matches_site`).  The word
lists are in :mod:`.words`."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..page import normalize_space
from .text import DIGIT, WORD, name_key, unescape
from .words import (
    CREDENTIALS,
    JOB_TAIL,
    JOB_WORDS,
    MONTHS,
    NAME_PARTICLES,
    NOT_A_NAME_PHRASES,
    NOT_A_NAME_WORDS,
    ROLE_WORDS,
)

__all__ = [
    "AUTHOR_LABELS",
    "BY_LINE",
    "BY_WORDS",
    "clean_author",
    "is_byline",
    "matches_site",
    "not_a_name",
    "site_keys",
    "written_as_a_name",
]

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


_NOT_A_NAME = re.compile(rf"\b(?:{'|'.join((*sorted(NOT_A_NAME_WORDS), *NOT_A_NAME_PHRASES))})\b", re.IGNORECASE)


_NOT_A_NAME_PHRASE = re.compile(rf"\b(?:{'|'.join(NOT_A_NAME_PHRASES)})\b", re.IGNORECASE)


_PHRASE_FIRST_WORDS = frozenset(phrase.split()[0] for phrase in NOT_A_NAME_PHRASES)


def not_a_name(part: str) -> bool:
    """Whether ``part`` holds one of the :data:`NOT_A_NAME_WORDS` or phrases.  An ASCII
    part is read by its words (set look-ups: the 117 alternatives of :data:`_NOT_A_NAME`
    took 4 to 18 us a search, most of :func:`clean_author`'s time); another by the pattern,
    whose case-insensitive matching is Unicode's ("İ" is "i")."""
    if not part.isascii():
        return _NOT_A_NAME.search(part) is not None
    words = WORD.findall(part.lower())
    return not NOT_A_NAME_WORDS.isdisjoint(words) or (
        not _PHRASE_FIRST_WORDS.isdisjoint(words) and _NOT_A_NAME_PHRASE.search(part) is not None
    )


_HANDLE = re.compile(r"^@\w+$")


#: What a news byline writes after the name and is not the name: a wire's credit in
#: parentheses ("Jane Doe (AP)"), a user handle ("Jane Doe @janedoe").
_CREDIT_AFTER_NAME = re.compile(r"\s+(?:\([A-Z]{2,5}\)|@\w+)$")


#: Parts of a byline that name no author: an outlet the piece was written for ("for The
#: Courier", "Special to The Times"), the editor ("Editing by Bob Roe").
_NOT_AN_AUTHOR_PART = re.compile(r"^(?:for\s|special to\s|(?:additional\s+)?editing\b|edited\b)", re.IGNORECASE)


def _without_job_tail(part: str) -> str:
    """``part`` without the job words that end it ("Jane Doe Senior Staff Writer"), when a
    name of two words or more stays and is not a team's ("The Currency editors")."""
    words = part.split()
    if len(words) < 3 or words[-1].lower() not in JOB_TAIL or words[0].lower() == "the":
        return part
    while len(words) > 2 and words[-1].lower() in JOB_WORDS:
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
    return match is not None and match["letters"].lower() not in MONTHS


_MAX_NAME_WORDS = 5


_MAX_NAME_CHARS = 60


def clean_author(text: Any) -> list[str]:
    """Person names from an author value: no "By", no job titles, e-mail addresses or
    URLs; several names split on commas, ``and``, ``&``.  Garbage gives ``[]``."""
    if not isinstance(text, str):
        return []
    text = normalize_space(unescape(text) or "")  # JSON-LD escapes its names too: "Maria &amp; Katerina"
    if not text or len(text) > 200:
        return []
    text = _BY.sub("", _GLUED_BY.sub("", text))
    if DIGIT.search(text):  # (each test below that needs a character is skipped without it)
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
        if (any(map(str.isdigit, part)) and not _is_user_name(part)) or not_a_name(part):
            continue
        words = part.split()
        if len(words) > _MAX_NAME_WORDS or len(part) > _MAX_NAME_CHARS or not part[0].isalpha():
            continue
        if len(words) == 1 and part.lower() in MONTHS:
            continue  # "Jan 5, 2024": a month; "Jan Kowalski" is a name
        if names and len(words) == 1 and (part.isupper() or part in CREDENTIALS):
            continue  # "Dylan Bailey, MS, RD": a credential after a name
        if names and ROLE_WORDS.issuperset(map(str.lower, words)):
            continue  # "John Smith, Staff Writer": the job after a name
        if part.isupper() and len(words) > 1:
            part = part.title()
        if part not in names:
            names.append(part)
    return names


def site_keys(site_names: Iterable[str | None]) -> set[str]:
    """The comparison keys (:func:`name_key`) of the site's names, the empty one left out."""
    return {name_key(name) for name in site_names if name} - {""}


def matches_site(part: str, keys: set[str], contained: bool = True) -> bool:
    return bool(part) and any(
        part == key or (len(part) >= 4 and (part in key or (contained and key in part))) for key in keys
    )


#: "By" in the languages whose bylines read so and whose sentences seldom open with it
#: ("Von", "Napisał", "Από", "بقلم"; not "Par", "Por", "Door", "Di": "Par ailleurs", "Por
#: favor" would give a one-word name), and the labels written with a colon ("Autor:",
#: "Автор:", "Yazar:", "Texto:", "Redacción:", "Tác giả:").
BY_WORDS = "(?:by|von|napisał|napisała|από|بقلم)"


AUTHOR_LABELS = (
    "(?:authors?|autor|autorin|auteur|автор|yazar|kirjoittaja|texto|texte|testo|tekst|redacción|tác giả|συντάκτης)"
)


BY_LINE = re.compile(
    r"^(?:(?:written|posted|reported)\s+)?" + BY_WORDS + r"\s*:?\s+\S|^" + AUTHOR_LABELS + r"\s*:\s*\S",
    re.IGNORECASE,
)


def written_as_a_name(name: str, site_keys: set[str], title_key: str) -> bool:
    words = name.split()
    key = name_key(name)
    return (
        len(words) > 1
        and words[0] != "The"
        and all(word[0].isupper() or word in NAME_PARTICLES for word in words)
        and not matches_site(key, site_keys)
        and key not in title_key
    )


def is_byline(text: str) -> bool:
    """Whether ``text`` (whitespace collapsed) is a byline and nothing else: "By" (or its
    word in another language, :data:`BY_LINE`) and people's names, each of two or more
    capitalised words ("By Stefan Becket, Kathryn Watson", "Von Hans Müller").  cetd-plus
    (rule 13) leaves such a line at the story's edges out of the text; the metadata reads
    the names as the authors."""
    if len(text) > 120 or not BY_LINE.match(text):
        return False
    names = clean_author(text)
    return bool(names) and all(written_as_a_name(name, set(), "") for name in names)
