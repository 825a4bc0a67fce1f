"""The page's type: as the page declares it, and as classified (a learned model).

Declared (:func:`declared_page_type`), in this order: the first JSON-LD object typed as an
article (``NewsArticle``, ``BlogPosting``, ``Recipe``, ...), its first type; else the first
typed as a page (``WebPage``, ``ProductPage``, ``WebSite``, ...); else ``og:type``.
``None`` when the page declares none.

Classified (:func:`classify_page`): one of the WCXB benchmark's seven types, article,
forum, product, collection, listing, documentation or service, from evidence the page
carries whatever it declares: the shape of its blocks (repeated teasers, how much of the
text one container holds), link density, tag counts, the URL's shape (a date, a slug, its
depth, its words), the metadata found (a date, an author) and the declared types (every
JSON-LD ``@type`` and ``og:type``) as one feature among others.  :func:`page_type_features`
reads them from the page model's statistics in a few passes over its lists; the model is a
multinomial logistic regression on standardized features, shipped as package data
(``scrapy_cetd/models/page_types.npz``) and applied with NumPy.  It is trained by
``python -m scrapy_cetd.training page-types`` (:mod:`scrapy_cetd.training`), which reports
its cross-validation grouped by site (``docs/metadata.md``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from itertools import repeat
from operator import itemgetter
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import numpy as np

from ..page import Page, normalize_space
from ..structured_data import object_types

if TYPE_CHECKING:
    from . import Metadata

__all__ = [
    "FEATURE_NAMES",
    "PAGE_TYPES",
    "PageTypeModel",
    "classify_page",
    "declared_page_type",
    "declared_types",
    "load_model",
    "page_type_features",
]

#: WCXB's seven page types, in the model's class order.
PAGE_TYPES = ("article", "forum", "product", "collection", "listing", "documentation", "service")

#: Tag codes for the structure features: teaser holders (a story's or a product's card, when
#: several siblings with links sit under one parent), headings, code, list items.
_HEADING, _CODE, _ITEM, _TEASER = 1, 2, 3, 4  # holders last: ``code >= _ITEM``
_TAG_CODES = {
    **dict.fromkeys(("div", "article", "tr", "section", "td"), _TEASER),
    **dict.fromkeys(("h2", "h3", "h4"), _HEADING),
    **dict.fromkeys(("pre", "code"), _CODE),
    "li": _ITEM,
}
#: Words of the URL (host labels and path segments, split at punctuation) that name a kind
#: of page in English, in groups; each group is one feature (whether a word of it occurs).
_URL_WORDS = {
    "article": "news article articles story stories blog blogs post posts opinion column magazine press",
    "forum": "forum forums thread threads topic topics community discuss discussion discussions questions "
    "question answers t showthread viewtopic comments r board boards",
    "product": "product products p dp item items shop store buy sku",
    "collection": "collection collections category categories catalog c shop-all range brands brand",
    "listing": "tag tags archive archives page latest list search author authors section",
    "documentation": "docs doc documentation api reference manual guide guides wiki help kb "
    "knowledge-base tutorial tutorials learn developer developers sdk",
    "service": "services service solutions about contact pricing company careers features plans "
    "enterprise consulting support",
}
_URL_WORD_GROUPS = {group: frozenset(words.split()) for group, words in _URL_WORDS.items()}
_URL_SPLIT = re.compile(r"[^a-z0-9]+")
_SLUG_SPLIT = re.compile(r"[-_+]")
_NUMERIC_ID = re.compile(r"\d{4,}")
#: A date in a URL's path: ``/2024/05/``, ``2024-05-01``, ``20240501``.
_URL_DATE = re.compile(r"(?:^|[/_-])(?:19|20)\d\d(?:[/_-][01]?\d(?:[/_-]|$)|[01]\d[0-3]\d(?:\D|$))")
#: Declared schema.org types and ``og:type`` values, in groups; each group is one feature.
_DECLARED = (
    ("article", re.compile(r"(?:^|\W)(?:article|newsarticle|blogposting|reportagenewsarticle|report|"
                           r"analysisnewsarticle|opinionnewsarticle|liveblogposting|review|recipe)$")),
    ("forum", re.compile(r"(?:discussionforumposting|qapage|question|answer|comment|socialmediaposting)$")),
    ("product", re.compile(r"(?:product|productgroup|offer|aggregateoffer|og:product|product\.item)$")),
    ("collection", re.compile(r"(?:collectionpage|itemlist|offercatalog|searchresultspage|productcollection)$")),
    ("documentation", re.compile(r"(?:techarticle|apireference|howto|softwaresourcecode|softwareapplication)$")),
    ("service", re.compile(r"(?:service|organization|localbusiness|corporation|aboutpage|contactpage|faqpage|"
                           r"professionalservice|event)$")),
    ("webpage", re.compile(r"(?:webpage|website)$")),
)

#: The features' names, in the order of :func:`page_type_features`'s vector.
FEATURE_NAMES: tuple[str, ...] = (
    "log_elements", "log_chars", "link_char_share", "log_links",
    "largest_container_share", "largest_run_share", "log_long_runs", "long_run_char_share",
    "linked_headings", "linked_heading_share", "log_teasers", "teaser_char_share",
    "pre_code_char_share", "li_char_share", "log_currency_signs", "log_title_words",
    "url_known", "url_depth", "url_root", "url_date", "url_slug_words", "url_last_chars", "url_numeric_id",
    "url_query", "url_file",
    *(f"url_word_{group}" for group in _URL_WORDS),
    *(f"declared_{group}" for group, _ in _DECLARED),
    "declared_og_article", "declared_og_website", "declared_nothing",
    "has_date", "has_author", "has_section", "has_tags", "has_description",
)

_CURRENCY = "$€£¥₹"


def declared_page_type(json_ld_type: str | None, metas: dict[str, list[str]]) -> str | None:
    """The type the page declares: its JSON-LD's (``json_ld_type``, what
    :func:`~.json_ld._from_json_ld` returns), else its ``og:type`` (in ``metas``,
    :func:`~.metas._metas`)."""
    if json_ld_type is not None:
        return json_ld_type
    og_types = metas.get("og:type")
    return (normalize_space(og_types[0]) or None) if og_types else None


def declared_types(objects: list[dict[str, Any]], metas: dict[str, list[str]]) -> list[str]:
    """Every type the page declares, lower case: each JSON-LD object's ``@type``, then each
    ``og:type`` (prefixed ``og:``)."""
    found = [kind.strip().lower() for types in object_types(objects) for kind in types]
    found.extend("og:" + normalize_space(value).lower() for value in metas.get("og:type", ()) if value.strip())
    return found


def _url_features(url: str | None) -> list[float]:
    """The URL's shape and words; unknown (NaN, which the model reads as the training
    pages' mean) for a page without a URL, e.g. a stored page without a canonical URL."""
    unknown = [math.nan] * (9 + len(_URL_WORDS))
    if not url:
        return unknown
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return unknown
    path = parts.path.lower()
    segments = [s for s in path.split("/") if s]
    last = segments[-1] if segments else ""
    stem = last.rsplit(".", 1)[0] if "." in last else last
    words = set(_URL_SPLIT.split(" ".join([*host.split(".")[:-1], *segments])))
    words.update(segments)
    slug_words = len([w for w in _SLUG_SPLIT.split(stem) if w.isalpha()])
    return [
        1.0,
        float(min(len(segments), 8)),
        float(not segments),
        float(_URL_DATE.search(path) is not None),
        float(min(slug_words, 20)),
        float(min(len(stem), 200)) / 20,
        float(_NUMERIC_ID.search(stem) is not None),
        float(bool(parts.query)),
        float("." in last),
        *(float(not words.isdisjoint(group)) for group in _URL_WORD_GROUPS.values()),
    ]


