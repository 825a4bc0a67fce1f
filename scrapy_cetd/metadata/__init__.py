"""Article metadata read beside the extraction: headline, authors, dates, language, ...

One module per field, as newspaper4k's ``extractors/``; each module's docstring gives its
order of strategies:

- :mod:`.json_ld` and :mod:`.metas`: what the page declares (schema.org JSON-LD, then
  OpenGraph, Twitter, Dublin Core and the other ``<meta>`` names), the most trusted source
  of every field;
- :mod:`.microdata`: ``itemprop`` values near the headline;
- :mod:`.headline`: where the headline is, the anchor of everything read on the page
  itself (the dateline, the byline, the microdata's region);
- :mod:`.titles`, :mod:`.authors`, :mod:`.dates`: each field chosen among the declared
  values and those shown at the headline;
- :mod:`.language`, :mod:`.page_type`, :mod:`.urls`: the declared language, the page's
  type (declared, and classified by a learned model), the canonical and image URLs.

How a value reads (a date, a person's name, a JSON-LD object's field) is the core's,
:mod:`scrapy_cetd.structured_data`, shared with cetd-plus; the word lists and month names
are its data module, :mod:`scrapy_cetd.structured_data.words`.

Every value is checked before it is kept (an author that is a URL, an e-mail address or a
date is no author; a date must parse), so garbage gives no value, never an exception.  The
JSON-LD texts are collected by the page model before its cleaning removes ``<script>``
(:attr:`scrapy_cetd.page.Page.json_ld`) and parsed once, shared with cetd-plus's readers
(:meth:`scrapy_cetd.page.Page.declared_objects`); everything else is read from the cleaned
tree.  The rules were chosen by two-fold cross-validation on the first dev half
(``benchmarks/metadata_folds.py``, docs/metadata.md).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from lxml import etree

from ..page import Page
from ..parsing import displayed_text, storable_text
from ..structured_data import article_body, clean_author, is_byline, object_types, parse_date
from ..structured_data.text import MAX_VALUE_CHARS, plain_text
from .authors import _signed_by_site, _site_keys_once, find_authors
from .dates import date_from_url, find_dates
from .headline import _headline_region, _scan
from .json_ld import _from_json_ld
from .language import detect_language, page_language
from .metas import _from_metas, _metas, _section
from .microdata import _from_microdata
from .page_type import classify_page, declared_page_type, declared_types, page_type_features
from .titles import find_headline, page_title, strip_site_name
from .urls import _absolute

__all__ = [
    "Metadata",
    "article_body",
    "clean_author",
    "date_from_url",
    "detect_language",
    "extract_metadata",
    "features_of_page",
    "is_byline",
    "object_types",
    "parse_date",
    "strip_site_name",
]


@dataclass
class Metadata:
    """Typed article metadata; every field is ``None`` (or empty) when the page does not say.

    Dates are ISO 8601: ``YYYY-MM-DD``, or a datetime with its offset when the page gives
    a time (``2024-05-01T09:30:00+02:00``).  ``language`` is a BCP 47 tag.  URLs are
    absolute when the page's URL is known.  ``page_type`` is the page's type as classified,
    one of ``article``, ``forum``, ``product``, ``collection``, ``listing``,
    ``documentation`` and ``service`` (:func:`.page_type.classify_page`), on every page;
    ``declared_page_type`` is what the page declares (schema.org ``@type`` or ``og:type``).
    """

    title: str | None = None
    authors: list[str] = field(default_factory=list)
    date_published: str | None = None
    date_modified: str | None = None
    language: str | None = None
    site_name: str | None = None
    description: str | None = None
    canonical_url: str | None = None
    image: str | None = None
    tags: list[str] = field(default_factory=list)
    section: str | None = None
    page_type: str | None = None
    declared_page_type: str | None = None

    def __post_init__(self) -> None:
        """Every string as the outputs write text: no lone surrogates (JSON ``\\ud800``
        escapes), which no UTF-8 feed can encode, and no control characters; a string
        longer than :data:`MAX_VALUE_CHARS` is no value (a page's garbage, not a title)."""
        for name, value in vars(self).items():
            if isinstance(value, str):
                setattr(self, name, _shown(value) if len(value) <= MAX_VALUE_CHARS else None)
            elif isinstance(value, list):
                items = (item for item in value if not isinstance(item, str) or len(item) <= MAX_VALUE_CHARS)
                setattr(self, name, [_shown(item) if isinstance(item, str) else item for item in items])

    def to_dict(self) -> dict[str, Any]:
        """A plain ``dict`` of all fields."""
        return asdict(self)


def _shown(text: str) -> str:
    return storable_text(displayed_text(text))


def extract_metadata(
    page: Page, text: str = "", with_htmldate: bool = False, with_page_type: bool = True
) -> Metadata:
    """The metadata of a parsed page; ``text`` (the extracted text) is used only to
    detect the language when the page declares none; ``with_htmldate`` asks htmldate (the
    ``metadata`` extra) for a publish date where ours find none.  The page's type is
    classified last, from the page and the other fields (:func:`.page_type.classify_page`),
    unless ``with_page_type=False`` (``page_type`` is then ``None``; no other field reads
    it, and it is a fifth to a third of the metadata's time: docs/metadata.md)."""
    metadata, declared = read_metadata(page, text, with_htmldate, with_declared_types=with_page_type)
    if with_page_type:
        metadata.page_type = classify_page(page, metadata, declared)
    return metadata


def read_metadata(
    page: Page, text: str = "", with_htmldate: bool = False, with_declared_types: bool = True
) -> tuple[Metadata, list[str]]:
    """Every field of :func:`extract_metadata` but the classified ``page_type``, and the
    types the page declares (:func:`.page_type.declared_types`; ``[]`` without
    ``with_declared_types``: only the classifier reads them).  The declared values are read first
    (:mod:`.json_ld`, then :mod:`.metas`); the headline is found (:func:`.titles.find_headline`);
    the microdata near it is read when an author or a date is missing, or the site signs
    the page; then each field chooses among its sources (:func:`.authors.find_authors`,
    :func:`.dates.find_dates`, :func:`.titles.page_title`)."""
    found: dict[str, Any] = {}
    objects = page.declared_objects()
    json_ld_type = _from_json_ld(objects, found)
    metas = _metas(page.root)
    _from_metas(metas, found)
    site_name = found.get("site_name") or found.get("ld_site")
    headline = find_headline(page, found, site_name)
    site_keys = _site_keys_once(headline.site_names, page.url)
    signed_by_site = _signed_by_site(found, site_keys)
    props: list[tuple[str, etree._Element]] = []
    bylines: list[etree._Element] = []
    users: list[etree._Element] = []
    scanned = (0, 0)
    if not (found.get("author_candidates") and found.get("date_published")) or signed_by_site:
        scanned = _headline_region(page, headline.element)
        props, bylines, users = _scan(page, scanned, not found.get("author_candidates") or signed_by_site)
        _from_microdata(props, found)
    authors, organisation = find_authors(page, headline, found, bylines, users, scanned, signed_by_site, site_keys)
    date_published, date_modified = find_dates(page, headline, found, with_htmldate)
    canonical = (metas.get("link:canonical") or metas.get("og:url") or [None])[0]
    metadata = Metadata(
        title=page_title(page, headline, found, metas),
        authors=authors,
        date_published=date_published,
        date_modified=date_modified,
        language=page_language(page, found, text),
        site_name=site_name or organisation,
        description=plain_text(found.get("description")),
        canonical_url=_absolute(canonical, page),
        image=_absolute(found.get("image"), page),
        tags=found.get("tags") or [],
        section=_section(found.get("section")),
        declared_page_type=declared_page_type(json_ld_type, metas),
    )
    return metadata, declared_types(objects, metas) if with_declared_types else []


def features_of_page(page: Page) -> np.ndarray:
    """The page-type classifier's features (:func:`.page_type.page_type_features`) of a page
    whose metadata is not read yet: what the training reads."""
    return page_type_features(page, *read_metadata(page))
