"""Measure the distributed crawl: pages/s with 1, 2, 4 workers, and what faults do.

    .venv/bin/python example_project/distributed_benchmark.py scaling --pages 400 --workers 1 2 4
    .venv/bin/python example_project/distributed_benchmark.py faults --pages 400

Builds a loopback site from the first ``--pages`` pages of the dev benchmark
(``../shared/benchmarks/wcxb-dev``): ``/index.html`` links ``/p/<id>.html``, each a real
page (``DEPTH_LIMIT = 1``: their own links are not followed).  Serves it like
``run_offline.py``, starts its own ``redis-server`` and runs ``run_distributed.py``'s
workers (``CETD_WORKERS = 0``: each worker process extracts in-process; duplicate stories
kept, so every page yields one item).

``scaling``: pages/s = pages / (last response - first response, over all workers), and the
ratio to one worker, all in one run (the machine's other load shifts absolute numbers).

``faults``:
- ``kill-worker``: two workers; worker 1 gets SIGKILL once 25% of the pages are crawled;
  reports whether worker 2 finished and which pages are missing from the corpus (requests
  the dead worker had taken from Redis), then restarts one worker on the persisted Redis
  (``SCHEDULER_PERSIST``) and reports what that recovers.
- ``term-worker``: the same with SIGTERM (Scrapy's graceful shutdown).
- ``kill-redis``: two workers; ``redis-server`` gets SIGKILL once 25% of the pages are
  crawled; reports how the workers end and after how long.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parent
sys.path.insert(0, str(PROJECT))
DEV = PROJECT.parent.parent / "shared" / "benchmarks" / "wcxb-dev"
SETTINGS: dict[str, Any] = {
    "CETD_WORKERS": 0,
    "CETD_ON_DUPLICATE": "keep",
    "ROBOTSTXT_OBEY": False,
    "CLOSESPIDER_ITEMCOUNT": 0,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
    "DEPTH_LIMIT": 1,  # the index and its pages; the dev pages' own links would be 404s here
}
ARTICLES = r"/p/\d+\.html$"


def build_site(directory: Path, count: int) -> list[str]:
    """Write the site; return the article paths."""
    from scrapy_cetd.evaluation.datasets import load_dataset, read_page_html

    pages = load_dataset(DEV).pages[:count]
    (directory / "p").mkdir(parents=True)
    paths = []
    for page in pages:
        (directory / "p" / f"{page.page_id}.html").write_bytes(read_page_html(page))
        paths.append(f"/p/{page.page_id}.html")
    links = "".join(f'<li><a href="{path}">{path}</a></li>' for path in paths)
    (directory / "index.html").write_text(f"<html><body><ul>{links}</ul></body></html>", encoding="utf-8")
    return paths


def corpus_urls(output: Path) -> list[str]:
    urls = []
    for path in sorted(output.glob("worker-*.jsonl")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            try:
                urls.append(json.loads(line)["url"])
            except ValueError:  # a line cut by a killed worker
                pass
    return urls


def fresh(client: Any, base_url: str) -> None:
    import run_distributed

    run_distributed.clear_crawl(client)
    run_distributed.seed(client, base_url + "/index.html")


def scaling(args: argparse.Namespace, site: Path, paths: list[str], out: Path) -> None:
    import run_distributed
    from run_offline import serve_sample_site

    rates = {}
    with run_distributed.redis_server() as (redis_url, _), serve_sample_site(site) as base_url:
        client = run_distributed.redis_client(redis_url)
        for workers in args.workers:
            fresh(client, base_url)
            output = out / f"scaling-{workers}"
            reports = run_workers(workers, redis_url, base_url, output)
            stats = [r["stats"] for r in reports]
            pages = sum(s.get("response_received_count", 0) for s in stats)
            first = min(s["distributed/first_response_time"] for s in stats if "distributed/first_response_time" in s)
            last = max(s["distributed/last_response_time"] for s in stats if "distributed/last_response_time" in s)
            rates[workers] = pages / (last - first)
            per_worker = [s.get("response_received_count", 0) for s in stats]
            print(f"{workers} workers: {pages} pages in {last - first:.1f} s = {rates[workers]:.1f} pages/s"
                  f" ({rates[workers] / rates[args.workers[0]]:.2f}x {args.workers[0]} worker);"
                  f" pages per worker {per_worker}; {len(set(corpus_urls(output)))} of {len(paths)} articles",
                  flush=True)


def run_workers(workers: int, redis_url: str, base_url: str, output: Path) -> list[dict[str, Any]]:
    import run_distributed

    return run_distributed.run_workers(
        workers, redis_url, base_url + "/index.html", output, SETTINGS, article_pattern=ARTICLES
    )


def crawled(output: Path) -> int:
    return len(corpus_urls(output))


def faults(args: argparse.Namespace, site: Path, paths: list[str], out: Path) -> None:
    from run_offline import serve_sample_site

    with serve_sample_site(site) as base_url:
        expected = {base_url + path for path in paths}
        for name, sent in (("kill-worker", signal.SIGKILL), ("term-worker", signal.SIGTERM)):
            if name in args.scenarios:
                stop_worker(name, sent, base_url, expected, paths, out)
        if "kill-redis" in args.scenarios:
            kill_redis(args, base_url, expected, paths, out)


def two_workers_a_quarter_in(redis_url: str, base_url: str, output: Path, quarter: int) -> list[Any]:
    """Start two workers on the crawl and return once ``quarter`` articles are written."""
    import run_distributed

    workers = [
        run_distributed.start_worker(i, redis_url, base_url + "/index.html", output, SETTINGS, article_pattern=ARTICLES)
        for i in (1, 2)
    ]
    while crawled(output) < quarter:
        time.sleep(0.05)
    return workers


def stop_worker(
    name: str, sent: signal.Signals, base_url: str, expected: set[str], paths: list[str], out: Path
) -> None:
    """Worker 1 of 2 gets ``sent`` mid-crawl; then one worker restarts on the persisted Redis."""
    import run_distributed

    with run_distributed.redis_server() as (redis_url, _):
        client = run_distributed.redis_client(redis_url)
        fresh(client, base_url)
        output = out / name
        output.mkdir(parents=True)
        workers = two_workers_a_quarter_in(redis_url, base_url, output, len(paths) // 4)
        queued = client.zcard("news:requests")
        workers[0].send_signal(sent)
        killed_at = crawled(output)
        started = time.monotonic()
        reports = run_distributed.wait_workers(workers, output)
        got = set(corpus_urls(output))
        missing = expected - got
        print(f"{name}: worker 1 got {sent.name} at {killed_at} articles written ({queued} requests queued);"
              f" worker 1 exit {reports[0]['returncode']}, worker 2 exit {reports[1]['returncode']}, finish reason"
              f" {reports[1]['stats'].get('finish_reason')}, {time.monotonic() - started:.1f} s later;"
              f" corpus {len(got)} of {len(expected)} articles, {len(missing)} missing;"
              f" queue left {client.zcard('news:requests')}, seen requests {client.scard('news:dupefilter')}",
              flush=True)
        # Restart one worker on the same (persisted) Redis: does it recover the missing pages?
        restart = out / f"{name}-restart"
        run_workers(1, redis_url, base_url, restart)
        recovered = set(corpus_urls(restart)) & missing
        print(f"  restart of one worker on the persisted Redis: {len(set(corpus_urls(restart)))} articles crawled,"
              f" {len(recovered)} of the {len(missing)} missing recovered", flush=True)


def kill_redis(args: argparse.Namespace, base_url: str, expected: set[str], paths: list[str], out: Path) -> None:
    """redis-server gets SIGKILL mid-crawl."""
    import run_distributed

    with run_distributed.redis_server() as (redis_url, redis_process):
        client = run_distributed.redis_client(redis_url)
        fresh(client, base_url)
        output = out / "kill-redis"
        output.mkdir(parents=True)
        workers = two_workers_a_quarter_in(redis_url, base_url, output, len(paths) // 4)
        redis_process.send_signal(signal.SIGKILL)
        killed_at = crawled(output)
        started = time.monotonic()
        reports = run_distributed.wait_workers(workers, output, timeout=args.timeout)
        took = time.monotonic() - started
        print(f"kill-redis: redis-server SIGKILLed at {killed_at} articles written;"
              f" workers ended after {took:.1f} s"
              f" with exit codes {[r['returncode'] for r in reports]}, finish reasons"
              f" {[r['stats'].get('finish_reason') for r in reports]};"
              f" corpus {len(set(corpus_urls(output)))} of {len(expected)} articles", flush=True)
        for report in reports:
            errors = [line for line in report["log"].splitlines() if "ERROR" in line or "Error" in line]
            print(f"  worker {report['worker']} log, last error lines: {errors[-2:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["scaling", "faults"])
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--timeout", type=float, default=300, help="faults: how long to wait for workers")
    parser.add_argument("--scenarios", nargs="+", default=["kill-worker", "term-worker", "kill-redis"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site, out = Path(tmp) / "site", Path(tmp) / "out"
        paths = build_site(site, args.pages)
        print(f"site: {len(paths)} dev pages on loopback", flush=True)
        (scaling if args.what == "scaling" else faults)(args, site, paths, out)


if __name__ == "__main__":
    main()
