"""Cold compares of two source trees side by side: the same pairs, runs interleaved, medians.

    python benchmarks/cold_ab.py BEFORE_TREE [--rounds 3] [--config offline]

BEFORE_TREE is a checkout (or ``git archive`` export) of an earlier commit; its ``conflictkit`` and
backends are put first on the path of its runs, this checkout's (installed) ones serve the others.
Each run is a whole ``conflictkit compare`` process with a fresh cache and bytecode cached, as in
``default_targets.py``; rounds alternate before / after, so load from other jobs hits both alike.
Pairs: the samples and the ~50-page pair of ``default_targets.py`` (read from the corpus), with
``--large`` its ~5 MB pair too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from default_targets import fifty_pages, five_megabytes

ROOT = Path(__file__).resolve().parent.parent


def cold_run(tree: Path | None, ref: Path, inp: Path, config: str, cache: Path) -> tuple[float, str]:
    """Seconds of one cold compare and its summary line; ``tree`` None runs this checkout."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["CONFLICTKIT_CACHE_DIR"] = str(cache)
    cwd = ROOT
    if tree is not None:  # `-m` puts the working directory first on the path: the tree's own package
        cwd = tree
        env["PYTHONPATH"] = os.pathsep.join([str(tree), *map(str, sorted((tree / "backends").glob("*")))])
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "conflictkit", "compare", str(ref), str(inp), "--config", config, "-q"],
                          capture_output=True, text=True, env=env, cwd=cwd)
    elapsed = time.perf_counter() - started
    line = (proc.stdout.strip().splitlines() or [""])[-1] if proc.returncode == 0 else f"exit {proc.returncode}: {proc.stderr.strip()[-200:]}"
    return elapsed, line


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--config", default="offline")
    parser.add_argument("--large", action="store_true", help="also the ~5 MB pair (about a minute a run)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ck-ab-"))
    pairs = {"samples": (ROOT / "samples/reference-saas-agreement.md", ROOT / "samples/input-vendor-draft.md"),
             "~50 pages a side": fifty_pages(work)}
    if args.large:
        pairs["~5 MB a side"] = five_megabytes(work)
    for tree in (args.before.resolve(), None):  # bytecode written for both trees before anything is timed
        cold_run(tree, *pairs["samples"], "fast", work / f"prime-{time.monotonic_ns()}")
    times: dict[tuple[str, str], list[float]] = {}
    lines: dict[tuple[str, str], str] = {}
    for round_ in range(args.rounds):
        for label, (ref, inp) in pairs.items():
            for name, tree in (("before", args.before.resolve()), ("after", None)):
                seconds, line = cold_run(tree, ref, inp, args.config, work / f"{name}-{label}-{round_}")
                times.setdefault((label, name), []).append(seconds)
                lines[(label, name)] = line
    print(f"| case | before s (median of {args.rounds}) | after s | after / before | summary before / after |")
    print("|---|---|---|---|---|")
    for label in pairs:
        before, after = statistics.median(times[(label, "before")]), statistics.median(times[(label, "after")])
        print(f"| {label}, `{args.config}` | {before:.2f} | {after:.2f} | {after / before:.2f} | "
              f"{lines[(label, 'before')]} / {lines[(label, 'after')]} |")


if __name__ == "__main__":
    main()
