"""Text values as shown: entities escaped twice, markup in a text value
(:func:`plain_text`), words and digits, the comparison key of a name (:func:`name_key`)."""

from __future__ import annotations

import html
import re

from ..page import BLOCK_TAGS, normalize_space

__all__ = [
    "DIGIT",
    "MAX_VALUE_CHARS",
    "name_key",
    "plain_text",
    "unescape",
    "WORD",
]

#: The longest string a metadata field holds (a title, a description, a URL); a longer
#: one is the page's garbage and gives no value.
MAX_VALUE_CHARS = 100_000


_NOT_ALNUM = re.compile(r"[\W_]+")  # \w is what str.isalnum() accepts, and "_"


def name_key(text: str) -> str:
    """A name's letters and digits in lower case (``"The Motley Fool"``: ``themotleyfool``)."""
    return _NOT_ALNUM.sub("", text.lower())


WORD = re.compile(r"\w+")


def unescape(text: str | None) -> str | None:
    """Entities escaped twice (``&amp;#8217;`` in the source): the text as shown."""
    return html.unescape(text) if text and "&" in text else text


DIGIT = re.compile(r"\d")


#: The inline elements a text value's markup uses besides the block-level ones.
_INLINE_TAGS = frozenset("a abbr b bdi bdo cite code em font i img kbd mark q s small span strong sub sup u".split())


#: An HTML element's tag written into a text value (a JSON-LD ``description`` holding the
#: post's first paragraph as markup: 9 of the first 749 WCXB dev pages); not any text in
#: angle brackets, which a plain description about code has (``Result<bool, Error>``).
_MARKUP_TAG = re.compile(
    r"</?(" + "|".join(sorted(BLOCK_TAGS | _INLINE_TAGS, key=len, reverse=True)) + r")(?=[\s/>])[^<>]*>",
    re.IGNORECASE,
)


def plain_text(text: str | None) -> str | None:
    """A description as text: entities decoded (once more where they were escaped twice),
    tags taken out, whitespace collapsed."""
    if not text:
        return None
    text = unescape(text) or ""
    if "<" in text:
        text = _MARKUP_TAG.sub(_tag_space, text)
    return normalize_space(text) or None


def _tag_space(tag: re.Match[str]) -> str:
    """A block-level tag separates words; an inline one (``<strong>``, ``<a>``) does not."""
    name = tag.group(1).lower()
    return " " if name in BLOCK_TAGS else ""
