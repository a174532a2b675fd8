"""Progress on stderr for long work; silent when stderr is not a terminal (pipes, CI, tests)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

ProgressCallback = Callable[[str, int, int], None]
"""``callback(stage, done, total)``: called by the engine as work advances."""


def silent(stage: str, done: int, total: int) -> None:
    """A progress callback that shows nothing."""


class TerminalProgress:
    """Draws ``stage [#####-----] done/total`` on one stderr line, at most 10 times a second."""

    def __init__(self, stream=None, enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._last = 0.0
        self._shown = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        width = 24
        filled = int(width * done / total) if total else width
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{stage:<12} [{bar}] {done}/{total}\033[K")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        if self.enabled and self._shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._shown = False


def progress_for_terminal() -> ProgressCallback:
    return TerminalProgress()
