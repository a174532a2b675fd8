"""Issue 25's targets, side by side in one run: start-up, warm and cold compares, against `fast` and `redlines`.

    python benchmarks/speed_targets.py [--rounds 5] [--python LABEL=PATH ...] [--redlines PATH]
        [--out benchmarks/results/speed.md]

Every figure is a whole process as a user runs it (``conflictkit`` from an install, bytecode
cached, its own cache directory): wall seconds and the child's CPU seconds (user + system, every
thread). Compares print with ``-q`` (the summary line); for the samples a warm run printing the
whole text view is timed too. Cases: the bundled samples, Common Paper CSA 1.1 -> 2.0 (../shared/corpus, never copied)
and the ~50-page pair of ``default_targets.py``. Per case: ``offline`` cold (a fresh cache, model
load included) and warm (the same cache again), ``fast`` cold and warm, and `redlines` (the pip
package, for comparison only: ``redlines compare A B``, its JSON, given with ``--redlines`` as the
Python of an environment that has it). ``--python`` runs the conflictkit figures under more installs
(e.g. the code before a change). Rounds are interleaved (every command once per round, in turn) and
medians reported, because the machine is shared: the load average is printed with the results.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from default_targets import CORPUS, fifty_pages

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = (ROOT / "samples/reference-saas-agreement.md", ROOT / "samples/input-vendor-draft.md")
CSA = (CORPUS / "commonpaper/csa/CSA_v1.1.md", CORPUS / "commonpaper/csa/CSA_v2.0.md")


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one child process (its output discarded; a failure stops the benchmark)."""
    import time

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    # outside the checkout: `python -m conflictkit` would otherwise import its source rather than the install's
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.decode()[-1000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def conflictkit(python: str) -> list[str]:
    script = Path(python).parent / "conflictkit"
    return [str(script)] if script.exists() else [python, "-m", "conflictkit"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--python", action="append", default=[], metavar="LABEL=PATH")
    parser.add_argument("--redlines", metavar="PYTHON", help="the Python of an environment with redlines installed")
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/speed.md"))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ck-speed-"))
    cases = {"samples": SAMPLES, "CSA 1.1 -> 2.0": CSA, "~50 pages": fifty_pages(work)}
    installs = [tuple(p.split("=", 1)) for p in args.python] or [("this install", sys.executable)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    commands: dict[tuple[str, str, str], list[str]] = {}  # (install, case, what) -> command
    for label, python in installs:
        ck = conflictkit(python)
        commands[(label, "", "--help")] = [*ck, "--help"]
        commands[(label, "", "--version")] = [*ck, "--version"]
        for case, (ref, inp) in cases.items():
            for config in ("offline", "fast"):
                commands[(label, case, config)] = [*ck, "compare", str(ref), str(inp), "--config", config, "-q"]
    if args.redlines:
        for case, (ref, inp) in cases.items():
            commands[("redlines", case, "redlines")] = [str(Path(args.redlines).parent / "redlines"), "compare", str(ref), str(inp)]
    for cmd in commands.values():  # bytecode written, files in the page cache
        run(cmd, {**env, "CONFLICTKIT_CACHE_DIR": str(work / "prime")})
    results: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
    loads = [os.getloadavg()[0]]
    for round_ in range(args.rounds):
        for key, cmd in commands.items():
            label, case, what = key
            if what in ("offline", "fast"):
                cache = work / f"cache-{round_}-{label}-{case}-{what}".replace(" ", "_").replace(">", "")
                cold = run(cmd, {**env, "CONFLICTKIT_CACHE_DIR": str(cache)})
                warm = run(cmd, {**env, "CONFLICTKIT_CACHE_DIR": str(cache)})
                results.setdefault((label, case, f"{what} cold"), []).append(cold)
                results.setdefault((label, case, f"{what} warm"), []).append(warm)
                if what == "offline" and case == "samples":  # the whole text view, not just its summary line
                    view = run([c for c in cmd if c != "-q"], {**env, "CONFLICTKIT_CACHE_DIR": str(cache)})
                    results.setdefault((label, case, "offline warm, text view"), []).append(view)
            else:
                results.setdefault(key, []).append(run(cmd, {**env, "CONFLICTKIT_CACHE_DIR": str(work / "cache-misc")}))
        loads.append(os.getloadavg()[0])

    def med(key: tuple[str, str, str], which: int = 0) -> float:
        return statistics.median(r[which] for r in results[key])

    lines = [
        "# Speed, round 3: the targets side by side",
        "",
        f"Command: `python benchmarks/speed_targets.py --rounds {args.rounds}"
        f"{''.join(f' --python {p}' for p in args.python)}{' --redlines PYTHON' if args.redlines else ''}`. "
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, shared with other "
        f"sessions: load average {min(loads):.1f}-{max(loads):.1f} during the run (0 is idle). Whole processes, medians of "
        f"{args.rounds} interleaved rounds, wall s / CPU s (user + system).",
        "",
        "| install | case | command | wall s | CPU s | target |",
        "|---|---|---|---|---|---|",
    ]
    for label, _ in installs:
        for what, target in (("--help", "<= 0.15 s"), ("--version", "")):
            key = (label, "", what)
            lines.append(f"| {label} | | `conflictkit {what}` | {med(key):.2f} | {med(key, 1):.2f} | {target} |")
        for case in cases:
            for what in ("offline cold", "fast cold", "offline warm", "fast warm", "offline warm, text view"):
                key = (label, case, what)
                if key not in results:
                    continue
                notes = []
                if what == "offline cold":
                    fast = med((label, case, "fast cold"))
                    notes.append(f"{med(key) / fast:.2f}x fast")
                    if args.redlines:
                        notes.append(f"{med(key) / med(('redlines', case, 'redlines')):.2f}x redlines")
                if what == "offline warm" and case == "samples":
                    notes.append("<= 0.3 CPU s")
                lines.append(f"| {label} | {case} | {what} | {med(key):.2f} | {med(key, 1):.2f} | {'; '.join(notes)} |")
    if args.redlines:
        for case in cases:
            key = ("redlines", case, "redlines")
            lines.append(f"| redlines | {case} | `redlines compare` | {med(key):.2f} | {med(key, 1):.2f} | |")
    lines += ["", "Targets (issue 25): warm compare of the samples <= 0.3 CPU s; `--help` <= 0.15 s; cold `offline` within",
              "1.5x of `fast` (samples, ~50 pages) and within 2x of `redlines` (samples, CSA 1.1 -> 2.0, ~50 pages)."]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
