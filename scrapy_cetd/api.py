"""The public extraction API: :func:`extract` for markup, :func:`extract_tree` for a parsed tree."""

from __future__ import annotations

import copy
from typing import Any

from lxml import etree

from .extraction import Extraction, Selection
from .limits import DEFAULT_MAX_ELEMENTS, EXTRACT_MAX_SIZE
from .metadata import extract_metadata
from .page import Page
from .parsing import EmptyDocument, markup_argument, parse_html, storable_url
from .registry import get_algorithm
from .render import render

__all__ = ["DEFAULT_ALGORITHM", "extract", "extract_page", "extract_tree"]

DEFAULT_ALGORITHM = "cetd-plus"


def _empty(
    algorithm: str, reason: str, url: str | None, coefficient: float | None, title: str | None = None
) -> Extraction:
    return Extraction(
        text="", html="", title=title, algorithm=algorithm, threshold=None,
        threshold_coefficient=coefficient, url=url, reason=reason,
    )


def _optional_str(value: object, function: str, argument: str) -> None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{function}() argument {argument!r} must be str or None, not {type(value).__name__}")


def _limit(value: object, argument: str) -> int:
    """A limit of :func:`extract`: a whole number >= 0 (0: none)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"extract() argument {argument!r} must be int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"extract() argument {argument!r} must be >= 0 (0: no limit), not {value}")
    return value


def _algorithm_name(value: object, function: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{function}() argument 'algorithm' must be str, not {type(value).__name__}")
    return value


def extract(
    html: str | bytes | bytearray | memoryview,
    *,
    algorithm: str = DEFAULT_ALGORITHM,
    url: str | None = None,
    threshold_coefficient: float | None = None,
    content_type: str | None = None,
    diagnostics: bool = False,
    with_html: bool = True,
    with_markdown: bool = False,
    with_metadata: bool = True,
    with_comments: bool = False,
    with_htmldate: bool = False,
    with_page_type: bool = True,
    max_size: int = EXTRACT_MAX_SIZE,
    max_elements: int = DEFAULT_MAX_ELEMENTS,
    **params: Any,
) -> Extraction:
    """Extract the main content of a page; returns an :class:`Extraction`.

    ``html``: text or bytes-like (``bytes``, ``bytearray``, ``memoryview``), decoded from
    the BOM, ``content_type``'s charset, the ``<meta>`` charset, or detection.  ``url``:
    the page's address, kept in the result; relative links, image and canonical URLs
    resolve against it.  ``algorithm``: one of :func:`~scrapy_cetd.algorithm_names`, with
    its options ``threshold_coefficient`` and ``**params`` (``scrapy-cetd algorithms``).

    Outputs: ``text`` and ``title``; ``html`` (cleaned) unless ``with_html=False``;
    ``metadata`` unless ``with_metadata=False`` (``title`` is then the ``<title>``);
    ``markdown`` with ``with_markdown=True``; ``with_htmldate=True`` asks htmldate (the
    ``metadata`` extra) for a publish date where ours find none (docs/metadata.md);
    ``with_page_type=False`` leaves ``page_type`` unclassified (``None``; a faster metadata);
    ``comments`` (the comment section, never in ``text``; found by ``cetd-plus`` only) with
    ``with_comments=True``; ``diagnostics`` (the algorithm's numbers and the per-node
    statistics) with ``diagnostics=True``.  An output not asked for is ``""`` or ``None``.

    Input without text to extract (empty, binary, no body text) gives an empty result
    whose ``reason`` says why, as does input past ``max_size`` bytes or characters
    (``too_large``; 8 MiB) or ``max_elements`` elements (``too_many_elements``; 100,000):
    limits that keep a call to a few hundred MB (``0`` lifts one).  ``ValueError``: an
    unknown algorithm or option, an option out of range or not finite.  ``TypeError``: an argument of the wrong type.
    """
    html = markup_argument(html, "extract", "html")
    _optional_str(url, "extract", "url")
    _optional_str(content_type, "extract", "content_type")
    algorithm = _algorithm_name(algorithm, "extract")
    max_size, max_elements = _limit(max_size, "max_size"), _limit(max_elements, "max_elements")
    spec = get_algorithm(algorithm)
    coefficient, resolved = spec.resolve(threshold_coefficient, params)
    if max_size and len(html) > max_size:
        return _empty(algorithm, "too_large", storable_url(url), coefficient)
    try:
        root = parse_html(html, content_type=content_type, max_elements=max_elements)
    except EmptyDocument as exc:
        return _empty(algorithm, exc.reason, storable_url(url), coefficient)  # as Page keeps it
    page = Page.from_tree(root, url)
    return _run(
        page, algorithm, coefficient, resolved, diagnostics,
        with_html=with_html, with_markdown=with_markdown, with_metadata=with_metadata, with_comments=with_comments,
        with_htmldate=with_htmldate, with_page_type=with_page_type,
    )


def extract_tree(
    tree: etree._Element | etree._ElementTree | Page,
    *,
    algorithm: str = DEFAULT_ALGORITHM,
    url: str | None = None,
    threshold_coefficient: float | None = None,
    diagnostics: bool = False,
    with_html: bool = True,
    with_markdown: bool = False,
    with_metadata: bool = True,
    with_comments: bool = False,
    with_htmldate: bool = False,
    with_page_type: bool = True,
    **params: Any,
) -> Extraction:
    """Extract from an already parsed lxml tree (which is cleaned in place) or a :class:`Page`.

    A :class:`Page` can be reused: run several algorithms on one parse.  A ``url`` given
    with a Page counts for this call only (the Page is not changed); without one, the
    Page's own ``url`` is used.  Options and outputs as for :func:`extract`.
    """
    _optional_str(url, "extract_tree", "url")
    algorithm = _algorithm_name(algorithm, "extract_tree")
    if not isinstance(tree, (etree._Element, etree._ElementTree, Page)):
        hint = " (use extract() for markup)" if isinstance(tree, (str, bytes, bytearray, memoryview)) else ""
        raise TypeError(
            "extract_tree() argument 'tree' must be an lxml element or element tree, or a Page, "
            f"not {type(tree).__name__}{hint}"
        )
    spec = get_algorithm(algorithm)
    coefficient, resolved = spec.resolve(threshold_coefficient, params)
    if isinstance(tree, Page):
        page = _with_url(tree, url)
    else:
        page = Page.from_tree(tree, url)
    return _run(
        page, algorithm, coefficient, resolved, diagnostics,
        with_html=with_html, with_markdown=with_markdown, with_metadata=with_metadata, with_comments=with_comments,
        with_htmldate=with_htmldate, with_page_type=with_page_type,
    )


def _with_url(page: Page, url: str | None) -> Page:
    """``page``, or where ``url`` gives another address a shallow copy with that ``url``
    (the tree and the statistics shared), so a reused Page keeps its own."""
    url = storable_url(url)
    if url is None or url == page.url:
        return page
    other = copy.copy(page)
    other.url = url
    return other


extract_page = extract_tree


def _node_table(page: Page, selection: Selection) -> list[dict[str, Any]]:
    td, ctd = page.text_density, page.composite_text_density
    return [
        {
            "node": page.describe(i),
            "C": page.chars[i],
            "T": page.tag_count[i],
            "LC": page.link_chars[i],
            "LT": page.link_tags[i],
            "TD": round(td[i], 4),
            "CTD": round(ctd[i], 4),
            "selected": i in selection.subtrees,
        }
        for i in range(len(page))
        if page.chars[i]
    ]


def _comments(page: Page, selection: Selection) -> str:
    """The text of the comment sections the algorithm found, through the one renderer."""
    sections = selection.comments() if selection.comments is not None else set()
    if not sections:
        return ""
    found = Selection(threshold=None, subtrees=sections, dedupe_min_chars=selection.dedupe_min_chars)
    return render(page, found, with_html=False)[0]


def _run(
    page: Page,
    algorithm: str,
    coefficient: float,
    params: dict[str, Any],
    diagnostics: bool,
    *,
    with_html: bool,
    with_markdown: bool,
    with_metadata: bool,
    with_comments: bool,
    with_htmldate: bool = False,
    with_page_type: bool = True,
) -> Extraction:
    if page.is_frameset or not page.chars or page.chars[0] == 0:
        reason = "frameset" if page.is_frameset else "no-text"
        result = _empty(algorithm, reason, page.url, coefficient, page.title)
        if with_metadata:
            result.metadata = extract_metadata(page, with_htmldate=with_htmldate, with_page_type=with_page_type)
            result.title = result.metadata.title or result.title
        return result
    selection = get_algorithm(algorithm).select(page, coefficient, **params)
    text, html, markdown = render(page, selection, with_html=with_html, with_markdown=with_markdown)
    metadata = extract_metadata(page, text, with_htmldate, with_page_type) if with_metadata else None
    info = None
    if diagnostics:
        info = dict(selection.diagnostics)
        if selection.explain is not None:
            info.update(selection.explain())
        info["nodes"] = _node_table(page, selection)
        info["selected"] = [page.describe(i) for i in sorted(selection.subtrees)]
        info["selected_runs"] = sorted(selection.runs)
    return Extraction(
        text=text,
        html=html,
        # An algorithm's own title (CEPR's displayed heading) stays its result; else the headline.
        title=selection.title or (metadata.title if metadata else None) or page.title,
        algorithm=algorithm,
        threshold=selection.threshold,
        threshold_coefficient=coefficient,
        url=page.url,
        reason=None if text else "nothing-selected",
        diagnostics=info,
        markdown=markdown,
        metadata=metadata,
        comments=_comments(page, selection) if with_comments else "",
    )
