"""Story fingerprints: a 64-bit SimHash of a text's word shingles (Charikar 2002).

Two copies of one story (syndicated, print or AMP versions, the same article behind
tracking parameters) extract to nearly the same text; their SimHashes then differ in few
bits, while distinct stories differ in about 32 of 64.  :mod:`scrapy_cetd.crawl.duplicates`
compares fingerprints by Hamming distance (Manku, Jain and Das Sarma 2007, "Detecting
near-duplicates for web crawling": 64 bits, k = 3).  The threshold this project uses is
measured on the dev pages by ``benchmarks/duplicate_distance.py`` (see docs/scaling.md).

Needs only numpy; no Scrapy.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

__all__ = ["SHINGLE_WORDS", "hamming", "simhash", "text_fingerprint"]

#: Words per shingle: three-word shingles keep word order (a reordered page is another text)
#: while one changed word touches only three shingles.
SHINGLE_WORDS = 3
_WORD = re.compile(r"\w+")


def _shingle_hashes(text: str) -> np.ndarray:
    words = _WORD.findall(text.lower())
    if len(words) > SHINGLE_WORDS:
        shingles = {" ".join(words[i : i + SHINGLE_WORDS]) for i in range(len(words) - SHINGLE_WORDS + 1)}
    else:
        shingles = {" ".join(words)} if words else set()
    digest = hashlib.blake2b
    return np.frombuffer(b"".join(digest(s.encode(), digest_size=8).digest() for s in shingles), dtype=np.uint8)


def simhash(text: str) -> int:
    """The 64-bit SimHash of ``text``'s lower-cased three-word shingles; 0 for a text without words.

    Each distinct shingle is hashed (BLAKE2b, 8 bytes); bit i of the result is set when
    more shingles have bit i set than not.  Runs in time linear in the text (one numpy pass).
    """
    digests = _shingle_hashes(text)
    if not len(digests):
        return 0
    # Bit i of the result is bit i of the digests read as little-endian 64-bit numbers.
    ones = np.unpackbits(digests.reshape(-1, 8), axis=1, bitorder="little").sum(axis=0, dtype=np.int64)
    majority = np.packbits(ones * 2 > len(digests) // 8, bitorder="little")
    return int.from_bytes(majority.tobytes(), "little")


def text_fingerprint(text: str) -> str:
    """:func:`simhash` as 16 lower-case hex digits (the ``fingerprint`` output); ``""`` for no words."""
    return f"{simhash(text):016x}" if _WORD.search(text) else ""


def hamming(a: int | str, b: int | str) -> int:
    """Bits in which two fingerprints (ints or hex strings) differ."""
    if isinstance(a, str):
        a = int(a, 16)
    if isinstance(b, str):
        b = int(b, 16)
    return bin(a ^ b).count("1")
