"""Re-extracting WARC files in parallel: units of work, local processes or a Dask cluster,
and the output file (``.jsonl``, ``.jsonl.gz`` or ``.parquet``).

Each unit (a file, or a byte range of a gzip-per-record file) is processed independently
by :func:`process_unit`; results are written in unit order, so the output does not depend
on the number of workers.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path
from typing import Any, TextIO

from ..workers import interruptible_pool, sigint_blocked
from .extract import WarcOptions, error_item, extract_record
from .reader import ReadIssue, Unit, WarcFileError, iter_records, split_units

__all__ = ["BatchSummary", "UnitResult", "make_units", "open_output", "process_unit", "run_batch"]

#: Default size of a unit of work: byte ranges of gzip-per-record files this large.
DEFAULT_SPLIT_SIZE = 16 * 1024 * 1024


@dataclass
class UnitResult:
    """What one unit produced: items in record order, skips by reason, damaged data, records
    whose extraction raised (``failures``: their items have ``reason`` ``"error"``), and the
    CPU seconds spent reading and extracting."""

    unit: Unit
    items: list[dict[str, Any]] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    issues: list[ReadIssue] = field(default_factory=list)
    failures: list[ReadIssue] = field(default_factory=list)
    error: str | None = None
    records: int = 0
    read_seconds: float = 0.0
    extract_seconds: float = 0.0
    bytes_done: int = 0


def process_unit(unit: Unit, options: WarcOptions) -> UnitResult:
    """Read and extract one unit; never raises for bad input (see :class:`UnitResult`)."""
    result = UnitResult(unit)
    clock = time.process_time  # CPU time: the shares hold on a busy machine too
    records = iter_records(unit, options.max_size)
    try:
        while True:
            started = clock()
            entry = next(records, None)
            result.read_seconds += clock() - started
            if entry is None:
                break
            if isinstance(entry, ReadIssue):
                result.issues.append(entry)
                result.skipped[entry.kind] += 1
                continue
            result.records += 1
            started = clock()
            try:
                item, reason = extract_record(entry.headers, entry.block, options)
            except Exception as exc:  # one record's failure is its own, never the run's
                item, reason = error_item(entry.headers, entry.block, options), "error"
                result.failures.append(ReadIssue("error", entry.offset, f"{item['url']}: {type(exc).__name__}: {exc}"))
            result.extract_seconds += clock() - started
            if item is None:
                result.skipped[reason] += 1
            else:
                result.items.append(item)
    except WarcFileError as exc:
        result.error = str(exc)
    size = Path(unit.path).stat().st_size if result.error is None else 0
    result.bytes_done = (unit.end if unit.end is not None else size) - unit.start
    return result


def _process_as(unit: Unit, absolute: Unit, options: WarcOptions) -> UnitResult:
    """:func:`process_unit` on ``absolute``, its result reported for ``unit`` (the path as given)."""
    result = process_unit(absolute, options)
    result.unit = unit
    return result


def make_units(paths: Iterable[str], split_size: int) -> tuple[list[Unit], list[str]]:
    """Units for the files, and an error line for each file that cannot be opened."""
    units: list[Unit] = []
    errors: list[str] = []
    for path in paths:
        try:
            units.extend(split_units(path, split_size))
        except OSError as exc:
            errors.append(f"{path}: {exc.strerror or exc}")
    return units, errors


class _Output:
    """Rows to ``.jsonl``, ``.jsonl.gz`` (JSON Lines) or ``.parquet``, chosen by the extension."""

    def __init__(self, path: str, fields: tuple[str, ...]) -> None:
        self.path = path
        self.fields = fields
        self._parquet = None
        self._text: TextIO | None = None
        if path.endswith(".parquet"):
            from ..parquet import OUTPUT_TYPES, WARC_ITEM_TYPES, ParquetRows

            # The columns' types are what the fields are, not what the first rows hold.
            self._parquet = ParquetRows(path, fields=fields, types={**OUTPUT_TYPES, **WARC_ITEM_TYPES})
        elif path.endswith(".jsonl.gz"):
            self._text = gzip.open(path, "wt", encoding="utf-8")  # noqa: SIM115
        elif path.endswith(".jsonl") or path == "-":
            self._text = sys.stdout if path == "-" else open(path, "w", encoding="utf-8")  # noqa: SIM115
        else:
            raise ValueError(f"{path}: unknown output format; use .jsonl, .jsonl.gz or .parquet")

    def write(self, item: dict[str, Any]) -> None:
        if self._parquet is not None:
            self._parquet.write(item)
        else:
            assert self._text is not None
            self._text.write(json.dumps(item, ensure_ascii=False) + "\n")

    def close(self) -> None:
        if self._parquet is not None:
            self._parquet.close()
        elif self._text is not None and self._text is not sys.stdout:
            self._text.close()


def open_output(path: str, fields: tuple[str, ...]) -> _Output:
    return _Output(path, fields)


@dataclass
class BatchSummary:
    """Totals of a run: ``read/extract/write_seconds`` are CPU seconds (summed over workers),
    ``wall_seconds`` the run's elapsed time."""

    files: int = 0
    failed_files: list[str] = field(default_factory=list)
    records: int = 0
    items: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    #: Records whose extraction raised: written as items with ``reason`` ``"error"``.
    errors: int = 0
    read_seconds: float = 0.0
    extract_seconds: float = 0.0
    write_seconds: float = 0.0
    wall_seconds: float = 0.0

    def lines(self) -> list[str]:
        rate = self.records / self.wall_seconds if self.wall_seconds else 0.0
        busy = self.read_seconds + self.extract_seconds + self.write_seconds or 1.0
        out = [
            f"{self.files} file(s), {self.records} records, {self.items} items in {self.wall_seconds:.1f} s "
            f"({rate:.1f} records/s); CPU time: reading {100 * self.read_seconds / busy:.0f}%, "
            f"extracting {100 * self.extract_seconds / busy:.0f}%, writing {100 * self.write_seconds / busy:.0f}%"
        ]
        if self.skipped:
            out.append("skipped: " + ", ".join(f"{k} {n}" for k, n in sorted(self.skipped.items())))
        if self.errors:
            out.append(f"extraction errors: {self.errors} (items with reason error)")
        if self.failed_files:
            out.append(f"failed files: {len(self.failed_files)}")
        return out


