"""A small progress bar on stderr, drawn only when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """``with Progress(total, "evaluate") as bar: bar.update(n)``; silent unless a terminal."""

    WIDTH = 30
    INTERVAL = 0.1

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None, enabled: bool | None = None) -> None:
        self.total = total
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self.started = time.monotonic()
        self._drawn = 0.0
        self._drawn_done = -1

    def update(self, count: int = 1) -> None:
        self.done += count
        now = time.monotonic()
        if self.enabled and (now - self._drawn >= self.INTERVAL or self.done >= self.total):
            self._drawn = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        self._drawn_done = self.done
        fraction = self.done / self.total if self.total else 1.0
        filled = int(fraction * self.WIDTH)
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(
            f"\r{self.label} [{bar}] {self.done}/{self.total} {rate:.1f} pages/s "
            f"elapsed {elapsed:.0f}s eta {eta:.0f}s  "
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            if self._drawn_done != self.done:
                self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
