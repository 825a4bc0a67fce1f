"""cetd-plus: CECTD-DS with measured rules beyond the paper.

Faithful CECTD-DS (the CETD paper, Sun, Song, Liao, SIGIR 2011; docs/algorithms.md, CETD)
on the shared page model: the same parse and statistics, the threshold and
``ExtractContent`` walk of the paper's Algorithm 2.
On top of it, rules named by what they do (:data:`.rules.RULES`; the same names in the
diagnostics, ``docs/cetd-plus.md`` and the tests; :data:`.rules.OFF` turns one off for an
ablation).  In the order the selection applies them (:func:`.pipeline.plus_selection`):

- Before counting: ``removed_elements`` (dialogs, footers, captions, media's fallback
  content, ``<noscript>`` notices about JavaScript or holding escaped markup, a heading's
  permalink sign) and, on a product page, ``product_noise`` (reviews, carousels, upsells)
  are taken out of the statistics and the content.  ``not_blocks``: a link or an
  ``<aside>`` is never a block; a ``<pre>`` is one block.
- The top block: chosen outside the page's furniture (``top_outside_chrome``); a list
  standing in prose gives way to its parent (``list_in_prose``); body itself when it holds
  more text of its own than the top block (``story_in_body``).
- The walk's blocks (:mod:`.blocks`): inside the page's ``main_region``; those in a peer of
  the top block's repeated item kept (``peer_items``); small repeated items after an
  article dropped (``items_after_article``; ``declared_article_alone`` reads prose in a
  group of alike slots as an article when the page declares one); the others need
  ``block_ratio`` times the top block's DensitySum (``block_floor``), but for the story's
  lead just before the top block, beside it (``lead_paragraph``).  Siblings alike of the
  top block complete the story (``twins``); tables, lists of terms and code between kept
  blocks are rescued (``rescued_structures``).
- Pruning (:mod:`.pruning`, :mod:`.edges`): ``labelled_parts``, ``form_parts``,
  ``headline``, ``link_pruning`` (sparing ``linked_headings``),
  ``stock_lines``; on an article ``labelled_paragraphs``, ``photo_credits`` and the story's
  edges (``datelines``, ``author_bio``, ``legal_lines``, ``subscribe_calls``,
  ``affiliate_disclosures``, ``contributor_notes``);
  elsewhere ``forum_furniture``; where the page declares its story's text,
  ``declared_body``.  The renderer leaves out repeated stretches of lines
  (``dedupe_min_chars``).

Every decision is recorded in the selection's diagnostics under the rule's name: removed
and pruned subtrees, the main region, the top block, and for each block of the walk why it
was kept or dropped.  The comment sections ``labelled_parts`` finds are the ``comments``
output (:mod:`.comments`).
"""

from .blocks import filter_blocks, main_region
from .declared import declares_article
from .kinds import is_product_page, product_noise_roots
from .pipeline import plus_selection
from .reading import tag_positions
from .statistics import removed_roots
from .texts import (
    is_bio,
    is_call,
    is_credit,
    is_dateline,
    is_disclosure,
    is_forum_stat,
    is_legal,
    is_stock_line,
)

__all__ = [
    "declares_article",
    "filter_blocks",
    "is_bio",
    "is_call",
    "is_credit",
    "is_dateline",
    "is_disclosure",
    "is_forum_stat",
    "is_legal",
    "is_product_page",
    "is_stock_line",
    "main_region",
    "plus_selection",
    "product_noise_roots",
    "removed_roots",
    "tag_positions",
]
