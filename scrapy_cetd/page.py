"""The shared page model: one parse, one cleaning, per-node statistics computed once.

Every algorithm works on a :class:`Page`.  Elements under ``<body>`` are numbered in
document (preorder) order, body being 0; text is held as *runs*: an element's ``.text``
and each element's ``.tail`` (lxml's view of the DOM's text nodes), those with a
character other than XML whitespace; a run's text is that of its non-blank text nodes
(where a removed element left several side by side).  Run ``k`` belongs to element
``run_owner[k]`` (its DOM parent); its key is ``2 * i`` for the ``.text`` of element ``i``
and ``2 * i + 1`` for its ``.tail``.

The statistics are those of CETD (the CETD paper, section 3; docs/algorithms.md, CETD):
characters ``C``, tags ``T``, link characters ``LC`` and link tags ``LT``, all in one
iterative bottom-up pass, so a page nested 100,000 deep needs no recursion.  The ARIA
``role`` and ``aria-modal`` attributes are read in the cleaning pass, for algorithms that
use landmarks.

Speed: the per-element work is done in C where lxml and CPython allow it (XPath for the
attributes and the text runs, ``map`` over element lists, subtree extents from ``T``),
and the floating-point formulas (composite text density, DensitySum) over NumPy arrays;
Python-level loops remain only where a value depends on another element's.
"""

from __future__ import annotations

import json
import math
import re
import struct
from collections.abc import Iterator, Sequence
from functools import cached_property
from itertools import accumulate
from operator import add, attrgetter
from typing import Any

import numpy as np
from lxml import etree

from .parsing import displayed_text, document_base_url, storable_text, storable_url, xpath

__all__ = [
    "BLOCK_TAGS",
    "LINK_TAGS",
    "SEPARATING_INLINE_TAGS",
    "XML_SPACE",
    "Page",
    "attribute_items",
    "cetd_counts",
    "counts_as_link_tag",
    "composite_densities",
    "element_text",
    "json_ld_objects",
    "normalize_space",
    "raw_text",
]

#: Elements CETD counts as hyperlinks: links, buttons and drop-down lists (the CETD paper, 3.2).
LINK_TAGS = frozenset({"a", "button", "select"})

#: Elements removed before counting, their tail text kept (docs/algorithms.md, shared cleaning),
#: and a ruby's annotations: ``<rp>`` is never shown (the HTML standard's style sheet hides
#: it), ``<rt>`` is set above the base text, not in its line; read in the line they
#: interleave it ("漢(かん)字じ" for "漢字"; trafilatura drops them too).
REMOVED_TAGS = ("script", "style", "template", "rp", "rt")
#: A hidden element of ``DEFERRED_MIN_CHARS`` or more characters holding more than
#: ``DEFERRED_SHARE`` of the page's text is kept, as content that scripts reveal (the
#: share chosen on the first half of the WCXB dev pages: there, hidden noise held at most
#: 63% of a page's text and deferred content at least 71%; the minimum spares measuring
#: the whole page when every hidden element is small).
DEFERRED_SHARE = 2 / 3
DEFERRED_MIN_CHARS = 1000

#: Elements whose boundaries start a new line of text output.
BLOCK_TAGS = frozenset(
    """address article aside blockquote body br caption center dd details dialog dir div dl
    dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 header hgroup
    hr html legend li main menu nav noscript ol option p pre section summary table tbody td
    tfoot th thead title tr ul""".split()
)

#: The attributes the page model reads: hiding ones, and ARIA roles and modality.
#: ``/descendant::*/@x`` rather than ``//@x``: the same attributes, without visiting every
#: text node on the way (``//`` is ``/descendant-or-self::node()/``).
_READ_ATTRIBUTES = xpath(
    "/descendant::*/@style | /descendant::*/@hidden | /descendant::*/@role | /descendant::*/@aria-modal"
)
_tag_of = attrgetter("tag")

#: SVG elements a ``<title>`` (the tooltip of a graphic, SVG's own element) sits in.
_SVG_PARENTS = frozenset(
    "svg symbol g defs use path circle ellipse line polygon polyline rect text image switch".split()
)


