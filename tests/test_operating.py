"""A crawl under faults, run as an operator would: a real ``scrapy runspider`` process
against a loopback site, with poison pages, a killed worker and Ctrl-C (SIGINT to the
crawl's process group, as a terminal sends it)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, read_jsonl, serve_routes

ARTICLE = "".join(
    f"<p>Paragraph {n} of the story: the river rose in the night, the bridge held, and the council "
    f"met at dawn to decide what to repair first.</p>"
    for n in range(12)
)
NAV = '<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>'
#: The founders' bar: 150 pages and the poison pages, one worker killed.
NORMAL = 150
#: Pages that were pathological before the reliability work (docs/operating.md): deep nesting,
#: plain text without tags, control characters, UTF-16 without a BOM.
POISON: dict[str, tuple[str, bytes]] = {
    "deep.html": (
        "text/html; charset=utf-8",
        ("<html><body>" + "<div>" * 30000 + f"<h1>Deep</h1>{ARTICLE}" + "</div>" * 30000 + "</body></html>").encode(),
    ),
    "control.html": (
        "text/html; charset=utf-8",
        f"<html><body>{NAV}<p>Some words<span hidden>x</span>\x01 after.</p>{ARTICLE}</body></html>".encode(),
    ),
    "utf16.html": (
        "text/html; charset=utf-16le",
        f"<html><body>{NAV}<article><h1>Sixteen</h1>{ARTICLE}</article></body></html>".encode("utf-16-le"),
    ),
}


def _page(n: int) -> bytes:
    return (
        f"<html><head><title>Story {n}</title></head><body>{NAV}"
        f"<article><h1>Story {n}</h1>{ARTICLE}</article><footer>About us</footer></body></html>"
    ).encode()


@pytest.fixture(scope="module")
def fault_site() -> Iterator[str]:
    routes = {f"/story{n}.html": ("text/html; charset=utf-8", _page(n)) for n in range(NORMAL)}
    routes.update({f"/{name}": value for name, value in POISON.items()})
    # A slow site: the crawl lasts long enough to be interrupted.
    with serve_routes({path: (200, {"Content-Type": kind}, body) for path, (kind, body) in routes.items()},
                      delay=0.1) as url:
        yield url


def _start(site: str, pages: list[str], tmp_path: Path, **settings: Any) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "scrapy", "runspider", str(ROOT / "tests" / "fault_spider.py"),
        "-a", f"site_url={site}", "-a", f"pages={','.join(pages)}", "-a", f"stats_path={tmp_path / 'stats.json'}",
        "-O", str(tmp_path / "items.jsonl"),
        "-s", "ADDONS=" + json.dumps({"scrapy_cetd.Addon": 0}),
        "-s", "LOG_LEVEL=INFO", "-s", "TELNETCONSOLE_ENABLED=0", "-s", "ROBOTSTXT_OBEY=0",
        "-s", "CONCURRENT_REQUESTS=8",
    ]
    for name, value in settings.items():
        command += ["-s", f"{name}={value}"]
    with open(tmp_path / "log.txt", "wb") as log:
        return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)


def _workers(pid: int) -> list[int]:
    """The extraction worker processes of a crawl (spawned children, not the resource tracker)."""
    workers = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            with contextlib.suppress(OSError):
                command = Path(f"/proc/{child}/cmdline").read_bytes()
                if b"spawn_main" in command and b"resource_tracker" not in command:
                    workers.append(int(child))
    return workers


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _assert_nothing_left(pgid: int) -> None:
    """No process of the crawl's session is left (helpers get a few seconds to exit)."""
    deadline = time.monotonic() + 10
    while _group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _group_alive(pgid), "a process of the crawl was left behind"


def _wait_for_workers(process: subprocess.Popen[bytes], count: int, deadline: float) -> list[int]:
    while time.monotonic() < deadline and process.poll() is None:
        workers: list[int] = []
        with contextlib.suppress(OSError):
            workers = _workers(process.pid)
        if len(workers) >= count:
            return workers
        time.sleep(0.2)
    raise AssertionError("the extraction workers did not start")


def _wait_for_items(process: subprocess.Popen[bytes], tmp_path: Path) -> None:
    """Until the feed has its first item: extraction has started, most pages are to come."""
    while not (tmp_path / "items.jsonl").exists() or not (tmp_path / "items.jsonl").read_text():
        time.sleep(0.1)
        assert process.poll() is None


def _kill_a_worker(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL one live extraction worker (the pool may have replaced the one first seen)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for worker in _wait_for_workers(process, 1, deadline):
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker, signal.SIGKILL)
                return
    raise AssertionError("no live worker to kill")


def test_poison_pages_and_a_killed_worker_lose_nothing(fault_site: str, tmp_path: Path) -> None:
    pages = [f"story{n}.html" for n in range(NORMAL)]
    pages[NORMAL // 2 : NORMAL // 2] = list(POISON)
    process = _start(fault_site, pages, tmp_path, CETD_WORKERS=2, CETD_TIMEOUT=60, CONCURRENT_REQUESTS=4)
    try:
        _wait_for_workers(process, 2, time.monotonic() + 120)
        _wait_for_items(process, tmp_path)
        _kill_a_worker(process)
        assert process.wait(timeout=300) == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    items = read_jsonl(tmp_path / "items.jsonl")
    by_url = {item["url"].rsplit("/", 1)[1]: item for item in items}
    assert len(items) == len(by_url) == len(pages)  # every URL exactly once
    for name, item in by_url.items():
        assert "cetd_error" not in item, (name, item)
        assert "the bridge held" in item["text"], (name, item)
    assert "Some words after." in by_url["control.html"]["text"]
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert int(stats["scrapy_cetd/workers/restarts"]) >= 1
    _assert_nothing_left(process.pid)


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_ends_the_crawl_within_20_seconds(fault_site: str, tmp_path: Path, presses: int) -> None:
    pages = [f"story{n}.html" for n in range(NORMAL)]
    process = _start(fault_site, pages, tmp_path, CETD_WORKERS=2, CONCURRENT_REQUESTS=2, LOG_LEVEL="DEBUG")
    try:
        _wait_for_workers(process, 2, time.monotonic() + 120)
        _wait_for_items(process, tmp_path)
        for _ in range(presses):
            os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
            time.sleep(0.05)  # the second press comes while the pages in flight finish
        pressed = time.monotonic()
        process.wait(timeout=20)
        elapsed = time.monotonic() - pressed
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert elapsed < 20
    _assert_nothing_left(process.pid)
    log = (tmp_path / "log.txt").read_text()
    assert "Traceback" not in log, log
    items = read_jsonl(tmp_path / "items.jsonl")  # whole lines only: read_jsonl parses each
    assert 0 < len(items) < len(pages)
    # Every item logged as scraped is in the feed, after an unclean stop too (Ctrl-C twice).
    scraped = re.findall(r"DEBUG: Scraped from <200 (\S+)>", log)
    assert sorted(item["url"] for item in items) == sorted(scraped)
    if presses == 2:
        assert "forcing unclean shutdown" in log
    if presses == 1:  # a clean shutdown: stats dumped
        stats = json.loads((tmp_path / "stats.json").read_text())
        assert stats["finish_reason"] == "shutdown"
