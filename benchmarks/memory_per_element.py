"""Peak memory of one ``extract()`` call per element of the page, on generated pages.

    python benchmarks/memory_per_element.py [--counts 25000 100000] [--algorithms cetd-plus lineblock]

Each (shape, count, algorithm) runs in a fresh subprocess: it builds the page's bytes,
imports the library, extracts one tiny page (imports done), reads its peak resident memory
(``ru_maxrss``), extracts the page with no limits (``max_size=0, max_elements=0``) and
reads the peak again.  Shapes: ``nested-div`` (``<div>x`` repeated, never closed: every
element one level deeper) and ``paragraphs`` (``<p>`` of a 30-word sentence).  Prints the
growth of the peak and, per shape and algorithm, the slope between the two counts in KB
per element: what each further element costs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys
shape, count, algorithm = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sentence = "The council met on Tuesday to discuss the new bridge, its costs and the roads around it. " * 2
unit = {"nested-div": "<div>x", "paragraphs": "<p>" + sentence + "</p>\n"}[shape]
page = ("<html><head><title>Page</title></head><body>" + unit * count + "</body></html>").encode()
from scrapy_cetd import extract
extract(b"<p>warm-up</p>", algorithm=algorithm)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = extract(page, algorithm=algorithm, max_size=0, max_elements=0)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"bytes": len(page), "growth_kib": after - before, "text": len(result.text)}))
"""


def measure(shape: str, count: int, algorithm: str) -> dict[str, int]:
    out = subprocess.run([sys.executable, "-c", CHILD, shape, str(count), algorithm], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs=2, default=[25_000, 100_000])
    parser.add_argument("--algorithms", nargs="+", default=["cetd-plus", "lineblock"])
    args = parser.parse_args()
    small, large = args.counts
    print("| shape | algorithm | elements | page MB | peak growth MB | KB per element (slope) |")
    print("|---|---|---|---|---|---|")
    for shape in ("nested-div", "paragraphs"):
        for algorithm in args.algorithms:
            first, second = measure(shape, small, algorithm), measure(shape, large, algorithm)
            slope = (second["growth_kib"] - first["growth_kib"]) / (large - small) * 1.024
            for count, row in ((small, first), (large, second)):
                print(f"| {shape} | {algorithm} | {count:,} | {row['bytes'] / 1e6:.1f} | "
                      f"{row['growth_kib'] * 1.024 / 1000:.0f} | {slope:.2f} |")


if __name__ == "__main__":
    main()