class _Progress:
    """A one-line progress bar on stderr, shown only when stderr is a terminal."""

    def __init__(self, total_bytes: int, enabled: bool) -> None:
        self.total = max(total_bytes, 1)
        self.enabled = enabled
        self.done = 0
        self.started = time.perf_counter()

    def update(self, result: UnitResult, summary: BatchSummary) -> None:
        self.done += result.bytes_done
        if not self.enabled:
            return
        share = min(self.done / self.total, 1.0)
        bar = "#" * int(30 * share)
        seconds = time.perf_counter() - self.started
        rate = summary.records / seconds if seconds else 0.0
        sys.stderr.write(f"\r[{bar:<30}] {100 * share:3.0f}% {summary.records} records, {summary.items} items, "
                         f"{rate:.0f} records/s")
        sys.stderr.flush()

    def clear(self) -> str:
        """What to print before a message line, so it does not land inside the bar."""
        return "\r\x1b[K" if self.enabled and self.done else ""

    def close(self) -> None:
        if self.enabled and self.done:
            sys.stderr.write("\n")


def _in_order(submit: Callable[[Unit], Any], units: list[Unit], window: int) -> Iterator[UnitResult]:
    """Results in unit order, with at most ``window`` units submitted and not yet written
    (so memory stays bounded when one unit is slow)."""
    pending: deque[Any] = deque()
    remaining = iter(units)
    for unit in islice(remaining, window):
        pending.append(submit(unit))
    while pending:
        result = pending.popleft().result()
        for unit in islice(remaining, 1):
            pending.append(submit(unit))
        yield result


def _results_local(units: list[Unit], options: WarcOptions, jobs: int) -> Iterator[UnitResult]:
    if jobs <= 1 or len(units) <= 1:
        for unit in units:
            yield process_unit(unit, options)
        return
    # spawn: no locks inherited from the caller's threads (fork of a threaded process can deadlock).
    # Ctrl-C, or the results no longer wanted: the units in flight are not finished.
    with interruptible_pool(jobs) as pool:

        def submit(unit: Unit) -> Any:
            with sigint_blocked():  # a worker may start here
                return pool.submit(process_unit, unit, options)

        yield from _in_order(submit, units, 2 * jobs)


