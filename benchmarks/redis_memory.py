"""Redis memory per million seen URLs and story fingerprints, and the time of one story lookup.

    .venv/bin/python benchmarks/redis_memory.py --count 1000000 --distance 3 6 8

Starts its own ``redis-server`` on a free loopback port (nothing else is touched), then:

- adds ``--count`` request fingerprints to a set exactly as scrapy-redis's ``RFPDupeFilter``
  does (``SADD`` of the 40-hex SHA-1 of a synthetic URL's canonical request), and reports
  the growth of ``used_memory``;
- for each ``--distance`` k, adds ``--count`` random 64-bit story fingerprints with
  synthetic 56-character URLs through :class:`scrapy_cetd.crawl.duplicates.RedisStoryStore`
  (the Lua script the pipeline runs), reporting the growth of ``used_memory`` and the
  mean time of one check-and-add at the end (Redis's own ``SLOWLOG``-free timing: 2,000
  calls in a row, one round trip each, on loopback).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "example_project"))
from run_distributed import redis_server  # noqa: E402

from scrapy_cetd.crawl.duplicates import RedisStoryStore  # noqa: E402

BATCH = 2000


def used(client: redis.Redis) -> int:
    return int(client.info("memory")["used_memory"])


def request_fingerprint(n: int) -> str:
    """What RFPDupeFilter stores for GET https://news.example/2026/11/story-<n>.html."""
    data = {"method": "GET", "url": f"https://news.example/2026/11/story-{n}.html", "body": ""}
    return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--distance", type=int, nargs="+", default=[3])
    args = parser.parse_args()
    per_million = 1_000_000 / args.count
    with redis_server() as (url, _):
        client = redis.Redis.from_url(url)
        before = used(client)
        for start in range(0, args.count, BATCH):
            batch = range(start, min(start + BATCH, args.count))
            client.sadd("news:dupefilter", *(request_fingerprint(n) for n in batch))
        grown = used(client) - before
        print(f"seen URLs (scrapy-redis dupefilter): {args.count} -> {grown / 2**20:.1f} MiB,"
              f" {grown * per_million / 2**20:.0f} MiB per million, {grown / args.count:.0f} bytes each")
        client.delete("news:dupefilter")
        rng = random.Random(17)
        for distance in args.distance:
            store = RedisStoryStore(client, f"bench:{distance}", distance)
            before = used(client)
            for start in range(0, args.count, BATCH):
                pipe = client.pipeline(transaction=False)
                for n in range(start, min(start + BATCH, args.count)):
                    fp = rng.getrandbits(64)
                    args_ = [fp.to_bytes(8, "big"), distance, f"https://news.example/2026/11/story-{n:012d}.html?x=1"]
                    store._script(keys=store.keys, args=args_ + store_blocks(fp, distance), client=pipe)
                pipe.execute()
            grown = used(client) - before
            started = time.perf_counter()
            for _ in range(BATCH):
                store.check_and_add(rng.getrandbits(64), "https://news.example/probe")
            lookup = (time.perf_counter() - started) / BATCH
            print(f"story fingerprints, k={distance}: {args.count} -> {grown / 2**20:.1f} MiB,"
                  f" {grown * per_million / 2**20:.0f} MiB per million ({grown / args.count:.0f} bytes each);"
                  f" one check-and-add at {args.count} stories: {lookup * 1e3:.2f} ms")
            store.clear()


def store_blocks(fingerprint: int, distance: int) -> list[int]:
    from scrapy_cetd.crawl.duplicates import blocks

    return blocks(fingerprint, distance)


if __name__ == "__main__":
    main()
