"""The named rules of cetd-plus, a switch to turn each off, and the diagnostics' entries.

Every rule is named by what it does; the same name is used in the code (``rules.on(name)``
at the rule's one entry point), in the diagnostics, in ``docs/cetd-plus.md`` and in the tests.
:data:`OFF` is empty in use; an ablation (``benchmarks/plus_rules.py --off NAME``) or a test
sets it to measure what one rule does.
"""

from __future__ import annotations

from typing import Any

from ...page import Page

__all__ = ["Named", "OFF", "RULES", "described", "on"]

#: The rules, in the order the selection applies them (``docs/cetd-plus.md`` describes each).
RULES = (
    "removed_elements",  # dialogs, footers, captions, media fallback, noscript notices, permalink signs
    "product_noise",  # reviews and carousels on a product page, removed before counting
    "not_blocks",  # links and asides are never blocks; a <pre> is one block
    "top_outside_chrome",  # the top block is chosen outside the page's furniture
    "list_in_prose",  # a list as top block gives way to its parent in prose
    "story_in_body",  # body is the top block when it holds more text of its own than the top block
    "main_region",  # extra blocks inside the page's main region only
    "peer_items",  # blocks in a peer of the top block's repeated item are kept
    "items_after_article",  # small repeated items after an article are dropped
    "declared_article_alone",  # prose in a group of alike slots stands alone when declared an article
    "block_floor",  # other blocks need block_ratio x the top block's DensitySum
    "lead_paragraph",  # ... but the story's lead beside the top block, just before it, stays
    "twins",  # siblings alike of the top block complete the story
    "rescued_structures",  # tables, lists of terms and code between kept blocks
    "labelled_parts",  # parts labelled as comments or noise
    "not_content",  # parts the page labels as not content (class="nocontent"), whatever their size
    "form_parts",  # drop-downs and forms off the story's path
    "headline",  # the h1 that repeats the <title>
    "datelines",
    "author_bio",
    "legal_lines",
    "subscribe_calls",
    "affiliate_disclosures",
    "contributor_notes",
    "link_pruning",  # link-dense parts of kept blocks
    "linked_headings",  # ... not a linked heading amid its section's text
    "linked_cells",  # ... nor a table's row or cell
    "stock_lines",
    "quoted_embeds",  # ... not a labelled part that quotes a post (an embedded tweet)
    "comment_notices",  # a short text about comments beside a comment section
    "labelled_paragraphs",
    "photo_credits",
    "read_also_lines",  # "Read also: <a>...</a>" lines inside the story
    "forum_furniture",
    "declared_body",  # lines the page's JSON-LD articleBody does not hold
    "orphan_headings",  # a kept heading whose section was left out
)

#: The rules turned off: empty in use, set by ablations and tests.
OFF: frozenset[str] = frozenset()


def on(name: str) -> bool:
    """Whether the rule ``name`` (one of :data:`RULES`) applies."""
    return name not in OFF


class Named:
    """Elements a diagnostics entry names: described (:meth:`~scrapy_cetd.page.Page.describe`)
    only when diagnostics are asked for (:func:`described`), not on every page."""

    __slots__ = ("indices", "suffix")

    def __init__(self, indices: int | list[int], suffix: str = "") -> None:
        self.indices = indices
        self.suffix = suffix

    def described(self, page: Page) -> str | list[str]:
        if isinstance(self.indices, int):
            return page.describe(self.indices) + self.suffix
        return [page.describe(i) for i in self.indices]


def described(page: Page, info: dict[str, Any]) -> dict[str, Any]:
    """The entries of ``info`` naming elements, described."""
    return {key: value.described(page) for key, value in info.items() if isinstance(value, Named)}
