"""What the page's ``<meta>`` tags declare.

Order of strategies (:func:`_from_metas`; a field already given by JSON-LD keeps its
value): for each field, the names of :data:`_META_SOURCES` in their order (OpenGraph,
Twitter, Dublin Core, Parse.ly, Sailthru, Highwire, ...); the authors also from a
``twitter:label``/``twitter:data`` "Written by" pair first (:func:`_twitter_author`), a
surname-first name turned (:func:`_given_name_first`); the publish date failing the known
names from any other ``<meta>`` naming one (:data:`_PUBLISHED_META`); when JSON-LD gave the
publish date, the ``<meta>``'s values as ``other_published`` (the dateline may show that
one: :func:`.dates._check_declared_date` reads them).
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from ..page import attribute_items, normalize_space
from ..structured_data.dates import parse_date
from ..structured_data.names import clean_author, not_a_name
from ..structured_data.text import MAX_VALUE_CHARS, unescape
from ..structured_data.words import COMPANY_SUFFIXES, CREDENTIALS, JOB_WORDS, NAME_PARTICLES
from .authors import _merge_authors
from .common import _put
from .json_ld import _keywords
from .language import _language

__all__ = [
    "_from_metas",
    "_metas",
    "_section",
]

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
        "cxenseparse:recs:publishtime", "article:publicationdate", "date_created", "datecreated",
        "content_create_date", "displaydate", "doc_date", "ptime", "pdate", "og:regdate", "article:post_date",
        "created", "dateline", "other:published",
    ),
    "date_modified": (
        "article:modified_time", "og:article:modified_time", "datemodified", "og:updated_time",
        "dcterms.modified", "dc.date.modified", "last-modified", "lastmod", "article.updated", "article:modified",
        "modified_time", "date_modified", "dateupdated", "last-updated", "lastmodified",
    ),
    "site_name": ("og:site_name", "application-name", "apple-mobile-web-app-title", "twitter:site"),
    "description": ("description", "og:description", "twitter:description", "dc.description", "dcterms.description"),
    "image": ("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"),
    "tags": ("article:tag", "news_keywords", "keywords", "parsely-tags", "sailthru.tags"),
    "section": ("article:section", "parsely-section", "section", "category"),
    "language": ("content-language", "og:locale", "dc.language", "dcterms.language", "language"),
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
        if content and keys and len(content) <= MAX_VALUE_CHARS:
            text = unescape(content) or ""
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
        any(not (word[0].isupper() or word in NAME_PARTICLES) for word in words)
        or not words[0][0].isupper()
        or given.rstrip(".") in CREDENTIALS
        or (len(given) > 1 and given.isupper() and "." not in given)
        or given.lower().rstrip(".") in COMPANY_SUFFIXES
        or any(word.lower().rstrip(".") in JOB_WORDS for word in words)
        or not_a_name(given)
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
        if metas.keys().isdisjoint(keys):  # (most of a page's fields name none)
            continue
        if found.get(name):
            if name == "date_published":  # a second declared date: the dateline may show it (read there)
                _put(found, "other_published", [value for key in keys for value in metas.get(key, ())])
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


#: A section is a name, at most as long as a tag (:func:`_keywords`): one first-half dev
#: page gave its summary as ``articleSection``, another its own URL.
_SECTION_MAX_CHARS = 80


def _section(text: str | None) -> str | None:
    return text if text and len(text) <= _SECTION_MAX_CHARS and "://" not in text else None


def _not_a_site_name(value: str) -> bool:
    """A handle (``twitter:site``'s "@courier") or an address ("http://@courier") names no site."""
    return value.startswith("@") or "://" in value
