"""The page's language, as a BCP 47 tag.

Order of strategies (:func:`page_language`): ``<html lang>``, ``<html xml:lang>``, the
declared ``inLanguage`` (JSON-LD) or ``<meta>`` language (``content-language``,
``og:locale``, ``dc.language``), and failing all, detected in the extracted text by
py3langid (``metadata`` extra, :func:`detect_language`).
"""

from __future__ import annotations

import re
from typing import Any

from ..page import Page

__all__ = [
    "detect_language",
    "page_language",
    "_language",
]

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


def page_language(page: Page, found: dict[str, Any], text: str) -> str | None:
    """The page's language: ``<html lang>`` (or ``xml:lang``), else the declared one
    (JSON-LD ``inLanguage``, ``<meta>``: in ``found``), else detected in the extracted
    ``text`` (:func:`detect_language`)."""
    root = page.root
    language = _language(root.get("lang")) or _language(root.get("xml:lang")) or found.get("language")
    if language is None and text:
        language = detect_language(text)
    return language
