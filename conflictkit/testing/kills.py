"""Killing a writer of report sets at many moments, and checking what a reader then finds.

``python -m conflictkit.testing.kills DIR [--cwd]`` writes report sets into ``DIR`` (or, with
``--cwd``, into ``.`` after changing into ``DIR``) one generation after another, forever, printing
``ready`` once before the first. :func:`kill_at` starts it, SIGKILLs it after a given delay, and
:func:`read_set` says what a reader finds: one whole generation, nothing, or a mix. Used by the
writer's tests and by ``benchmarks/reliability.py``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conflictkit.report.sets import MANIFEST, SUBFOLDER

NAMES = ("report.json", "pairs.json", "params.json", "report.md")


def generation(n: int) -> dict[str, str]:
    """The files of generation ``n``: each names its generation, and they differ in size, so writes take a while."""
    return {name: json.dumps({"schema": "conflictkit.test/1", "generation": n, "file": name,
                              "padding": "x" * (20_000 * (i + 1))}) for i, name in enumerate(NAMES)}


def read_set(folder: Path) -> str:
    """``"absent"``, ``"generation N"`` (every file present, all of one generation) or ``"mixed: ..."``."""
    if not folder.is_dir():
        return "absent"
    found: dict[str, int | None] = {}
    for name in NAMES:
        try:
            found[name] = json.loads((folder / name).read_text())["generation"]
        except (OSError, ValueError, KeyError):
            found[name] = None
    extra = sorted(set(os.listdir(folder)) - set(NAMES) - {MANIFEST})
    values = set(found.values())
    if len(values) == 1 and None not in values and not extra:
        return f"generation {values.pop()}"
    return f"mixed: {found}" + (f", extra {extra}" if extra else "")


def kill_at(directory: Path, delay: float, cwd: bool = False, timeout: float = 60) -> str:
    """Start the writer loop on ``directory``, SIGKILL it ``delay`` seconds after it is ready; what a reader finds then."""
    args = [sys.executable, "-m", "conflictkit.testing.kills", str(directory)] + (["--cwd"] if cwd else [])
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        if line.strip() != "ready":
            raise RuntimeError(f"the writer loop did not start: {line!r}")
        time.sleep(delay)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=timeout)
    return read_set(directory / SUBFOLDER if cwd else directory)


def _loop(directory: Path, cwd: bool) -> None:
    from conflictkit.report.writer import REPORT_FILES, write_set

    target: Path = directory
    if cwd:
        directory.mkdir(parents=True, exist_ok=True)
        os.chdir(directory)
        target = Path(".")
    print("ready", flush=True)
    n = 0
    while True:
        write_set(target, generation(n), lambda name: name in REPORT_FILES)
        n += 1


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    _loop(Path(sys.argv[1]).resolve(), "--cwd" in sys.argv[2:])
