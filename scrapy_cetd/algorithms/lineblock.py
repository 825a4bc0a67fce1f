"""Line-Block content extraction with TTR, ATTR and TKD (docs/algorithms.md, Line-Block).

One registered algorithm, ``lineblock``:

1. Preprocessing (section 5, step 1): ``head``, scripts, styles and comments are gone —
   the source lines are re-created from the cleaned ``<body>`` (see :mod:`._lines`), so
   ``extract()`` and ``extract_tree()`` see the same lines.
2. Re-breaking (step 2, section 4.1 A): the text's own line breaks end lines, block tags
   (``p``, ``div``, ``h1``..``h6``, ``li``, ``td``, ``br``, ...: the project's
   ``BLOCK_TAGS``) start a new line and their end tags end one, and a hyperlink is never
   cut (line breaks inside ``<a>...</a>`` do not end the line).  Blank lines are dropped.
3. Line-blocks (step 2, section 4.1 B), **Interpretation**: consecutive text lines are
   merged while the gap between neighbouring text lines, counted in lines without text,
   is at most ``block_distance`` (default 1), and a block ends at a block-level
   boundary: a line opened by a block tag (its start tag, or the text after its end
   tag) starts a new block.  ``block_boundaries=0`` drops that second rule (blocks then
   merge across block elements, the looser reading of "line-block").  A block spans its
   lines from its first to its last text line, the text-less lines in between included.
4. Features per block (section 4.1 C, equations 1-2): ``TTR = text length / tags``
   (0 tags read as 1); ``ATTR = anchor text length / text length``, anchor text being the
   text inside ``a``, ``button`` and ``select`` (the project's link elements).
   **Interpretation** of TKD: equation 3 as extracted reads
   ``TKD = 1 - m / (m + sum_i F(m_i))``, which lies in [0, 1), so the paper's threshold
   2 could never be met.  We use ``TKD = 100 * (occurrences of title keywords in the
   block) / (words in the block)``, a keyword density *in percent*, so that the paper's
   ``tau_TKD = 2`` reads "2% of the block's words are title keywords".  Title keywords:
   the page title's lower-case ``\\w+`` words of two or more characters, less English
   stopwords.
5. Classification (section 5, steps 3-4): a block is content if ``TTR > tau_TTR`` and
   ``ATTR < tau_ATTR``; a block that fails only on TTR is rescued if
   ``TKD >= tau_TKD`` (step 3: TKD "add[s] it [to] the output"; step 4's literal
   conjunction of all three tests would also drop long text blocks that do not repeat
   the title's words).  Parameters: ``tau_ttr``, ``tau_attr``, ``tau_tkd``,
   ``block_distance``, ``block_boundaries``.  The paper writes its thresholds as
   ``tau = lambda * sigma`` (section 4.2) and fixes 30, 0.2 and 2; the threshold
   coefficient ``c`` plays
   ``lambda``: the thresholds used are ``c * tau_TTR``, ``tau_ATTR / c`` and
   ``c * tau_TKD``, so a larger ``c`` is stricter on all three and ``c = 0`` keeps every
   block.

The content lines map back to DOM text runs (a run is content when at least half of its
characters lie on content lines), so the renderer gives text and cleaned HTML.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..extraction import Selection
from ..page import Page
from ..registry import Algorithm, Param, register
from ._lines import Line, content_runs, split_lines, tokens

__all__ = ["Block", "STOPWORDS", "line_blocks", "lineblock_lines", "title_keywords"]

_WORD = re.compile(r"\w+")

#: English stopwords removed from the title's words (common function words).
STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours
    yourself yourselves""".split()
)


@dataclass
class Block:
    """A line-block: lines ``start..stop-1`` and its three features."""

    start: int
    stop: int
    text_length: int
    tags: int
    anchor_length: int
    words: int
    keyword_hits: int

    @property
    def ttr(self) -> float:
        """Equation 1: ``TTR = text length / tags`` (0 tags read as 1)."""
        return self.text_length / (self.tags or 1)

    @property
    def attr(self) -> float:
        """Equation 2: ``ATTR = anchor text length / text length``."""
        return self.anchor_length / self.text_length if self.text_length else 0.0

    @property
    def tkd(self) -> float:
        """Title keyword density in percent: ``100 * keyword occurrences / words``."""
        return 100.0 * self.keyword_hits / self.words if self.words else 0.0