def _title_and_json_ld(root: etree._Element) -> tuple[str | None, list[str], list[etree._Element]]:
    """The page's title, the texts of its ``<script type="application/ld+json">`` blocks and
    its ``<title>`` elements outside ``<head>``, from one walk of the tree for both tags
    (lxml's, in C; two walks, one per tag, cost 0.083x lxml's parse of the page, this one
    0.066x: median, first half of the WCXB dev pages).

    The title is the first ``<title>`` with text, as a browser's ``document.title``: not an
    SVG icon's tooltip (``<svg><title>LinkedIn</title>``), which a page without a title of
    its own would otherwise get.  A ``<title>`` outside ``<head>`` (in the body, or an SVG
    tooltip) is not displayed: the cleaning removes it.  The JSON-LD (for
    :mod:`scrapy_cetd.metadata` and cetd-plus's rules) is read before the cleaning removes
    ``<script>``; a script's type is read first, so its text (often kB of code) is decoded
    only for JSON-LD."""
    title = None
    json_ld = []
    not_shown = []
    for element in root.iter("title", "script"):
        if element.tag == "script":
            if "ld+json" in (element.get("type") or "").lower() and (text := element.text):
                json_ld.append(text)
            continue
        parent = element.getparent()
        if parent is not None and parent.tag != "head":
            not_shown.append(element)
        if title is None:
            if parent is not None and parent.tag in _SVG_PARENTS:
                continue
            title = normalize_space(displayed_text(raw_text(element))) or None
    return title, json_ld, not_shown


_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def _hides(style: str) -> bool:
    """Whether a ``style`` attribute hides its element (:data:`_HIDDEN_STYLE`).  The
    expression is tried only on a value holding "none" or "dden" in lower case, which each
    of its matches holds (under ``IGNORECASE`` only ``N``, ``O``, ``D`` and ``E`` match those
    letters, checked over every code point): lower-casing and two searches in C cost a
    quarter of the expression's time (0.56 us against 2.0 us a value, over the 27,076
    ``style`` values of every second first-half dev page, 72 a page)."""
    lowered = style.lower()
    return ("none" in lowered or "dden" in lowered) and _HIDDEN_STYLE.search(style) is not None


def normalize_space(text: str) -> str:
    """Collapse whitespace runs to one space and strip, as a browser renders text."""
    return " ".join(text.split())


#: An element's string value (XPath): its text and its descendants', read by libxml2 in
#: one pass.  lxml's ``itertext()`` gives the same string, but costs each element time in
#: its depth, quadratic on a nest (3.5 s at 150,000 levels, 0.01 s here).
_STRING_VALUE = xpath("string()", smart_strings=False)


def raw_text(element: etree._Element) -> str:
    """An element's text (its descendants' included), as it is, in time linear in its subtree."""
    return _STRING_VALUE(element)


def element_text(element: etree._Element) -> str:
    """An element's text (its descendants' included), whitespace collapsed."""
    return normalize_space(_STRING_VALUE(element))


#: Past this many attributes, :func:`attribute_items` reads the values with XPath.
_MANY_ATTRIBUTES = 32
_ATTRIBUTE_VALUES = xpath("@*")


def attribute_items(element: etree._Element) -> list[tuple[str, str]]:
    """``element.items()`` in linear time.  lxml finds each value by searching the element's
    attributes for its name, so ``items()``, ``values()`` and ``attrib`` take quadratic time:
    4.6 s for one element of 40,000 attributes (a hostile page; libxml2's own parse of it
    takes 2 s).  Past :data:`_MANY_ATTRIBUTES` the values are read in one XPath step, in
    the same order as the names."""
    if len(element.attrib) <= _MANY_ATTRIBUTES:  # a count in C, cheaper than keys()
        return element.items()
    return list(zip(element.keys(), map(str, _ATTRIBUTE_VALUES(element))))


#: The text nodes under an element with a character other than XML whitespace (space,
#: tab, line feed, carriage return; as ``normalize-space``), in document order; each
#: knows its element and whether it is that element's ``.text`` or ``.tail``.
_TEXT_NODES = xpath("descendant::text()[normalize-space()]")
_element_of = etree._ElementUnicodeResult.getparent
_is_tail = attrgetter("is_tail")
#: XML whitespace (space, tab, line feed, carriage return): what ``normalize-space`` strips.
XML_SPACE = " \t\n\r"
#: :meth:`Page.glued` reads at most this many elements ending, and as many starting,
#: between two runs (more: a space).
GLUE_MAX_CLOSINGS = 8
#: Inline elements a browser shows as something of their own between two texts (an
#: image, a control, an embedded document), which so do not join the texts into one word.
SEPARATING_INLINE_TAGS = frozenset(
    "audio button canvas embed iframe img input math meter object progress select svg textarea video".split()
)
_SEPARATING = BLOCK_TAGS | SEPARATING_INLINE_TAGS


def _parts_meet(last: str, first: str) -> bool:
    """Whether two texts meeting with no space between are still two parts, not one word:
    a lower-case letter before a capital ("New Listing" "GABBIE ...") or a letter beside a
    digit ("Accessories" "1385"), where the page's style sets a label and its value apart.
    First dev half: joining those too put 7 more pages down (a product 0.781 -> 0.767: "ReadyNVIDIA")."""
    return (
        last.isalnum()
        and first.isalnum()
        and (last.isdigit() != first.isdigit() or (last.islower() and first.isupper()))
    )


