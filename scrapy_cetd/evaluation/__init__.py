"""Evaluating extractors on labelled datasets (``scrapy-cetd evaluate`` and ``tradeoff``).

- :mod:`.metrics`: WCXB's word-bag P/R/F1, the article benchmark's shingle P/R/F1, and
  the seed papers' LCS precision/recall.
- :mod:`.datasets`: reading WCXB and article-extraction-benchmark directories.
- :mod:`.runner`: timing and scoring every page (in worker processes with ``jobs > 1``).
- :mod:`.peers`: trafilatura, readability-lxml, jusText and resiliparse, when installed.
- :mod:`.report`: the markdown table and the JSON dump.
- :mod:`.tradeoff`: precision/recall/F1 against the threshold coefficient, and its plot.
"""

from __future__ import annotations

from .datasets import Dataset, DatasetError, GoldPage, load_dataset, select_pages
from .metrics import lcs_length, lcs_scores, shingle_counts, shingle_means, word_scores
from .peers import available_peers
from .runner import EvaluationRun, Extractor, run_evaluation

__all__ = [
    "Dataset",
    "DatasetError",
    "EvaluationRun",
    "Extractor",
    "GoldPage",
    "available_peers",
    "lcs_length",
    "lcs_scores",
    "load_dataset",
    "run_evaluation",
    "select_pages",
    "shingle_counts",
    "shingle_means",
    "word_scores",
]
