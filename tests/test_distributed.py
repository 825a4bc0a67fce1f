"""The distributed crawl: two worker processes on scrapy-redis with a real Redis on loopback
crawl the sample site once, to the same corpus as the single-process ``make crawl``."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "example_project"
sys.path.insert(0, str(PROJECT))
from run_distributed import (  # noqa: E402
    INSTALL_HINT,
    clear_crawl,
    redis_client,
    redis_server,
    seed,
    start_worker,
    wait_workers,
)
from run_offline import START_PATHS, serve_sample_site  # noqa: E402

pytestmark = pytest.mark.skipif(
    not any(os.access(p, os.X_OK) for p in ("/usr/bin/redis-server", "/usr/sbin/redis-server"))
    and not __import__("shutil").which("redis-server"),
    reason=f"redis-server not found: {INSTALL_HINT} (.ci/run installs it)",
)


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONWARNINGS": "error"}  # the workers too: no warning of any kind
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=180, env=env, **kwargs  # type: ignore[arg-type]
    )


def _corpus(paths: list[Path]) -> dict[str, dict[str, object]]:
    items: dict[str, dict[str, object]] = {}
    for path in paths:
        for line in filter(None, path.read_text(encoding="utf-8").split("\n")):
            item = json.loads(line)
            url_path = "/" + item["url"].split("/", 3)[3]
            assert url_path not in items, f"{url_path} crawled twice"
            items[url_path] = item
    return items


def _local(item: dict[str, object], field: str) -> object:
    """The item's field with the crawl's origin (``http://127.0.0.1:PORT``) taken out."""
    origin = "/".join(str(item["url"]).split("/", 3)[:3])
    value = item[field]
    return value.replace(origin, "") if isinstance(value, str) else value


def test_two_workers_crawl_each_url_once_to_the_single_process_corpus(tmp_path: Path) -> None:
    single = _run([str(PROJECT / "run_offline.py"), "--output", str(tmp_path / "single.jsonl")], cwd=tmp_path)
    assert single.returncode == 0, single.stderr[-3000:]
    distributed = [str(PROJECT / "run_distributed.py"), "--workers", "2", "--output", str(tmp_path / "dist")]
    run = _run(distributed, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]

    expected = _corpus([tmp_path / "single.jsonl"])
    workers = sorted((tmp_path / "dist").glob("worker-*.jsonl"))
    assert [p.name for p in workers] == ["worker-1.jsonl", "worker-2.jsonl"]
    got = _corpus(workers)  # fails on a URL crawled by both workers
    assert len(expected) == 23 and set(got) == set(expected)
    for path, item in expected.items():
        # Each crawl serves the site on its own port, and the cleaned HTML's links are absolute.
        assert {k: _local(got[path], k) for k in ("title", "text", "html", "algorithm")} == {
            k: _local(item, k) for k in ("title", "text", "html", "algorithm")
        }, path
        assert re.fullmatch(r"[0-9a-f]{16}", str(got[path]["fingerprint"]))

    # Pages: every page once (robots.txt aside: each worker that crawls fetches it; the single crawl once).
    rows = re.findall(r"^\s+(\d)\s+(\d+)\s+(\d+)\s+(\d+)\s+finished$", run.stdout, re.MULTILINE)
    assert len(rows) == 2, run.stdout
    stats = [json.loads((tmp_path / "dist" / f"worker-{n}.stats.json").read_text()) for n in (1, 2)]
    single_pages = int(re.search(r"from (\d+) pages", single.stdout).group(1))  # type: ignore[union-attr]
    pages = [s.get("response_received_count", 0) - s.get("robotstxt/response_count", 0) for s in stats]
    assert sum(pages) == single_pages - 1
    assert [int(row[1]) for row in rows] == [s.get("response_received_count", 0) for s in stats]
    assert sum(int(items) for _, _, items, _ in rows) == 23
    assert all(int(items) for _, _, items, _ in rows), run.stdout  # both workers crawled: they start together
    assert "23 articles, 23 distinct URLs" in run.stdout
    # Each worker archives to its own WARC beside its feed (they used to share, and replace,
    # the project's output/crawl.warc.gz): together they hold every article's response.
    from scrapy_cetd.warc.reader import Unit, iter_records

    archived = {
        record.headers["WARC-Target-URI"].split("/", 3)[3]
        for path in (tmp_path / "dist").glob("worker-*.warc.gz")
        for record in iter_records(Unit(str(path)))
        if getattr(record, "type", None) == "response"
    }
    assert {path.lstrip("/") for path in expected} <= archived


def test_unreachable_redis_is_one_error_line(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: nothing listens there
    run = _run([str(PROJECT / "run_distributed.py"), "--redis-url", f"redis://127.0.0.1:{port}"], cwd=tmp_path)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith(f"error: Redis unreachable at redis://127.0.0.1:{port}")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again: nothing listens there


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the example project without its ``output/`` (which ``make crawl`` wrote)."""
    copy = tmp_path_factory.mktemp("project") / "example_project"
    shutil.copytree(PROJECT, copy, ignore=shutil.ignore_patterns("output", "__pycache__"))
    return copy


@pytest.mark.parametrize(
    ("redis_url", "settings", "message"),
    [
        # The extension RedisWatch (the add-on's) checks before the spider opens...
        ("redis://127.0.0.1:{port}/0", [], "Crawl not started: REDIS_URL: no answer from Redis at "
         "redis://127.0.0.1:{port}/0 (ConnectionError: Error 111 connecting to 127.0.0.1:{port}."),
        # ...and the scheduler does, for a crawl without it.
        ("redis://:secret@127.0.0.1:{port}/0", ["CETD_REDIS_LOST_CLOSE=0"], "Crawl not started: REDIS_URL: no answer "
         "from Redis at redis://:***@127.0.0.1:{port}/0 (ConnectionError: Error 111 connecting to 127.0.0.1:{port}."),
        # The spider (scrapy_cetd.cluster.spider.RedisSpider) reads the URL first.
        ("127.0.0.1:{port}", [], "Crawl not started, invalid setting: REDIS_URL: Redis URL must specify one of the "
         "following schemes (redis://, rediss://, unix://), got '127.0.0.1:{port}'"),
    ],
)
def test_scrapy_crawl_without_redis_is_one_line_naming_redis_url(
    project_copy: Path, redis_url: str, settings: list[str], message: str
) -> None:
    """The docs' "Several machines" command with no Redis there: one line, exit 1 (it was some
    70 lines of traceback ending in "RuntimeError: Engine slot not assigned")."""
    port = _closed_port()
    args = ["-m", "scrapy", "crawl", "news", "-a", "start_url=http://127.0.0.1:9/"]
    args += ["-s", f"REDIS_URL={redis_url.format(port=port)}", *(f"-s{setting}" for setting in settings)]
    env = {**os.environ, "PYTHONWARNINGS": "error", "SCRAPY_SETTINGS_MODULE": "news_corpus.distributed_settings"}
    run = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=120, env=env, cwd=project_copy, check=False
    )
    assert run.returncode == 1
    errors = [line for line in run.stderr.splitlines() if " ERROR: " in line]
    assert len(errors) == 1, run.stderr[-3000:]
    assert f"[scrapy_cetd.crawl.settings] ERROR: {message.format(port=port)}" in errors[0]
    assert "Traceback" not in run.stderr and "secret" not in run.stderr
    # RedisWatch checks before the spider opens; the scheduler is built as it opens.
    assert ("Spider opened" in run.stderr) == ("CETD_REDIS_LOST_CLOSE=0" in settings)


def test_scheduler_persist_off_is_one_warning(project_copy: Path) -> None:
    """The docs call it required; a crawl without it ran with no word."""
    with redis_server() as (url, _):
        args = ["-m", "scrapy", "crawl", "news", "-a", "start_url=http://127.0.0.1:9/", "-s", f"REDIS_URL={url}"]
        args += ["-s", "SCHEDULER_PERSIST=False", "-s", "MAX_IDLE_TIME_BEFORE_CLOSE=1", "-s", "LOG_LEVEL=INFO"]
        env = {**os.environ, "PYTHONWARNINGS": "error", "SCRAPY_SETTINGS_MODULE": "news_corpus.distributed_settings"}
        run = subprocess.run(
            [sys.executable, *args], capture_output=True, text=True, timeout=120, env=env, cwd=project_copy, check=False
        )
    assert run.returncode == 0, run.stderr[-3000:]
    warnings = [line.split("] WARNING: ", 1)[1] for line in run.stderr.splitlines() if "] WARNING: " in line]
    assert warnings == [
        "SCHEDULER_PERSIST is off: the first worker to finish deletes the Redis queue and seen requests that the "
        "other workers share; set SCHEDULER_PERSIST = True for a crawl with several workers"
    ]


@contextmanager
def _seeded_crawl(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes], str, Path]]:
    """A real Redis with the crawl's keys cleared and the sample site's start page seeded,
    the site served: yields Redis's URL and process, the start URL and the output folder."""
    output = tmp_path / "corpus"
    output.mkdir()
    with redis_server() as (url, process), serve_sample_site() as base_url:
        client = redis_client(url)
        clear_crawl(client)
        start_url = base_url + START_PATHS["index"]
        seed(client, start_url)
        yield url, process, start_url, output


def _wait_for_an_article(corpus: Path, worker: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while not (corpus.exists() and corpus.stat().st_size) and worker.poll() is None:
        assert time.monotonic() < deadline, f"no article in {corpus.name} in 120 s"
        time.sleep(0.05)


def test_redis_server_fixture_runs_a_real_server() -> None:
    import redis

    with redis_server() as (url, process):
        assert redis.Redis.from_url(url).info("server")["tcp_port"] == int(url.rsplit(":", 1)[1].split("/")[0])
    assert process.poll() is not None


def test_a_worker_closes_once_redis_is_lost(tmp_path: Path) -> None:
    """redis-server killed mid-crawl: the worker closes (``redis_unreachable``) once Redis has
    answered no ping for ``CETD_REDIS_LOST_CLOSE`` seconds, with its feed written whole; it
    used to log connection errors for ever (docs/scaling.md, Faults)."""
    with _seeded_crawl(tmp_path) as (url, process, start_url, output):
        corpus = output / "worker-1.jsonl"
        settings = {"DOWNLOAD_DELAY": 0.5, "CETD_REDIS_LOST_CLOSE": 2}  # a slow crawl: still running when killed
        worker = start_worker(1, url, start_url, output, settings)
        _wait_for_an_article(corpus, worker)
        process.kill()
        killed = time.monotonic()
        report = wait_workers([worker], output, timeout=120)[0]
        took = time.monotonic() - killed
    assert report["stats"].get("finish_reason") == "redis_unreachable", report["log"]
    assert report["returncode"] == 0
    assert took < 60, f"the worker took {took:.0f} s to close"
    items = [json.loads(line) for line in corpus.read_text(encoding="utf-8").split("\n") if line]
    assert 1 <= len(items) < 23  # what was crawled before the end is kept, every line whole


def test_links_found_while_redis_is_away_are_queued_once_it_is_back(tmp_path: Path) -> None:
    """redis-server killed mid-crawl and started again on its port 3 s later: the worker
    logs one warning (not a traceback per scheduler call), holds the links it finds
    meanwhile and queues them once Redis answers, then finishes normally."""
    with _seeded_crawl(tmp_path) as (url, process, start_url, output):
        settings = {"DOWNLOAD_DELAY": 0.3, "CETD_REDIS_LOST_CLOSE": 60, "CETD_LEASE_SECONDS": 3}
        worker = start_worker(1, url, start_url, output, settings)
        _wait_for_an_article(output / "worker-1.jsonl", worker)
        process.kill()
        process.wait()
        time.sleep(3)
        port = url.rsplit(":", 1)[1].split("/")[0]
        again = subprocess.Popen(
            [process.args[0], "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            report = wait_workers([worker], output, timeout=150)[0]
        finally:
            again.terminate()
            again.wait(10)
    log = (output / "worker-1.log").read_text(encoding="utf-8")
    assert report["returncode"] == 0 and report["stats"].get("finish_reason") == "finished", report["log"]
    assert log.count("Redis does not answer") == 1, log
    assert "Redis answers again" in log and "Traceback" not in log and "never retrieved" not in log, log
    assert report["stats"].get("scrapy_cetd/frontier/held_queued", 0) > 0  # links found meanwhile


def test_a_killed_workers_requests_are_crawled_by_the_other(tmp_path: Path) -> None:
    """Worker 1 gets SIGKILL mid-crawl: its leased requests go back into the queue once its
    heartbeat expires, worker 2 crawls them, and the corpus has every article, each line of
    the dead worker's file whole (scrapy-redis's own scheduler lost them: docs/scaling.md)."""
    with _seeded_crawl(tmp_path) as (url, _, start_url, output):
        settings = {"DOWNLOAD_DELAY": 0.2, "CETD_LEASE_SECONDS": 3}  # slow enough to be killed mid-crawl
        workers = [start_worker(i, url, start_url, output, settings) for i in (1, 2)]
        first = output / "worker-1.jsonl"
        _wait_for_an_article(first, workers[0])
        workers[0].send_signal(signal.SIGKILL)
        reports = wait_workers(workers, output, timeout=150)
    assert reports[0]["returncode"] == -signal.SIGKILL
    assert reports[1]["stats"].get("finish_reason") == "finished", reports[1]["log"]
    assert reports[1]["stats"].get("scrapy_cetd/frontier/reclaimed", 0) > 0  # worker 1 held leases
    urls = [json.loads(line)["url"] for path in (first, output / "worker-2.jsonl")
            for line in path.read_text(encoding="utf-8").split("\n") if line]
    assert len(set(urls)) == 23, sorted(urls)


@pytest.mark.parametrize("value", [0, -3, "soon"])
def test_an_invalid_lease_time_names_the_setting(value: object) -> None:
    from scrapy.settings import Settings

    from scrapy_cetd.cluster.frontier import LeasingScheduler
    from scrapy_cetd.crawl.settings import InvalidSetting

    with redis_server() as (url, _):
        base = {"REDIS_URL": url, "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter"}
        with pytest.raises(InvalidSetting, match="^CETD_LEASE_SECONDS: expected seconds"):
            LeasingScheduler.from_settings(Settings({**base, "CETD_LEASE_SECONDS": value}))
        assert LeasingScheduler.from_settings(Settings({**base, "CETD_LEASE_SECONDS": "4"})).lease_seconds == 4
