"""The page's type, as the page declares it.

In this order: the first JSON-LD object typed as an article (``NewsArticle``,
``BlogPosting``, ``Recipe``, ...), its first type; else the first typed as a page
(``WebPage``, ``ProductPage``, ``WebSite``, ...); else ``og:type``.  ``None`` when the page
declares none.
"""

from __future__ import annotations

from ..page import normalize_space
from .json_ld import TypedObject


def declared_page_type(
    articles: list[TypedObject], pages: list[TypedObject], metas: dict[str, list[str]]
) -> str | None:
    """The type the page declares: of its JSON-LD article objects, else its page objects
    (:func:`~.json_ld.main_objects`), else its ``og:type`` (in ``metas``,
    :func:`~.metas._metas`)."""
    for _, types in (*articles[:1], *pages[:1]):
        return types[0]
    og_types = metas.get("og:type")
    return (normalize_space(og_types[0]) or None) if og_types else None
