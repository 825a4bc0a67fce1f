"""``orphan_headings``: a kept heading whose section was left out goes with it."""

from __future__ import annotations

from itertools import compress

import numpy as np

from ...page import Page
from .data import HEADING_TAGS

__all__ = ["HEADING_MAX_CHARS", "orphan_headings"]

#: Only a heading of at most this many characters is read (a longer one holds more than a title).
HEADING_MAX_CHARS = 150


def orphan_headings(page: Page, blocks: list[int], removed: list[bool], dropped: list[bool]) -> list[int]:
    """The kept headings (``h1``-``h6``) whose section was left out: in the heading's
    container (its nearest ancestor holding more text than the heading), the text after
    the heading is all left out (pruned, or outside the kept blocks; text ``dropped``
    before counting, a caption, is not read).  A "Related articles" or "Tags" heading
    whose links ``link_pruning`` removed, a newsletter box's title whose form went.  The
    headings' flags are set in ``removed`` (in place); they are returned.

    Read on articles only (the pipeline's call): on all pages it also took the headings of
    service and listing pages whose parts were wrongly left out (wcxb-dev 0.8695 -> 0.8690).
    On articles, ``scrapy-cetd evaluate`` on the three dev sets: trafilatura-eval 0.9131 ->
    0.9141 (7 boilerplate snippets fewer, no story snippet lost), wcxb-dev 0.86945 ->
    0.86942 (24 pages up, 11 down), readability-pages 0.9367 both."""
    tags, end, chars, parent = page.tags, page.end, page.chars, page.parent
    inside = np.zeros(len(page), dtype=bool)
    candidates: list[int] = []
    for block in sorted(blocks):
        if inside[block]:
            continue
        inside[block : end[block]] = True
        for h in compress(range(block, end[block]), map(HEADING_TAGS.__contains__, tags[block : end[block]])):
            if 0 < chars[h] <= HEADING_MAX_CHARS and not removed[h]:
                candidates.append(h)
    if not candidates:
        return []
    owners = page.run_owner_array
    selected = inside[owners] & ~np.frombuffer(bytes(removed), dtype=bool)[owners]
    read = ~np.frombuffer(bytes(dropped), dtype=bool)[owners]
    run_chars = page.run_chars_array
    kept = np.concatenate(([0], np.cumsum(np.where(selected, run_chars, 0))))
    left_out = np.concatenate(([0], np.cumsum(np.where(~selected & read, run_chars, 0))))
    keys = page.run_key_array
    # Each run's place in document order: an element's text at 2i, a tail after its
    # element's subtree, at 2 end - 1 (non-decreasing over the runs).
    place = np.where(keys & 1, 2 * np.asarray(end)[keys >> 1] - 1, keys)
    found = []
    for h in candidates:
        if removed[h]:
            continue
        container = parent[h]
        while container > 0 and chars[container] == chars[h]:
            container = parent[container]
        first = int(np.searchsorted(place, 2 * end[h] - 1))
        while first < len(owners) and h <= owners[first] < end[h]:
            first += 1  # a tail inside the heading
        last = int(np.searchsorted(place, 2 * end[container] - 1, "right"))
        if last and keys[last - 1] == 2 * container + 1:
            last -= 1  # the container's own tail
        if kept[last] == kept[first] and left_out[last] > left_out[first]:
            removed[h : end[h]] = [True] * (end[h] - h)
            found.append(h)
    return found
