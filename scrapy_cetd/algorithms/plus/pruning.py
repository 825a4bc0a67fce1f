"""Pruning inside and around the kept blocks: ``labelled_parts``, ``form_parts``,
``headline``, ``link_pruning`` (not ``linked_headings``), ``stock_lines``,
``labelled_paragraphs``, ``photo_credits`` and ``read_also_lines``; on articles the story's edges (:mod:`.edges`)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from typing import Any

from ...page import BLOCK_TAGS, Page, element_text
from ..labels import ARTICLE_NOISE, COMMENT, NOT_CONTENT, label_of
from . import rules
from .blocks import LEAD_MIN_CHARS, is_one_line
from .data import (
    AGENCY_NAMES,
    ARTICLE_LABELLED_TAGS,
    CREDIT,
    CREDIT_WORD_RUNS,
    FORM_TAGS,
    LABELLED_TAGS,
    LINE_TAGS,
    LINK_PRUNE_SPARED_TAGS,
    MODERATION_WORDS,
    QUOTE_TAGS,
    SCANNED_TAGS,
    STOCK_LINE,
    STOCK_RUNS,
)
from .edges import story_edges
from .reading import chars_in, class_and_id, element_label, joined_runs, owners_of_hits, short_runs
from .rules import Named
from .statistics import Counts
from .texts import CREDIT_MAX_CHARS, STOCK_MAX_CHARS, is_credit, is_stock_line

__all__ = [
    "COMMENT_NOTICE_MAX_CHARS",
    "LINKED_CELL_TAGS",
    "LINKED_HEADING_MIN_CONTEXT",
    "NOISE_MAX_SHARE",
    "PRUNE_BLOCK_MAX_LINK_DENSITY",
    "QUOTE_MIN_SHARE",
    "READ_ALSO_MAX_CHARS",
    "prune",
]

#: ``link_pruning``: a kept block is pruned only if its own link density is below this.
PRUNE_BLOCK_MAX_LINK_DENSITY = 0.3

#: ``linked_cells``: ``link_pruning`` never prunes a table's row or cell: a linked name or
#: product heads a row of data (a film in a list of films, an ingredient, a download), and
#: a table of links alone still goes whole.  Three dev sets, ``scrapy-cetd evaluate``
#: (before -> after): wcxb-dev F1 0.86947 -> 0.86955 (17 pages up, 5 down),
#: trafilatura-eval 0.91544 -> 0.91579 (2 up, none down), readability-pages 0.93705 ->
#: 0.93746 (3 up, none down).
LINKED_CELL_TAGS = frozenset({"td", "th", "tr"})


#: ``labelled_parts``: a part labelled as noise (not as comments) is removed only if it holds at most
#: this share of the top block's characters.
NOISE_MAX_SHARE = 0.5


def _is_headline(page: Page, i: int, title: str) -> bool:
    """``headline``: the element's text, whitespace collapsed, lies within the page's ``<title>``
    (case ignored): the story's headline, which belongs in ``title``, not in ``text``."""
    text = element_text(page.elements[i]).casefold()
    return bool(text) and text in title.casefold()


def _stock_candidates(page: Page, ranges: list[tuple[int, int]]) -> set[int]:
    """``stock_lines``'s candidates in the element ranges ``[start, stop)`` the pruning scan reads:
    the elements of at most ``STOCK_MAX_CHARS`` characters owning a text run that is a
    stock line, and their ancestors as short.  One regular-expression scan over the runs of
    such short elements in the ranges (joined by newlines), so that the pruning scan reads
    the text of these few elements only.  Reading only those runs rather than all the
    page's runs of at most ``STOCK_MAX_CHARS`` characters: on the median first-half dev
    page, 0.97x the selection's time (one-process A/B, best of 5)."""
    if not ranges:
        return set()
    runs = short_runs(page, STOCK_MAX_CHARS, ranges)
    joined = joined_runs(page, runs)
    hits = [m.start() for m in STOCK_RUNS.finditer(joined)]
    return owners_of_hits(page, runs, joined, hits, STOCK_MAX_CHARS)


