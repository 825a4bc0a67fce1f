"""What the page's microdata (``itemprop``) declares near the headline: the headline, the
author (its ``name`` property, else its text), the publish and modified dates.  Read after
JSON-LD and ``<meta>``, from the elements :func:`.headline._scan` collects.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..page import element_text, normalize_space
from ..parsing import xpath
from ..structured_data.dates import parse_date
from ..structured_data.names import clean_author
from .common import _put

__all__ = [
    "_from_microdata",
    "_ITEMPROP_NAME",
    "_MICRODATA_PROPS",
    "_value_of",
]

_MICRODATA_PROPS = frozenset(
    {"headline", "author", "creator", "datePublished", "dateCreated", "dateModified", "dateUpdated"}
)


#: A microdata item's ``name`` property (an ``author`` item's name), compiled once.
_ITEMPROP_NAME = xpath("descendant::*[@itemprop='name']")


def _value_of(element: etree._Element) -> str:
    for attribute in ("content", "datetime", "value"):
        value = element.get(attribute)
        if value:
            return value
    return element_text(element)


#: The properties of a modified date: schema.org's, and the ``dateUpdated`` news sites write.
_MODIFIED_PROPS = frozenset(("dateModified", "dateUpdated"))


def _from_microdata(props: list[tuple[str, etree._Element]], found: dict[str, Any]) -> None:
    authors: list[str] = []
    for prop, element in props:
        if prop in ("author", "creator"):
            if authors:
                continue
            inner = _ITEMPROP_NAME(element)
            authors = clean_author(_value_of(inner[0]) if inner else _value_of(element))
            continue
        name = "title" if prop == "headline" else "date_modified" if prop in _MODIFIED_PROPS else "date_published"
        if not found.get(name):  # else a more trusted source gave it: the element is not read
            value = _value_of(element)
            _put(found, name, normalize_space(value) if name == "title" else parse_date(value))
    _put(found, "authors", authors)
