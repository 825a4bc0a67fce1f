"""The page's type, as the page declares it.

In this order: the first JSON-LD object typed as an article (``NewsArticle``,
``BlogPosting``, ``Recipe``, ...), its first type; else the first typed as a page
(``WebPage``, ``ProductPage``, ``WebSite``, ...); else ``og:type``.  ``None`` when the page
declares none.
"""

from __future__ import annotations

from typing import Any

from ..page import normalize_space
from .json_ld import main_objects


def declared_page_type(objects: list[dict[str, Any]], metas: dict[str, list[str]]) -> str | None:
    """The type the page declares: of its JSON-LD ``objects``, else its ``og:type`` (in
    ``metas``, :func:`~.metas._metas`)."""
    _, articles, pages = main_objects(objects)
    for _, types in (*articles[:1], *pages[:1]):
        return types[0]
    og_types = metas.get("og:type")
    return (normalize_space(og_types[0]) or None) if og_types else None