#: libxml2 puts an XPath result in document order by comparing nodes' paths to the root,
#: so its time grows with the depth of the text: a tree deeper than this has its runs read
#: by a walk instead.  The depth is checked on pages of more than
#: ``_DEEP_TREE_MIN_ELEMENTS`` elements only; on smaller ones it costs tens of ms at worst.
_XPATH_MAX_DEPTH = 512
_DEEP_TREE_MIN_ELEMENTS = 4096


def _deeper_than(parent: list[int], limit: int) -> bool:
    """Whether an element lies more than ``limit`` (a power of two) levels below element 0,
    from the preorder parents: each element's ancestor ``limit`` levels up, found by
    doubling the steps over an array (``log2(limit)`` gathers; element 0 its own parent),
    is body for every element exactly when none lies deeper.  A pass over the elements in
    Python took 2.9-3.6x the time (the 18 first-half dev pages of more than 4096 elements:
    median 453 us against 145 us)."""
    up = _int_array(parent, "n").copy()
    up[0] = 0
    for _ in range(limit.bit_length() - 1):
        up = up[up]
    return bool(up.any())


def _text_runs(
    body: etree._Element, elements: list[etree._Element], index: dict[etree._Element, int], parent: list[int]
) -> tuple[list[int], list[str]]:
    """The keys and texts of the runs under ``body``, in document order: a run is an
    element's ``.text`` or ``.tail`` with a character other than XML whitespace.

    lxml's ``.text`` and ``.tail`` join adjacent text nodes (removing a ``<script>``
    leaves the text before it and its tail side by side); their non-blank nodes are
    joined here likewise, so a run is one key.
    """
    if len(parent) > _DEEP_TREE_MIN_ELEMENTS and _deeper_than(parent, _XPATH_MAX_DEPTH):
        return _text_runs_by_walk(elements, parent)
    nodes = _TEXT_NODES(body)
    holders = list(map(index.__getitem__, map(_element_of, nodes)))
    keys = list(map(add, map(add, holders, holders), map(_is_tail, nodes)))
    if len(set(keys)) == len(keys):
        return keys, nodes
    joined_keys: list[int] = []
    joined: list[str] = []
    for key, text in zip(keys, nodes):
        if joined_keys and joined_keys[-1] == key:
            joined[-1] += text
        else:
            joined_keys.append(key)
            joined.append(text)
    return joined_keys, joined


def _texts_in_order(
    elements: list[etree._Element], parent: list[int], first: int, stop: int
) -> Iterator[tuple[int, str | None]]:
    """The ``.text`` and ``.tail`` of the preorder elements ``first`` to ``stop`` (a
    subtree), in document order, each with its key (``2 i`` a text, ``2 i + 1`` a tail;
    the first element's tail, outside the subtree, left out): an element's text at its
    start, its tail once the walk leaves its subtree (a stack of the open elements; linear
    at any depth, where ``etree.iterwalk`` slows down with the depth)."""
    open_elements: list[int] = []
    for i in range(first, stop):
        while open_elements and open_elements[-1] != parent[i]:
            j = open_elements.pop()
            yield 2 * j + 1, elements[j].tail
        yield 2 * i, elements[i].text
        open_elements.append(i)
    while len(open_elements) > 1:
        j = open_elements.pop()
        yield 2 * j + 1, elements[j].tail


def _text_runs_by_walk(elements: list[etree._Element], parent: list[int]) -> tuple[list[int], list[str]]:
    """:func:`_text_runs` from the preorder elements and their parents
    (:func:`_texts_in_order`; body's tail lies outside the content)."""
    keys: list[int] = []
    texts: list[str] = []
    for key, text in _texts_in_order(elements, parent, 0, len(elements)):
        if text and text.strip(XML_SPACE):
            keys.append(key)
            texts.append(text)
    return keys, texts


def _drop_keeping_tail(element: etree._Element) -> None:
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    if tail:  # made storable: a tree built outside parse_html may carry control characters
        previous = element.getprevious()
        if previous is not None:
            previous.tail = storable_text((previous.tail or "") + tail)
        else:
            parent.text = storable_text((parent.text or "") + tail)
    parent.remove(element)


#: An element's text length, whitespace collapsed (computed inside libxml2).
_TEXT_LENGTH = xpath("string-length(normalize-space(.))")


