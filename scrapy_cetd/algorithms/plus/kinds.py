"""Edge cases of page kinds: ``product_noise`` on product pages, removed before counting,
and ``forum_furniture`` around a forum post's text."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from itertools import chain

from ...page import BLOCK_TAGS, Page, element_text
from ...structured_data import object_types
from ..labels import stem_pattern
from .data import (
    ADD_TO_CART,
    ADD_TO_CART_WORDS,
    CLASS_OR_ID,
    CLASS_OR_ID_TEXTS,
    CONTROL_TAGS,
    FORUM_STAT_RUNS,
    FORUM_STEMS,
    HEADING_TAGS,
    PRODUCT_NOISE_STEMS,
    PRODUCT_TYPES,
)
from .declared import og_type
from .reading import class_and_id, holds_any, joined_runs, label_text, outermost_of, short_runs, tag_positions
from .texts import FORUM_STAT_MAX_CHARS, is_forum_stat

__all__ = [
    "PRODUCT_NOISE_MAX_REPEATS",
    "PRODUCT_NOISE_MAX_SHARE",
    "forum_furniture",
    "is_product_page",
    "product_noise_roots",
]

#: ... unless the element holds more than this share of the page's characters.
PRODUCT_NOISE_MAX_SHARE = 0.5


#: ... nor when more than this many of them have the same tag and ``class``.
PRODUCT_NOISE_MAX_REPEATS = 2


def is_product_page(page: Page, positions: Mapping[str, list[int]] | None = None) -> bool:
    """``product_noise``'s gate: the page declares a product, as a JSON-LD object of its own (top
    level, ``@graph`` member or ``mainEntity``, :data:`PRODUCT_TYPES`; not a review's
    ``itemReviewed``) or as its ``og:type`` (``product``, ``product.item``), or it has a
    control to buy one (a ``button`` or ``form`` whose ``class`` or ``id`` says add to
    cart, bag or basket, or buy now).  ``positions``: the page's :func:`tag_positions`, if
    found already."""
    if any(PRODUCT_TYPES.intersection(types) for types in object_types(page.declared_objects("Product"))):
        return True
    if og_type(page).startswith("product"):
        return True
    if positions is None:
        positions = tag_positions(page, CONTROL_TAGS)
    elements = page.elements
    # The controls' values joined (no match spans a line), searched only where they hold
    # one of ADD_TO_CART_WORDS: most pages are settled by two tests in C.
    names = "\n".join(class_and_id(elements[i]) for i in chain.from_iterable(positions[tag] for tag in CONTROL_TAGS))
    return holds_any(names, ADD_TO_CART_WORDS) and ADD_TO_CART.search(names) is not None


def product_noise_roots(page: Page, positions: Mapping[str, list[int]] | None = None) -> list[int]:
    """``product_noise``: on a product page (:func:`is_product_page`), the highest elements labelled
    with a :data:`PRODUCT_NOISE_STEMS` word, in document order.  Never a heading (it names
    a section, it is not one), a link or anything in it, an element holding over
    ``PRODUCT_NOISE_MAX_SHARE`` of the page's characters, nor parts of which more than
    ``PRODUCT_NOISE_MAX_REPEATS`` share their tag and ``class``.  One pass, skipping the
    subtrees of empty elements, links and the parts found: linear in the page.
    ``positions``: the page's :func:`tag_positions`, if found already."""
    if not PRODUCT_NOISE_STEMS or not is_product_page(page, positions):
        return []
    stems = stem_pattern(tuple(PRODUCT_NOISE_STEMS))
    chars, end, elements, tags, is_link = page.chars, page.end, page.elements, page.tags, page.is_link
    max_chars = PRODUCT_NOISE_MAX_SHARE * chars[0]
    roots = []
    node, n = 1, len(page)
    while node < n:
        if not chars[node] or is_link[node]:
            node = end[node]
            continue
        names = label_text(elements[node])
        if names and tags[node] not in HEADING_TAGS and chars[node] <= max_chars and stems.search(names.lower()):
            roots.append(node)
            node = end[node]
        else:
            node += 1
    # Parts labelled alike, repeated, are the page's own items (a roundup's product
    # reviews, a listing's photo carousels), not a section about the product.
    signatures = Counter((tags[i], elements[i].get("class")) for i in roots)
    return [i for i in roots if signatures[tags[i], elements[i].get("class")] <= PRODUCT_NOISE_MAX_REPEATS]


