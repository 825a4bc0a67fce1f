"""Where the headline is on the page, and the region around it that the other fields read.

The headings (``<h1>``, then ``<h2>``-``<h4>``, ``<time>``) are found in the page model's tag list
(:func:`_first_with_tag`); the headline is chosen by :func:`.titles.find_headline`.  Around
it: the dateline's text runs (:data:`DATELINE_RUNS`, :data:`NEAR_HEADLINE_RUNS`), and the
element region (:func:`_headline_region`) scanned once for microdata, byline candidates
and user names (:func:`_scan`).
"""

from __future__ import annotations

import re

from lxml import etree

from ..page import Page, element_text, normalize_space
from .microdata import _MICRODATA_PROPS

__all__ = [
    "DATELINE_RUNS",
    "NEAR_HEADLINE_RUNS",
    "_first_with_tag",
    "_heading_text",
    "_headline_region",
    "_headline_run",
    "_MAX_HEADINGS",
    "_names_the_site",
    "_NEAR_HEADLINE",
    "_scan",
    "_USER_NAME_CLASS",
]

_MAX_BYLINES = 30


#: The byline and the article's microdata sit near its headline: the region searched is the
#: subtree of the first ``<h1>``'s ancestor this many levels up (the whole body without an
#: ``<h1>``), which halved the search's time on the first 150 dev pages.
_REGION_LEVELS = 4


#: ... and at most this many elements from its start: on the first dev half the scores
#: are the same (700, 1000 and 1500 elements; 500 lost two authors), the metadata's CPU
#: time 13% less than without a bound.
_REGION_ELEMENTS = 700


_MAX_HEADINGS = 10


def _first_with_tag(page: Page, tag: str, limit: int) -> list[int]:
    """The page model's indices of the first ``limit`` elements with ``tag``, in document
    order, found in its tag list (``list.index`` runs in C) rather than by walking the tree
    (every node, text nodes included, scattered in memory).  ``<h1>``, ``<h2>`` and
    ``<time>`` looked up so, the
    metadata's median time on the first dev half went from 0.404x to 0.385x lxml's parse
    (``benchmarks/metadata_identity.py``: both versions in one run)."""
    tags = page.tags
    found: list[int] = []
    k = -1
    while len(found) < limit:
        try:
            k = tags.index(tag, k + 1)
        except ValueError:
            break
        found.append(k)
    return found


#: A class word starting so ("site-title", "siteName", "logo", "brand", "masthead"), or
#: mdBook's "menu-title"; not "website-..." nor another part of the site ("site-hero").
_SITE_HEADING_CLASS = re.compile(
    r"(?:^|[^a-z])(?:site[-_]?(?:title|name|logo|brand|header)|logo|brand|masthead)|menu-title", re.IGNORECASE
)


def _names_the_site(heading: etree._Element, home: str | None) -> bool:
    """Whether an ``<h1>`` is the site's name set as a heading (blog themes, mdBook): its
    class says so (:data:`_SITE_HEADING_CLASS`), or it links to the site's ``home`` page.  Its
    text is then one of the site's names (dropped from the title: "What is Ownership? -
    The Rust Programming Language") and no candidate for the title; the dateline is still
    read at it.  First dev half, two folds: title exact 0.821 / 0.834 -> 0.824 / 0.840,
    token F1 0.925 / 0.928 -> 0.930 / 0.931, none lost."""
    if _SITE_HEADING_CLASS.search(heading.get("class") or ""):
        return True
    for link in heading.iter("a"):
        href = (link.get("href") or "").strip()
        if href in ("/", "./", "index.html") or (home and href.rstrip("/") == home):
            return True
    return False


def _heading_text(element: etree._Element) -> str:
    """A heading's text, a line break read as a space ("News Product<br>Management").
    First dev half, two folds: title exact 0.784 / 0.805 -> 0.795 / 0.805, none lost."""
    if next(element.iter("br"), None) is None:
        return element_text(element)
    parts = []
    for event, node in etree.iterwalk(element, events=("start", "end", "comment", "pi")):
        if event == "start":
            parts.append(" " if node.tag == "br" else node.text or "")
        elif node is not element:
            parts.append(node.tail or "")
    return normalize_space("".join(parts))


def _headline_run(page: Page, h1: int | None) -> int | None:
    """The index of the ``<h1>``'s own text run (or the first run after it), or ``None``."""
    if h1 is None:
        return None
    try:
        return page.run_key.index(2 * h1)  # found in C
    except ValueError:
        return next((k for k, key in enumerate(page.run_key) if key >= 2 * h1), None)