def _declared_features(declared: Sequence[str]) -> list[float]:
    groups = [float(any(pattern.search(value) for value in declared)) for _, pattern in _DECLARED]
    return [
        *groups,
        float("og:article" in declared),
        float("og:website" in declared),
        float(not declared),
    ]


def _structure_features(page: Page) -> list[float]:
    """Text, links and the shape of the blocks, over the page model's arrays (those
    cetd-plus has built already) and one pass over the tags, in C (``map`` and NumPy)."""
    n = len(page.elements)
    total = page.chars[0] if n else 0
    if not total:
        return [math.log1p(n)] + [0.0] * 15
    codes_bytes = bytearray(map(_TAG_CODES.get, page.tags, repeat(0)))  # in C: a byte a tag
    codes_bytes[0] = 0  # body is no teaser
    codes = np.frombuffer(codes_bytes, np.uint8)
    chars = page.chars_array
    run_chars = page.run_chars_array
    owner = page.run_owner_array
    # Each element's parent, body's a bin of its own (n): the runs body holds count nowhere.
    up = np.empty(n, np.intp)
    up[0] = n
    up[1:] = page.child_parent_array
    # The text of each run counted in its owner's parent: the container of a paragraph.
    container = np.bincount(up[owner], weights=run_chars, minlength=n + 1)[:n]
    long_runs = run_chars >= 150
    # Teasers: holders with some text and a link, not all link text, grouped by parent.
    candidates = np.flatnonzero(codes >= _ITEM)
    candidate_chars = chars[candidates]
    kept = (candidate_chars >= 20) & (candidate_chars <= 2000)
    candidates, candidate_chars = candidates[kept], candidate_chars[kept]
    teasers, teaser_chars = 0, 0.0
    if len(candidates):
        at = candidates.tolist()
        links = np.fromiter(_items(page.link_chars, at), np.int64, len(at))
        tagged = np.fromiter(_items(page.link_tags, at), np.int64, len(at))
        kept = (tagged > 0) & (links < candidate_chars)
        candidates, candidate_chars = candidates[kept], candidate_chars[kept]
    if len(candidates):
        holders = up[candidates]
        groups = np.bincount(holders, minlength=n)
        best = int(groups.argmax())
        teasers = int(groups[best])
        teaser_chars = float(candidate_chars[holders == best].sum())
    headings = np.flatnonzero(codes == _HEADING).tolist()
    linked = len(headings) - _items(page.link_tags, headings).count(0) if headings else 0
    pre_code = float(chars[codes == _CODE].sum())
    text = "".join(page.run_collapsed)
    # Each sign counted where found (a search, faster than a count): most pages have none.
    currency = sum(text.count(sign) for sign in _CURRENCY if sign in text)
    return [
        math.log1p(n),
        math.log1p(total),
        page.link_chars[0] / total,
        math.log1p(page.link_tags[0]),
        float(container.max()) / total,
        float(run_chars.max()) / total,
        math.log1p(int(long_runs.sum())),
        float(run_chars[long_runs].sum()) / total,
        math.log1p(linked),
        linked / len(headings) if headings else 0.0,
        math.log1p(teasers),
        teaser_chars / total,
        min(pre_code / total, 1.0),
        float(run_chars[codes[owner] == _ITEM].sum()) / total,
        math.log1p(currency),
        float(min(len((page.title or "").split()), 40)),
    ]


