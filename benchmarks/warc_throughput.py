"""Throughput of ``scrapy-cetd warc`` on a WARC of real pages (the WCXB dev pages).

    .venv/bin/python benchmarks/warc_throughput.py [--dataset ../shared/benchmarks/wcxb-dev] [--limit N]

Builds a gzip-per-record WARC of the dev pages (one request and one response record per
page) in a temporary directory, then prints, all measured in this one run:

1. reading alone, FastWARC against warcio (records and bodies, no extraction): the
   reader choice in docs/archives.md;
2. ``run_batch`` (what ``scrapy-cetd warc`` runs) with 1 and 2 worker processes: records/s
   (wall clock) and their ratio, and the share of CPU time spent reading, extracting and
   writing.  The ratio needs two idle cores: the load average is printed beside it;
3. lxml's parse of the same pages, the yardstick for speed in this project.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scrapy_cetd.warc.batch import run_batch  # noqa: E402
from scrapy_cetd.warc.extract import WarcOptions  # noqa: E402
from scrapy_cetd.warc.writer import WarcFileWriter, exchange_records  # noqa: E402


def build_warc(dataset: Path, path: Path, limit: int | None) -> list[bytes]:
    files = json.loads((dataset / "metadata.json").read_text())["files"]
    pages = sorted((dataset / "html").glob("*.html.gz"))[:limit]
    writer = WarcFileWriter(path)
    bodies = []
    for page in pages:
        page_id = page.name.split(".")[0]
        body = gzip.decompress(page.read_bytes())
        domain = files.get(page_id, {}).get("domain", "dev.example")
        writer.write(*exchange_records(f"https://{domain}/{page_id}", 200, [(b"Content-Type", b"text/html")], body))
        bodies.append(body)
    writer.close()
    return bodies


def read_fastwarc(path: Path) -> int:
    from fastwarc import ArchiveIterator

    with path.open("rb") as file:
        return sum(len(record.reader.read()) for record in ArchiveIterator(file, parse_http=False))


def read_warcio(path: Path) -> int:
    from warcio.archiveiterator import ArchiveIterator

    with path.open("rb") as file:
        return sum(len(record.content_stream().read()) for record in ArchiveIterator(file))


def best_of(function, *args, rounds: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dataset", type=Path, default=ROOT.parent / "shared" / "benchmarks" / "wcxb-dev")
    parser.add_argument("--limit", type=int, help="only the first N pages")
    parser.add_argument("--split-size", type=int, default=8 * 1024 * 1024, help="unit size in bytes (default 8 MiB)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        warc = Path(tmp) / "dev.warc.gz"
        bodies = build_warc(args.dataset, warc, args.limit)
        size = warc.stat().st_size
        print(f"WARC of {len(bodies)} dev pages ({2 * len(bodies) + 1} records): {size / 1e6:.1f} MB gzipped, "
              f"{sum(map(len, bodies)) / 1e6:.1f} MB of HTML; {os.cpu_count()} cores, load average "
              f"{os.getloadavg()[0]:.1f} at the start")

        fast = best_of(read_fastwarc, warc)
        line = f"reading alone (best of 3): FastWARC {fast:.2f} s"
        try:
            slow = best_of(read_warcio, warc)
            line += f", warcio {slow:.2f} s: FastWARC reads {slow / fast:.2f}x as fast"
        except ImportError:
            line += " (warcio not installed)"
        print(line)

        from lxml import html as lxml_html

        started = time.process_time()
        for body in bodies:
            lxml_html.document_fromstring(body)
        lxml_seconds = time.process_time() - started
        print(f"lxml parse of the same pages: {lxml_seconds:.1f} s CPU ({len(bodies) / lxml_seconds:.0f} pages/s)")

        rates = {}
        for jobs in (1, 2):
            out = Path(tmp) / f"out{jobs}.jsonl"
            cpu = time.process_time()
            children = os.times()
            summary = run_batch([str(warc)], str(out), WarcOptions(), jobs=jobs, split_size=args.split_size,
                                progress=False, log=sys.stderr)
            after = os.times()
            cpu_seconds = time.process_time() - cpu + (after.children_user + after.children_system
                                                       - children.children_user - children.children_system)
            rates[jobs] = summary.records / summary.wall_seconds
            busy = summary.read_seconds + summary.extract_seconds + summary.write_seconds
            shares = ", ".join(
                f"{name} {100 * seconds / busy:.1f}%"
                for name, seconds in (("reading", summary.read_seconds), ("extracting", summary.extract_seconds),
                                      ("writing", summary.write_seconds))
            )
            print(
                f"--jobs {jobs}: {summary.records} records ({summary.items} items) in {summary.wall_seconds:.1f} s = "
                f"{rates[jobs]:.1f} records/s, {summary.items / summary.wall_seconds:.1f} pages/s; "
                f"CPU {cpu_seconds:.1f} s ({cpu_seconds / lxml_seconds:.1f}x lxml's parse); CPU time: {shares}"
            )
        print(f"--jobs 2 / --jobs 1 records/s: {rates[2] / rates[1]:.2f} (load average now {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
