"""cetd-plus's selection against an earlier commit's: identical outputs, and its time.

    python benchmarks/plus_speed.py ../shared/benchmarks/wcxb-dev --base fcedf1a --check
    python benchmarks/plus_speed.py ../shared/benchmarks/wcxb-dev --base fcedf1a --time

The package of commit ``--base`` is exported (``git archive``) to a temporary directory
and imported as ``cetd_base``, beside the working tree's ``scrapy_cetd``, in one process.

``--check``: on every page of the dataset, ``extract(..., algorithm="cetd-plus",
diagnostics=True, with_comments=True, with_metadata=False)`` by both; the text, the cleaned
HTML, the comments, the diagnostics (every entry, the node table included), the threshold
and the reason must be equal.  Exits 1 on a difference, naming the page and the field.
``--algorithms cetd-ds,cectd-ds,lineblock,cetr --every 3`` checks those algorithms instead
(the page model is theirs too), on every third page; ``--with-metadata`` compares the
metadata (``Metadata.to_dict()``) and the title too, both versions' whole packages (the
page model's part in the metadata included, which ``metadata_identity.py`` does not vary).

``--time``: the selection alone (``plus_selection`` on one shared :class:`Page` per page,
built once), and the whole extraction as ``scrapy-cetd evaluate`` times it (``extract(html,
algorithm="cetd-plus", with_html=False, with_metadata=False)``: parse, page model,
selection, text; with ``--with-metadata`` the metadata too, the crawl's default outputs,
which hold no page type);
base and working tree interleaved page by page (which is timed first
alternates: timed always first, identical code measured 0.95 of its own selection time),
the best of ``--repeat`` CPU times each, with lxml's parse of the same page timed alongside; on the
pages of ``--split`` (default: the first, tuning, half).  Reports the medians, their ratio to
lxml's parse, and the median of the per-page ratios working tree / base.  Interleaving in
one process compares the two under the same load, which back-to-back ``evaluate`` runs on
a shared machine do not.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import inspect
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from functools import partial
from io import BytesIO
from pathlib import Path
from typing import Any

from lxml import etree

ROOT = Path(__file__).resolve().parent.parent


def import_base(commit: str, into: Path) -> Any:
    """``scrapy_cetd`` of ``commit`` as the package ``cetd_base`` (its imports are relative)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "scrapy_cetd"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    (into / "scrapy_cetd").rename(into / "cetd_base")
    sys.path.insert(0, str(into))
    return importlib.import_module("cetd_base")


def page_files(dataset: Path, split: str = "all") -> list[Path]:
    """The dataset's pages in sorted id order: all, or the first ``ceil(n/2)``, or the rest."""
    files = sorted((dataset / "html").glob("*.html*"))
    half = (len(files) + 1) // 2
    return {"first-half": files[:half], "second-half": files[half:]}.get(split, files)


