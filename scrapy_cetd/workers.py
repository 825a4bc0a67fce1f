"""Extraction worker processes that a bad page cannot take down the crawl with.

Each worker is a ``spawn``-started process that extracts one page at a time; a thread in
the crawl process hands it pages from a shared queue and waits for its answer.  Because
the crawl process knows which page each worker holds:

- a page that runs longer than the time limit (``CETD_TIMEOUT``) fails with a
  ``timeout`` error and its worker is killed and replaced; the other pages go on;
- a worker that dies (killed, out of memory, a crash in C code) fails nothing at once:
  its page is retried once on a fresh worker and fails (``worker_died``) only if it kills
  that one too; pages waiting in the queue are untouched.

Workers ignore SIGINT: a Ctrl-C in a terminal reaches the whole process group, and the
crawl process alone decides how to shut down (Scrapy finishes the pages in flight on
the first Ctrl-C, each bounded by the time limit, and stops at once on the second).
Workers are daemon processes, ended when the crawl process exits, and a worker whose
crawl process is gone exits as soon as it finishes its page.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import queue
import signal
import sys
import threading
import time
import types
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing.connection import Connection, wait
from typing import Any

__all__ = ["WorkerError", "WorkerPool", "extract_limited", "ignore_sigint", "interruptible_pool", "sigint_blocked"]

logger = logging.getLogger(__name__)

#: Seconds a worker gets to exit on its own at shutdown before it is killed.
_EXIT_GRACE = 5.0
#: Seconds a new worker may take to start (import Python, lxml, NumPy) on a busy machine.
_START_TIMEOUT = 120.0


def extract_limited(html: str | bytes, url: str | None, max_elements: int, keywords: dict[str, Any]) -> Any:
    """:func:`scrapy_cetd.extract` with an element limit (``CETD_MAX_ELEMENTS``): a larger
    page gives an empty extraction whose reason is ``too_many_elements``."""
    from dataclasses import replace

    from .api import extract, extract_tree
    from .parsing import EmptyDocument, parse_html

    try:
        root = parse_html(html, max_elements=max_elements)
    except EmptyDocument as exc:
        return replace(extract("", url=url, **keywords), reason=exc.reason)
    return extract_tree(root, url=url, **keywords)


class WorkerError(Exception):
    """A page the worker pool could not extract.

    ``kind`` is ``timeout`` (over the time limit), ``worker_died`` (it killed a worker
    twice) or ``error`` (the extraction raised; the message is the exception's).
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def ignore_sigint() -> None:
    """A worker process's start: a Ctrl-C in a terminal reaches the whole process group;
    the parent alone decides what to do (SIGINT is blocked while a worker starts, until here)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def sigint_blocked() -> Iterator[None]:
    """SIGINT held in this thread (a process started here inherits the mask, so it cannot
    die of a Ctrl-C before :func:`ignore_sigint`)."""
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


@contextlib.contextmanager
def interruptible_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A ``spawn`` process pool whose workers ignore SIGINT (submit under
    :func:`sigint_blocked`); when the block is left by an exception (a Ctrl-C) the workers
    are terminated at once, not waited for: the work in flight is not wanted."""
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"), initializer=ignore_sigint)
    try:
        yield pool
    except BaseException:
        terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
        if terminate is not None:
            terminate()
        else:
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _serve(connection: Connection, target: Callable[..., Any]) -> None:
    """A worker's main loop: receive ``(args, kwargs)``, send ``("ok", result)`` or
    ``("error", message)``; ``None`` or a closed connection ends it."""
    ignore_sigint()
    from . import api  # noqa: F401 - the extraction code, imported once SIGINT is ignored
    connection.send(("ready", None))  # imports done: the time limit starts with the first page
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        args, kwargs = task
        try:
            answer: tuple[str, Any] = ("ok", target(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - every failure is reported, none ends the worker
            answer = ("error", f"{type(exc).__name__}: {exc}")
        try:
            connection.send(answer)
        except (EOFError, OSError):
            return
        except Exception as exc:  # the result could not be pickled
            connection.send(("error", f"{type(exc).__name__}: {exc}"))


_MAIN_LOCK = threading.Lock()


@contextlib.contextmanager
def _main_module_hidden() -> Iterator[None]:
    """Start a worker without re-importing the parent's ``__main__``.

    ``spawn`` workers normally re-import the script that started the crawl; a script
    without an ``if __name__ == "__main__":`` guard would then run its crawl again in
    every worker.  Workers only need the extraction function, so ``__main__`` is replaced
    by an empty module while a process starts (under a lock: workers are replaced from
    several threads).
    """
    with _MAIN_LOCK:
        main = sys.modules["__main__"]
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            yield
        finally:
            sys.modules["__main__"] = main


class _Exiting(Exception):
    """The crawl process is exiting: a dead worker is not replaced."""


#: The live pools, told when the crawl process exits.
_POOLS: weakref.WeakSet[WorkerPool] = weakref.WeakSet()


@atexit.register
def _at_exit() -> None:
    """At exit, multiprocessing ends the daemon workers (its own exit handler, registered
    before this one, runs after it); a feeder thread that sees its worker die then must not
    start another: the new process would find the crawl process gone and print
    ``EOFError: Ran out of input`` (seen after a second Ctrl-C, an unclean shutdown)."""
    for pool in list(_POOLS):
        pool._exiting = True


class _Task:
    __slots__ = ("args", "future", "kwargs")

    def __init__(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.args = args
        self.kwargs = kwargs
        self.future: Future[Any] = Future()


class _Worker:
    """One worker process and the crawl process's end of its pipe."""

    def __init__(self, target: Callable[..., Any]) -> None:
        context = multiprocessing.get_context("spawn")
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, target), daemon=True, name="scrapy-cetd-worker")
        # A Ctrl-C must not kill a worker while it starts. SIGINT is blocked while the
        # process is created, and the new process unpickles only ``_serve`` and its target
        # from modules that import nothing heavy at module level (``import scrapy_cetd`` is
        # lazy), ignores SIGINT, and only then imports the extraction code: the crawl test
        # saw a worker killed by a Ctrl-C while it imported lxml and NumPy.
        with sigint_blocked(), _main_module_hidden():
            self.process.start()
        child.close()
        self.ready = False

    def run(self, task: _Task, timeout: float | None) -> tuple[str, Any]:
        """Send the task and wait: ``(status, value)`` with status ``ok``, ``error``,
        ``timeout`` or ``died``."""
        if not self.ready:  # a new worker: wait until it has imported the extraction code
            if not wait([self.connection, self.process.sentinel], _START_TIMEOUT):
                return "timeout", None
            try:
                self.connection.recv()
            except (EOFError, OSError):
                return "died", None
            self.ready = True
        try:
            self.connection.send((task.args, task.kwargs))
        except (EOFError, OSError):
            return "died", None
        ready = wait([self.connection, self.process.sentinel], timeout)
        if not ready:
            return "timeout", None
        if self.connection in ready:
            try:
                return self.connection.recv()  # type: ignore[no-any-return]
            except (EOFError, OSError):
                pass
        return "died", None

    def stop(self, kill: bool = False) -> None:
        if not kill:
            with contextlib.suppress(EOFError, OSError):
                self.connection.send(None)
            self.process.join(_EXIT_GRACE)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()


class WorkerPool:
    """``size`` worker processes running ``target`` (default :func:`extract_limited`),
    one page each at a time, with at most ``timeout`` seconds per page (``None``: no limit).

    :meth:`submit` returns a :class:`concurrent.futures.Future` holding the result or a
    :class:`WorkerError`.  ``restarts``, ``timeouts`` and ``deaths`` count what happened.
    """

    def __init__(self, size: int, timeout: float | None = None, target: Callable[..., Any] = extract_limited) -> None:
        self.size = size
        self.timeout = timeout
        self.target = target
        self.restarts = 0
        self.timeouts = 0
        self.deaths = 0
        self._queue: queue.SimpleQueue[_Task | None] = queue.SimpleQueue()
        self._closed = False
        #: Set when the crawl process exits (:func:`_at_exit`): workers are not replaced then.
        self._exiting = False
        _POOLS.add(self)
        workers = [_Worker(target) for _ in range(size)]  # started up front, in parallel
        #: The current worker of each feeder thread (for tests and diagnostics).
        self._workers: list[_Worker] = workers
        self._threads = [
            threading.Thread(target=self._feed, args=(k,), name=f"scrapy-cetd-worker-{k}", daemon=True)
            for k in range(size)
        ]
        for thread in self._threads:
            thread.start()

    def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
        """Queue one call of the target; the future settles with its result or a :class:`WorkerError`."""
        if self._closed:
            raise RuntimeError("the worker pool is closed")
        task = _Task(args, kwargs)
        self._queue.put(task)
        return task.future

    def _feed(self, slot: int) -> None:
        """A feeder thread: run queued tasks on its worker, replacing it at once when it
        dies or overruns the time limit."""
        while True:
            task = self._queue.get()
            if task is None:
                break
            if not task.future.set_running_or_notify_cancel():
                continue
            try:
                self._run(slot, task)
            except _Exiting:
                task.future.set_exception(WorkerError("worker_died", "worker_died: the crawl process is exiting"))
                return
        self._workers[slot].stop()

    def _run(self, slot: int, task: _Task) -> None:
        """One task on the slot's worker, retried once on a fresh worker if it dies."""
        worker = self._workers[slot]
        if not worker.process.is_alive():  # died while idle
            self.deaths += 1
            worker = self._replace(slot)
        for attempt in (1, 2):
            status, value = worker.run(task, self.timeout)
            if status == "ok":
                task.future.set_result(value)
            elif status == "error":
                task.future.set_exception(WorkerError("error", value))
            elif status == "timeout":
                self.timeouts += 1
                worker = self._replace(slot)
                message = f"timeout: extraction took longer than {self.timeout:g} s (CETD_TIMEOUT)"
                task.future.set_exception(WorkerError("timeout", message))
            else:
                self.deaths += 1
                worker.process.join(_EXIT_GRACE)  # its pipe closes before it is reaped
                code = worker.process.exitcode
                worker = self._replace(slot)
                if attempt == 1:
                    logger.warning("A content extraction worker died (exit code %s); retrying its page", code)
                    continue
                message = f"worker_died: the page killed two extraction workers (exit code {code})"
                task.future.set_exception(WorkerError("worker_died", message))
            break

    def _replace(self, slot: int) -> _Worker:
        if self._exiting:  # the interpreter is ending the workers: starting one would outlive nothing
            raise _Exiting
        self._workers[slot].stop(kill=True)
        self.restarts += 1
        worker = self._workers[slot] = _Worker(self.target)
        return worker

    def close(self, timeout: float | None = None) -> None:
        """Finish the queued pages, stop the workers and their threads."""
        if self._closed:
            return
        self._closed = True
        for _ in self._threads:
            self._queue.put(None)
        deadline = None if timeout is None else time.monotonic() + timeout
        for thread in self._threads:
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
