"""The extraction worker pool: time limit, worker deaths, SIGINT, with real processes."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

from scrapy_cetd.crawl.pipelines import _wait
from scrapy_cetd.workers import WorkerError, WorkerPool, extract_limited


# Worker targets: module-level, so spawned workers can import them.
def echo(value: object) -> object:
    return value


def sleep_then_echo(seconds: float, value: object) -> object:
    time.sleep(seconds)
    return value


#: The exit code of a worker that :func:`die` and :func:`die_once` end.
DIE_CODE = 3


def die() -> None:
    os._exit(DIE_CODE)


def die_once(marker: str, value: object) -> object:
    """Kill the worker the first time (when ``marker`` does not exist yet)."""
    path = Path(marker)
    if not path.exists():
        path.touch()
        os._exit(DIE_CODE)
    return value


def interrupted() -> None:
    raise KeyboardInterrupt


def results(futures: list[Future[object]]) -> list[object]:
    out: list[object] = []
    for future in futures:
        try:
            out.append(future.result(timeout=60))
        except WorkerError as exc:
            out.append(exc.kind)
    return out


def test_a_page_over_the_time_limit_fails_alone_and_its_worker_is_replaced() -> None:
    pool = WorkerPool(2, timeout=1.0, target=sleep_then_echo)
    try:
        futures = [pool.submit(60, "stuck")] + [pool.submit(0, k) for k in range(6)]
        started = time.monotonic()
        assert results(futures) == ["timeout", 0, 1, 2, 3, 4, 5]
        assert time.monotonic() - started < 30
        assert pool.timeouts == 1 and pool.restarts == 1
        assert "CETD_TIMEOUT" in str(futures[0].exception())
        assert pool.submit(0, "after").result(timeout=60) == "after"  # the replacement works
    finally:
        pool.close()


def test_a_worker_death_is_retried_once_and_fails_only_its_page(tmp_path: Path) -> None:
    pool = WorkerPool(2, timeout=30.0, target=die_once)
    try:
        futures = [pool.submit(str(tmp_path / f"marker{k}"), k) if k in (2, 5) else pool.submit(str(tmp_path), k)
                   for k in range(8)]
        # Pages 2 and 5 kill their worker once; the retry on a fresh worker succeeds.
        # The others pass an existing directory as marker: they never die.
        assert results(futures) == list(range(8))
        assert pool.deaths == 2 and pool.restarts == 2
    finally:
        pool.close()
    killer = WorkerPool(1, timeout=30.0, target=die)
    try:
        future = killer.submit()
        assert results([future]) == ["worker_died"]  # it killed the fresh worker too
        assert killer.deaths == 2
        assert str(future.exception()).endswith(f"(exit code {DIE_CODE})")  # the process's own, not None
    finally:
        killer.close()


def test_a_worker_killed_while_idle_is_replaced_before_the_next_page() -> None:
    pool = WorkerPool(1, timeout=30.0, target=echo)
    try:
        assert pool.submit("a").result(timeout=60) == "a"
        worker = pool._workers[0]
        worker.process.kill()
        worker.process.join()
        assert pool.submit("b").result(timeout=60) == "b"
        assert pool.restarts == 1
    finally:
        pool.close()


def test_workers_ignore_sigint_and_report_a_keyboard_interrupt_as_an_error() -> None:
    pool = WorkerPool(1, timeout=30.0, target=sleep_then_echo)
    try:
        future = pool.submit(2, "finished")
        for _ in range(3):  # as Ctrl-C in the terminal: while the worker starts, and later
            os.kill(pool._workers[0].process.pid, signal.SIGINT)
            time.sleep(0.5)
        assert future.result(timeout=60) == "finished"
        assert pool.deaths == 0
    finally:
        pool.close()
    raising = WorkerPool(1, timeout=30.0, target=interrupted)
    try:
        future = raising.submit()
        assert results([future]) == ["error"]
        assert str(future.exception()) == "KeyboardInterrupt: "
    finally:
        raising.close()


@pytest.mark.parametrize("error", [KeyboardInterrupt(), SystemExit(1)])
def test_wait_turns_a_base_exception_result_into_a_worker_error(error: BaseException) -> None:
    future: Future[object] = Future()
    future.set_exception(error)

    async def wait() -> object:
        return await _wait(future)  # type: ignore[arg-type]

    with pytest.raises(WorkerError, match=type(error).__name__):
        asyncio.run(wait())


def test_close_stops_every_worker_process() -> None:
    pool = WorkerPool(2, timeout=30.0, target=echo)
    processes = [worker.process for worker in pool._workers]
    assert pool.submit(1).result(timeout=60) == 1
    pool.close(timeout=30)
    assert not any(process.is_alive() for process in processes)
    assert not any(thread.is_alive() for thread in pool._threads)


def test_element_limit_gives_a_reason_not_a_page() -> None:
    html = "<html><body>" + "<p>w</p>" * 2000
    limited = extract_limited(html, "http://x.test/", 1000, {"algorithm": "cetd-ds"})
    assert (limited.text, limited.reason) == ("", "too_many_elements")
    assert extract_limited(html, None, 5000, {"algorithm": "cetd-ds"}).text