def _headline_region(page: Page, h1: int | None) -> tuple[int, int]:
    """The element index range (preorder) searched for bylines and microdata."""
    if h1 is None:
        return 0, min(len(page), _REGION_ELEMENTS)
    region = h1
    for _ in range(_REGION_LEVELS):
        if page.parent[region] < 0:
            break
        region = page.parent[region]
    return region, min(page.end[region], region + _REGION_ELEMENTS)


#: An author class of a review, a comment, a testimonial or a quotation: another's name
#: ("review-author", "woocommerce-review__author").  First dev half, two folds: author
#: false positives 21 / 27 -> 19 / 25 (product pages' reviewers), author share unchanged.
_OTHERS_AUTHOR_CLASS = re.compile(r"review|comment|testimonial|quote", re.IGNORECASE)


#: A link to a writer's own page: ``/author/NAME`` and the other paths news sites give
#: their writers (``/authors/``, ``/staff/``, ``/contributors/``, ``/writers/``, ...; a
#: slug after it, so the staff directory's own page is none).  First dev half, two folds
#: (was ``/author/`` anywhere): author 0.886 / 0.919 -> 0.891 / 0.919, false positives
#: unchanged; ``/profile/`` and ``/people/`` too gave 0.891 / 0.905, false positives 19 / 25
#: -> 23 / 29 (links to social-network profiles and account pages).
_BYLINE_LINK = re.compile(
    r"/(?:authors?|staff|contributors?|writers?|journalists?|reporters?|columnists?|byline)/[^/?#]"
)


def _scan(
    page: Page, region: tuple[int, int], with_bylines: bool = True
) -> tuple[list[tuple[str, etree._Element]], list[etree._Element], list[etree._Element]]:
    """The body's microdata properties we read (``itemprop``), its byline candidates
    (``rel=author``, a link to a writer's page (:data:`_BYLINE_LINK`), or a class with "author" or
    "byline", either case of the first letter) and its user names (:data:`_USER_NAME_CLASS`),
    in one loop over the page model's elements of the headline's ``region``
    (:func:`_headline_region`).  The ``/author/`` link, first dev half,
    two folds: author 0.864 / 0.886 -> 0.868 / 0.891, false positives unchanged (any
    ``/author`` in the link added one on each fold).  On the first 150 dev pages this loop
    took a third of the time of two XPath queries with the same tests.  The attribute
    names are bytes, which lxml takes as they are (a ``str`` name is encoded at every
    ``get``: a fifth of its time; first dev half, median 0.316x -> 0.309x lxml's parse).
    Without ``with_bylines`` (the author is known, the site does not sign the page) only
    the microdata is read."""
    props: list[tuple[str, etree._Element]] = []
    bylines: list[etree._Element] = []
    users: list[etree._Element] = []
    start, stop = region
    for element, tag in zip(page.elements[start:stop], page.tags[start:stop]):
        prop = element.get(b"itemprop")
        if prop and prop.strip() in _MICRODATA_PROPS:
            props.append((prop.strip(), element))
        if not with_bylines:
            continue
        names = element.get(b"class")
        if (names and ("uthor" in names or "yline" in names) and not _OTHERS_AUTHOR_CLASS.search(names)) or (
            tag == "a" and (element.get(b"rel") == "author" or _BYLINE_LINK.search(element.get(b"href") or ""))
        ):
            if len(bylines) < _MAX_BYLINES:
                bylines.append(element)
        elif names and "ser" in names and len(users) < _MAX_BYLINES and _USER_NAME_CLASS.search(names):
            users.append(element)
    return props, bylines, users


#: A class word that ends with "username" (phpBB's ``username`` and ``username-coloured``,
#: vBulletin's ``bigusername``, Flarum's ``PostUser-name``); not "username-sign-in".
_USER_NAME_CLASS = re.compile(r"[uU]ser[-_]?[nN]ame(?:-coloured)?(?:\s|$)")


_NEAR_HEADLINE = 200


#: The dateline: the text runs from 3 before the ``<h1>``'s text to 15 after it, read to
#: check the declared date (:func:`_check_declared_date`); failing every source, a date up
#: to 60 runs after.
DATELINE_RUNS = (3, 15)


NEAR_HEADLINE_RUNS = (5, 60)
