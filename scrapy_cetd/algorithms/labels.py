"""What the page's own markup says a part is: class and id words, read for cetd-plus.

Sites label their parts for their style sheets and scripts, and the labels name exactly
the parts a corpus does not want: ``class="comment-list"``, ``id="respond"``,
``class="related-posts"``, ``class="share-bar"``, ``class="author-bio"``.  A label is
read from an element's ``class`` and ``id`` values, lower-cased and cut into words at
every character that is not a letter (``comment-list`` gives ``comment`` and ``list``;
``relatedPosts`` gives ``relatedposts``), and also cut before a capital that follows a
lower-case letter (``ArticleComments`` gives ``article`` and ``comments`` as well as
``articlecomments``; ``signUp`` gives ``signup`` as well as ``sign`` and ``up``).  A word
*starts with* one of the stems below to count, so ``comments``, ``commentlist`` and
``relatedposts`` match and ``shadow`` does not (``ad`` would match ``address``: it is not
a stem).  The camel-case words, on the tuning half's two folds
(``benchmarks/plus_rules.py --folds``): all pages' word F1 0.8967 / 0.8977 -> 0.8968 /
0.8978, articles' shingle precision 0.9428 / 0.9465 -> 0.9431 / 0.9465; 6 pages up (a
``divCommentFooter`` notice, an ``advisorCta`` banner, IPS forums' ``ipsBreadcrumb``), one
collection page down by 0.0006 (with the camel-case words alone, ``signUp`` no longer
counted and a product page fell too).  Held out, once: all pages 0.8420 -> 0.8421,
articles' shingle F1 0.9405 both (precision 0.9274 -> 0.9275).

Each stem was kept only if removing the parts it names raised word F1 on the first
(tuning) half of the WCXB dev pages, for articles and overall (``docs/cetd-plus.md``
lists the measurements).  The article-noise stems (a call to action, a promo, a teaser, a
disclaimer) count only when the top block is an article: on a product or service page
those parts are the content.  The labels are evidence weighed with the density statistics by
:mod:`~scrapy_cetd.algorithms.plus`, never read alone: they are looked at only inside
the blocks CECTD-DS already chose, and never on the top block or its ancestors.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["ARTICLE_NOISE", "COMMENT", "NOISE", "NOT_CONTENT", "label_of", "stem_pattern"]

#: A comment section (reader comments, the reply form): kept out of ``text``, offered as
#: the ``comments`` output.
COMMENT = "comment"
#: Other parts that are not the story: share bars, related links, newsletter boxes, ...
NOISE = "noise"
#: Parts that are not the story on an article, though they can be the content of other
#: pages: a call to action is the point of a product page, not of a news story.
ARTICLE_NOISE = "article-noise"
#: Parts the page marks as not its content.
NOT_CONTENT = "not-content"

COMMENT_STEMS: tuple[str, ...] = ("comment", "disqus", "respond")
NOISE_STEMS: tuple[str, ...] = (
    "author",
    "bio",
    "sidebar",
    "social",
    "related",
    "byline",
    "caption",
    "gallery",
    "recirc",
    "newsletter",
    "subscri",
    "signup",
    "follow",
    "advert",
    "breadcrumb",
)
#: Parts the page itself says are not its content (``class="nocontent"``: the convention of
#: Google's site search for rails, menus and teasers): never the story, whatever their size.
NOT_CONTENT_STEMS: tuple[str, ...] = ("nocontent",)

#: Read only when the top block is an article (prose standing alone, cetd-plus's ``items_after_article``).
#: Measured on the tuning half's odd and even pages together (``docs/cetd-plus.md``):
#: overall F1 0.8859 / 0.8861 -> 0.8863 / 0.8864, articles 0.9597 / 0.9562 -> 0.9600 /
#: 0.9564, other pages up on both.  As noise stems, ``cta`` and ``promo`` lowered the
#: other pages (product and service pages: the call to action is their content).
ARTICLE_NOISE_STEMS: tuple[str, ...] = ("cta", "promo", "teaser", "disclaimer")

_WORDS = re.compile(r"[a-z]+")
#: A lower-case letter followed by a capital: a word boundary of a camel-case label
#: (``ArticleComments``, ``divCommentFooter``, ``ipsBreadcrumb``).
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z])(?=[A-Z])")
_cache: dict[str, str | None] = {}


@lru_cache(maxsize=16)
def stem_pattern(stems: tuple[str, ...]) -> re.Pattern[str]:
    """A pattern finding a word (of lower-cased label text) that starts with one of ``stems``."""
    return re.compile(r"(?<![a-z])(?:" + "|".join(map(re.escape, stems)) + ")")


_NOT_CONTENT = stem_pattern(NOT_CONTENT_STEMS)
_COMMENT = stem_pattern(COMMENT_STEMS)
_NOISE = stem_pattern(NOISE_STEMS)
_ARTICLE_NOISE = stem_pattern(ARTICLE_NOISE_STEMS)


def set_stems(comment: tuple[str, ...], noise: tuple[str, ...], article: tuple[str, ...] = ARTICLE_NOISE_STEMS) -> None:
    """Replace the stems (for measuring a stem's effect; the shipped lists are above)."""
    global _COMMENT, _NOISE, _ARTICLE_NOISE
    never = re.compile(r"(?!x)x")
    _COMMENT = stem_pattern(comment) if comment else never
    _NOISE = stem_pattern(noise) if noise else never
    _ARTICLE_NOISE = stem_pattern(article) if article else never
    _cache.clear()


def label_of(value: str) -> str | None:
    """:data:`NOT_CONTENT`, :data:`COMMENT`, :data:`NOISE`, :data:`ARTICLE_NOISE` or ``None``
    for an element's ``class``, ``id`` and component-naming ``data-*`` values (joined by
    spaces); in that order, the first found wins."""
    label = _cache.get(value, False)
    if label is not False:
        return label  # type: ignore[return-value]
    split = _CAMEL_BOUNDARY.sub(" ", value)
    lowered = (value if split == value else f"{value} {split}").lower()  # "signUp" is still "signup"
    if _NOT_CONTENT.search(lowered):
        label = NOT_CONTENT
    elif _COMMENT.search(lowered):
        label = COMMENT
    elif _NOISE.search(lowered):
        label = NOISE
    elif _ARTICLE_NOISE.search(lowered):
        label = ARTICLE_NOISE
    else:
        label = None
    if len(_cache) < 65536:
        _cache[value] = label
    return label
