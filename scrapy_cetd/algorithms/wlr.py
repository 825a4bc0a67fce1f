"""WLR: the Words/Leaves Ratio in the DOM tree (Insa, Silva, Tamarit; docs/algorithms.md, WLR).

Insa, Silva, Tamarit, "Using the Words/Leafs Ratio in the DOM Tree for Content
Extraction".  One machinery, four registered ratios (the paper's section 5, Tables 1-5):

- ``wlr``: words / leaves (the paper's technique),
- ``clr``: characters / leaves,
- ``wnr``: words / nodes,
- ``cnr``: characters / nodes (the authors' earlier chars-nodes ratio, the paper's [2]).

Steps (Algorithm 1): the content nodes ``C`` (Definition 4.1) with their attributes
(Definition 4.2), the ratio of every node (Definition 4.4), the initial nodes ``I``
(Definition 4.5), the relevance ``R`` (Definition 4.6) and the best node (Definition
4.7), whose whole subtree is the content.

Nodes are the DOM's elements and text nodes.  Text nodes are the page model's text runs
(:mod:`scrapy_cetd.page`): the children of element ``i`` in document order are its
``.text`` (run key ``2i``), then for each element child ``c``: ``c`` and ``c``'s tail
(run key ``2c+1``).  The tree is never modified (the renderer needs it): removed nodes are
simply left out of :class:`ContentTree`.

**Interpretations** (documented where they apply):

- Words: a word is a maximal run of ``\\w`` characters (the WCXB metric's definition), so
  separators such as ``|`` or ``»`` carry no words and leaves holding only them are
  removed; unspaced scripts (Chinese, Japanese) count one word per run of characters,
  where ``clr`` is the better ratio.  Characters: whitespace-collapsed length of a text run, as everywhere in the
  page model.
- ``sp`` and visibility read the inline ``style`` attribute only (no stylesheets).
- Identifiers are preorder over the content nodes ``C``, elements and text nodes alike
  (Definition 4.2); the root, id 0, is the page model's element 0 (``<body>``).
- ``leaves`` (Figure 5): the final ``if (joining) leaves + 1`` comes after the loop (the
  extracted pseudocode lost its indentation; inside the loop Example 4.3 would not be one
  leaf).
- A zero denominator in ``r_pos`` (one initial node) or ``r_WLR`` (all ratios equal) is
  read as 1.
- Relevance: the paper's ``R(n) = WLR(n) * max(...)`` can never stop climbing (every
  ``WLR >= 1``), so by default the factor is ``WLR(n) / x``, ``x`` the initial-node
  threshold; parameter ``relevance_scale`` selects the literal reading or
  ``WLR(n) / max_WLR`` (see :func:`relevance`).
- Threshold coefficient ``k`` scales the initial-node threshold ``x`` wherever it is
  used: ``I = {n in C | ratio(n) >= k * sqrt(max_ratio * ratio(root))}`` and the
  relevance factor ``ratio(n) / x``.  ``k = 1`` is the paper; a smaller ``k`` admits more
  initial nodes and makes climbing cheaper (larger selections; ``k = 0`` selects the
  whole body); a ``k`` above ``sqrt(max_ratio / ratio(root))`` leaves ``I`` empty, so
  every relevance is 0 and the best node is the root (the whole body).
- The ``threshold`` reported in the :class:`~scrapy_cetd.extraction.Selection` is that
  scaled initial-node threshold.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..extraction import Selection
from ..page import Page
from ..registry import Algorithm, Param, register

__all__ = [
    "JOINABLE_TAGS",
    "NOT_VALID_TAGS",
    "SCALE_LITERAL",
    "SCALE_MAX",
    "SCALE_THRESHOLD",
    "ContentTree",
    "best_node",
    "content_tree",
    "ratio_selection",
    "relevance",
    "word_count",
]

#: Roots of removed subtrees (Definition 4.1, ``notValid``; ``#comment`` is already gone).
NOT_VALID_TAGS = frozenset({"meta", "title", "head", "link", "style", "script", "select", "noscript"})

#: Formatting elements joined with ``#text`` into one leaf (Figure 5).
JOINABLE_TAGS = frozenset({"p", "a", "u", "b", "i", "em", "span", "sub", "sup", "strong", "div"})

_WORD = re.compile(r"\w+")
# v(n) (Definition 3.3).  The page model already removed display:none / visibility:hidden.
_INVISIBLE_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)", re.IGNORECASE)
# sp(n) (Definition 4.2): only a div can lose its static position.
_OUT_OF_FLOW_STYLE = re.compile(r"position\s*:\s*(?:absolute|fixed)", re.IGNORECASE)


def word_count(text: str) -> int:
    """``w(n)`` of a text node: its maximal runs of ``\\w`` characters."""
    return len(_WORD.findall(text))


@dataclass
class ContentTree:
    """The content nodes ``C`` (Definition 4.1) in preorder: list position = ``id(n)``.

    ``element[n]`` is the page element index (``-1`` for a text node), ``run_key[n]`` the
    text run key (``-1`` for an element), ``parent[n]`` the parent's id (``-1`` for the
    root).  Subtree totals (Definition 4.2 and the variants' counts): ``words`` = ``tw``,
    ``chars``, ``leaves`` = ``l`` (Figure 5) and ``nodes`` (content nodes in the subtree,
    the node itself included).
    """

    element: list[int]
    run_key: list[int]
    parent: list[int]
    words: list[int]
    chars: list[int]
    leaves: list[int]
    nodes: list[int]

    def __len__(self) -> int:
        return len(self.parent)


def _removed_elements(page: Page) -> list[bool]:
    """``notValid`` and ``notVisible`` (Definition 4.1): the element or an ancestor is a
    non-content tag or invisible."""
    removed = [tag in NOT_VALID_TAGS for tag in page.tags]
    for i, el in enumerate(page.elements):
        style = el.get("style")
        if style and _INVISIBLE_STYLE.search(style):
            removed[i] = True
    parent = page.parent
    for i in range(1, len(removed)):
        if removed[parent[i]]:
            removed[i] = True
    return removed


def _static_position(page: Page, i: int) -> bool:
    """``sp(n)`` (Definition 4.2): false only for a ``div`` positioned absolute or fixed."""
    return page.tags[i] != "div" or not _OUT_OF_FLOW_STYLE.search(page.elements[i].get("style") or "")


def content_tree(page: Page) -> ContentTree:
    """Build ``C`` and its attributes (Definitions 4.1 and 4.2) without touching the tree.

    ``notWords`` (the fix-point removing word-less leaves) keeps exactly the elements
    whose subtree holds a text node with words outside removed subtrees; it is computed
    in one bottom-up pass.  Ids are assigned by merging elements (preorder) with text
    runs (document order): the text of element ``j`` comes right after ``j``, the tail
    of ``j`` right before element ``end[j]``.  ``tw``, characters, nodes and ``leaves``
    (Figure 5) are then summed in one reverse-preorder pass.
    """
    n = len(page)
    removed = _removed_elements(page)
    parent = page.parent
    run_words = [word_count(text) for text in page.run_text]
    alive = [False] * n
    for owner, count in zip(page.run_owner, run_words, strict=True):
        if count and not removed[owner]:
            alive[owner] = True
    for i in range(n - 1, 0, -1):
        if alive[i]:
            alive[parent[i]] = True

    end = page.end
    run_keys = page.run_key
    run_chars = page.run_chars
    ids = [-1] * n
    element: list[int] = []
    run_key: list[int] = []
    node_parent: list[int] = []
    words: list[int] = []
    chars: list[int] = []

    def add_run(r: int) -> None:
        key = run_keys[r]
        owner = page.run_owner[r]
        if run_words[r] and not removed[owner]:
            element.append(-1)
            run_key.append(key)
            node_parent.append(ids[owner])
            words.append(run_words[r])
            chars.append(run_chars[r])

    r, total_runs = 0, len(run_keys)
    for i in range(n):
        while r < total_runs:
            key = run_keys[r]
            position = (key >> 1) + 1 if not key & 1 else end[key >> 1]
            if position > i:
                break
            add_run(r)
            r += 1
        if alive[i]:
            ids[i] = len(element)
            element.append(i)
            run_key.append(-1)
            node_parent.append(ids[parent[i]] if i else -1)
            words.append(0)
            chars.append(0)
    while r < total_runs:
        add_run(r)
        r += 1

    size = len(element)
    leaves = [1 if e < 0 else 0 for e in element]
    nodes = [1] * size
    joinable = [e < 0 or (page.tags[e] in JOINABLE_TAGS and _static_position(page, e)) for e in element]
    joining = [False] * size
    for u in range(size - 1, -1, -1):
        if joining[u]:
            leaves[u] += 1
        p = node_parent[u]
        if p < 0:
            continue
        words[p] += words[u]
        chars[p] += chars[u]
        nodes[p] += nodes[u]
        # Figure 5, visited from the last child to the first: the count (the children's
        # leaves plus one per maximal run of joinable one-leaf children) is the same.
        if joinable[u] and leaves[u] == 1:
            joining[p] = True
        else:
            leaves[p] += leaves[u]
            if joining[p]:
                leaves[p] += 1
                joining[p] = False
    return ContentTree(element, run_key, node_parent, words, chars, leaves, nodes)


#: Readings of the factor in ``R(n) = factor(n) * max(...)`` (parameter ``relevance_scale``).
SCALE_THRESHOLD, SCALE_LITERAL, SCALE_MAX = 0, 1, 2


def relevance(
    ratio: Sequence[float], parent: Sequence[int], coefficient: float, scale: int
) -> tuple[list[float], float, int]:
    """Initial nodes and relevance (Definitions 4.5 and 4.6) over nodes in preorder.

    ``x = k * sqrt(max_ratio * ratio(root))`` (``k``: the threshold coefficient);
    ``I = {n | ratio(n) >= x}``;
    ``W(n) = r_pos(n) * r_ratio(n)`` for ``n`` in ``I``, else 0, with
    ``r_pos = 1 - (id - min_id) / (max_id - min_id)`` over ``I`` and
    ``r_ratio = (ratio - min_ratio) / (max_ratio - min_ratio)`` over ``C``;
    ``R(n) = (ratio(n) / x) * max(W(n), sum of R over the children)``.

    **Interpretation**: the paper's factor is ``WLR(n)`` itself, but every ``WLR`` is at
    least 1 (each content leaf holds a word), so ``R`` never decreases going up and the
    root always wins: the stopping criterion the paper describes ("it uses WLR(n) to stop
    going up when the ancestor of a node introduces subtrees with a low density of
    text") cannot act, and the paper's results (recall below 100% on 12 of 27 sites)
    show it did act.  By default (``SCALE_THRESHOLD``) we measure the ratio against the
    acceptance threshold ``x`` ("an acceptance threshold that our analysis uses to
    select and to discriminate nodes"): going up is free through nodes at least as
    dense as ``x`` and penalised through sparser ones.  ``SCALE_MAX`` uses
    ``ratio(n) / max_ratio`` instead (every step up costs), ``SCALE_LITERAL`` the
    paper's letter, ``ratio(n)``.  The two repairs keep the ranking independent of the
    ratio's unit, as the paper's identical WLR and CLR results (Tables 3-4) suggest.
    With ``SCALE_THRESHOLD``, ``k = 0`` (no threshold) selects the root.

    Returns ``(R, x, |I|)``.
    """
    size = len(ratio)
    top, bottom = max(ratio), min(ratio)
    threshold = coefficient * math.sqrt(top * ratio[0])
    initial = [u for u in range(size) if ratio[u] >= threshold]
    weight = [0.0] * size
    if initial:
        first, last = initial[0], initial[-1]
        for u in initial:
            r_pos = 1.0 - (u - first) / (last - first) if last > first else 1.0
            r_ratio = (ratio[u] - bottom) / (top - bottom) if top > bottom else 1.0
            weight[u] = r_pos * r_ratio
    rel = [0.0] * size
    if scale == SCALE_THRESHOLD:
        if threshold <= 0:
            rel[0] = 1.0
            return rel, threshold, len(initial)
        unit = threshold
    else:
        unit = top if scale == SCALE_MAX else 1.0
    child_sum = [0.0] * size
    for u in range(size - 1, -1, -1):
        rel[u] = ratio[u] / unit * max(weight[u], child_sum[u])
        p = parent[u]
        if p >= 0:
            child_sum[p] += rel[u]
    if rel and math.isinf(max(rel)):
        rel = _scaled_relevance(ratio, parent, weight, unit)
    return rel, threshold, len(initial)


def _log_add(a: float, b: float) -> float:
    """``log(exp(a) + exp(b))`` without leaving the logarithms."""
    high, low = (a, b) if a >= b else (b, a)
    return high if low == -math.inf else high + math.log1p(math.exp(low - high))


def _scaled_relevance(ratio: Sequence[float], parent: Sequence[int], weight: list[float], unit: float) -> list[float]:
    """Definition 4.6's ``R`` divided by its largest value, computed on logarithms: on a
    page nested thousands deep the products up the tree pass the largest float (every
    ``R`` became infinite and the best node fell to the root).  Definition 4.7 reads only
    the ranking, which the division keeps."""
    size = len(ratio)
    log_rel = [-math.inf] * size
    child_log = [-math.inf] * size
    log_unit = math.log(unit)
    for u in range(size - 1, -1, -1):
        inner = max(math.log(weight[u]) if weight[u] > 0 else -math.inf, child_log[u])
        if ratio[u] > 0 and inner > -math.inf:
            log_rel[u] = math.log(ratio[u]) - log_unit + inner
            p = parent[u]
            if p >= 0:
                child_log[p] = _log_add(child_log[p], log_rel[u])
    top = max(log_rel)
    return [math.exp(value - top) for value in log_rel]


def best_node(rel: Sequence[float]) -> int:
    """Definition 4.7: the highest relevance; ties go to the lower id."""
    best = 0
    for u in range(1, len(rel)):
        if rel[u] > rel[best]:
            best = u
    return best


def ratio_selection(
    page: Page, coefficient: float, by_words: bool, by_leaves: bool, relevance_scale: int
) -> Selection:
    """Algorithm 1 with the ratio ``(words | characters) / (leaves | nodes)``.

    The best node's subtree is the content (step 4); a best text node is selected as its
    single run.
    """
    tree = content_tree(page)
    if not tree.element:  # no word outside removed subtrees
        return Selection(threshold=None, diagnostics={"content_nodes": 0})
    numerator = tree.words if by_words else tree.chars
    denominator = tree.leaves if by_leaves else tree.nodes
    ratio = [a / b for a, b in zip(numerator, denominator, strict=True)]
    rel, threshold, initial = relevance(ratio, tree.parent, coefficient, relevance_scale)
    best = best_node(rel)
    diagnostics = {
        "best_node": _describe(page, tree, best),
        "best_id": best,
        "relevance": rel[best],  # 1.0 where every R was divided by the largest (_scaled_relevance)
        "best_ratio": ratio[best],
        "max_ratio": max(ratio),
        "root_ratio": ratio[0],
        "content_nodes": len(tree),
        "initial_nodes": initial,
    }
    element = tree.element[best]
    if element >= 0:
        return Selection(threshold=threshold, subtrees={element}, diagnostics=diagnostics)
    return Selection(threshold=threshold, runs={tree.run_key[best]}, diagnostics=diagnostics)


def _describe(page: Page, tree: ContentTree, u: int) -> str:
    element = tree.element[u]
    if element >= 0:
        return page.describe(element)
    key = tree.run_key[u]
    owner = key >> 1 if not key & 1 else page.parent[key >> 1]
    return f"#text({key}) in {page.describe(owner)}"


def _variant(by_words: bool, by_leaves: bool) -> Callable[..., Selection]:
    def select(page: Page, coefficient: float, relevance_scale: int) -> Selection:
        return ratio_selection(page, coefficient, by_words, by_leaves, relevance_scale)

    return select


_PAPER = "Insa, Silva, Tamarit: Using the Words/Leafs Ratio in the DOM Tree for Content Extraction"
_PARAMS = {
    "relevance_scale": Param(
        SCALE_THRESHOLD, 0, 2, integer=True,
        doc="factor in R(n) = factor * max(W, sum of children's R): 0 ratio/threshold (default), "
        "1 ratio (the paper's letter: selects the whole body on real pages), 2 ratio/max ratio",
    )
}

for _name, _words, _leaves, _summary in (
    ("wlr", True, True, "words/leaves ratio, relevance, best node"),
    ("clr", False, True, "characters/leaves ratio (WLR machinery)"),
    ("wnr", True, False, "words/nodes ratio (WLR machinery)"),
    ("cnr", False, False, "characters/nodes ratio (WLR machinery)"),
):
    register(Algorithm(_name, _variant(_words, _leaves), 1.0, _PAPER, _summary, params=_PARAMS))
