"""What the page declares about itself (JSON-LD, ``og:type``) and ``declared_body``: the
kept lines the page's ``articleBody`` does not hold are left out."""

from __future__ import annotations

from itertools import accumulate, chain

import numpy as np

from ...page import Page
from ...structured_data import article_body, object_types
from .data import ARTICLE_TYPE, RESCUED_TAGS, WORD
from .reading import outermost_of

#: ``declared_body``: where the page declares its story's text (JSON-LD ``articleBody``) in at least
#: ``DECLARED_MIN_WORDS`` words, holding ``DECLARED_MIN_COVER`` of the selection's words, a
#: kept line is left out when under ``DECLARED_MIN_SHARE`` of its words lie in a word
#: 3-gram of the declared text.  Code, tables and lists of terms (``rescued_structures``'s structures) are
#: kept as they are: declared bodies often leave them out.
DECLARED_MIN_WORDS = 100


DECLARED_MIN_COVER = 0.7


DECLARED_MIN_SHARE = 0.5


def declares_article(page: Page) -> bool:
    """Whether the page declares itself an article: a JSON-LD object of its own (top
    level, ``@graph`` member or ``mainEntity``) of an :data:`ARTICLE_TYPE`, or ``og:type``
    ``article``."""
    objects = page.declared_objects("Article", "BlogPosting")
    if any(any(map(ARTICLE_TYPE.search, types)) for types in object_types(objects)):
        return True
    return og_type(page) == "article"


def og_type(page: Page) -> str:
    """The page's ``og:type`` (``<meta property="og:type">`` in its ``<head>``), stripped and
    in lower case; empty when it has none.  ``<head>`` is found with ``iterchildren``, not
    ElementPath's ``find`` (``product_noise``'s check: 0.026x -> 0.017x lxml's parse, median, first
    dev half)."""
    head = next(page.root.iterchildren("head"), None)
    if head is None:
        return ""
    for meta in head.iter("meta"):
        if (meta.get("property") or "").strip().lower() == "og:type":
            return (meta.get("content") or "").strip().lower()
    return ""


def _declared_words(page: Page, removed: list[bool]) -> tuple[np.ndarray, np.ndarray] | None:
    """``declared_body``'s counts: for each element, the words of its subtree outside removed parts,
    and how many of them lie in a word 3-gram of the declared body, as prefix sums over
    the preorder (``x[end[i]] - x[i]``: element ``i``'s subtree).  ``None`` where the page
    declares no body of ``DECLARED_MIN_WORDS`` words."""
    body = article_body(page.declared_objects("articleBody"))
    body_words = WORD.findall(body.lower()) if body else []
    if len(body_words) < DECLARED_MIN_WORDS:
        return None
    declared = set(zip(body_words, body_words[1:], body_words[2:]))
    run_words = [WORD.findall(text.lower()) for text in page.run_collapsed]
    words = list(chain.from_iterable(run_words))
    starts = np.zeros(len(words) + 2, dtype=bool)
    starts[: max(len(words) - 2, 0)] = [gram in declared for gram in zip(words, words[1:], words[2:])]
    # A word is declared when one of the (up to) three 3-grams holding it is.
    covered = starts[: len(words)].copy()
    covered[1:] |= starts[: len(words) - 1]
    covered[2:] |= starts[: max(len(words) - 2, 0)]
    offsets = np.fromiter(accumulate(map(len, run_words), initial=0), np.intp, len(run_words) + 1)
    covered_sums = np.concatenate(([0], np.cumsum(covered)))
    run_covered = covered_sums[offsets[1:]] - covered_sums[offsets[:-1]]
    n = len(page.elements)
    owners = np.fromiter(page.run_owner, np.intp, len(page.run_owner))
    kept = ~np.frombuffer(bytes(removed), dtype=bool)
    own_words = np.bincount(owners, weights=np.diff(offsets), minlength=n) * kept
    own_covered = np.bincount(owners, weights=run_covered, minlength=n) * kept
    return np.concatenate(([0], np.cumsum(own_words))), np.concatenate(([0], np.cumsum(own_covered)))


def undeclared_parts(page: Page, blocks: list[int], removed: list[bool], top: int) -> list[int]:
    """``declared_body``: leave out the kept lines the page's declared body (JSON-LD ``articleBody``)
    does not hold: an author's bio, a product box, a "related" card, an affiliate notice.

    Applied only when the declared body holds ``DECLARED_MIN_COVER`` of the kept words (a
    teaser or a paywall's first paragraph holds less).  From each kept block down: a part
    with no declared word is removed whole; a part with some is descended into; a line (a
    part without block-level descendants) goes when under ``DECLARED_MIN_SHARE`` of its
    words are declared.  Never the top block or its ancestors, never ``rescued_structures``'s structures.
    Marks ``removed`` in place and returns the parts removed; linear in the page (prefix
    sums, each element visited once).
    """
    counts = _declared_words(page, removed)
    if counts is None:
        return []
    words, covered = counts
    end, tags, block_starts = page.end, page.tags, page.block_starts
    outermost = outermost_of(page, sorted(blocks))  # blocks nested in another are read with it
    total = sum(words[end[b]] - words[b] for b in outermost)
    if not total or sum(covered[end[b]] - covered[b] for b in outermost) < DECLARED_MIN_COVER * total:
        return []
    undeclared = []
    stack = outermost[::-1]  # document order: a part is decided before the parts inside it
    while stack:
        node = stack.pop()
        stop = end[node]
        count = words[stop] - words[node]
        if not count or removed[node] or tags[node] in RESCUED_TAGS:
            continue
        share = (covered[stop] - covered[node]) / count
        if share == 1.0:
            continue
        line = block_starts[stop] == block_starts[node + 1]
        if (share == 0.0 or (line and share < DECLARED_MIN_SHARE)) and not node <= top < stop:
            removed[node:stop] = [True] * (stop - node)
            undeclared.append(node)
        elif not line:
            stack.extend(reversed(page.children_of(node)))
    return sorted(undeclared)
