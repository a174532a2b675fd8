"""Terminal progress: each step named as the engine reports it, counted steps with an ETA, silent off a terminal."""

from __future__ import annotations

import io
import re

from conflictkit.progress import TerminalProgress


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_every_step_is_shown_by_name_with_counts_and_eta():
    stream = FakeTerminal()
    progress = TerminalProgress(stream)
    progress("load sentence-transformers model", 0, 1)
    progress("load sentence-transformers model", 1, 1)
    for done in (0, 100, 226):
        progress("embed", done, 226)
    progress._progress.refresh()
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())
    progress.close()
    assert "load sentence-transformers model" in shown
    assert re.search(r"embed\s.*226/226", shown) and "eta" in shown


def test_silent_when_not_a_terminal():
    stream = io.StringIO()
    progress = TerminalProgress(stream)
    progress("embed", 1, 2)
    progress.close()
    assert stream.getvalue() == ""


def test_a_step_name_cannot_drive_the_terminal():
    stream = FakeTerminal()
    progress = TerminalProgress(stream)
    progress("load \x1b]0;owned\x07", 0, 1)
    progress._progress.refresh()
    progress.close()
    assert "\x1b]0;" not in stream.getvalue() and "\x07" not in stream.getvalue()