def prune(
    page: Page, blocks: list[int], top: int, counts: Counts, link_prune: float, info: dict[str, Any]
) -> tuple[list[int], list[bool], list[int]]:
    """``link_pruning`` and ``labelled_parts``: drop what the page labels as not the story, and link-dense parts.

    ``labelled_parts`` (labels, :mod:`.labels`), never applied to the top block or its ancestors: a
    kept block lying in a labelled element below its common ancestor with the top block is
    dropped; inside a kept block, the highest labelled descendants are removed.  A comment
    label always counts (unless the top block itself lies in a comment section: a forum
    or a comment page); another label only on a part of at most ``NOISE_MAX_SHARE`` of the
    top block's characters.

    ``link_pruning``: inside a kept block whose link density is below ``PRUNE_BLOCK_MAX_LINK_DENSITY``,
    the highest block-level descendants with ``LC >= link_prune * C`` are removed.

    A block nested in one already scanned is skipped (the outer scan saw its descendants,
    with the same per-element tests), so each element is scanned at most once: linear in
    the page at any nesting depth.  Returns the blocks kept, the removal flags with the
    pruned subtrees added, and the comment sections found.
    """
    removed = counts.removed[:]
    chars, link_chars = counts.chars, counts.link_chars
    tags, end, parent = page.tags, page.end, page.parent
    top_path = page.path_to_body(top)
    on_top_path = set(top_path)
    labels: dict[int, str | None] = {}  # each element's label read once (the walks, the scans, the comments)

    def label(i: int) -> str | None:
        found = labels.get(i, False)
        if found is False:
            found = labels[i] = element_label(page, i)
        return found  # type: ignore[return-value]

    in_comments: bool | None = None  # read when a comment label is first found: most pages have none

    def top_in_comments() -> bool:
        """Whether the top block lies in a comment section (a comment label on its path)."""
        nonlocal in_comments
        if in_comments is None:
            in_comments = any(label(x) == COMMENT for x in top_path[:-1])
        return in_comments

    noise_max = NOISE_MAX_SHARE * chars[top]
    on_article = bool(info.get("top_is_lone_prose"))

    title = page.title or ""
    forms, headline, labelled_parts = rules.on("form_parts"), rules.on("headline"), rules.on("labelled_parts")
    quoted_embeds, not_content = rules.on("quoted_embeds"), rules.on("not_content")

    def unwanted(i: int) -> bool:
        tag = tags[i]
        if tag not in LABELLED_TAGS:
            return False
        if tag in FORM_TAGS:
            return forms
        if tag == "h1":
            return headline and bool(title) and _is_headline(page, i, title)
        found = label(i) if labelled_parts else None
        if found is None:
            return False
        if found == NOT_CONTENT:
            return not_content
        if found == COMMENT:
            return not top_in_comments()
        if found == ARTICLE_NOISE and (not on_article or _story_teaser(page, i, top, chars)):
            return False
        return chars[i] <= noise_max and not (quoted_embeds and _quotes_a_post(page, i))

    kept = []
    labelled = []
    #: The labelled element each walked element lies in (-1: none, as on the top block's path).
    lies_in = dict.fromkeys(on_top_path, -1)
    for block in sorted(blocks):
        walked = []
        x = block
        while x not in lies_in and (tags[x] not in LABELLED_TAGS or not unwanted(x)):
            walked.append(x)
            x = parent[x]
        found = lies_in.setdefault(x, x)
        for x in walked:
            lies_in[x] = found
        if block == top or found < 0:
            kept.append(block)
        else:
            labelled.append(found)
    pruned: list[int] = []
    if info.get("top_is_lone_prose"):
        edges, kept = story_edges(page, kept, top, removed, info)
        pruned += edges
    # The kept blocks' descendants, once each: a block inside one already scanned is skipped,
    # and a kept <pre> is not scanned (nothing inside code is pruned).
    scanned: list[int] = []
    for block in kept:
        if scanned and block < end[scanned[-1]]:
            continue
        if chars[block] and end[block] > block + 1 and tags[block] != "pre":
            scanned.append(block)
    ranges = [(block + 1, end[block]) for block in scanned]
    # a thread's linked post titles still go
    spare_headings = rules.on("linked_headings") and not info.get("peer_items")
    spare_cells = rules.on("linked_cells")
    read_also: set[int] = set()
    if on_article and rules.on("read_also_lines"):
        stock, read_also = _read_also_candidates(page, ranges)
        if not rules.on("stock_lines"):
            stock = set()
    else:
        stock = _stock_candidates(page, ranges) if rules.on("stock_lines") else set()
    credits = _credit_candidates(page, ranges) if on_article and rules.on("photo_credits") else set()
    labelled_paragraphs = on_article and rules.on("labelled_paragraphs")
    link_pruning = link_prune <= 1.0 and rules.on("link_pruning")
    for block, (start, stop) in zip(scanned, ranges):
        prune_links = link_pruning and link_chars[block] < PRUNE_BLOCK_MAX_LINK_DENSITY * chars[block]
        # The descendants in document order, those of the tags the rules read only (picked
        # at C level), skipping decided ones: removed (with their subtrees: the flags cover
        # whole subtrees) or empty (so are their descendants).
        code_end = 0  # the end of the <pre> the scan is in: nothing inside code is pruned
        for node in compress(range(start, stop), map(SCANNED_TAGS.__contains__, tags[start:stop])):
            c = chars[node]
            if not c or removed[node] or node < code_end:
                continue
            if tags[node] == "pre":
                code_end = end[node]
                continue
            if (
                (
                    prune_links
                    and tags[node] in BLOCK_TAGS
                    and link_chars[node] >= link_prune * c
                    and not (spare_cells and tags[node] in LINKED_CELL_TAGS)
                    and not (
                        spare_headings
                        and tags[node] in LINK_PRUNE_SPARED_TAGS
                        and chars[parent[node]] >= LINKED_HEADING_MIN_CONTEXT * c
                    )
                )
                or (tags[node] in LABELLED_TAGS and node not in on_top_path and unwanted(node))
                or (node in stock and tags[node] in LINE_TAGS and is_stock_line(element_text(page.elements[node])))
                or (labelled_paragraphs and tags[node] in ARTICLE_LABELLED_TAGS and _article_noise_label(page, node))
                or (node in credits and tags[node] in LINE_TAGS and is_credit(element_text(page.elements[node])))
                or (node in read_also and tags[node] in LINE_TAGS and _is_read_also(page, node))
            ):
                removed[node : end[node]] = [True] * (end[node] - node)
                pruned.append(node)
    comments = [i for i in sorted(set(labelled + pruned)) if label(i) == COMMENT]
    if comments and top_in_comments():
        comments = []
    # Read only where a comment section was found in or beside the kept blocks: the scan's
    # cost is paid by the few pages with comments there.
    if comments and on_article and rules.on("comment_notices"):
        notices = _comment_notices(page, ranges, removed, label)
        if notices:
            info["comment_notices"] = Named(notices)
    if pruned:
        info["pruned"] = Named(sorted(pruned))
    if labelled:
        info["dropped_labelled"] = Named(sorted(set(labelled)))
    return kept, removed, comments