def _forum_stats(page: Page, outermost: list[int], removed: list[bool]) -> list[int]:
    """``forum_furniture``'s statistics in the kept blocks ``outermost``: the highest elements of at
    most ``FORUM_STAT_MAX_CHARS`` characters holding a run that opens with a statistic's
    label, when block-level (not a word in a sentence) and their whole text is a statistic
    (:func:`is_forum_stat`).  One regular-expression scan over the short elements' runs
    (joined by newlines), as ``stock_lines``'s; each short ancestor is read once."""
    if not FORUM_STAT_MAX_CHARS:
        return []
    numbers = short_runs(page, FORUM_STAT_MAX_CHARS, [(block, page.end[block]) for block in outermost])
    joined = joined_runs(page, numbers)
    owner, chars, parent, tags = page.run_owner, page.chars, page.parent, page.tags
    found: set[int] = set()
    seen: set[int] = set()
    run = previous = 0
    for hit in (m.start() for m in FORUM_STAT_RUNS.finditer(joined)):
        run += joined.count("\n", previous, hit)
        previous = hit
        # Up the short ancestors, each read once: the highest block-level statistic.
        x, best = owner[numbers[run]], -1
        while x >= 0 and x not in seen and chars[x] <= FORUM_STAT_MAX_CHARS:
            seen.add(x)
            if tags[x] in BLOCK_TAGS and not removed[x] and is_forum_stat(element_text(page.elements[x])):
                best = x
            x = parent[x]
        if best >= 0:
            found.add(best)
    stats: list[int] = []
    for x in sorted(found):
        if not stats or x >= page.end[stats[-1]]:  # one inside another goes with the outer one
            stats.append(x)
            removed[x : page.end[x]] = [True] * (page.end[x] - x)
    return stats


def forum_furniture(page: Page, blocks: list[int], removed: list[bool], top: int) -> list[int]:
    """``forum_furniture``: remove the kept content's parts that are a forum post's furniture: those
    labelled so (:data:`FORUM_STEMS`, :func:`_labelled_forum_parts`) and a poster's
    statistics (:func:`_forum_stats`).  Called only when the top block is not prose
    standing alone (``items_after_article``; a thread's top block is one post of a repeated group): on the
    tuning half every page it changed was such a page, and articles skip its cost.  Marks
    ``removed`` in place and returns the parts removed."""
    if not blocks:
        return []
    outermost = outermost_of(page, sorted(blocks))
    parts = _labelled_forum_parts(page, outermost, removed, top)
    return sorted(parts + _forum_stats(page, outermost, removed))


def _names_a_stem(values: list[str], pattern: re.Pattern[str]) -> bool:
    """Whether one of ``values`` holds a word starting with a :data:`FORUM_STEMS` stem
    (``pattern``): the stems looked for as substrings of the values joined, in lower case,
    before the pattern's search (most pages hold none of them)."""
    joined = "\n".join(values)
    return holds_any(joined, FORUM_STEMS) and pattern.search(joined.lower()) is not None


def _labelled_forum_parts(page: Page, outermost: list[int], removed: list[bool], top: int) -> list[int]:
    """``forum_furniture``'s labelled parts (:data:`FORUM_STEMS`): the highest lying in a kept block
    (``outermost``: the kept blocks not nested in another) or holding one, never the top
    block or its ancestors.  The ``class`` and ``id`` values are read in the kept blocks'
    subtrees (one C-level XPath each) and on the kept blocks' ancestors below the top
    block's path (each once): reading the whole page's doubled the selection's time."""
    if not FORUM_STEMS:
        return []
    pattern = stem_pattern(tuple(FORUM_STEMS))
    elements, index, end, parent = page.elements, page.index, page.end, page.parent
    labelled: set[int] = set()
    # One search over the values joined (no stem holds a newline, so a match lies in one
    # value) before one per value: most pages have none (42,671 searches a value at a time
    # on every 2nd second-half dev page); the values that know their element are made
    # only then.
    texts = [value for block in outermost for value in CLASS_OR_ID_TEXTS(elements[block])]
    if _names_a_stem(texts, pattern):
        values = [value for block in outermost for value in CLASS_OR_ID(elements[block])]
        labelled = {index[value.getparent()] for value in values if pattern.search(value.lower())}
    above = set(page.path_to_body(top))  # the top block's path, then the ancestors read
    ancestors = []
    for block in outermost:
        x = parent[block]
        while x >= 0 and x not in above:
            above.add(x)
            ancestors.append(x)
            x = parent[x]
    names = [class_and_id(elements[x]) for x in ancestors]
    if _names_a_stem(names, pattern):
        labelled.update(x for x, name in zip(ancestors, names) if pattern.search(name.lower()))
    parts: list[int] = []
    for i in sorted(labelled):
        if (not parts or i >= end[parts[-1]]) and not removed[i] and not i <= top < end[i]:
            removed[i : end[i]] = [True] * (end[i] - i)
            parts.append(i)
    return parts
