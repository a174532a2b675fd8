"""Terminal progress: each step named as the engine reports it, counted steps with an ETA, silent off a terminal."""

from __future__ import annotations

import io
import re
import time

from conflictkit.progress import StepTimes, TerminalProgress


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_every_step_is_shown_by_name_with_counts_and_eta(tmp_path):
    stream = FakeTerminal()
    progress = TerminalProgress(stream, step_times=StepTimes(tmp_path / "times.json"))
    progress("load sentence-transformers model", 0, 1)
    progress("load sentence-transformers model", 1, 1)
    for done in (0, 50, 100):  # the rate needs two advances
        progress("embed", done, 226)
        time.sleep(0.15)
    progress._progress.refresh()  # midway: the rate so far gives an ETA
    midway = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())
    progress("embed", 226, 226)
    progress._progress.refresh()
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())
    progress.close()
    assert "load sentence-transformers model" in shown
    assert re.search(r"embed\s.*226/226", shown) and re.search(r"embed\s.*100/226 .*eta 0:0\d", midway)


def test_a_load_step_gets_an_eta_from_the_last_run(tmp_path):
    times = tmp_path / "times.json"
    first = TerminalProgress(FakeTerminal(), step_times=StepTimes(times))
    first("load nli model", 0, 1)
    first("load nli model", 1, 1)
    first.close()
    assert "load nli model" in StepTimes(times).seconds
    (times).write_text('{"load nli model": 42.0}')
    stream = FakeTerminal()
    second = TerminalProgress(stream, step_times=StepTimes(times))
    second("load nli model", 0, 1)
    second._progress.refresh()
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())
    second.close()
    assert re.search(r"load nli model .*eta 0:4[12]", shown)
    (times).write_text("not json")
    assert StepTimes(times).seconds == {}  # a broken file is ignored, never fatal


def test_silent_when_not_a_terminal():
    stream = io.StringIO()
    progress = TerminalProgress(stream)
    progress("embed", 1, 2)
    progress.close()
    assert stream.getvalue() == ""


def test_a_step_name_cannot_drive_the_terminal(tmp_path):
    stream = FakeTerminal()
    progress = TerminalProgress(stream, step_times=StepTimes(tmp_path / "times.json"))
    progress("load \x1b]0;owned\x07", 0, 1)
    progress._progress.refresh()
    progress.close()
    assert "\x1b]0;" not in stream.getvalue() and "\x07" not in stream.getvalue()
