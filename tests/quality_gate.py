"""The quality gate: pinned scores that a change may raise but not lower.

``tests/quality_baseline.json`` pins, per scored set, each algorithm's mean F1 on the
committed WCXB fixture pages and the default algorithm's on the dev sets beside the
repository (``../shared/benchmarks`` from its root), each scored by the library's own
evaluation (:func:`scrapy_cetd.evaluation.run_evaluation`, the dataset's own metric:
WCXB's word bag on the fixtures, wcxb-dev and readability-pages, trafilatura's snippets on
trafilatura-eval).
``tests/test_quality_gate.py`` measures them and fails when a score is more than
``tolerance`` (0.0005) below its pin: a drop of 0.001 fails.

``python -m tests.quality_gate`` measures and compares (exit 1 on a drop);
``python -m tests.quality_gate --update`` writes the scores measured now as the new pins,
and refuses (exit 1, nothing written) when one of them is lower than its pin, unless
``--allow-lower`` says the drop is meant (the commit then says why).  ``--sets`` limits
either to some sets.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "tests" / "quality_baseline.json"
BENCHMARKS = ROOT.parent / "shared" / "benchmarks"
TOLERANCE = 0.0005
DEFAULT = "cetd-plus"

__all__ = ["BASELINE", "SETS", "ScoredSet", "drops", "load_baseline", "measure", "main"]


@dataclass(frozen=True)
class ScoredSet:
    """A labelled set the gate scores: where it is and which algorithms it pins."""

    name: str
    path: Path
    #: ``None``: every registered algorithm; else these.
    algorithms: tuple[str, ...] | None = None

    def available(self) -> bool:
        return self.path.is_dir()

    def algorithm_names(self) -> list[str]:
        from scrapy_cetd import algorithm_names

        return list(self.algorithms) if self.algorithms is not None else list(algorithm_names())


SETS = {
    s.name: s
    for s in (
        ScoredSet("fixtures", ROOT / "tests" / "fixtures" / "wcxb"),
        ScoredSet("wcxb-dev", BENCHMARKS / "wcxb-dev", (DEFAULT,)),
        ScoredSet("trafilatura-eval", BENCHMARKS / "trafilatura-eval", (DEFAULT,)),
        ScoredSet("readability-pages", BENCHMARKS / "readability-pages", (DEFAULT,)),
    )
}


def measure(scored: ScoredSet, jobs: int = 2) -> dict[str, float]:
    """``{"<set>/<algorithm>/f1": score}`` for ``scored``'s algorithms, measured now."""
    from scrapy_cetd.evaluation import Extractor, load_dataset, run_evaluation

    dataset = load_dataset(scored.path)
    metric = dataset.metric
    extractors = [Extractor.algorithm(name) for name in scored.algorithm_names()]
    pages = dataset.pages
    run = run_evaluation(pages, extractors, metric=metric, layout=dataset.layout, jobs=min(jobs, len(pages)))
    return {f"{scored.name}/{s.label}/f1": s.scores.f1 for s in run.summaries}


def load_baseline(path: Path = BASELINE) -> dict[str, float]:
    return dict(json.loads(path.read_text(encoding="utf-8"))["scores"])


def drops(pinned: Mapping[str, float], measured: Mapping[str, float], tolerance: float = TOLERANCE) -> list[str]:
    """One line per measured score more than ``tolerance`` below its pin, or not pinned."""
    lines = []
    for key, score in sorted(measured.items()):
        if key not in pinned:
            lines.append(f"{key}: {score:.4f} has no pin (run python -m tests.quality_gate --update)")
        elif score < pinned[key] - tolerance:
            lines.append(f"{key}: {score:.4f} < pinned {pinned[key]:.4f} (drop {pinned[key] - score:.4f})")
    return lines


def _write(scores: Mapping[str, float], path: Path) -> None:
    document = {
        "about": "Pinned quality scores; python -m tests.quality_gate --update rewrites them (tests/quality_gate.py).",
        "tolerance": TOLERANCE,
        "scores": {key: round(value, 6) for key, value in sorted(scores.items())},
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def update(measured: Mapping[str, float], allow_lower: bool, path: Path = BASELINE) -> list[str]:
    """Pin ``measured`` (other pins kept); refuses, returning the drops, when a score is
    lower than its pin and ``allow_lower`` is false."""
    pinned = load_baseline(path) if path.exists() else {}
    lower = [
        f"{key}: {score:.6f} < pinned {pinned[key]:.6f}"
        for key, score in sorted(measured.items())
        if key in pinned and round(score, 6) < pinned[key]
    ]
    if lower and not allow_lower:
        return lower
    _write({**pinned, **measured}, path)
    return []


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.quality_gate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="pin the scores measured now")
    parser.add_argument("--allow-lower", action="store_true", help="with --update: also lower pins")
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, of: {', '.join(SETS)}")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(list(argv) if argv is not None else None)
    measured: dict[str, float] = {}
    for name in args.sets.split(","):
        scored = SETS[name]
        if not scored.available():
            print(f"{name}: {scored.path} not found, not measured", file=sys.stderr)
            continue
        measured.update(measure(scored, args.jobs))
    for key, score in sorted(measured.items()):
        print(f"{key}\t{score:.4f}")
    if args.update:
        refused = update(measured, args.allow_lower)
        if refused:
            refusal = "refused: lower than pinned (give --allow-lower if meant):"
            print("\n  ".join([refusal, *refused]), file=sys.stderr)
            return 1
        print(f"pinned {len(measured)} scores in {BASELINE.relative_to(ROOT)}")
        return 0
    failed = drops(load_baseline(), measured)
    print("\n".join(failed) or "no score below its pin", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
