"""Time and peak memory of one extraction on a generated page of about 20 MB.

    python benchmarks/big_page.py [--megabytes 20] [--algorithm cectd-ds]

The extraction runs without the library's limits (``max_size=0, max_elements=0``).

Prints the page size, lxml's parse time of the same bytes (the reference), the extraction
time (parse included) with its ratio to that reference, and the peak resident memory of
this process (``ru_maxrss``) before and after the extraction.
"""

from __future__ import annotations

import argparse
import resource
import time

from lxml import etree

from scrapy_cetd import extract


def build_page(megabytes: float) -> bytes:
    paragraph = "<p>" + "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 3 + "</p>\n"
    nav = "<ul>" + "".join(f"<li><a href='/{i}'>Link {i}</a></li>" for i in range(30)) + "</ul>"
    count = int(megabytes * 1_000_000) // len(paragraph)
    body = f"{nav}<article><h1>A very long page</h1>{paragraph * count}</article>{nav}"
    return f"<html><head><title>Big</title></head><body>{body}</body></html>".encode()


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=20.0)
    parser.add_argument("--algorithm", default="cectd-ds")
    args = parser.parse_args()
    page = build_page(args.megabytes)
    start = time.perf_counter()
    etree.fromstring(page, etree.HTMLParser(huge_tree=True))
    parse_seconds = time.perf_counter() - start
    before = peak_mib()
    start = time.perf_counter()
    result = extract(page, algorithm=args.algorithm, max_size=0, max_elements=0)
    seconds = time.perf_counter() - start
    print(f"page: {len(page) / 1e6:.1f} MB, {len(result.text) / 1e6:.1f} MB of text extracted")
    print(f"lxml parse: {parse_seconds:.2f} s; {args.algorithm}: {seconds:.2f} s ({seconds / parse_seconds:.1f}x)")
    print(f"peak RSS: {before:.0f} MiB before extraction, {peak_mib():.0f} MiB after")


if __name__ == "__main__":
    main()