def _results_dask(units: list[Unit], options: WarcOptions, address: str) -> Iterator[UnitResult]:
    """Connect now (a bad address fails before any output is written); results in unit order."""
    try:
        from distributed import Client
    except ImportError:
        raise RuntimeError("--dask needs dask.distributed: pip install 'scrapy-cetd[dask]'") from None
    try:
        client = Client(address, timeout="30s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise RuntimeError(f"--dask {address}: cannot connect to the scheduler ({exc})") from None

    def submit(unit: Unit) -> Any:
        # Workers resolve a relative path against their own working directory: send the
        # path as this command resolves it (workers must see the files at the same paths).
        absolute = replace(unit, path=os.path.abspath(unit.path))
        return client.submit(_process_as, unit, absolute, options, pure=False)

    def results() -> Iterator[UnitResult]:
        with client:
            window = 2 * max(sum(client.nthreads().values()), 1)
            yield from _in_order(submit, units, window)

    return results()


def run_batch(
    paths: list[str],
    output: str,
    options: WarcOptions,
    *,
    jobs: int = 1,
    dask: str | None = None,
    split_size: int = DEFAULT_SPLIT_SIZE,
    progress: bool | None = None,
    log: TextIO | None = None,
) -> BatchSummary:
    """Re-extract ``paths`` into ``output``; damaged data and failed files are reported on
    ``log`` (default stderr), one line each, and counted in the returned summary."""
    log = log or sys.stderr
    started = time.perf_counter()
    summary = BatchSummary(files=len(paths))
    units, errors = make_units(paths, split_size)
    for error in errors:
        print(f"scrapy-cetd: error: {error}", file=log)
        summary.failed_files.append(error.split(":", 1)[0])
    results = _results_dask(units, options, dask) if dask else _results_local(units, options, jobs)
    writer = open_output(output, options.fields)
    bar = _Progress(sum(_unit_size(u) for u in units), sys.stderr.isatty() if progress is None else progress)
    held = _HeldInterrupt()
    try:
        for result in results:
            with held:  # a unit's items are written whole, and counted as written
                _write_result(result, writer, summary, bar, log)
    except KeyboardInterrupt:
        print(f"{bar.clear()}scrapy-cetd: interrupted: {output} holds the first {summary.items} items, "
              f"from the first {summary.records} records in input order; the rest was not written", file=log)
        raise
    finally:
        try:
            with held:  # the output is closed whole (a .jsonl.gz's trailer, a .parquet's footer)
                write_started = time.process_time()
                writer.close()
                summary.write_seconds += time.process_time() - write_started
        finally:
            held.restore()
            bar.close()
            results.close()  # stops the workers at once after a Ctrl-C
    summary.wall_seconds = time.perf_counter() - started
    return summary


class _HeldInterrupt:
    """While in the ``with`` block, a SIGINT (Ctrl-C) is held, and raised as
    ``KeyboardInterrupt`` once the block is done: the output is never left mid-write (a
    ``.jsonl.gz`` cut inside a deflate block or with a stale CRC, a count of items that were
    not written).  Outside the block a SIGINT acts at once, as before.  Works only in the
    main thread (the only one Python runs signal handlers in); elsewhere it does nothing."""

    def __init__(self) -> None:
        self.active = False
        self.pending = False
        self._previous: Any = None
        if threading.current_thread() is threading.main_thread():
            previous = signal.getsignal(signal.SIGINT)
            if callable(previous):  # not ignored by the caller
                self._previous = previous
                signal.signal(signal.SIGINT, self._handle)

    def _handle(self, signum: int, frame: Any) -> None:
        if self.active:
            self.pending = True
        else:
            self._previous(signum, frame)

    def __enter__(self) -> None:
        self.active = True

    def __exit__(self, kind: type[BaseException] | None, *_: Any) -> None:
        self.active = False
        if self.pending and kind is None:
            self.pending = False
            self._previous(signal.SIGINT, None)  # raises KeyboardInterrupt (the default handler)

    def restore(self) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None


def _write_result(result: UnitResult, writer: _Output, summary: BatchSummary, bar: _Progress, log: TextIO) -> None:
    """One unit's output: its messages on ``log``, its items written, its counts added."""
    if result.error is not None:
        print(f"{bar.clear()}scrapy-cetd: error: {result.error}", file=log)
        if result.unit.path not in summary.failed_files:  # a file fails once, whatever its units
            summary.failed_files.append(result.unit.path)
    for issue in result.issues:
        print(f"{bar.clear()}scrapy-cetd: warning: {result.unit.path}: byte {issue.offset}: {issue.kind}: "
              f"{issue.message}", file=log)
    if result.issues and result.unit.path not in summary.failed_files:
        summary.failed_files.append(result.unit.path)
    for failure in result.failures:
        print(f"{bar.clear()}scrapy-cetd: warning: {result.unit.path}: byte {failure.offset}: error: "
              f"extraction failed for {failure.message}", file=log)
    summary.errors += len(result.failures)
    summary.records += result.records
    summary.skipped.update(result.skipped)
    summary.read_seconds += result.read_seconds
    summary.extract_seconds += result.extract_seconds
    write_started = time.process_time()
    for item in result.items:
        writer.write(item)
        summary.items += 1
    summary.write_seconds += time.process_time() - write_started
    bar.update(result, summary)


def _unit_size(unit: Unit) -> int:
    try:
        size = Path(unit.path).stat().st_size
    except OSError:
        return 0
    return (unit.end if unit.end is not None else size) - unit.start
