"""Extraction quality metrics: the benchmarks' own and the seed papers' LCS measure.

- :func:`word_scores`: WCXB's word-bag metric (``shared/benchmarks/README.md``).
- :func:`shingle_counts` and :func:`shingle_means`: the article-extraction-benchmark's
  4-gram shingle metric (its ``evaluate.py``).
- :func:`snippet_counts` and :func:`snippet_scores`: trafilatura's evaluation metric
  (its ``tests/comparison.py``): snippets the text must and must not contain.
- :func:`lcs_scores`: the word-sequence LCS precision/recall of CETD (Sun et al., SIGIR
  2011) and CEPR (Wu et al., 2016), both in the evaluation measures of their experiments
  sections, and the CleanEval-style score derived from the LCS.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "LcsScores",
    "Scores",
    "ShingleCounts",
    "SnippetCounts",
    "f1_score",
    "lcs_length",
    "lcs_scores",
    "lcs_sequence_scores",
    "shingle_counts",
    "shingle_means",
    "snippet_counts",
    "snippet_scores",
    "word_bag_scores",
    "word_scores",
    "words",
]

_WORD = re.compile(r"\w+")
SHINGLE_SIZE = 4


@dataclass(frozen=True)
class Scores:
    """Precision, recall and F1 of one page (or their means over pages)."""

    precision: float
    recall: float
    f1: float


@dataclass(frozen=True)
class LcsScores(Scores):
    """LCS precision/recall/F1 plus the CleanEval-style score ``LCS / (|a| + |b| - LCS)``."""

    cleaneval: float


@dataclass(frozen=True)
class ShingleCounts:
    """Shingle multiset overlap of one page: true positives, false positives, false negatives."""

    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float | None:
        """``tp / (tp + fp)``; ``None`` when nothing was predicted (left out of the mean)."""
        if self.tp + self.fp == 0:
            return None
        return self.tp / (self.tp + self.fp)

    @property
    def recall(self) -> float | None:
        """``tp / (tp + fn)``; ``None`` when the gold has no shingle (left out of the mean)."""
        if self.tp + self.fn == 0:
            return None
        return self.tp / (self.tp + self.fn)


def f1_score(precision: float, recall: float) -> float:
    """Harmonic mean of precision and recall (0 when both are 0)."""
    total = precision + recall
    return 2 * precision * recall / total if total else 0.0


def words(text: str) -> list[str]:
    """Lower-case ``\\w+`` tokens, in order."""
    return _WORD.findall(text.lower())


def word_scores(extracted: str, gold: str) -> Scores:
    """WCXB's metric: lower-case ``\\w+`` word multisets.

    ``precision = overlap / extracted words``, ``recall = overlap / gold words``; an empty
    gold with an empty extraction scores 1, an empty side otherwise gives 0.
    """
    return word_bag_scores(words(extracted), words(gold))


def word_bag_scores(extracted: Sequence[str], gold: Sequence[str]) -> Scores:
    """:func:`word_scores` on already tokenized texts."""
    got = Counter(extracted)
    want = Counter(gold)
    if not got and not want:
        return Scores(1.0, 1.0, 1.0)
    overlap = sum((got & want).values())
    precision = overlap / len(extracted) if extracted else 0.0
    recall = overlap / len(gold) if gold else 0.0
    return Scores(precision, recall, f1_score(precision, recall))


def _shingles(text: str, size: int) -> Counter[tuple[str, ...]]:
    tokens = _WORD.findall(text)
    if not tokens:
        return Counter()
    if len(tokens) < size:
        return Counter([tuple(tokens)])
    return Counter(tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1))


def shingle_counts(extracted: str, gold: str, size: int = SHINGLE_SIZE) -> ShingleCounts:
    """The article-extraction-benchmark's per-page shingle overlap.

    Tokens are ``\\w+`` with case kept (as the benchmark's ``evaluate.py`` does); shingles
    are the multiset of ``size`` consecutive tokens, and a text shorter than ``size``
    tokens is one shingle of all its tokens.
    """
    got = _shingles(extracted, size)
    want = _shingles(gold, size)
    tp = sum((got & want).values())
    return ShingleCounts(tp=tp, fp=sum(got.values()) - tp, fn=sum(want.values()) - tp)


@dataclass(frozen=True)
class SnippetCounts:
    """trafilatura's metric on one page: ``with`` snippets found (``tp``) and missed
    (``fn``), ``without`` snippets found (``fp``) and absent (``tn``)."""

    tp: int
    fp: int
    fn: int
    tn: int


_SPACE = re.compile(r"\s+")


def _normalized(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def snippet_counts(extracted: str, with_snippets: Iterable[str], without_snippets: Iterable[str]) -> SnippetCounts:
    """Which snippets occur in ``extracted``, both sides with white space runs made one space."""
    text = _normalized(extracted)
    found_with = [(_normalized(s) in text) for s in with_snippets]
    found_without = [(_normalized(s) in text) for s in without_snippets]
    tp, fp = sum(found_with), sum(found_without)
    return SnippetCounts(tp, fp, len(found_with) - tp, len(found_without) - fp)


def snippet_scores(pages: Iterable[SnippetCounts]) -> tuple[Scores, float]:
    """Precision, recall and F1 from the counts summed over all pages, and the accuracy
    ``(tp + tn) / all snippets``."""
    tp = fp = fn = tn = 0
    for counts in pages:
        tp, fp, fn, tn = tp + counts.tp, fp + counts.fp, fn + counts.fn, tn + counts.tn
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    total = tp + fp + fn + tn
    return Scores(precision, recall, f1_score(precision, recall)), (tp + tn) / total if total else 0.0


def _page_precision(counts: ShingleCounts) -> float:
    return 1.0 if counts.fp == counts.fn == 0 else counts.tp / (counts.tp + counts.fp)


def _page_recall(counts: ShingleCounts) -> float:
    return 1.0 if counts.fp == counts.fn == 0 else counts.tp / (counts.tp + counts.fn)


def shingle_means(pages: Iterable[ShingleCounts]) -> Scores:
    """The benchmark's aggregate: mean precision over pages with predicted shingles, mean
    recall over pages with gold shingles, F1 of the two means (an empty mean is 0)."""
    precisions: list[float] = []
    recalls: list[float] = []
    for counts in pages:
        if counts.tp + counts.fp > 0:
            precisions.append(_page_precision(counts))
        if counts.tp + counts.fn > 0:
            recalls.append(_page_recall(counts))
    precision = sum(precisions) / len(precisions) if precisions else 0.0
    recall = sum(recalls) / len(recalls) if recalls else 0.0
    return Scores(precision, recall, f1_score(precision, recall))


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token sequences.

    Bit-parallel (Allison and Dix 1986, in Hyyrö's 2004 form) over Python integers: bit
    ``j`` of ``match[token]`` is set where ``long[j] == token``; a vector ``v`` of
    ``len(long)`` bits, all ones at the start, is updated once per token of the shorter
    sequence with ``u = v & match[token]; v = ((v + u) | (v - u)) & ones``.  The LCS
    length is the number of zero bits left in ``v``.  Tokens absent from the other
    sequence leave ``v`` unchanged and are skipped.  Cost: ``O(len(short) * len(long) / w)``.
    """
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if not short:
        return 0
    match: dict[str, int] = {}
    for j, token in enumerate(long):
        match[token] = match.get(token, 0) | (1 << j)
    ones = (1 << len(long)) - 1
    v = ones
    for token in short:
        bits = match.get(token)
        if bits is None:
            continue
        u = v & bits
        v = ((v + u) | (v - u)) & ones
    return len(long) - v.bit_count()


def lcs_scores(extracted: str, gold: str) -> LcsScores:
    """The seed papers' metric over word sequences (every occurrence distinct).

    ``precision = |LCS(a, b)| / |a|``, ``recall = |LCS(a, b)| / |b|`` with ``a`` the
    extracted words and ``b`` the gold words (CETD and CEPR, evaluation measures of
    their experiments sections; **Interpretation**: words are our lower-case ``\\w+`` tokens),
    and ``cleaneval = |LCS| / (|a| + |b| - |LCS|)``: CleanEval's insert/delete alignment
    score (``LCS / alignmentLength``) as the CETD paper rewrites it.  Both empty: all 1; one
    empty: 0.
    """
    return lcs_sequence_scores(words(extracted), words(gold))


def lcs_sequence_scores(a: Sequence[str], b: Sequence[str]) -> LcsScores:
    """:func:`lcs_scores` on already tokenized texts."""
    if not a and not b:
        return LcsScores(1.0, 1.0, 1.0, 1.0)
    common = lcs_length(a, b)
    precision = common / len(a) if a else 0.0
    recall = common / len(b) if b else 0.0
    return LcsScores(precision, recall, f1_score(precision, recall), common / (len(a) + len(b) - common))
