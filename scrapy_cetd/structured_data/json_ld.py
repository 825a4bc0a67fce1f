"""How JSON-LD values read: an object's schema.org types, a text value, the article's
body (:func:`article_body`, :func:`object_types`: read by cetd-plus too)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Any

from ..page import normalize_space
from .text import MAX_VALUE_CHARS, plain_text, unescape

__all__ = [
    "article_body",
    "json_ld_text",
    "json_ld_types",
    "object_types",
]


def json_ld_types(item: dict[str, Any]) -> list[str]:
    value = item.get("@type")
    values = value if isinstance(value, list) else [value]
    return [v.rsplit("/", 1)[-1] for v in values if isinstance(v, str)]


def json_ld_text(value: Any) -> str | None:
    """A plain string from a JSON-LD value (``{"@value": ...}``, first of a list)."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("@value") or value.get("name")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        value = str(value)
    if not isinstance(value, str) or len(value) > MAX_VALUE_CHARS:
        return None
    value = normalize_space(unescape(value) or "")
    return value or None


def article_body(objects: Iterable[dict[str, Any]]) -> str | None:
    """The longest ``articleBody`` of these JSON-LD objects, as plain text
    (:func:`plain_text`), or ``None``.  Read by cetd-plus's ``declared_body``, from
    :meth:`~scrapy_cetd.page.Page.declared_objects` ``("articleBody")``."""
    bodies = [item["articleBody"] for item in objects if isinstance(item.get("articleBody"), str)]
    return plain_text(max(bodies, key=len)) if bodies else None


def object_types(objects: Iterable[dict[str, Any]]) -> Iterator[list[str]]:
    """The schema.org types (``"Product"``, ``"NewsArticle"``) of each JSON-LD object (top
    level, ``@graph`` member, ``mainEntity``; not an object's property: a review's
    ``itemReviewed``).  Read by cetd-plus's ``product_noise`` and its article test, from
    :meth:`~scrapy_cetd.page.Page.declared_objects`."""
    return map(json_ld_types, objects)
