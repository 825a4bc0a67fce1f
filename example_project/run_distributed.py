"""Crawl the bundled sample news site with N worker processes sharing one Redis frontier.

    python example_project/run_distributed.py [--workers 2] [--redis-url URL] [--start index|sitemap|feed]

Starts ``redis-server`` on a free loopback port (unless ``--redis-url`` names a running
Redis), serves ``sample_site/`` on 127.0.0.1 as ``run_offline.py`` does, clears the crawl's
keys, seeds ``news:start_urls`` with the start page, and runs N processes of the ``news``
spider with ``news_corpus.distributed_settings`` (scrapy-redis's dupefilter and its scheduler
with leased requests, duplicate stories dropped in Redis); the workers start crawling
together (each waits in Redis for the others) and, idle, look at the shared queue twice a
second.  Waits until every worker has finished (a worker stops
after ``MAX_IDLE_TIME_BEFORE_CLOSE`` idle seconds), then prints pages and items per worker
and the duplicates dropped.  Worker N writes ``output/distributed/worker-N.jsonl`` (and its
Scrapy stats to ``worker-N.stats.json``, its warnings and errors to ``worker-N.log``, its
WARC archive to ``worker-N.warc.gz``).
``make crawl-distributed WORKERS=2`` runs this.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parent
OUTPUT = PROJECT / "output" / "distributed"
SPIDER = "news"
#: The workers started and waiting for the others (:func:`wait_for_each_other`).
READY_KEY = f"{SPIDER}:ready"
#: The Redis keys of one crawl: scrapy-redis's queue, seen requests and seeds, the workers
#: ready, and the stories.
CRAWL_KEYS = (f"{SPIDER}:requests", f"{SPIDER}:dupefilter", f"{SPIDER}:start_urls", READY_KEY)
#: Seconds between an idle worker's looks at the shared queue (Scrapy's engine heartbeat,
#: 5 s): the sample site is crawled in a few seconds, and a worker that looked 5 s after
#: the other had queued the links found them all crawled (5 of 9 runs, one worker crawled
#: all 75 pages).
IDLE_POLL_SECONDS = 0.5
INSTALL_HINT = "install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or pass --redis-url"


class RedisUnavailable(RuntimeError):
    """No Redis to crawl with; the message is one line for the user."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_client(url: str) -> Any:
    """A client for ``url`` that has answered PING, else :class:`RedisUnavailable`."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=30)
    try:
        client.ping()
    except redis.RedisError as exc:
        raise RedisUnavailable(f"Redis unreachable at {url}: {exc}") from None
    return client


@contextmanager
def redis_server() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Run ``redis-server`` on a free loopback port, in memory only; yield its URL and process."""
    binary = shutil.which("redis-server") or next(
        (p for p in ("/usr/bin/redis-server", "/usr/sbin/redis-server") if os.access(p, os.X_OK)), None
    )
    if binary is None:
        raise RedisUnavailable(f"redis-server not found: {INSTALL_HINT}")
    port = _free_port()
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                redis_client(url)
                break
            except RedisUnavailable:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RedisUnavailable(f"redis-server did not start on port {port}") from None
                time.sleep(0.05)
        yield url, process
    finally:
        process.terminate()
        process.wait(10)


def clear_crawl(client: Any) -> None:
    """Delete the frontier (with its workers' leases) and the seen stories of a previous crawl of ``news``."""
    stories = list(client.scan_iter(f"{SPIDER}:stories:*"))
    leases = list(client.scan_iter(f"{SPIDER}:requests:*"))
    client.delete(*CRAWL_KEYS, *stories, *leases)


def seed(client: Any, url: str) -> None:
    client.lpush(f"{SPIDER}:start_urls", json.dumps({"url": url}))


def start_worker(
    index: int, redis_url: str, start_url: str, output: Path, settings: dict[str, Any], workers: int = 1,
    **spider_args: str,
) -> subprocess.Popen[str]:
    """Start worker ``index``; it crawls once ``workers`` workers are ready (:func:`wait_for_each_other`)."""
    spec = {
        "index": index, "redis_url": redis_url, "start_url": start_url, "output": str(output),
        "settings": settings, "spider_args": spider_args, "workers": workers,
    }
    output.mkdir(parents=True, exist_ok=True)
    # The log goes to a file, not a pipe: a pipe that nobody reads while another worker is
    # waited for fills up (Redis errors log a traceback per scheduler call), and the worker
    # then blocks on writing its log, its reactor stopped.
    with (output / f"worker-{index}.log").open("w", encoding="utf-8") as log:
        return subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(spec)],
            stdout=subprocess.PIPE, stderr=log, text=True,
        )


def run_workers(
    count: int, redis_url: str, start_url: str, output: Path, settings: dict[str, Any] | None = None,
    timeout: float = 600, **spider_args: str,
) -> list[dict[str, Any]]:
    """Run ``count`` workers until all have finished; one report per worker (stats, exit code, log tail)."""
    output.mkdir(parents=True, exist_ok=True)
    workers = [
        start_worker(i, redis_url, start_url, output, settings or {}, count, **spider_args)
        for i in range(1, count + 1)
    ]
    return wait_workers(workers, output, timeout)


