"""Running extractors over a dataset: per-page scores and timings, then the summaries.

Every page is read in the worker that scores it.  For each page and each extractor the
worker times, on the page's bytes, in CPU time of the worker process
(``time.process_time``) and in wall time (``time.perf_counter``):
``lxml.etree.fromstring(html, lxml.etree.HTMLParser())`` (the reference), then right after
it the extractor (``scrapy_cetd.extract(html, algorithm=A, with_html=False,
with_metadata=False, ...)``, or a peer, see :mod:`.peers`): for an algorithm that is the
parse, the page model (without reading JSON-LD, which only metadata uses), the selection
and the text; the cleaned HTML only with ``--with-html`` (the default Scrapy output fields
do not include it), the metadata only with ``--metadata``.  Each extractor's ratio to lxml
is the median of its times over the median of the reference times paired with them: both
measured in the same state of the process (caches, allocator), whatever ran before on that
page.  Each extractor first runs once, untimed, on a tiny page in each worker (imports and
first-call set-up are not charged to a page).  Scoring is not timed.  Reports use CPU time
by default: on a machine shared with other work, wall time grows with the load, and more
for long calls than for short ones (a 30 ms call is preempted more often than a 2 ms
parse), which biases the ratio to lxml; CPU time does not, and on an idle machine the two
are close.  With ``jobs > 1`` chunks of pages go to a process pool and each worker times
its own pages, so the lxml reference is measured under the same load as the extractors.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from typing import Any, TypeVar

from lxml import etree

from ..api import extract
from ..registry import get_algorithm
from ..workers import interruptible_pool, sigint_blocked
from .datasets import GoldPage, gold_text, page_language, read_page_html
from .metrics import (
    LcsScores,
    Scores,
    ShingleCounts,
    SnippetCounts,
    lcs_sequence_scores,
    shingle_counts,
    shingle_means,
    snippet_counts,
    snippet_scores,
    word_bag_scores,
    words,
)
from .peers import PEERS, run_peer
from .progress import Progress

__all__ = [
    "EvaluationRun",
    "Extractor",
    "PageResult",
    "TIMERS",
    "Summary",
    "evaluate_pages",
    "map_pages",
    "mean_lcs",
    "mean_scores",
    "run_evaluation",
    "score_page",
    "score_text",
    "summarize",
]

T = TypeVar("T")


@dataclass(frozen=True)
class Extractor:
    """What is evaluated: a registered algorithm with its options, or a peer.

    ``label`` names it in reports: the algorithm with any option given, or the peer with
    its installed version.
    """

    name: str
    kind: str
    label: str
    threshold_coefficient: float | None = None
    params: tuple[tuple[str, Any], ...] = ()
    #: Render the cleaned HTML too (timed, not scored); by default only the text, which
    #: is what is scored and what the peers produce.
    with_html: bool = False

    @classmethod
    def algorithm(
        cls,
        name: str,
        threshold_coefficient: float | None = None,
        params: Mapping[str, Any] | None = None,
        with_html: bool = False,
    ) -> Extractor:
        """An algorithm; its options are validated now (``ValueError`` when invalid)."""
        params = dict(params or {})
        get_algorithm(name).resolve(threshold_coefficient, params)
        options = [f"{k}={v}" for k, v in sorted(params.items())]
        if threshold_coefficient is not None:
            options.insert(0, f"coefficient={threshold_coefficient:g}")
        label = f"{name} ({', '.join(options)})" if options else name
        return cls(name, "algorithm", label, threshold_coefficient, tuple(sorted(params.items())), with_html)

    @classmethod
    def peer(cls, name: str) -> Extractor:
        if name not in PEERS:
            raise ValueError(f"unknown peer {name!r}; choose one of: {', '.join(PEERS)}")
        version = PEERS[name].version()
        return cls(name, "peer", f"{name} {version}" if version else name)

    def run(self, html: bytes, url: str | None) -> str:
        if self.kind == "peer":
            return run_peer(self.name, html, url)
        return extract(
            html,
            algorithm=self.name,
            url=url,
            threshold_coefficient=self.threshold_coefficient,
            with_html=self.with_html,
            with_metadata=False,  # the text is what is scored and timed; evaluate --metadata times the metadata
            **dict(self.params),
        ).text

    def describe(self) -> dict[str, Any]:
        info: dict[str, Any] = {"name": self.name, "label": self.label, "kind": self.kind}
        if self.kind == "peer":
            info["version"] = PEERS[self.name].version()
        else:
            info["threshold_coefficient"] = self.threshold_coefficient
            info["params"] = dict(self.params)
            info["with_html"] = self.with_html
        return info


def score_text(text: str, gold: str, metric: str) -> dict[str, Any]:
    """All scores of one extraction: the dataset's metric and the LCS metric."""
    scores: dict[str, Any] = {}
    extracted_words, gold_words = words(text), words(gold)
    if metric == "word":
        page = word_bag_scores(extracted_words, gold_words)
        scores.update(precision=page.precision, recall=page.recall, f1=page.f1)
    else:
        counts = shingle_counts(text, gold)
        scores.update(tp=counts.tp, fp=counts.fp, fn=counts.fn)
        scores.update(precision=counts.precision, recall=counts.recall)
        both = counts.precision is not None and counts.recall is not None
        scores["f1"] = 2 * counts.tp / (2 * counts.tp + counts.fp + counts.fn) if both else None
    lcs = lcs_sequence_scores(extracted_words, gold_words)
    scores.update(lcs_precision=lcs.precision, lcs_recall=lcs.recall, lcs_f1=lcs.f1, cleaneval=lcs.cleaneval)
    return scores