#: ... when the heading's parent holds at least this many times its characters (a card's
#: linked title beside a one-line teaser still goes: 3 lowered a forum page of the even
#: fold, 5 and 10 no page type), and never where the top block is an item of a repeated
#: group (``peer_items``: a thread's posts, whose linked titles "Re: ..." the gold leaves out).
LINKED_HEADING_MIN_CONTEXT = 5


def _article_noise_label(page: Page, i: int) -> bool:
    """``labelled_paragraphs``: element ``i``'s ``class`` and ``id`` are an article-noise label
    (:func:`~.labels.label_of`; a comment or noise word wins, as in ``labelled_parts``).  Two attribute
    reads, not ``labelled_parts``'s walk over all attributes (for the ``data-*`` ones): a paragraph is
    rarely a component, and this rule reads every paragraph of an article's kept blocks."""
    value = class_and_id(page.elements[i])
    return bool(value) and label_of(value) == ARTICLE_NOISE


def _credit_candidates(page: Page, ranges: list[tuple[int, int]]) -> set[int]:
    """``photo_credits``'s candidates in the element ranges ``[start, stop)`` the pruning scan reads:
    the elements of at most ``CREDIT_MAX_CHARS`` characters owning a text run that is a
    credit, and their ancestors as short.  The runs of such short elements in the ranges
    are lower-cased and joined by newlines, as ``stock_lines``'s; the credits opening with their
    word ("photo:", "credit:") are found by one anchored pattern, those naming an agency by
    ``str.find`` of the agencies' names and a check of the run (a pattern finding both cost
    0.1 ms a page)."""
    if not ranges:
        return set()
    runs = short_runs(page, CREDIT_MAX_CHARS, ranges)
    joined = joined_runs(page, runs)
    hits = [match.start() for match in CREDIT_WORD_RUNS.finditer(joined)]
    for agency in AGENCY_NAMES:
        at = joined.find(agency)
        while at >= 0:
            start, stop = joined.rfind("\n", 0, at), joined.find("\n", at)
            if CREDIT.fullmatch(joined, start + 1, stop) is not None:
                hits.append(start)
            at = joined.find(agency, stop)
    return owners_of_hits(page, runs, joined, hits, CREDIT_MAX_CHARS)


#: ``quoted_embeds``: the share of a labelled part's characters in :data:`QUOTE_TAGS` that
#: makes it a quoted post.
QUOTE_MIN_SHARE = 0.5


def _quotes_a_post(page: Page, i: int) -> bool:
    """``quoted_embeds``: element ``i``, labelled as noise (a ``social`` embed's box), holds
    its text mostly in a ``<blockquote>``: a post the story quotes, kept."""
    return (
        "blockquote" in page.tags[i : page.end[i]] and chars_in(page, i, QUOTE_TAGS) >= QUOTE_MIN_SHARE * page.chars[i]
    )


#: ``comment_notices``: a notice is a block-level text of at most this many characters.
COMMENT_NOTICE_MAX_CHARS = 400