def wait_workers(workers: Sequence[subprocess.Popen[str]], output: Path, timeout: float = 600) -> list[dict[str, Any]]:
    """Wait for started workers; one report per worker (stats, exit code, log tail)."""
    reports = []
    for index, worker in enumerate(workers, start=1):
        try:
            stdout, _ = worker.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            worker.kill()
            stdout, _ = worker.communicate()
        log = (output / f"worker-{index}.log").read_text(encoding="utf-8", errors="replace")
        lines = stdout.strip().splitlines()
        stats = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
        (output / f"worker-{index}.stats.json").write_text(json.dumps(stats, indent=1), encoding="utf-8")
        reports.append({"worker": index, "returncode": worker.returncode, "stats": stats, "log": log[-3000:]})
    return reports


def summary(reports: Sequence[dict[str, Any]], output: Path) -> str:
    lines = ["worker  pages  items  stories dropped  finish reason"]
    totals = [0, 0, 0]
    for report in reports:
        stats = report["stats"]
        row = [
            stats.get("response_received_count", 0),
            stats.get("item_scraped_count", 0),
            stats.get("scrapy_cetd/duplicates/dropped", 0),
        ]
        totals = [a + b for a, b in zip(totals, row)]
        reason = stats.get("finish_reason") or f"exit code {report['returncode']}"
        lines.append(f"{report['worker']:6d}  {row[0]:5d}  {row[1]:5d}  {row[2]:15d}  {reason}")
    lines.append(f" total  {totals[0]:5d}  {totals[1]:5d}  {totals[2]:15d}")
    files = sorted(output.glob("worker-*.jsonl"))
    urls = [json.loads(line)["url"] for path in files for line in path.read_text(encoding="utf-8").split("\n") if line]
    lines.append(f"Corpus: {output}/worker-*.jsonl: {len(urls)} articles, {len(set(urls))} distinct URLs")
    return "\n".join(lines)


def crawl(args: argparse.Namespace, redis_url: str) -> int:
    from run_offline import START_PATHS, serve_sample_site

    client = redis_client(redis_url)
    clear_crawl(client)
    output = args.output.resolve()
    for old in [*output.glob("worker-*.jsonl"), *output.glob("worker-*.stats.json"), *output.glob("worker-*.log"),
                *output.glob("worker-*.warc.gz")]:
        old.unlink()
    with serve_sample_site() as base_url:
        start_url = base_url + START_PATHS[args.start]
        seed(client, start_url)
        print(f"Redis at {redis_url}; serving the sample site at {base_url}; {args.workers} workers"
              f" crawling from {start_url}", flush=True)
        reports = run_workers(args.workers, redis_url, start_url, output)
    print(summary(reports, output))
    failed = [r for r in reports if r["returncode"] != 0 or r["stats"].get("finish_reason") != "finished"]
    for report in failed:
        print(f"worker {report['worker']} failed:\n{report['log']}", file=sys.stderr)
    return 1 if failed else 0


def wait_for_each_other(redis_url: str, index: int, workers: int, timeout: float = 120) -> None:
    """Mark worker ``index`` ready in Redis and wait until ``workers`` are: the workers start
    crawling together, their imports and set-up (seconds, and uneven) behind them.  Else
    the first one up crawled the small sample site alone."""
    client = redis_client(redis_url)
    client.sadd(READY_KEY, index)
    deadline = time.monotonic() + timeout
    while client.scard(READY_KEY) < workers and time.monotonic() < deadline:
        time.sleep(0.05)


def worker_main(spec: dict[str, Any]) -> None:
    """One worker: the ``news`` spider with the distributed settings; its stats on the last stdout line."""
    os.chdir(PROJECT)
    sys.path.insert(0, str(PROJECT))
    os.environ["SCRAPY_SETTINGS_MODULE"] = "news_corpus.distributed_settings"
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    feed = dict(next(iter(settings.getdict("FEEDS").values())))
    settings.set("FEEDS", {str(Path(spec["output"]) / f"worker-{spec['index']}.jsonl"): feed})
    if settings.get("CETD_WARC_PATH"):  # each worker its own archive, beside its feed
        settings.set("CETD_WARC_PATH", str(Path(spec["output"]) / f"worker-{spec['index']}.warc.gz"))
    settings.set("REDIS_URL", spec["redis_url"])
    settings.set("AUTOTHROTTLE_ENABLED", False)  # loopback
    settings.set("LOG_LEVEL", "WARNING")
    for name, value in spec["settings"].items():
        settings.set(name, value)
    from scrapy.core.engine import ExecutionEngine

    ExecutionEngine._SLOT_HEARTBEAT_INTERVAL = IDLE_POLL_SECONDS  # a demo on loopback: see the constant
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(SPIDER)
    process.crawl(crawler, start_url=spec["start_url"], **spec.get("spider_args", {}))
    wait_for_each_other(spec["redis_url"], spec["index"], spec.get("workers", 1))
    process.start()
    stats = {key: value if isinstance(value, (int, float, str)) else str(value)
             for key, value in (crawler.stats.get_stats() if crawler.stats else {}).items()}
    print(json.dumps(stats), flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--redis-url", help="a running Redis to use instead of starting redis-server")
    parser.add_argument("--start", choices=["feed", "index", "sitemap"], default="index")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="directory of the worker-N.jsonl files")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker_main(json.loads(args.worker))
        return 0
    sys.path.insert(0, str(PROJECT))
    try:
        if args.redis_url:
            return crawl(args, args.redis_url)
        with redis_server() as (url, _):
            return crawl(args, url)
    except RedisUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
