"""What each command imports: ``python -X importtime`` per command, summed by package.

    python benchmarks/startup.py [--rounds 3] [--python LABEL=PATH ...] [--out benchmarks/results/startup.md]

For every command (``--version``, ``--help``, each command's ``--help``, and a warm ``compare`` of
the samples with the default and ``fast`` presets) and every install given (default: this
interpreter), runs ``python -X importtime -m conflictkit ...`` in a fresh process (bytecode cached,
its own warm cache) and reports the modules imported, the total import time and the packages that
take most of it (a package's own modules plus what they import first; medians of the rounds).
Import times are wall times measured inside the process, so they swell on a loaded machine:
compare installs measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [str(ROOT / "samples/reference-saas-agreement.md"), str(ROOT / "samples/input-vendor-draft.md")]
COMMANDS = {
    "--version": ["--version"],
    "--help": ["--help"],
    "compare --help": ["compare", "--help"],
    "verify --help": ["verify", "--help"],
    "batch --help": ["batch", "--help"],
    "compare (warm, offline)": ["compare", *SAMPLES, "-q"],
    "compare (warm, fast)": ["compare", *SAMPLES, "-q", "--config", "fast"],
}
LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def import_times(python: str, args: list[str], cache: Path) -> dict[str, float]:
    """Per top-level import of the run, its cumulative microseconds, by the package it belongs to (and the total)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["CONFLICTKIT_CACHE_DIR"] = str(cache)
    cache.mkdir(parents=True, exist_ok=True)  # run outside the checkout, whose source `-m conflictkit` would import
    done = subprocess.run([python, "-X", "importtime", "-m", "conflictkit", *args], capture_output=True, text=True, env=env,
                          cwd=cache)
    if done.returncode not in (0, 3):
        raise SystemExit(f"{args} failed: {done.stderr[-1000:]}")
    by_package: dict[str, float] = defaultdict(float)
    modules = 0
    for line in done.stderr.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        modules += 1
        if len(m.group(3)) == 1:  # a top-level import: its cumulative time covers what it imported
            name = m.group(4)
            package = ".".join(name.split(".")[:2]) if name.startswith("conflictkit.") else name.split(".")[0]
            by_package[package] += int(m.group(2)) / 1e6
    return {"(total)": sum(by_package.values()), "(modules)": modules, **by_package}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--python", action="append", default=[], metavar="LABEL=PATH")
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/startup.md"))
    args = parser.parse_args()
    installs = [tuple(p.split("=", 1)) for p in args.python] or [("this install", sys.executable)]
    work = Path(tempfile.mkdtemp(prefix="ck-startup-"))
    runs: dict[tuple[str, str], list[dict[str, float]]] = defaultdict(list)
    loads = [os.getloadavg()[0]]
    for label, python in installs:  # warm the caches and write the bytecode
        for command in COMMANDS.values():
            import_times(python, command, work / label)
    for _ in range(args.rounds):
        for label, python in installs:
            for name, command in COMMANDS.items():
                runs[(label, name)].append(import_times(python, command, work / label))
        loads.append(os.getloadavg()[0])
    lines = [
        "# What each command imports",
        "",
        f"Command: `python benchmarks/startup.py --rounds {args.rounds}{''.join(f' --python {p}' for p in args.python)}`. "
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, shared: load average "
        f"{min(loads):.1f}-{max(loads):.1f}. `python -X importtime` of each command in a fresh process, medians of "
        f"{args.rounds} rounds; a package's time includes what it imports first.",
        "",
        "| install | command | modules | import s | heaviest packages (s) |",
        "|---|---|---|---|---|",
    ]
    for (label, name), rows in runs.items():
        keys = {k for row in rows for k in row}
        medians = {k: statistics.median(row.get(k, 0.0) for row in rows) for k in keys}
        top = sorted(((v, k) for k, v in medians.items() if not k.startswith("(")), reverse=True)[:6]
        heaviest = ", ".join(f"{k} {v:.3f}" for v, k in top if v >= 0.005)
        lines.append(f"| {label} | `{name}` | {medians['(modules)']:.0f} | {medians['(total)']:.3f} | {heaviest} |")
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
