"""Progress on stderr for long work, drawn with rich; silent when stderr is not a terminal (pipes, CI, tests)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ProgressCallback = Callable[[str, int, int], None]
"""``callback(stage, done, total)``: called by the engine as work advances.

``stage`` is any short step name (``segment``, ``embed``, ``load nli model``...): a renderer shows
it as given, one line per step, so a new step needs no change here.
"""


def silent(stage: str, done: int, total: int) -> None:
    """A progress callback that shows nothing."""


class StepTimes:
    """How long each uncounted step (``load nli model``) took last time, so the next run can show an ETA.

    Kept in a small JSON file beside the cache; a file that cannot be read or written is ignored.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.seconds: dict[str, float] = {}
        if path is not None:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self.seconds = {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}
            except (OSError, ValueError, TypeError):
                self.seconds = {}

    def save(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.seconds, sort_keys=True), encoding="utf-8")
        except OSError:
            pass


def default_step_times() -> StepTimes:
    from conflictkit.store import cache_dir

    return StepTimes(cache_dir() / "step-times.json")


def _eta_column():
    from rich.progress import ProgressColumn
    from rich.text import Text

    class EtaColumn(ProgressColumn):
        """``eta 0:00:04``: from the rate for a counted step, from the last run's duration for a load."""

        def render(self, task) -> Text:
            remaining = task.time_remaining if task.total else None
            expected = task.fields.get("expected")
            if remaining is None and expected is not None and not task.finished:
                remaining = max(0.0, expected - (task.elapsed or 0.0))
            if remaining is None or task.finished:
                return Text("")
            minutes, seconds = divmod(int(remaining + 0.5), 60)
            return Text(f"eta {minutes}:{seconds:02d}", style="cyan")

    return EtaColumn()


class TerminalProgress:
    """One line per step (``embed ━━━━━━━━━━ 113/226 0:00:02 eta 0:02``), drawn on stderr with rich.

    A step reported with ``total`` 0 or 1 and not yet done (loading a model, retrieving) is shown
    as a pulsing bar with its elapsed time, and an ETA from how long it took last time; a counted
    step gets an ETA from its rate so far. The lines are cleared when :meth:`close` is called,
    leaving the terminal as it was.
    """

    def __init__(self, stream=None, enabled: bool | None = None, step_times: StepTimes | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._progress = None
        self._tasks: dict[str, int] = {}
        self._started: dict[str, float] = {}
        self._times = step_times

    def _start(self):
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        if self._times is None:
            self._times = default_step_times()
        console = Console(file=self.stream, force_terminal=True, highlight=False, markup=False, emoji=False)
        self._progress = Progress(
            TextColumn("{task.description:<14}", markup=False), BarColumn(bar_width=28), MofNCompleteColumn(),
            TimeElapsedColumn(), _eta_column(),
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
            task = self._tasks[stage] = progress.add_task(sanitize_controls(stage), total=total if counted else None,
                                                          expected=self._times.seconds.get(stage))
            self._started[stage] = time.monotonic()
        progress.update(task, completed=done, total=total if counted else None)
        if total <= 1 and done >= total and stage in self._started:  # an uncounted step ended: remember its time
            self._times.seconds[stage] = round(time.monotonic() - self._started.pop(stage), 2)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
            self._tasks.clear()
            self._times.save()


def progress_for_terminal() -> ProgressCallback:
    return TerminalProgress()