def score_page(text: str, page: GoldPage, gold: str, metric: str) -> dict[str, Any]:
    """All scores of one extraction of ``page``: :func:`score_text` against ``gold``, or
    for the snippet metric the snippet counts (with the F1 of the page's own counts, for
    the per-language means, and no LCS: there is no gold text)."""
    if metric != "snippet":
        return score_text(text, gold, metric)
    counts = snippet_counts(text, page.with_snippets, page.without_snippets)
    scored = 2 * counts.tp + counts.fp + counts.fn
    return {
        "tp": counts.tp,
        "fp": counts.fp,
        "fn": counts.fn,
        "tn": counts.tn,
        "f1": 2 * counts.tp / scored if scored else 1.0,
    }


TIMERS = ("cpu", "wall")


@dataclass
class PageResult:
    """One page: its lxml reference times and, per extractor label, times, scores, error.

    Times are in ms, keyed by timer: ``outcomes[label]["cpu_ms"]`` and the reference timed
    just before it, ``outcomes[label]["lxml_cpu_ms"]``; ``lxml_ms["cpu"]`` is the median of
    the page's reference times.
    """

    page_id: str
    page_type: str | None
    url: str | None
    lxml_ms: dict[str, float]
    outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)
    language: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.page_id,
            "page_type": self.page_type,
            "language": self.language,
            "url": self.url,
            **{f"lxml_{timer}_ms": ms for timer, ms in self.lxml_ms.items()},
            "extractors": self.outcomes,
        }


class _Stopwatch:
    """CPU and wall milliseconds of a ``with`` block."""

    def __enter__(self) -> _Stopwatch:
        self._cpu, self._wall = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.ms = {
            "cpu": (time.process_time() - self._cpu) * 1000,
            "wall": (time.perf_counter() - self._wall) * 1000,
        }


def time_lxml_parse(html: bytes) -> dict[str, float]:
    """CPU and wall ms for ``lxml.etree.fromstring(html, lxml.etree.HTMLParser())``."""
    with _Stopwatch() as watch:
        try:
            etree.fromstring(html, etree.HTMLParser())
        except (etree.XMLSyntaxError, ValueError):
            pass  # empty or unparsable input: the time to find out is the reference
    return watch.ms


_WARM_UP_PAGE = b"<html><head><title>Warm-up</title></head><body><p>A first call, not timed.</p></body></html>"
_warmed_up: set[Extractor] = set()


def warm_up(extractors: Sequence[Extractor]) -> None:
    """Run each extractor once on a tiny page in this process before anything is timed, so
    that imports and first-call set-up are not charged to the first page."""
    for extractor in extractors:
        if extractor not in _warmed_up:
            _warmed_up.add(extractor)
            try:
                extractor.run(_WARM_UP_PAGE, None)
            except Exception:  # noqa: BLE001 - a failure here shows again, recorded, on real pages
                pass
    etree.fromstring(_WARM_UP_PAGE, etree.HTMLParser())


def evaluate_pages(pages: Sequence[GoldPage], extractors: Sequence[Extractor], metric: str) -> list[PageResult]:
    """The worker: time and score every extractor on every page (in this process)."""
    warm_up(extractors)
    results = []
    for page in pages:
        html = read_page_html(page)
        gold = gold_text(page)
        result = PageResult(page.page_id, page.page_type, page.url, {}, language=page_language(page, html))
        references = []
        for extractor in extractors:
            error = None
            reference = time_lxml_parse(html)
            references.append(reference)
            with _Stopwatch() as watch:
                try:
                    text = extractor.run(html, page.url)
                except Exception as exc:  # noqa: BLE001 - a failing extractor scores as empty, with the error kept
                    text, error = "", f"{type(exc).__name__}: {exc}"
            outcome: dict[str, Any] = {"cpu_ms": watch.ms["cpu"], "wall_ms": watch.ms["wall"], "chars": len(text)}
            outcome.update((f"lxml_{timer}_ms", ms) for timer, ms in reference.items())
            outcome.update(score_page(text, page, gold, metric))
            if error:
                outcome["error"] = error
            result.outcomes[extractor.label] = outcome
        references = references or [time_lxml_parse(html)]
        result.lxml_ms = {timer: statistics.median(r[timer] for r in references) for timer in TIMERS}
        results.append(result)
    return results