def lineblock_lines(page: Page) -> list[Line]:
    """The re-broken source lines (step 2): block tags start lines, links are never cut."""
    return split_lines(tokens(page), block_breaks=True)


def title_keywords(title: str | None) -> frozenset[str]:
    """The title's lower-case words of two or more characters, less stopwords."""
    if not title:
        return frozenset()
    return frozenset(w for w in _WORD.findall(title.lower()) if len(w) > 1 and w not in STOPWORDS)


def line_blocks(
    lines: Sequence[Line], block_distance: int, keywords: frozenset[str], block_boundaries: bool = True
) -> list[Block]:
    """Group text lines into line-blocks (step 2) and compute their features (step 3).

    A text line joins the current block when at most ``block_distance`` lines without
    text separate it from the block's last text line and, with ``block_boundaries``,
    when it does not begin at a block-level boundary (a line opened by a block tag).
    """
    blocks: list[Block] = []
    current: Block | None = None
    last_text = -1
    for i, line in enumerate(lines):
        if not line.pieces:
            continue
        if current is None or i - last_text - 1 > block_distance or (block_boundaries and line.starts_block):
            current = Block(i, i, 0, 0, 0, 0, 0)
            blocks.append(current)
        for between in lines[current.stop : i + 1]:
            current.tags += between.tags
        current.stop = i + 1
        text = line.text
        current.text_length += len(text)
        current.anchor_length += line.link_chars
        words = _WORD.findall(text.lower())
        current.words += len(words)
        if keywords:
            current.keyword_hits += sum(1 for w in words if w in keywords)
        last_text = i
    return blocks


def _lineblock(
    page: Page,
    coefficient: float,
    tau_ttr: float,
    tau_attr: float,
    tau_tkd: float,
    block_distance: int,
    block_boundaries: int,
) -> Selection:
    """Classify the line-blocks with the three thresholds scaled by the coefficient (step 4)."""
    lines = lineblock_lines(page)
    keywords = title_keywords(page.title)
    blocks = line_blocks(lines, block_distance, keywords, bool(block_boundaries))
    min_ttr = coefficient * tau_ttr
    max_attr = tau_attr / coefficient if coefficient else math.inf
    min_tkd = coefficient * tau_tkd
    is_content = [False] * len(lines)
    kept = 0
    for block in blocks:
        if block.attr < max_attr and (block.ttr > min_ttr or block.tkd >= min_tkd):
            is_content[block.start : block.stop] = [True] * (block.stop - block.start)
            kept += 1
    return Selection(
        threshold=min_ttr,
        runs=content_runs(lines, is_content),
        lines=[line.text for line, content in zip(lines, is_content) if content and line.pieces],
        diagnostics={
            "lines": len(lines),
            "blocks": len(blocks),
            "content_blocks": kept,
            "title_keywords": sorted(keywords),
            "thresholds": {"TTR": min_ttr, "ATTR": max_attr, "TKD": min_tkd},
        },
    )


register(Algorithm(
    "lineblock",
    _lineblock,
    1.0,
    "Line-Block with TTR, ATTR and TKD (the title is missing from our copy of the paper)",
    "line-blocks of the source classified by text-to-tag ratio, anchor text ratio and title keyword density",
    params={
        "tau_ttr": Param(30.0, 0.0, doc="TTR threshold: content needs TTR > coefficient * tau_ttr"),
        "tau_attr": Param(0.2, 0.0, doc="ATTR threshold: content needs ATTR < tau_attr / coefficient"),
        "tau_tkd": Param(2.0, 0.0, doc="TKD threshold, in percent: rescues a block if TKD >= coefficient * tau_tkd"),
        "block_distance": Param(1, 0, 1000, integer=True, doc="most text-less lines between two lines of one block"),
        "block_boundaries": Param(
            1, 0, 1, integer=True, doc="1: a line opened by a block tag starts a block; 0: only block_distance splits"
        ),
    },
))