def _deferred(hidden: list[etree._Element], root: etree._Element) -> set[etree._Element]:
    """The hidden elements of ``DEFERRED_MIN_CHARS`` or more characters that hold more than
    ``DEFERRED_SHARE`` of the page's text: content that scripts reveal (streamed server
    rendering parks the page in ``<div hidden>``; anti-flicker snippets hide a wrapper
    until scripts load), not hidden noise.

    Measured from the outside in: a hidden element inside one that is removed goes with
    it unmeasured, so nested hidden elements cost one measurement each of the outermost
    (linear), not one per level of nesting (quadratic)."""
    inside = _inside_another(hidden)
    outermost = [el for el, nested in zip(hidden, inside) if not nested]
    lengths = list(map(_TEXT_LENGTH, outermost))
    if max(lengths) < DEFERRED_MIN_CHARS:
        return set()  # the common case, decided without measuring the whole page
    body = next(root.iterchildren("body"), None)
    total = _TEXT_LENGTH(body if body is not None else root)

    def keeps(length: float) -> bool:
        return length >= DEFERRED_MIN_CHARS and length > DEFERRED_SHARE * total

    deferred = {el for el, length in zip(outermost, lengths) if keeps(length)}
    if deferred and len(outermost) < len(hidden):
        # Hidden elements inside deferred content, outermost first (document order): each
        # is measured only if the hidden element around it is kept.
        removed: set[etree._Element] = set()
        hidden_set = set(hidden)
        for el, nested in zip(hidden, inside):
            if not nested or el in removed:
                continue
            holder = next(a for a in el.iterancestors() if a in hidden_set)
            if holder in deferred and keeps(_TEXT_LENGTH(el)):
                deferred.add(el)
            else:
                removed.update(el.iter())
    return deferred


def _inside_another(elements: list[etree._Element]) -> list[bool]:
    """For each element, whether another of ``elements`` holds it; each ancestor is looked
    at once (memoized), so the cost is linear in the tree, not in depth times count."""
    targets = set(elements)
    covered: dict[etree._Element, bool] = {}  # element -> it or an ancestor is in targets
    out = []
    for el in elements:
        path = []
        node = el.getparent()
        while node is not None and node not in covered and node not in targets:
            path.append(node)
            node = node.getparent()
        result = node is not None and (node in targets or covered[node])
        for ancestor in path:
            covered[ancestor] = result
        out.append(result)
    return out


def _clean(root: etree._Element, not_shown: list[etree._Element]) -> list[etree._ElementUnicodeResult]:
    """Remove non-content nodes in place, keeping the text that follows them: comments,
    ``REMOVED_TAGS``, the elements ``not_shown`` (``<title>`` outside ``<head>``) and hidden
    elements except deferred content (:func:`_deferred`).
    Returns the ``role`` and ``aria-modal`` attributes, read in the same pass over the
    attributes."""
    etree.strip_elements(root, etree.Comment, etree.ProcessingInstruction, *REMOVED_TAGS, with_tail=False)
    for element in not_shown:
        _drop_keeping_tail(element)
    hidden = []
    aria = []
    for value in _READ_ATTRIBUTES(root):
        name = value.attrname
        if name == "hidden" or (name == "style" and _hides(value)):
            hidden.append(value.getparent())
        elif name == "role" or name == "aria-modal":
            aria.append(value)
    if hidden:
        deferred = _deferred(hidden, root)
        # Only the outermost removed elements are detached: lxml walks the whole subtree of
        # an element it detaches, so detaching every level of nested hidden elements would
        # cost time quadratic in their depth.  The others go with them.
        removed = [el for el in hidden if el not in deferred]
        for el, nested in zip(removed, _inside_another(removed)):
            if not nested:
                _drop_keeping_tail(el)
    return aria


def _body_of(root: etree._Element) -> etree._Element:
    """The content area: ``<body>``; without one, the document less its ``<head>``."""
    body = next(root.iterchildren("body"), None)
    if body is None:
        body = next(root.iter("body"), None)
    if body is not None:
        return body
    for head in root.findall("head"):
        root.remove(head)
    return root


def counts_as_link_tag(is_link: bool, chars: int, tag_count: int, link_chars: int, link_tags: int) -> bool:
    """Whether an element adds 1 to its parent's ``LT``: it is a link, or its whole content
    is link content (``LT = T``, ``LC = C``, ``LT != 0``; docs/algorithms.md, CETD)."""
    return is_link or (link_tags != 0 and link_tags == tag_count and link_chars == chars)