def _chunks(items: Sequence[T], jobs: int) -> Iterator[Sequence[T]]:
    size = max(1, min(16, math.ceil(len(items) / (max(jobs, 1) * 8))))
    for start in range(0, len(items), size):
        yield items[start : start + size]


def map_pages(
    worker: Callable[..., list[T]], pages: Sequence[GoldPage], args: tuple[Any, ...], jobs: int, label: str
) -> list[T]:
    """``worker(chunk, *args)`` over chunks of pages, in ``jobs`` processes; results in page order.

    Workers are started with ``spawn`` (no fork of a possibly threaded parent) and ignore
    SIGINT: a Ctrl-C stops them at once and raises ``KeyboardInterrupt`` here (they caught
    it too, and the pool waited on them: a second Ctrl-C hung the command at exit).  A
    progress bar is drawn on stderr when it is a terminal.
    """
    chunks = list(_chunks(pages, jobs))
    results: list[list[T]] = [[] for _ in chunks]
    with Progress(len(pages), label) as progress:
        if jobs <= 1:
            for index, chunk in enumerate(chunks):
                results[index] = worker(chunk, *args)
                progress.update(len(chunk))
        else:
            with interruptible_pool(jobs) as pool:
                with sigint_blocked():  # workers start here
                    pending: dict[Future[list[T]], int] = {
                        pool.submit(worker, chunk, *args): index for index, chunk in enumerate(chunks)
                    }
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        index = pending.pop(future)
                        results[index] = future.result()
                        progress.update(len(chunks[index]))
    return [item for chunk in results for item in chunk]


@dataclass
class Summary:
    """One extractor over the pages: mean scores, per-type and per-language F1, timing,
    errors; ``accuracy`` for the snippet metric (``None`` for the others)."""

    label: str
    scores: Scores
    lcs: LcsScores | None
    by_type: dict[str, float]
    median_ms: float
    total_ms: float
    ratio_to_lxml: float
    errors: int
    by_language: dict[str, float] = field(default_factory=dict)
    accuracy: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "f1": self.scores.f1,
            "precision": self.scores.precision,
            "recall": self.scores.recall,
            "accuracy": self.accuracy,
            "lcs_precision": self.lcs.precision if self.lcs else None,
            "lcs_recall": self.lcs.recall if self.lcs else None,
            "lcs_f1": self.lcs.f1 if self.lcs else None,
            "cleaneval": self.lcs.cleaneval if self.lcs else None,
            "f1_by_page_type": self.by_type,
            "f1_by_language": self.by_language,
            "median_ms": self.median_ms,
            "total_ms": self.total_ms,
            "ratio_to_lxml": self.ratio_to_lxml,
            "errors": self.errors,
        }


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def mean_scores(outcomes: Sequence[Mapping[str, Any]], metric: str) -> Scores:
    """The dataset's aggregate of per-page outcomes (see :func:`score_page`): the word bag,
    the means of per-page P, R, F1; the article benchmark, its shingle aggregate;
    trafilatura's snippets, P, R, F1 of the counts summed over pages."""
    if metric == "snippet":
        return snippet_scores(SnippetCounts(o["tp"], o["fp"], o["fn"], o["tn"]) for o in outcomes)[0]
    if metric == "word":
        return Scores(
            _mean([o["precision"] for o in outcomes]),
            _mean([o["recall"] for o in outcomes]),
            _mean([o["f1"] for o in outcomes]),
        )
    return shingle_means(ShingleCounts(o["tp"], o["fp"], o["fn"]) for o in outcomes)


def mean_lcs(outcomes: Sequence[Mapping[str, Any]]) -> LcsScores:
    """Means over pages of the LCS precision, recall, F1 and CleanEval-style score."""
    return LcsScores(
        _mean([o["lcs_precision"] for o in outcomes]),
        _mean([o["lcs_recall"] for o in outcomes]),
        _mean([o["lcs_f1"] for o in outcomes]),
        _mean([o["cleaneval"] for o in outcomes]),
    )


