"""The committed WCXB fixture pages and the benchmark's word-F1 metric, for quality tests."""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures" / "wcxb"
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class FixturePage:
    page_id: str
    html: bytes
    gold: str
    page_type: str
    url: str


def fixture_pages() -> Iterator[FixturePage]:
    for path in sorted((FIXTURES / "ground-truth").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        yield FixturePage(
            page_id=path.stem,
            html=gzip.decompress((FIXTURES / "html" / f"{path.stem}.html.gz").read_bytes()),
            gold=record["ground_truth"].get("main_content") or "",
            page_type=record["_internal"]["page_type"]["primary"],
            url=record["url"],
        )


def word_f1(extracted: str, gold: str) -> float:
    """WCXB's metric: F1 of lower-case ``\\w+`` word multisets (both empty: 1)."""
    got = Counter(_WORD.findall(extracted.lower()))
    want = Counter(_WORD.findall(gold.lower()))
    if not got and not want:
        return 1.0
    overlap = sum((got & want).values())
    if not overlap:
        return 0.0
    precision = overlap / sum(got.values())
    recall = overlap / sum(want.values())
    return 2 * precision * recall / (precision + recall)