def _comment_notices(
    page: Page, ranges: list[tuple[int, int]], removed: list[bool], label: Callable[[int], str | None]
) -> list[int]:
    """``comment_notices``, on an article: in the kept blocks' ``ranges``, a short block-level
    text holding a word about moderation (:data:`MODERATION_WORDS`: "ATENÇÃO: Comentários com
    textos ininteligíveis não serão aprovados pelo moderador", "Kommentare werden
    moderiert") whose next or previous sibling with text is a comment section (a comment
    label) is the section's notice, not the story: removed (flags set in place; returned).
    The short runs are joined as ``stock_lines``'s and searched for the words' beginnings;
    only the candidates' siblings' labels are read."""
    if not ranges:
        return []
    runs = short_runs(page, COMMENT_NOTICE_MAX_CHARS, ranges)
    joined = joined_runs(page, runs)
    hits = []
    for stem in ("moder", "modér"):  # the words' two beginnings, found by C-level searches
        at = joined.find(stem)
        while at >= 0:
            if not joined[at - 1].isalpha() and joined.startswith(MODERATION_WORDS, at):
                hits.append(joined.rfind("\n", 0, at))
            at = joined.find(stem, at + 1)
    if not hits:
        return []
    chars, end, parent, tags = page.chars, page.end, page.parent, page.tags
    found: list[int] = []
    for x in sorted(owners_of_hits(page, runs, joined, hits, COMMENT_NOTICE_MAX_CHARS)):
        if removed[x] or tags[x] not in LINE_TAGS or parent[x] < 0:
            continue
        siblings = [s for s in page.children_of(parent[x]) if chars[s]]
        k = siblings.index(x)
        beside = siblings[k - 1 : k] + siblings[k + 1 : k + 2]
        if any(label(s) == COMMENT for s in beside):
            removed[x : end[x]] = [True] * (end[x] - x)
            found.append(x)
    return found


def _story_teaser(page: Page, i: int, top: int, chars: list[int]) -> bool:
    """``labelled_parts``: whether the part ``i`` labelled as article noise (``teaser``,
    ``promo``, ...) is the story's own teaser, which stays: before the top block, one line
    (at most one block-level element inside) of ``LEAD_MIN_CHARS`` or more characters
    (``div.teaser-text`` holding the standfirst).  Three dev sets, ``scrapy-cetd evaluate``:
    trafilatura-eval F1 0.91455 -> 0.91544 (5 pages up, none down); wcxb-dev and
    readability-pages unchanged.  The same test on ``labelled_paragraphs``'s paragraphs
    lowered a wcxb-dev page and was not kept."""
    return page.end[i] <= top and chars[i] >= LEAD_MIN_CHARS and is_one_line(page, i)


#: ``read_also_lines``: a line of at most this many characters that opens with a stock line
#: and a colon, the rest of it mostly links: "Lesen Sie auch: <a>...</a>", "LE PUEDE
#: INTERESAR: <a>...</a>", "Czytaj też: <a>...</a>".  On articles only; ``scrapy-cetd
#: evaluate`` on the three dev sets: trafilatura-eval 0.9186 -> 0.9193 (5 boilerplate
#: snippets fewer, none of the story's lost), wcxb-dev 0.86964 -> 0.86966, readability-pages
#: unchanged.
READ_ALSO_MAX_CHARS = 250


def _read_also_candidates(page: Page, ranges: list[tuple[int, int]]) -> tuple[set[int], set[int]]:
    """``stock_lines``'s candidates (:func:`_stock_candidates`) and ``read_also_lines``'s, from
    one scan: the runs of at most ``STOCK_MAX_CHARS`` characters owned by elements of at
    most ``READ_ALSO_MAX_CHARS`` characters in the ranges (those of ``stock_lines``'s scan
    among them), those that are stock lines, and their owners and ancestors of at most
    ``STOCK_MAX_CHARS`` and ``READ_ALSO_MAX_CHARS`` characters."""
    if not ranges:
        return set(), set()
    runs = short_runs(page, READ_ALSO_MAX_CHARS, ranges, STOCK_MAX_CHARS)
    joined = joined_runs(page, runs)
    hits = [m.start() for m in STOCK_RUNS.finditer(joined)]
    if not hits:
        return set(), set()
    return (
        owners_of_hits(page, runs, joined, hits, STOCK_MAX_CHARS),
        owners_of_hits(page, runs, joined, hits, READ_ALSO_MAX_CHARS),
    )


def _is_read_also(page: Page, i: int) -> bool:
    """``read_also_lines``: element ``i``'s text opens with a stock line ending in a colon,
    and links hold at least half of the characters after it."""
    text = element_text(page.elements[i])
    opening = STOCK_LINE.match(text)
    if opening is None or not opening.group().rstrip().endswith(":"):
        return False
    rest = len(text) - opening.end()
    return rest > 0 and 2 * page.link_chars[i] >= rest