def cetd_counts(
    parent: Sequence[int], is_link: Sequence[bool], run_owner: Sequence[int], run_chars: Sequence[int]
) -> tuple[list[int], list[int], list[int], list[int]]:
    """CETD's ``C``, ``T``, ``LC``, ``LT`` of every element (the CETD paper, 3.1-3.2), in one
    reverse pass over preorder indices (docs/algorithms.md, CETD); ``LT`` counts the
    children for which :func:`counts_as_link_tag` holds, plus their own ``LT``."""
    n = len(parent)
    chars = [0] * n
    for owner, length in zip(run_owner, run_chars):
        chars[owner] += length
    tag_count = [0] * n
    link_chars = [0] * n
    link_tags = [0] * n
    for i, p, link in zip(range(n - 1, 0, -1), reversed(parent), reversed(is_link)):
        c = chars[i]
        t = tag_count[i]
        chars[p] += c
        tag_count[p] += t + 1
        if link:
            link_chars[i] = c
            link_chars[p] += c
            link_tags[p] += link_tags[i] + 1
        else:
            lt = link_tags[i]
            if lt:  # LT = 0 means no link below, so LC = 0 too
                lc = link_chars[i]
                link_chars[p] += lc
                # counts_as_link_tag, inlined: an all-link element counts once more
                link_tags[p] += lt + 1 if lt == t and lc == c else lt
    if n and is_link[0]:
        link_chars[0] = chars[0]
    return chars, tag_count, link_chars, link_tags


def _ln_ln(x: np.ndarray) -> np.ndarray:
    """CTD's denominator ``ln(ln(x + e))`` (the CETD paper, Definition 2), a zero read as 1."""
    base = np.log(np.log(x + math.e))
    base[base == 0] = 1.0
    return base


def _int_array(values: Sequence[int], code: str = "q") -> np.ndarray:
    """Python integers as a read-only array of the ``struct`` type ``code`` (``q``: 64-bit,
    ``n``: ``np.intp``), packed in C: half the time of ``np.fromiter`` with the type given
    (itself faster than ``np.array``, which discovers the type) on lists of 900 integers."""
    return np.frombuffer(struct.pack(f"{len(values)}{code}", *values), np.intp if code == "n" else np.int64)


def _float_array(counts: Sequence[int] | np.ndarray) -> np.ndarray:
    """Integer counts as a float array: read as 64-bit integers first (:func:`_int_array`),
    then converted, exactly (counts stay far below 2**53)."""
    if isinstance(counts, np.ndarray):
        return counts.astype(np.float64)
    return _int_array(counts).astype(np.float64)


def composite_densities(
    chars: Sequence[int], tag_count: Sequence[int], link_chars: Sequence[int], link_tags: Sequence[int]
) -> np.ndarray:
    """Composite text density (the CETD paper, Definition 2; docs/algorithms.md, CETD), as an
    array.

    ``CTD_i = (C_i/T_i) * ln((C_i/LC_i) * (T_i/LT_i)) / ln(ln(C_i*LC_i/nLC_i + (LC_b/C_b)*C_i + e))``
    with every zero denominator read as 1; index 0 is body; 0 where ``C_i = 0``.  Computed
    over arrays (one vector operation per term, not one Python step per element).
    """
    n = len(chars)
    if not n or not chars[0]:
        return np.zeros(n)
    ratio = link_chars[0] / chars[0]
    c = _float_array(chars)
    has_text = c > 0
    c = c[has_text]
    lc = _float_array(link_chars)[has_text]
    t = np.maximum(_float_array(tag_count)[has_text], 1.0)
    lt = np.maximum(_float_array(link_tags)[has_text], 1.0)
    non_link = c - lc
    non_link[non_link == 0] = 1.0
    base = _ln_ln(c * lc / non_link + ratio * c)
    out = np.zeros(n)
    out[has_text] = (c / t) * np.log((c / np.maximum(lc, 1.0)) * (t / lt)) / base
    return out


#: ``json.loads(text, strict=False)`` without building a decoder for each text.
_JSON = json.JSONDecoder(strict=False)
_CONTROL = re.compile(r"[\x00-\x1f]")
#: At most this many values of one JSON-LD text are visited (a hostile page stays linear).
_MAX_JSON_LD_VALUES = 500


def _load_json(text: str) -> Any:
    """One JSON-LD text's value (an HTML comment around it and a trailing ";" ignored, raw
    control characters read as spaces), or ``None`` when it is no JSON."""
    text = text.strip().removeprefix("<!--").removesuffix("-->").strip().rstrip(";")
    if not text:
        return None
    try:
        return _JSON.decode(text)
    except (ValueError, RecursionError):
        try:
            return _JSON.decode(_CONTROL.sub(" ", text))
        except (ValueError, RecursionError):
            return None


def json_ld_objects(text: str) -> list[dict[str, Any]]:
    """Every object with an ``@type`` in one JSON-LD text, in document order: top-level
    ones, list items, ``@graph`` members and ``mainEntity`` values, iteratively (no
    recursion on nesting; at most :data:`_MAX_JSON_LD_VALUES` values visited); invalid JSON
    gives ``[]``."""
    objects = []
    stack = [_load_json(text)]
    seen = 0
    while stack and seen < _MAX_JSON_LD_VALUES:
        item = stack.pop()
        seen += 1
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            if "@graph" in item:
                stack.append(item["@graph"])
            if "@type" in item:
                objects.append(item)
            main = item.get("mainEntity")
            if isinstance(main, (dict, list)):
                stack.append(main)
    return objects