def read(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def outputs(extract: Any, html: bytes, algorithm: str = "cetd-plus", with_metadata: bool = False) -> dict[str, Any]:
    result = extract(html, algorithm=algorithm, diagnostics=True, with_comments=True, with_metadata=with_metadata)
    fields = ("text", "html", "comments", "diagnostics", "threshold", "reason")
    found = {name: getattr(result, name) for name in fields}
    if with_metadata:
        found["title"] = result.title
        found["metadata"] = result.metadata.to_dict() if result.metadata else None
    return found


def check(files: list[Path], algorithms: list[str], with_metadata: bool = False) -> int:
    from cetd_base.api import extract as base_extract

    from scrapy_cetd.api import extract

    differences = 0
    for path in files:
        html = read(path)
        for algorithm in algorithms:
            new = outputs(extract, html, algorithm, with_metadata)
            old = outputs(base_extract, html, algorithm, with_metadata)
            for name in new:
                if new[name] != old[name]:
                    differences += 1
                    print(f"{path.name}: {algorithm} {name} differs")
    print(f"{len(files)} pages compared ({', '.join(algorithms)}): {differences} differing fields")
    return 1 if differences else 0


def best_cpu(repeat: int, call: Any, *args: Any) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        call(*args)
        best = min(best, time.process_time() - start)
    return best


def timing(files: list[Path], repeat: int, with_metadata: bool = False) -> None:
    from cetd_base.algorithms.plus import plus_selection as base_selection
    from cetd_base.api import extract as base_extract

    from scrapy_cetd.algorithms.plus import plus_selection
    from scrapy_cetd.api import extract
    from scrapy_cetd.page import Page
    from scrapy_cetd.parsing import parse_html

    options = {"algorithm": "cetd-plus", "with_html": False, "with_metadata": with_metadata}
    # The crawl's default outputs hold no page type: neither version classifies one (a base
    # from before the classifier has none to skip).
    new_options = {**options, "with_page_type": False} if with_metadata else options
    if with_metadata and "with_page_type" in inspect.signature(base_extract).parameters:
        options = new_options
    times: dict[str, list[float]] = {name: [] for name in ("parse", "base", "new", "base extract", "new extract")}
    for path in files:
        html = read(path)
        page = Page.from_tree(parse_html(html))
        if not page.chars or not page.chars[0]:
            continue
        base_selection(page, 0.7)  # the page model's cached values, filled before timing
        plus_selection(page, 0.7)
        runs = [
            ("base", partial(base_selection, page, 0.7)),
            ("new", partial(plus_selection, page, 0.7)),
            ("base extract", partial(base_extract, html, **options)),
            ("new extract", partial(extract, html, **new_options)),
        ]
        if len(times["parse"]) % 2:  # the version timed first alternates: the first runs slower
            runs = [runs[1], runs[0], runs[3], runs[2]]
        times["parse"].append(best_cpu(repeat, etree.fromstring, html, etree.HTMLParser()))
        for key, call in runs:
            times[key].append(best_cpu(repeat, call))
    median = statistics.median
    parse = median(times["parse"])
    print(f"{len(times['parse'])} pages, best of {repeat} CPU times; lxml parse median {parse * 1e3:.3f} ms")
    for what, base, new in (("selection", "base", "new"), ("extraction", "base extract", "new extract")):
        for label, key in (("base", base), ("working tree", new)):
            value = median(times[key])
            print(f"  {what}, {label}: median {value * 1e3:.3f} ms = {value / parse:.3f}x lxml's parse")
        ratios = [b / a for a, b in zip(times[base], times[new], strict=True)]
        print(f"  {what}, working tree / base: median of per-page ratios {median(ratios):.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", type=Path, help="a WCXB directory (html/*.html.gz)")
    parser.add_argument("--base", required=True, help="the commit to compare with")
    parser.add_argument("--check", action="store_true", help="compare the outputs on every page")
    parser.add_argument(
        "--algorithms", default="cetd-plus", help="comma-separated algorithms whose outputs --check compares"
    )
    parser.add_argument("--every", type=int, default=1, help="--check compares every n-th page")
    parser.add_argument(
        "--with-metadata",
        action="store_true",
        help="--check compares the metadata too; --time times the extraction with it",
    )
    parser.add_argument("--time", action="store_true", help="time the selections")
    parser.add_argument(
        "--split", choices=("first-half", "second-half", "all"), default="first-half", help="the pages timed"
    )
    parser.add_argument("--repeat", type=int, default=5, help="timing runs per page and variant (best kept)")
    args = parser.parse_args()
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        import_base(args.base, Path(tmp))
        if args.check:
            status = check(page_files(args.dataset)[:: args.every], args.algorithms.split(","), args.with_metadata)
        if args.time:
            timing(page_files(args.dataset, args.split), args.repeat, args.with_metadata)
    return status


if __name__ == "__main__":
    sys.exit(main())
