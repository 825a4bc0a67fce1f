"""Measure the SimHash distance of a syndicated copy vs. the distance between distinct pages.

    .venv/bin/python benchmarks/duplicate_distance.py ../shared/benchmarks/wcxb-dev --split first-half --jobs 2

For each page: extract the original (the default algorithm), and a "syndicated copy": the
same HTML with its chrome replaced, i.e. ``nav``/``header``/``footer``/``aside`` elements
removed and another site's chrome added (a navigation bar, a "Related stories" list of six
other pages' titles, a footer).  Prints the distribution of the Hamming distance between
the two fingerprints (a duplicate must be within k) and of the distance between distinct
pages' fingerprints (all pairs; these must be above k), and for each k the share of copies
caught and of distinct pairs wrongly matched.  This sets ``CETD_DUPLICATE_DISTANCE``.
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor
from html import escape

import numpy as np
from lxml import html as lxml_html

from scrapy_cetd import extract
from scrapy_cetd.evaluation.datasets import load_dataset, read_page_html, select_pages
from scrapy_cetd.fingerprint import simhash, text_fingerprint

CHROME_TAGS = ("nav", "header", "footer", "aside")
WORDS = "world business sport culture science travel opinion video weather markets local politics".split()


def syndicated_copy(html: bytes, seed: int, headlines: list[str]) -> bytes:
    """The page in another site's chrome (see the module docstring)."""
    tree = lxml_html.document_fromstring(html)
    for element in tree.xpath("|".join(f"//{tag}" for tag in CHROME_TAGS)):
        if element.getparent() is not None:
            element.drop_tree()
    rng = random.Random(seed)
    nav = "".join(f'<li><a href="/{w}/">{w.title()}</a></li>' for w in rng.sample(WORDS, 8))
    related = "".join(f'<li><a href="/story/{i}">{escape(h)}</a></li>' for i, h in enumerate(headlines))
    header = lxml_html.fragment_fromstring(
        f'<header><div class="logo">Syndicated News</div><nav><ul>{nav}</ul></nav></header>'
    )
    footer = lxml_html.fragment_fromstring(
        f'<div><aside><h3>Related stories</h3><ul>{related}</ul></aside>'
        "<footer><p>Copyright 2026 Syndicated News Ltd. All rights reserved.</p>"
        '<p><a href="/privacy">Privacy</a> <a href="/terms">Terms</a> <a href="/contact">Contact</a></p></footer></div>'
    )
    body = tree.find("body")
    if body is None:
        body = tree
    body.insert(0, header)
    body.append(footer)
    return lxml_html.tostring(tree, encoding="utf-8")


def measure(job: tuple[str, bytes, int, list[str]]) -> tuple[str, str, str]:
    page_id, html, seed, headlines = job
    original = extract(html, with_html=False).text
    try:
        copy = extract(syndicated_copy(html, seed, headlines), with_html=False).text
    except Exception:  # a page lxml cannot round-trip: no copy
        copy = ""
    return page_id, text_fingerprint(original), text_fingerprint(copy)


def popcount64(values: np.ndarray) -> np.ndarray:
    return np.unpackbits(values.view(np.uint8).reshape(*values.shape, 8), axis=-1).sum(axis=-1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset")
    parser.add_argument("--split", default="first-half")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    pages = select_pages(load_dataset(args.dataset).pages, split=args.split)
    titles = []
    for page in pages:
        tree = lxml_html.document_fromstring(read_page_html(page) or b"<html></html>")
        titles.append((tree.findtext(".//title") or page.page_id).strip()[:80])
    rng = random.Random(17)
    jobs = [(p.page_id, read_page_html(p), i, rng.sample(titles, 6)) for i, p in enumerate(pages)]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(measure, jobs, chunksize=8))
    pairs = [(int(a, 16), int(b, 16)) for _, a, b in results if a and b]
    copies = np.array([bin(a ^ b).count("1") for a, b in pairs])
    originals = np.array(sorted({a for a, _ in pairs}), dtype=np.uint64)
    distinct = np.concatenate(
        [popcount64(originals[i] ^ originals[i + 1 :]) for i in range(len(originals) - 1)]
    )
    print(f"{len(pages)} pages ({args.split}); {len(pairs)} with text in both the original and the copy;"
          f" {len(originals)} distinct original fingerprints, {len(distinct)} distinct pairs")
    print("copy vs original, distance percentiles (50/90/95/99/max):",
          *np.percentile(copies, [50, 90, 95, 99, 100]).astype(int))
    print("distinct pages, distance percentiles (min/0.01%/0.1%/1%/50%):",
          distinct.min(), *np.percentile(distinct, [0.01, 0.1, 1, 50]).astype(int))
    print(" k  copies caught  distinct pairs matched")
    for k in (0, 1, 2, 3, 4, 6, 8, 10, 12, 14, 16):
        print(f"{k:2d}  {np.mean(copies <= k):12.1%}  {int(np.sum(distinct <= k)):8d} ({np.mean(distinct <= k):.4%})")
    assert simhash("") == 0


if __name__ == "__main__":
    main()
