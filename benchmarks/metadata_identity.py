"""The metadata of this checkout against an earlier commit's, page by page: identical values,
and the CPU time of each as a ratio to lxml's parse of the same page (an A/B in one process).

    python benchmarks/metadata_identity.py ../shared/benchmarks/wcxb-dev
    python benchmarks/metadata_identity.py ../shared/benchmarks/wcxb-dev --split first-half --repeat 3
    python benchmarks/metadata_identity.py ../shared/benchmarks/wcxb-dev --reference 328f000 --without-page-type

The reference is the metadata at ``--reference`` (a git revision, default ``fcedf1a``:
``scrapy_cetd/metadata.py``, or the package ``scrapy_cetd/metadata/`` with the rest of that
revision's ``scrapy_cetd``), imported beside the current module; each reads a page model of its own (built
for each timing, its text extracted first, as ``evaluate --metadata`` times it:
:func:`scrapy_cetd.evaluation.metadata._metadata_seconds`).  Every field of
``Metadata.to_dict()`` is compared; the pages that differ are listed and the exit status is
1.  Timing is interleaved page by page, ``--repeat`` times each (the fastest kept), the version
timed first alternating, so the shared machine's load falls on both alike.  (Timed twice
on one page model, the second call takes about a third less; hence a page model per
timing.)
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from scrapy_cetd import metadata as current
from scrapy_cetd.api import extract_tree
from scrapy_cetd.evaluation.datasets import load_dataset, read_page_html, select_pages
from scrapy_cetd.page import Page
from scrapy_cetd.parsing import parse_html


def reference_module(revision: str) -> ModuleType:
    """The metadata at ``revision``: ``scrapy_cetd/metadata.py`` imported as
    ``scrapy_cetd._metadata_reference`` (its relative imports read the current package),
    or, at a revision where the metadata is a package, that revision's whole
    ``scrapy_cetd`` extracted to a temporary directory and imported as
    ``scrapy_cetd_reference``, whose ``metadata`` is returned."""
    root = Path(__file__).resolve().parent.parent
    shown = subprocess.run(
        ["git", "-C", str(root), "show", f"{revision}:scrapy_cetd/metadata.py"], capture_output=True, text=True
    )
    if shown.returncode != 0:
        return _reference_package(root, revision)
    source = shown.stdout
    name = "scrapy_cetd._metadata_reference"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "scrapy_cetd"
    sys.modules[name] = module
    exec(compile(source, f"{revision}:scrapy_cetd/metadata.py", "exec"), module.__dict__)
    return module


def _reference_package(root: Path, revision: str) -> ModuleType:
    """``scrapy_cetd`` at ``revision`` as the package ``scrapy_cetd_reference``; its ``metadata``."""
    directory = Path(tempfile.mkdtemp(prefix="metadata_reference_"))
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", revision, "scrapy_cetd"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(directory, filter="data")
    (directory / "scrapy_cetd").rename(directory / "scrapy_cetd_reference")
    sys.path.insert(0, str(directory))
    return importlib.import_module("scrapy_cetd_reference.metadata")


def timed(module: ModuleType, html: bytes, url: str | None, **options: Any) -> tuple[dict[str, Any], float]:
    """The metadata's ``to_dict()`` and its CPU time, read from a page model of its own whose
    text was extracted first (as ``evaluate --metadata`` times it)."""
    page = Page(parse_html(html), url)
    text = extract_tree(page, with_html=False, with_metadata=False).text
    start = time.process_time()
    metadata = module.extract_metadata(page, text, **options)
    seconds = time.process_time() - start
    return metadata.to_dict(), seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset")
    parser.add_argument("--split", choices=("first-half", "second-half"))
    parser.add_argument("--reference", default="fcedf1a", help="git revision of the reference metadata")
    parser.add_argument("--repeat", type=int, default=2, help="timings per page and version (the fastest kept)")
    parser.add_argument(
        "--without-page-type",
        action="store_true",
        help="this checkout's metadata without the page type (with_page_type=False: the crawl's default outputs)",
    )
    args = parser.parse_args()
    options = {"with_page_type": False} if args.without_page_type else {}

    reference = reference_module(args.reference)
    pages = select_pages(load_dataset(args.dataset).pages, split=args.split)
    differing: list[tuple[str, list[str]]] = []
    ratios: dict[str, list[float]] = {"reference": [], "current": []}
    for gold in pages:
        html = read_page_html(gold)
        start = time.process_time()
        parse_html(html)
        parse_seconds = time.process_time() - start
        before_seconds = after_seconds = float("inf")
        for turn in range(args.repeat):  # the version timed first alternates
            for module in (reference, current) if turn % 2 == 0 else (current, reference):
                values, seconds = timed(module, html, gold.url, **({} if module is reference else options))
                if module is reference:
                    before, before_seconds = values, min(before_seconds, seconds)
                else:
                    after, after_seconds = values, min(after_seconds, seconds)
        if before != after:
            differing.append((gold.page_id, [key for key in before if before[key] != after.get(key)]))
        if parse_seconds > 0:
            ratios["reference"].append(before_seconds / parse_seconds)
            ratios["current"].append(after_seconds / parse_seconds)

    print(f"{len(pages)} pages, metadata identical on {len(pages) - len(differing)}")
    for page_id, fields in differing:
        print(f"  {page_id}: {', '.join(fields)}")
    for name, values in ratios.items():
        print(
            f"{name} ({args.reference if name == 'reference' else 'this checkout'}): "
            f"median {statistics.median(values):.3f}x, mean {statistics.fmean(values):.3f}x lxml's parse"
        )
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