def _items(values: list[int], positions: list[int]) -> tuple[int, ...]:
    """``values`` at ``positions`` (at least one), fetched in C."""
    if len(positions) == 1:
        return (values[positions[0]],)
    return itemgetter(*positions)(values)


def page_type_features(page: Page, metadata: Metadata, declared: Sequence[str]) -> np.ndarray:
    """The evidence :func:`classify_page` weighs, as a vector (:data:`FEATURE_NAMES`):
    the page's, its ``metadata``'s and its ``declared`` types' (:func:`declared_types`)."""
    values = [
        *_structure_features(page),
        *_url_features(page.url or metadata.canonical_url),  # a stored page: its declared address
        *_declared_features(declared),
        float(metadata.date_published is not None),
        float(bool(metadata.authors)),
        float(metadata.section is not None),
        float(bool(metadata.tags)),
        float(metadata.description is not None),
    ]
    return np.asarray(values, dtype=np.float64)


class PageTypeModel:
    """A multinomial logistic regression on standardized features: ``mean``, ``scale``,
    ``weights`` (features x classes), ``bias`` and the class names."""

    def __init__(self, arrays: dict[str, Any]) -> None:
        self.classes: tuple[str, ...] = tuple(str(c) for c in arrays["classes"])
        self.feature_names: tuple[str, ...] = tuple(str(f) for f in arrays["feature_names"])
        self.mean = np.asarray(arrays["mean"], dtype=np.float64)
        self.scale = np.asarray(arrays["scale"], dtype=np.float64)
        self.weights = np.asarray(arrays["weights"], dtype=np.float64)
        self.bias = np.asarray(arrays["bias"], dtype=np.float64)
        if self.feature_names != FEATURE_NAMES:
            raise ValueError("the page-type model was trained on other features: retrain it")
        # The standardization folded into the weights: one product and one sum a page.
        self._weights = self.weights / self.scale[:, None]
        self._bias = self.bias - (self.mean / self.scale) @ self.weights

    def scores(self, features: np.ndarray) -> np.ndarray:
        """Each class's linear score (log-odds up to a constant) for each row of ``features``;
        a NaN (an unknown value) counts as the training pages' mean."""
        features = np.atleast_2d(features)
        unknown = np.isnan(features)
        if unknown.any():
            features = np.where(unknown, self.mean, features)
        return features @ self._weights + self._bias

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """Each class's probability for each row of ``features`` (or for one vector)."""
        z = self.scores(features)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def predict(self, features: np.ndarray) -> list[str]:
        """The most probable class of each row."""
        return [self.classes[k] for k in self.scores(features).argmax(axis=1)]


@lru_cache(maxsize=1)
def load_model() -> PageTypeModel:
    """The shipped model (``scrapy_cetd/models/page_types.npz``), read once."""
    with resources.files("scrapy_cetd").joinpath("models/page_types.npz").open("rb") as handle:
        with np.load(handle, allow_pickle=False) as arrays:
            return PageTypeModel(dict(arrays))


def classify_page(page: Page, metadata: Metadata, declared: Sequence[str]) -> str:
    """The page's type, one of :data:`PAGE_TYPES` (:func:`page_type_features`'s evidence
    weighed by the shipped model)."""
    model = load_model()
    return model.classes[int(model.scores(page_type_features(page, metadata, declared)).argmax())]

