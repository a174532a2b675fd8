"""Progress on stderr for long work, drawn with rich; silent when stderr is not a terminal (pipes, CI, tests)."""

from __future__ import annotations

import sys
from collections.abc import Callable

ProgressCallback = Callable[[str, int, int], None]
"""``callback(stage, done, total)``: called by the engine as work advances.

``stage`` is any short step name (``segment``, ``embed``, ``load nli model``...): a renderer shows
it as given, one line per step, so a new step needs no change here.
"""


def silent(stage: str, done: int, total: int) -> None:
    """A progress callback that shows nothing."""


class TerminalProgress:
    """One line per step (``embed ━━━━━━━━━━ 113/226 0:00:02 eta 0:00:02``), drawn on stderr with rich.

    A step reported with ``total`` 0 or 1 and not yet done (loading a model, retrieving) is shown
    as a pulsing bar with its elapsed time; a counted step gets an ETA from its rate so far.
    The lines are cleared when :meth:`close` is called, leaving the terminal as it was.
    """

    def __init__(self, stream=None, enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._progress = None
        self._tasks: dict[str, int] = {}

    def _start(self):
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        console = Console(file=self.stream, force_terminal=True, highlight=False, markup=False, emoji=False)
        self._progress = Progress(
            TextColumn("{task.description:<14}", markup=False), BarColumn(bar_width=28), MofNCompleteColumn(),
            TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
            console=console, transient=True, refresh_per_second=8,
        )
        self._progress.start()
        return self._progress

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        from conflictkit.report.escape import sanitize_controls

        progress = self._progress or self._start()
        counted = total > 1 or done >= total
        task = self._tasks.get(stage)
        if task is None:
            task = self._tasks[stage] = progress.add_task(sanitize_controls(stage), total=total if counted else None)
        progress.update(task, completed=done, total=total if counted else None)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
            self._tasks.clear()


def progress_for_terminal() -> ProgressCallback:
    return TerminalProgress()