def summarize(
    results: Sequence[PageResult], labels: Sequence[str], metric: str, timer: str = "cpu"
) -> list[Summary]:
    """Per extractor: the dataset's metric (:func:`mean_scores`), mean LCS scores (not for
    snippets), F1 per page type (pages whose type is known) and per declared language
    (pages that declare one), median and total ms (``timer``: ``cpu`` or ``wall``), and the
    median's ratio to the median of the lxml parse times paired with its own."""
    types = sorted({r.page_type for r in results if r.page_type})
    languages = sorted({r.language for r in results if r.language})
    summaries = []
    for label in labels:
        outcomes = [r.outcomes[label] for r in results]
        times = [o[f"{timer}_ms"] for o in outcomes]
        lcs = mean_lcs(outcomes) if metric != "snippet" else None
        by_type = {
            page_type: mean_scores([r.outcomes[label] for r in results if r.page_type == page_type], metric).f1
            for page_type in types
        }
        by_language = {
            language: mean_scores([r.outcomes[label] for r in results if r.language == language], metric).f1
            for language in languages
        }
        accuracy = (
            snippet_scores(SnippetCounts(o["tp"], o["fp"], o["fn"], o["tn"]) for o in outcomes)[1]
            if metric == "snippet"
            else None
        )
        median = statistics.median(times) if times else 0.0
        lxml_median = statistics.median(o[f"lxml_{timer}_ms"] for o in outcomes) if outcomes else 0.0
        summaries.append(
            Summary(
                label=label,
                scores=mean_scores(outcomes, metric),
                lcs=lcs,
                by_type=by_type,
                median_ms=median,
                total_ms=sum(times),
                ratio_to_lxml=median / lxml_median if lxml_median else math.inf,
                errors=sum(1 for o in outcomes if "error" in o),
                by_language=by_language,
                accuracy=accuracy,
            )
        )
    return summaries


def _counts(values: Iterable[str | None]) -> dict[str, int]:
    counts = Counter(value for value in values if value)
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


@dataclass
class EvaluationRun:
    """Everything one ``evaluate`` run measured."""

    dataset: str
    layout: str
    metric: str
    extractors: list[Extractor]
    results: list[PageResult]
    summaries: list[Summary]
    jobs: int
    wall_seconds: float
    timer: str = "cpu"
    selection: dict[str, Any] = field(default_factory=dict)

    @property
    def lxml_median_ms(self) -> float:
        return statistics.median(r.lxml_ms[self.timer] for r in self.results) if self.results else 0.0

    @property
    def lxml_total_ms(self) -> float:
        return sum(r.lxml_ms[self.timer] for r in self.results)

    def page_type_counts(self) -> dict[str, int]:
        return _counts(r.page_type for r in self.results)

    def language_counts(self) -> dict[str, int]:
        """Pages per declared language, most frequent first (pages that declare none left out)."""
        return _counts(r.language for r in self.results)

    def to_dict(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset,
            "layout": self.layout,
            "metric": self.metric,
            "pages": len(self.results),
            "selection": self.selection,
            "jobs": self.jobs,
            "wall_seconds": self.wall_seconds,
            "timer": self.timer,
            "page_types": self.page_type_counts(),
            "languages": self.language_counts(),
            "lxml": {"median_ms": self.lxml_median_ms, "total_ms": self.lxml_total_ms},
            "extractors": [e.describe() for e in self.extractors],
            "summary": [s.to_dict() for s in self.summaries],
            "per_page": [r.to_dict() for r in self.results],
        }


def run_evaluation(
    pages: Sequence[GoldPage],
    extractors: Sequence[Extractor],
    *,
    metric: str,
    dataset: str = "",
    layout: str = "",
    jobs: int = 1,
    timer: str = "cpu",
    selection: Mapping[str, Any] | None = None,
) -> EvaluationRun:
    """Evaluate ``extractors`` on ``pages`` and summarize with ``timer``'s times."""
    if timer not in TIMERS:
        raise ValueError(f"unknown timer {timer!r}; choose one of: {', '.join(TIMERS)}")
    labels = [e.label for e in extractors]
    if len(set(labels)) != len(labels):
        raise ValueError(f"extractors must differ: {', '.join(labels)}")
    start = time.perf_counter()
    results = map_pages(evaluate_pages, pages, (list(extractors), metric), jobs, "evaluate")
    wall = time.perf_counter() - start
    return EvaluationRun(
        dataset=dataset,
        layout=layout,
        metric=metric,
        extractors=list(extractors),
        results=results,
        summaries=summarize(results, labels, metric, timer),
        jobs=jobs,
        wall_seconds=wall,
        timer=timer,
        selection=dict(selection or {}),
    )
