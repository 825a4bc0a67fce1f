"""Training the learned parts, reproducibly, in one command per model (optional extra
``train``: scikit-learn fits, NumPy alone applies what it exports).

    python -m scrapy_cetd.training page-types [--dataset DIR] [--check DIR ...]

Every model follows the same steps, shared here: read labelled samples (a feature matrix,
labels, and the site of each sample), score the model by cross-validation grouped by site
(:func:`grouped_cross_validation`: no site is in both the training and the test folds, so a
site's template cannot be learned and recognised), fit it on every sample, and write its
arrays as package data under ``scrapy_cetd/models/`` (:func:`save_arrays`), which the
inference module loads with ``numpy.load``.  A model is a *task*: a function from the
command line's arguments to a report (:data:`TASKS`).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

__all__ = [
    "MODELS_DIR",
    "Samples",
    "TASKS",
    "class_scores",
    "fit_logistic",
    "grouped_cross_validation",
    "main",
    "save_arrays",
    "site_of",
]

#: Where the shipped models live (package data).
MODELS_DIR = Path(__file__).resolve().parent / "models"
#: The development sets, where the repository sits beside ``shared/benchmarks``.
_BENCHMARKS = Path(__file__).resolve().parents[2] / "shared" / "benchmarks"


@dataclass
class Samples:
    """Labelled samples: one row of ``features`` per sample, its label, and its group (the
    site it comes from) for grouped cross-validation."""

    features: np.ndarray
    labels: list[str]
    groups: list[str]
    ids: list[str]


def site_of(url: str | None, domain: str | None = None) -> str:
    """The site a page belongs to: the dataset's ``domain`` when given, else the URL's host
    without a leading ``www.``."""
    if domain:
        return domain.lower()
    try:
        host = (urlsplit(url or "").hostname or "").lower()
    except ValueError:
        host = ""
    return host.removeprefix("www.") or (url or "")


def _require_sklearn() -> None:
    try:
        import sklearn  # noqa: F401
    except ImportError as exc:
        raise SystemExit("training needs scikit-learn: pip install 'scrapy-cetd[train]'") from exc


def fit_logistic(features: np.ndarray, labels: Sequence[str], classes: Sequence[str], c: float = 1.0) -> dict[str, Any]:
    """A multinomial logistic regression (L2, inverse strength ``c``) on standardized
    features (a NaN, an unknown value, read as its column's mean), as plain arrays:
    ``mean``, ``scale``, ``weights`` (features x classes, in the order of ``classes``),
    ``bias``, ``classes``.  A class without samples gets a bias that never wins."""
    _require_sklearn()
    from sklearn.linear_model import LogisticRegression

    known = ~np.isnan(features)
    mean = np.where(known, features, 0.0).sum(axis=0) / np.maximum(known.sum(axis=0), 1)
    features = np.where(known, features, mean)  # an unknown value counts as the mean
    scale = features.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=c, max_iter=5000)
    model.fit((features - mean) / scale, list(labels))
    weights = np.zeros((features.shape[1], len(classes)))
    bias = np.full(len(classes), -1e9)
    fitted = list(model.classes_)
    if len(fitted) == 2:  # sklearn keeps one weight vector for two classes
        coef = np.vstack([-model.coef_[0] / 2, model.coef_[0] / 2])
        intercept = np.array([-model.intercept_[0] / 2, model.intercept_[0] / 2])
    else:
        coef, intercept = model.coef_, model.intercept_
    for row, name in enumerate(fitted):
        k = list(classes).index(name)
        weights[:, k] = coef[row]
        bias[k] = intercept[row]
    return {"mean": mean, "scale": scale, "weights": weights, "bias": bias, "classes": np.array(classes)}


def predict_logistic(arrays: dict[str, Any], features: np.ndarray) -> list[str]:
    """The most probable class of each row under :func:`fit_logistic`'s arrays."""
    features = np.where(np.isnan(features), arrays["mean"], features)
    z = ((features - arrays["mean"]) / arrays["scale"]) @ arrays["weights"] + arrays["bias"]
    return [str(arrays["classes"][k]) for k in z.argmax(axis=1)]


def grouped_cross_validation(
    samples: Samples, fit: Callable[[np.ndarray, list[str]], Any],
    predict: Callable[[Any, np.ndarray], list[str]], folds: int = 5,
) -> list[str]:
    """Each sample's prediction by a model fitted on the folds that hold none of its
    site's samples (scikit-learn's ``GroupKFold``)."""
    _require_sklearn()
    from sklearn.model_selection import GroupKFold

    predicted = [""] * len(samples.labels)
    splitter = GroupKFold(n_splits=folds)
    for train, test in splitter.split(samples.features, samples.labels, samples.groups):
        model = fit(samples.features[train], [samples.labels[i] for i in train])
        for i, label in zip(test, predict(model, samples.features[test])):
            predicted[i] = label
    return predicted


def class_scores(
    labels: Sequence[str], predicted: Sequence[str], classes: Iterable[str]
) -> dict[str, dict[str, float]]:
    """Precision, recall, F1 and support of each class."""
    scores = {}
    for name in classes:
        tp = sum(1 for g, p in zip(labels, predicted) if g == name and p == name)
        fp = sum(1 for g, p in zip(labels, predicted) if g != name and p == name)
        fn = sum(1 for g, p in zip(labels, predicted) if g == name and p != name)
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        scores[name] = {"precision": precision, "recall": recall, "f1": f1, "support": tp + fn}
    return scores


def save_arrays(path: Path, arrays: dict[str, Any]) -> None:
    """Write a model's arrays (``numpy.savez_compressed``; strings as Unicode arrays, so
    loading needs no pickle)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        np.savez_compressed(handle, **{k: np.asarray(v) for k, v in arrays.items()})


def _map(function: Callable[[Any], Any], tasks: list[Any], jobs: int) -> list[Any]:
    if jobs <= 1:
        return list(map(function, tasks))
    with get_context("spawn").Pool(jobs) as pool:
        return pool.map(function, tasks, chunksize=8)


# --- page types -------------------------------------------------------------------------


def page_features_of_html(task: tuple[str, str | None]) -> np.ndarray | None:
    """The page-type features of one stored page (``(path, url)``); ``None`` when the page
    holds no document."""
    from .metadata import features_of_page
    from .page import Page
    from .parsing import EmptyDocument, parse_html

    path, url = task
    data = Path(path).read_bytes()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    try:
        page = Page(parse_html(data), url)
    except EmptyDocument:
        return None
    return features_of_page(page)


def page_type_samples(dataset: Path, jobs: int = 1) -> Samples:
    """WCXB's pages with their ``_internal.page_type.primary`` labels, grouped by the
    domain ``metadata.json`` gives (else the URL's host)."""
    from .evaluation.datasets import load_dataset

    data = load_dataset(dataset)
    domains: dict[str, str] = {}
    meta_path = dataset / "metadata.json"
    if meta_path.is_file():
        files = json.loads(meta_path.read_text(encoding="utf-8")).get("files") or {}
        domains = {k: v.get("domain") for k, v in files.items() if isinstance(v, dict)}
    pages = [p for p in data.pages if p.page_type]
    rows = _map(page_features_of_html, [(str(p.html_path), p.url) for p in pages], jobs)
    kept = [(p, row) for p, row in zip(pages, rows) if row is not None]
    return Samples(
        features=np.vstack([row for _, row in kept]),
        labels=[str(p.page_type) for p, _ in kept],
        groups=[site_of(p.url, domains.get(p.page_id)) for p, _ in kept],
        ids=[p.page_id for p, _ in kept],
    )


def unlabelled_pages(directory: Path) -> list[tuple[str, str | None]]:
    """``(path, url)`` of the pages of a trafilatura-eval (``evaldata.json``) or
    readability-pages (``NAME/source.html.gz``) directory."""
    evaldata = directory / "evaldata.json"
    if evaldata.is_file():
        records = json.loads(evaldata.read_text(encoding="utf-8"))
        pages = []
        for url, record in records.items():
            path = directory / "html" / record["file"]
            path = path if path.is_file() else path.with_name(path.name + ".gz")
            if path.is_file():
                pages.append((str(path), url))
        return pages
    return [(str(path), None) for path in sorted(directory.glob("*/source.html*"))]


def _scores_table(labels: Sequence[str], predicted: Sequence[str], classes: Sequence[str]) -> list[str]:
    lines = ["| type | pages | precision | recall | F1 |", "|---|---|---|---|---|"]
    for name, s in class_scores(labels, predicted, classes).items():
        lines.append(f"| {name} | {s['support']} | {s['precision']:.3f} | {s['recall']:.3f} | {s['f1']:.3f} |")
    binary = class_scores(
        ["article" if g == "article" else "other" for g in labels],
        ["article" if p == "article" else "other" for p in predicted], ["article"],
    )["article"]
    lines.append(
        f"| **article vs rest** | {binary['support']} | {binary['precision']:.3f} | {binary['recall']:.3f} | "
        f"{binary['f1']:.3f} |"
    )
    accuracy = sum(g == p for g, p in zip(labels, predicted)) / len(labels)
    lines += ["", f"Accuracy over the seven types: {accuracy:.3f}."]
    return lines


def train_page_types(args: argparse.Namespace) -> str:
    """Fit the page-type model on WCXB's labels; report grouped cross-validation; write
    ``models/page_types.npz``; with ``--check``, the share of each set's pages classified
    as articles by the fitted model."""
    from .metadata.page_type import FEATURE_NAMES, PAGE_TYPES, PageTypeModel

    _require_sklearn()
    samples = page_type_samples(Path(args.dataset), args.jobs)
    sites = len(set(samples.groups))
    if args.drop:  # an ablation: the cross-validation without these features, no model written
        unknown = sorted(set(args.drop) - set(FEATURE_NAMES))
        if unknown:
            raise SystemExit(f"unknown features: {', '.join(unknown)}")
        kept = [k for k, name in enumerate(FEATURE_NAMES) if name not in args.drop]
        samples = Samples(samples.features[:, kept], samples.labels, samples.groups, samples.ids)

    def fit(features: np.ndarray, labels: list[str]) -> dict[str, Any]:
        return fit_logistic(features, labels, PAGE_TYPES, c=args.c)

    predicted = grouped_cross_validation(samples, fit, predict_logistic, folds=args.folds)
    lines = [
        f"Page types on {args.dataset}: {len(samples.labels)} pages, {sites} sites; "
        f"{args.folds}-fold cross-validation grouped by site (GroupKFold), logistic regression C={args.c}.",
        "",
        *_scores_table(samples.labels, predicted, PAGE_TYPES),
    ]
    if args.drop:
        return "\n".join([*lines, "", f"Without {', '.join(args.drop)}: no model written."]) + "\n"
    arrays = fit(samples.features, samples.labels)
    arrays["feature_names"] = np.array(FEATURE_NAMES)
    out = Path(args.out)
    save_arrays(out, arrays)
    lines += ["", f"Model fitted on every page, written to {out}."]
    model = PageTypeModel(arrays)
    for directory in args.check:
        tasks = unlabelled_pages(Path(directory))
        rows = [row for row in _map(page_features_of_html, tasks, args.jobs) if row is not None]
        if not rows:
            lines.append(f"{directory}: no pages.")
            continue
        kinds = model.predict(np.vstack(rows))
        share = kinds.count("article") / len(kinds)
        others = ", ".join(f"{kind} {n}" for kind, n in Counter(kinds).most_common())
        lines.append(f"{directory}: {len(kinds)} pages, {share:.3f} classified as article ({others}).")
    return "\n".join(lines) + "\n"


def _page_types_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dataset", default=str(_BENCHMARKS / "wcxb-dev"), help="a WCXB dataset directory")
    parser.add_argument("--out", default=str(MODELS_DIR / "page_types.npz"), help="where the model is written")
    parser.add_argument("--folds", type=int, default=5, help="cross-validation folds (grouped by site)")
    parser.add_argument("--c", type=float, default=0.1, help="inverse L2 regularisation strength")
    parser.add_argument(
        "--drop", action="append", default=[], metavar="FEATURE",
        help="leave this feature out (repeatable): report the cross-validation only, write no model",
    )
    parser.add_argument(
        "--check", action="append", default=[],
        help="a trafilatura-eval or readability-pages directory: report the share classified as article",
    )


#: The models this module trains: name -> (add arguments, train and report).
TASKS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], str]]] = {
    "page-types": (_page_types_arguments, train_page_types),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scrapy_cetd.training", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="task", required=True)
    for name, (add_arguments, train) in TASKS.items():
        command = commands.add_parser(name, help=train.__doc__.split(".")[0] if train.__doc__ else None)
        command.add_argument("--jobs", type=int, default=1, help="worker processes reading pages")
        add_arguments(command)
        command.set_defaults(train=train)
    args = parser.parse_args(argv)
    sys.stdout.write(args.train(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
