"""What the page's JSON-LD (schema.org) declares.

Order of strategies (:func:`_from_json_ld`): the first object typed as an article
(``Article``, ``NewsArticle``, ``BlogPosting``, ``Report``, ``Review``, ``Recipe``,
``HowTo``, ...) gives every field it has; then the first typed as a page (``WebPage``,
``ProfilePage``, ...) gives what is still missing (its author and dates only when there is
no article object); then the ``WebSite`` object's name is the site's.  Objects are read
inside ``@graph`` and lists, ``@id`` references looked up in the page's graph
(:meth:`scrapy_cetd.page.Page.declared_objects`).
"""

from __future__ import annotations

import re
from typing import Any

from ..structured_data.dates import parse_date
from ..structured_data.json_ld import json_ld_text, json_ld_types
from .authors import _MAX_AUTHORS, _merge_authors
from .common import _put
from .language import _language

__all__ = [
    "main_objects",
    "TypedObject",
    "_from_json_ld",
    "_keywords",
]

_PERSON_TYPES = {"Person", "Author", "ProfilePage"}


_ARTICLE_TYPE = re.compile(r"(?:Article|BlogPosting|Posting|Report|Review|Recipe|HowTo)$")


_PAGE_TYPE = re.compile(r"(?:Page|WebSite)$")
#: A JSON-LD object and its types.
TypedObject = tuple[dict[str, Any], list[str]]


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
            if len(values) > 1 and json_ld_types(item) and not set(json_ld_types(item)) & _PERSON_TYPES:
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
        types.update(json_ld_types(item))
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
        text = json_ld_text(item)
        if not text or len(text) > 80 or _FIELD_KEYWORD.match(text):
            continue
        key = _TAG_WORD_GAP.sub("-", text.lower())
        kept = tags.get(key)
        if kept is None or (kept.islower() and " " not in kept and (" " in text or not text.islower())):
            tags[key] = text
    return list(tags.values())


def main_objects(
    objects: list[dict[str, Any]],
) -> tuple[list[TypedObject], list[TypedObject], list[TypedObject]]:
    """The page's JSON-LD objects with their types, then those typed as an article
    (:data:`_ARTICLE_TYPE`), then those typed as a page (:data:`_PAGE_TYPE`: an object typed
    as both is the article)."""
    typed = [(item, json_ld_types(item)) for item in objects]
    articles = [(o, types) for o, types in typed if any(map(_ARTICLE_TYPE.search, types))]
    pages = [
        (o, types) for o, types in typed
        if any(map(_PAGE_TYPE.search, types)) and not any(map(_ARTICLE_TYPE.search, types))
    ]
    return typed, articles, pages


def _from_json_ld(objects: list[dict[str, Any]], found: dict[str, Any]) -> str | None:
    """The fields the first article object declares, then those the first page object
    declares (its author and dates only when no article object is there), then the
    ``WebSite``'s name as the site's.  Returns the type the page declares: the first type
    of that article object, else of that page object (``None`` without either)."""
    if not objects:
        return None
    by_id = {item["@id"]: item for item in objects if isinstance(item.get("@id"), str)}
    typed, articles, pages = main_objects(objects)
    for item, _ in articles[:1]:
        _put(found, "title", json_ld_text(item.get("headline")) or json_ld_text(item.get("name")))
        author = item.get("author") or item.get("creator")
        names = _ld_authors(author, by_id)
        _put(found, "authors", names)
        if names and _is_organisation(author, by_id):
            found["ld_organisation"] = names
        published = json_ld_text(item.get("datePublished")) or json_ld_text(item.get("dateCreated"))
        _put(found, "date_published", parse_date(published))
        _put(found, "date_modified", parse_date(json_ld_text(item.get("dateModified"))))
        _put(found, "description", json_ld_text(item.get("description")))
        _put(found, "image", _url(item.get("image"), by_id) or _url(item.get("thumbnailUrl"), by_id))
        _put(found, "tags", _keywords(item.get("keywords")))
        _put(found, "section", json_ld_text(item.get("articleSection")))
        _put(found, "language", _language(json_ld_text(item.get("inLanguage"))))
        publisher = item.get("publisher")
        if isinstance(publisher, dict) and "name" not in publisher and isinstance(publisher.get("@id"), str):
            publisher = by_id.get(publisher["@id"])
        _put(found, "ld_site", json_ld_text(publisher) if isinstance(publisher, dict) else None)
    for item, _ in pages[:1]:
        if not articles:
            _put(found, "authors", _ld_authors(item.get("author"), by_id))
            _put(found, "date_published", parse_date(json_ld_text(item.get("datePublished"))))
            _put(found, "date_modified", parse_date(json_ld_text(item.get("dateModified"))))
        _put(found, "description", json_ld_text(item.get("description")))
        _put(found, "language", _language(json_ld_text(item.get("inLanguage"))))
    for item, types in typed:
        if "WebSite" in types:
            _put(found, "ld_site", json_ld_text(item.get("name")))
            break
    return next((types[0] for _, types in (*articles[:1], *pages[:1])), None)
