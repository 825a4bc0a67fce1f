"""The evaluation metrics against values counted by hand."""

from __future__ import annotations

import random

import pytest

from scrapy_cetd.evaluation.metrics import (
    LcsScores,
    Scores,
    ShingleCounts,
    lcs_length,
    lcs_scores,
    shingle_counts,
    shingle_means,
    word_scores,
    words,
)


def prf(scores: Scores) -> tuple[float, ...]:
    return (scores.precision, scores.recall, scores.f1)


def lcs4(scores: LcsScores) -> tuple[float, ...]:
    return (scores.precision, scores.recall, scores.f1, scores.cleaneval)


def test_words_are_lower_case_word_tokens() -> None:
    assert words("Hello, World! It's 2026.") == ["hello", "world", "it", "s", "2026"]


def test_word_scores_count_multisets() -> None:
    # extracted: the x2, cat, sat, on, mat (6 words); gold: the, cat, sat (3); overlap 3
    scores = word_scores("the cat sat on the mat", "The cat sat")
    assert scores.precision == pytest.approx(3 / 6)
    assert scores.recall == pytest.approx(3 / 3)
    assert scores.f1 == pytest.approx(2 * 0.5 * 1 / 1.5)


def test_word_scores_repeated_words_count_once_each() -> None:
    # gold has "very" once, extraction three times: overlap 2 of 4 extracted, 2 of 2 gold
    scores = word_scores("very very very good", "very good")
    assert (scores.precision, scores.recall) == pytest.approx((2 / 4, 1.0))


def test_word_scores_empty_cases() -> None:
    assert prf(word_scores("", "")) == (1.0, 1.0, 1.0)
    assert prf(word_scores("  ...  ", "!")) == (1.0, 1.0, 1.0)  # no words on either side
    assert prf(word_scores("", "some gold")) == (0.0, 0.0, 0.0)
    assert prf(word_scores("some text", "")) == (0.0, 0.0, 0.0)


def test_shingles_of_four_tokens() -> None:
    # extracted shingles: (a b c d), (b c d e); gold: (a b c d), (b c d x)
    counts = shingle_counts("a b c d e", "a b c d x")
    assert (counts.tp, counts.fp, counts.fn) == (1, 1, 1)
    assert (counts.precision, counts.recall) == (0.5, 0.5)


def test_shingles_multiset_counts() -> None:
    # "a b c d a b c d": shingles abcd, bcda, cdab, dabc, abcd -> abcd twice; gold abcd once
    counts = shingle_counts("a b c d a b c d", "a b c d")
    assert (counts.tp, counts.fp, counts.fn) == (1, 4, 0)


def test_short_texts_are_one_shingle_and_case_is_kept() -> None:
    assert shingle_counts("one two", "one, two!") == ShingleCounts(1, 0, 0)
    assert shingle_counts("one two", "one two three") == ShingleCounts(0, 1, 1)
    assert shingle_counts("A b c d", "a b c d") == ShingleCounts(0, 1, 1)


def test_shingle_empty_cases() -> None:
    nothing = shingle_counts("", "")
    assert nothing == ShingleCounts(0, 0, 0)
    assert nothing.precision is None and nothing.recall is None
    missed = shingle_counts("", "a b c d e")
    assert missed == ShingleCounts(0, 0, 2)
    assert missed.precision is None and missed.recall == 0.0
    extra = shingle_counts("a b c d e", "")
    assert extra == ShingleCounts(0, 2, 0)
    assert extra.precision == 0.0 and extra.recall is None


def test_shingle_means_leave_out_pages_without_predictions_or_gold() -> None:
    pages = [
        ShingleCounts(2, 2, 0),  # P 0.5, R 1
        ShingleCounts(0, 0, 3),  # nothing predicted: out of the precision mean, R 0
        ShingleCounts(0, 1, 0),  # no gold: P 0, out of the recall mean
        ShingleCounts(0, 0, 0),  # both empty: out of both
    ]
    means = shingle_means(pages)
    assert means.precision == pytest.approx((0.5 + 0.0) / 2)
    assert means.recall == pytest.approx((1.0 + 0.0) / 2)
    assert means.f1 == pytest.approx(2 * 0.25 * 0.5 / 0.75)


def test_shingle_means_of_nothing_are_zero() -> None:
    assert prf(shingle_means([ShingleCounts(0, 0, 0)])) == (0.0, 0.0, 0.0)
    assert prf(shingle_means([ShingleCounts(3, 0, 0)])) == (1.0, 1.0, 1.0)


def _lcs_by_table(a: list[str], b: list[str]) -> int:
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def test_lcs_length_classic_example() -> None:
    assert lcs_length(list("ABCBDAB"), list("BDCABA")) == 4
    assert lcs_length(list("BDCABA"), list("ABCBDAB")) == 4
    assert lcs_length([], list("abc")) == 0
    assert lcs_length(list("abc"), list("xyz")) == 0


def test_lcs_length_matches_the_dynamic_programming_table() -> None:
    rng = random.Random(7)
    for _ in range(300):
        a = [rng.choice("abcde") for _ in range(rng.randint(0, 40))]
        b = [rng.choice("abcdef") for _ in range(rng.randint(0, 40))]
        assert lcs_length(a, b) == _lcs_by_table(a, b)


def test_lcs_length_on_long_sequences() -> None:
    tokens = [f"w{i}" for i in range(5000)]
    assert lcs_length(tokens, tokens[::-1]) == 1
    kept = [t for i, t in enumerate(tokens) if i % 3]
    assert lcs_length(tokens, kept) == len(kept)


def test_lcs_scores() -> None:
    # a = x a b c (4), b = a b c d e (5), LCS = a b c (3)
    scores = lcs_scores("x a b c", "A b c d e")
    assert scores.precision == pytest.approx(3 / 4)
    assert scores.recall == pytest.approx(3 / 5)
    assert scores.f1 == pytest.approx(2 * 0.75 * 0.6 / 1.35)
    assert scores.cleaneval == pytest.approx(3 / (4 + 5 - 3))


def test_lcs_scores_see_order_where_the_word_bag_does_not() -> None:
    assert word_scores("second first", "first second").f1 == 1.0
    lcs = lcs_scores("second first", "first second")
    assert (lcs.precision, lcs.recall) == (0.5, 0.5)


def test_lcs_scores_empty_cases() -> None:
    assert lcs4(lcs_scores("", "")) == (1.0, 1.0, 1.0, 1.0)
    assert lcs4(lcs_scores("", "gold words")) == (0.0, 0.0, 0.0, 0.0)
    assert lcs4(lcs_scores("extra words", "")) == (0.0, 0.0, 0.0, 0.0)