class Page:
    """A parsed, cleaned page with CETD's per-element statistics.

    Build it with :meth:`from_tree` (takes ownership of the tree: cleaning mutates it).
    """

    def __init__(self, root: etree._Element, url: str | None = None) -> None:
        self.root = root
        self.url = storable_url(url)
        #: The texts of the page's ``<script type="application/ld+json">`` (JSON-LD metadata).
        self.json_ld: list[str]
        self.title, self.json_ld, not_shown = _title_and_json_ld(root)
        self._json_ld_objects: dict[int, list[dict[str, Any]]] = {}
        #: A frameset page shows other documents; its own body holds no content.
        self.is_frameset = next(root.iterchildren("frameset"), None) is not None
        aria = _clean(root, not_shown)
        self.body = _body_of(root)
        self._walk()
        self._read_aria(aria)

    @classmethod
    def from_tree(
        cls, tree: etree._Element | etree._ElementTree, url: str | None = None
    ) -> Page:
        """Build the page model from an lxml element or element tree."""
        if isinstance(tree, etree._ElementTree):
            tree = tree.getroot()
        return cls(tree, url)

    @cached_property
    def base_url(self) -> str | None:
        """What the page's relative links resolve against: its ``<base href>`` joined to its
        URL, else its URL (:func:`~scrapy_cetd.parsing.document_base_url`); the cleaned HTML,
        the Markdown and the metadata's URLs all use it."""
        return document_base_url(self.root, self.url)

    def declared_objects(self, *words: str) -> list[dict[str, Any]]:
        """The typed objects (:func:`json_ld_objects`) of the page's JSON-LD texts that hold
        one of ``words`` (every text when none is given), each text parsed once, when first
        asked for: the metadata and cetd-plus's rules read the same objects (they are
        shared: read them, do not change them), and a page whose extraction asks for none
        parses none."""
        cache = self._json_ld_objects
        objects: list[dict[str, Any]] = []
        for k, text in enumerate(self.json_ld):
            if words and not any(word in text for word in words):
                continue
            found = cache.get(k)
            if found is None:
                found = cache[k] = json_ld_objects(text)
            objects.extend(found)
        return objects

    def _walk(self) -> None:
        """Number elements in preorder, read the text runs (in document order, from one
        XPath over the text nodes), then count."""
        elements: list[etree._Element] = list(self.body.iter(etree.Element))
        n = len(elements)
        index = dict(zip(elements, range(n)))
        parent = [-1]
        parent.extend(map(index.__getitem__, map(etree._Element.getparent, elements[1:])))
        keys, run_text = _text_runs(self.body, elements, index, parent)
        # Attribute order matters: a Page's attributes are released in assignment order,
        # and lxml frees an element proxy in time proportional to its depth unless its
        # parent's proxy is still alive.  The runs (XPath results, which hold their
        # element) go first, then ``index``; the last reference to each proxy is then in
        # ``elements``, which Python releases last item first, i.e. deepest first: a
        # 100,000-deep page is freed in linear time, not quadratic.
        self.run_text: list[str] = run_text
        self.index = index
        self.elements = elements
        self.parent = parent
        self.tags: list[str] = list(map(_tag_of, elements))
        # Key 2 * i + 1 is the tail of element i, which belongs to i's parent.
        owner_of_key = [0] * (2 * n)
        owner_of_key[0::2] = range(n)
        owner_of_key[1::2] = parent
        self.run_key: list[int] = keys
        self.run_owner: list[int] = list(map(owner_of_key.__getitem__, keys))
        #: Each run as rendered: whitespace runs collapsed to one space, ends stripped
        #: (:func:`normalize_space`).  A stripped run whose only whitespace is single spaces
        #: (any other whitespace character is not printable) is that already: 98% of the dev
        #: pages' runs, spared splitting into words and joining again (median first-half
        #: dev page: 0.58x the time for the page's runs).
        self.run_collapsed: list[str] = [
            run if run.isprintable() and "  " not in run else " ".join(run.split())
            for run in map(str.strip, self.run_text)
        ]
        self.run_chars: list[int] = list(map(len, self.run_collapsed))
        self._count()

    def _count(self) -> None:
        """CETD statistics bottom-up (the CETD paper, 3.1-3.2), and each subtree's extent."""
        n = len(self.elements)
        self.is_link = list(map(LINK_TAGS.__contains__, self.tags))
        self.chars, self.tag_count, self.link_chars, self.link_tags = cetd_counts(
            self.parent, self.is_link, self.run_owner, self.run_chars
        )
        #: ``end[i]``: one past the last element index of ``i``'s subtree (``i + 1 + T_i``).
        self.end = list(map(add, self.tag_count, range(1, n + 1)))

    def _read_aria(self, attributes: list[etree._ElementUnicodeResult]) -> None:
        #: ``role`` (stripped, lower case) by element index, for elements under body.
        self.roles: dict[int, str] = {}
        #: Elements with ``aria-modal=true``, in document order.
        self.modal: list[int] = []
        index = self.index
        for value in attributes:
            i = index.get(value.getparent())
            if i is None:
                continue  # in <head>, or removed as hidden
            if value.attrname == "role":
                self.roles[i] = value.strip().lower()
            elif value.strip().lower() == "true":
                self.modal.append(i)

    def __len__(self) -> int:
        return len(self.elements)

    def children_of(self, i: int) -> list[int]:
        """Element children of element ``i``, in document order (jumping over subtrees)."""
        end = self.end
        kids = []
        child, stop = i + 1, end[i]
        while child < stop:
            kids.append(child)
            child = end[child]
        return kids

    def positions(self, *tags: str, within: int = 0) -> list[int]:
        """Indices of the elements with any of ``tags`` in the subtree of element ``within``
        (itself included; default body), in document order.

        Read from the tree (lxml's ``iter`` walks it in C and returns at once when no
        element of the page has such a tag), each element mapped back to its index.  A tag
        the page has costs a walk of the whole subtree: on the first half of the WCXB dev
        pages, all held in memory, one call for three tags took 118 ms in all where one
        scan of :attr:`tags` for ten took 33 ms (the tree is out of the CPU's caches; a
        page timed alone, in a warm loop, shows the walk faster than the scan).  Scan
        :attr:`tags` to find several common tags at once, as cetd-plus does."""
        if not tags:
            return []
        return list(map(self.index.__getitem__, self.elements[within].iter(*tags)))

    @cached_property
    def block_starts(self) -> list[int]:
        """``block_starts[i]``: how many of elements ``0 .. i-1`` are block-level
        (``BLOCK_TAGS``), so ``block_starts[j] - block_starts[i]`` block-level elements
        start between elements ``i`` and ``j``."""
        return list(accumulate(map(BLOCK_TAGS.__contains__, self.tags), initial=0))

    @cached_property
    def link_ratio(self) -> float:
        """``LC_b / C_b``: the share of the body's characters that are link text."""
        total = self.chars[0] if self.chars else 0
        return self.link_chars[0] / total if total else 0.0

    @cached_property
    def text_density(self) -> list[float]:
        """``TD_i = C_i / T_i``, a zero ``T_i`` read as 1 (the CETD paper, Definition 1)."""
        return [c / (t or 1) if c else 0.0 for c, t in zip(self.chars, self.tag_count)]

    @cached_property
    def composite_text_density(self) -> list[float]:
        """Composite text density of every element: :func:`composite_densities` of the counts."""
        return composite_densities(self.chars, self.tag_count, self.link_chars, self.link_tags).tolist()

    def density_sum(self, density: Sequence[float] | np.ndarray, composite: bool) -> list[float]:
        """DensitySum (the CETD paper, Definition 3): the sum of the children's densities.

        Each run of the element's own text counts as a pseudo-child, as in the reference
        CETD: a run of ``L`` characters has TD ``L`` (no tags) and CTD
        ``L * ln(L) / ln(ln(ratio * L + e))``.  An element with no element children has its
        own density as DensitySum.  Summed over arrays.
        """
        n = len(density)
        values = np.asarray(density, dtype=np.float64)
        length = _float_array(self.run_chars_array)
        if composite:
            base = _ln_ln(self.link_ratio * length)
            length = length * np.log(np.maximum(length, 1.0)) / base  # an empty run adds 0
        # One accumulation, children then runs, in the order of the definition.
        owners = self._child_and_run_owners
        sums = np.bincount(owners, weights=np.concatenate((values[1:], length)), minlength=n)
        return np.where(self._has_child, sums, values).tolist()

    @cached_property
    def chars_array(self) -> np.ndarray:
        """:attr:`chars` as an array."""
        return _int_array(self.chars)

    @cached_property
    def run_key_array(self) -> np.ndarray:
        """:attr:`run_key` as an array."""
        return _int_array(self.run_key, "n")

    @cached_property
    def run_chars_array(self) -> np.ndarray:
        """:attr:`run_chars` as an array."""
        return _int_array(self.run_chars)

    @cached_property
    def run_owner_array(self) -> np.ndarray:
        """:attr:`run_owner` as an array (the end of :attr:`_child_and_run_owners`)."""
        return self._child_and_run_owners[len(self.parent) - 1 :]

    @cached_property
    def child_parent_array(self) -> np.ndarray:
        """The parent of each element but body (element ``i``'s at ``i - 1``), as an array
        (the start of :attr:`_child_and_run_owners`)."""
        return self._child_and_run_owners[: len(self.parent) - 1]

    @cached_property
    def _child_and_run_owners(self) -> np.ndarray:
        """The parent of each element but body, then the owner of each run (for DensitySum)."""
        return _int_array(self.parent[1:] + self.run_owner, "n")

    @cached_property
    def _has_child(self) -> np.ndarray:
        """Whether each element has an element child."""
        n = len(self.parent)
        return np.bincount(self._child_and_run_owners[: n - 1], minlength=n) > 0

    @cached_property
    def _owns_text(self) -> np.ndarray:
        """Whether each element holds a run of its own (its text or a child's tail)."""
        return np.bincount(self.run_owner_array, minlength=len(self.parent)) > 0

    def glued(self, k: int) -> bool:
        """Whether run ``k`` continues run ``k - 1`` with no space between, as a browser
        shows them: no whitespace where they meet, and only inline elements (not
        ``BLOCK_TAGS``, not :data:`SEPARATING_INLINE_TAGS`) ending or starting between
        them, at most ``GLUE_MAX_CLOSINGS`` of each, with no text: ``<b>Nyong</b>'<b>o</b>'s``,
        a drop cap ``<span>T</span>he``, ``d<a>e</a>``.  Where elements both end and start
        between, the element holding both runs must hold text of its own, as running text
        does (``The <strong>Game D</strong><strong>ay Parties</strong> return``,
        ``the <span>coun</span><span>cil</span> hall``); side by side in an element of no
        text of their own, they are items the page's style sets apart (tags
        ``<a>FPS</a><a>Shooter</a>``, ``<span>id</span><span>string</span>``: on the dev
        sets, joining those too cost more pages than it mended).  Not where
        :func:`_parts_meet`."""
        if k <= 0:
            return False
        last, first = self.run_text[k - 1][-1], self.run_text[k][0]
        if last.isspace() or first.isspace() or _parts_meet(last, first):
            return False
        before, key = self.run_key[k - 1], self.run_key[k]
        i, j = before >> 1, key >> 1
        end, parent, tags, elements = self.end, self.parent, self.tags, self.elements
        cursor = end[i] if before & 1 else i + 1  # the first element starting after run k - 1
        stop = end[j] if key & 1 else j + 1  # the first element starting after run k
        if stop - cursor > GLUE_MAX_CLOSINGS:
            return False
        holder = parent[j] if key & 1 else j  # the innermost element holding run k
        closing = parent[i] if before & 1 else i  # the first element that may end between
        ended = False
        for _ in range(GLUE_MAX_CLOSINGS + 1):  # the elements ending between, innermost first
            if closing <= holder < end[closing] or (closing == j and key & 1):
                break  # it holds run k, or its tail is run k
            if tags[closing] in _SEPARATING or elements[closing].tail:
                return False
            closing, ended = parent[closing], True
        else:
            return False
        for e in range(cursor, stop):  # the elements starting between
            if tags[e] in _SEPARATING:
                return False
            if e == j and not key & 1:
                continue  # run k is its text
            if elements[e].text or (e != j and end[e] <= stop and not e <= holder < end[e] and elements[e].tail):
                return False  # whitespace between (its tail, where it is not run k)
        return not (ended and stop > cursor) or bool(self._owns_text[closing])

    def pre_text(self, k: int) -> str:
        """Element ``k``'s text as a ``<pre>`` shows it: :func:`raw_text`, with a line break
        for each ``<br>`` (blogs write code as lines ended by ``<br>``: read without them,
        "import os<br>import sys" was the one line "import osimport sys").  Read, where its
        subtree's tags hold a ``br``, by :func:`_texts_in_order` (linear at any depth; lxml's
        ``iterwalk`` and an XPath union of text nodes and ``<br>`` took 6 s and 19 s on
        30,000 levels)."""
        tags = self.tags
        if "br" not in tags[k + 1 : self.end[k]]:
            return raw_text(self.elements[k])
        return "".join(
            "\n" if not key & 1 and tags[key >> 1] == "br" else text or ""
            for key, text in _texts_in_order(self.elements, self.parent, k, self.end[k])
        )

    def path_to_body(self, i: int) -> list[int]:
        """Element ``i`` and its ancestors up to body (index 0)."""
        path = [i]
        parent = self.parent
        while parent[i] >= 0:
            i = parent[i]
            path.append(i)
        return path

    def describe(self, i: int) -> str:
        """A short, human-readable locator: ``div#main.article`` with its preorder index."""
        el = self.elements[i]
        name = self.tags[i] or "?"
        ident = el.get("id")
        classes = (el.get("class") or "").split()
        return f"{name}{'#' + ident if ident else ''}{''.join('.' + c for c in classes[:2])}[{i}]"
