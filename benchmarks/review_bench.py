"""What issue 23 costs and what it changes: severity, the order, aligned HTML panes, progress in batches.

    python benchmarks/review_bench.py --before DIR [--rounds 5] [--out benchmarks/results/review.md]

``--before DIR`` is a folder holding another revision's ``conflictkit/`` package
(``git archive $(git merge-base main review) conflictkit | tar -x -C DIR``); every measurement runs that revision and this one
side by side (``PYTHONPATH``), on the ~50-page pair of default_targets.py (read from ../shared/corpus).

1. Whole processes, interleaved round by round (medians, ratios): `compare --config fast --no-cache`
   writing report.html (the HTML view now renders the document diff to align the panes), and the
   cold offline default (`compare --no-cache`: the int8 ONNX embedder, now fed in smaller batches so
   progress moves).
2. Progress: in one cold offline comparison, how many progress reports each step gave and the longest
   time with none (the bar "frozen").
3. The same findings: the offline default on the samples and Common Paper version pairs, before and
   after, compared as (kind, both spans, reason types): the embedder's batches must change no finding.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from default_targets import CORPUS, fifty_pages  # noqa: E402

PROBE = r"""
import json, sys, time
import conflictkit
from conflictkit.config import load_config
from conflictkit.engine import Engine
events = []
start = time.perf_counter()
def progress(step, done, total):
    events.append((round(time.perf_counter() - start, 4), step, done, total))
engine = Engine(load_config(sys.argv[3] if len(sys.argv) > 3 else None), progress=progress)
result = engine.compare(sys.argv[1], sys.argv[2])
findings = sorted((f["kind"], (f["reference"] or {}).get("start"), (f["input"] or {}).get("start"),
                   tuple(sorted(r["type"] for r in f["reasons"]))) for f in result.report["findings"])
print(json.dumps({"package": conflictkit.__file__, "events": events, "findings": findings, "total": round(time.perf_counter() - start, 3)}))
"""


def run(args: list[str], path: str) -> float:
    env = {**os.environ, "PYTHONPATH": path}
    started = time.perf_counter()
    # never run from the checkout: `-m` and `-c` put the working folder first on sys.path, which would
    # import this revision's conflictkit whatever PYTHONPATH says
    proc = subprocess.run([sys.executable, "-m", "conflictkit", *args], capture_output=True, text=True, env=env,
                          cwd=tempfile.gettempdir())
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} at {path} failed: {proc.stderr.strip()[-400:]}")
    return time.perf_counter() - started


def probe(path: str, reference: Path, input: Path, config: str | None = None) -> dict:
    env = {**os.environ, "PYTHONPATH": path, "CONFLICTKIT_CACHE_DIR": tempfile.mkdtemp(prefix="ck-review-cache-")}
    args = [sys.executable, "-c", PROBE, str(reference), str(input)] + ([config] if config else [])
    proc = subprocess.run(args, capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    if proc.returncode != 0:
        raise SystemExit(f"probe at {path} failed: {proc.stderr.strip()[-600:]}")
    data = json.loads(proc.stdout)
    if not Path(data["package"]).resolve().is_relative_to(Path(path).resolve()):
        raise SystemExit(f"the probe of {path} imported {data['package']}: the comparison would be of one revision with itself")
    return data


def freeze(events: list) -> tuple[dict[str, int], float, str]:
    """Reports per step, and the longest time between two reports (and the step it was in)."""
    per_step: dict[str, int] = {}
    for _, step, _, _ in events:
        per_step[step] = per_step.get(step, 0) + 1
    gaps = [(b[0] - a[0], b[1]) for a, b in zip(events, events[1:])]
    longest = max(gaps, default=(0.0, ""))
    return per_step, longest[0], longest[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True, help="a folder with another revision's conflictkit/ package")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/review.md"))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ck-review-"))
    reference, input = fifty_pages(work)
    revisions = {"before": args.before, "this": str(ROOT)}
    cases = {
        "--config fast --format html --out": ["compare", "--config", "fast", "--no-cache", str(reference), str(input),
                                              "--format", "html", "--out"],
        "offline default, cold, terminal view": ["compare", "--no-cache", str(reference), str(input)],
    }
    load_before = os.getloadavg()[0]
    times: dict[tuple[str, str], list[float]] = {(c, r): [] for c in cases for r in revisions}
    for case, command in cases.items():  # bytecode written once
        for revision, path in revisions.items():
            run(command + ([str(work / f"warm-{revision}")] if command[-1] == "--out" else []), path)
    for n in range(args.rounds):
        for case, command in cases.items():
            for revision, path in revisions.items():
                out = [str(work / f"{revision}-{n}")] if command[-1] == "--out" else []
                times[(case, revision)].append(run(command + out, path))
    rows = []
    for case in cases:
        before, this = (statistics.median(times[(case, r)]) for r in revisions)
        rows.append(f"| {case} | {before:.2f} | {this:.2f} | {this / before:.2f}x |")

    progress_rows = []
    for revision, path in revisions.items():
        data = probe(path, reference, input)
        per_step, longest, step = freeze(data["events"])
        steps = ", ".join(f"{k} {v}" for k, v in per_step.items())
        progress_rows.append(f"| {revision} | {data['total']:.2f} | {steps} | {longest:.2f} s ({step}) |")

    pairs = [(ROOT / "samples/reference-saas-agreement.md", ROOT / "samples/input-vendor-draft.md"),
             (ROOT / "samples/nda-reference.txt", ROOT / "samples/nda-input.txt")]
    for kind in ("csa", "dpa", "mnda", "psa", "baa"):
        versions = sorted((CORPUS / "commonpaper" / kind).glob("*.md"))
        pairs += list(zip(versions, versions[1:]))
    same = 0
    different = []
    for ref, inp in pairs:
        before, this = (probe(path, ref, inp)["findings"] for path in revisions.values())
        if before == this:
            same += 1
        else:
            different.append(f"{ref.name} -> {inp.name}")
    load_after = os.getloadavg()[0]
    lines = [
        "# Issue 23: severity, one order, aligned HTML panes, progress in batches: what they cost",
        "",
        f"Command: `python benchmarks/review_bench.py --before DIR --rounds {args.rounds}` (DIR: `git archive $(git merge-base main review) conflictkit`"
        ", the branch point of the issue-23 branch; backends and configs/ are this checkout's for both). Whole processes, the two revisions interleaved round by round; medians.",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load average "
        f"{load_before:.1f} at the start and {load_after:.1f} at the end (other sessions share the machine; 0 is idle).",
        f"Documents: the ~50-page pair of default_targets.py, {reference.stat().st_size / 1e3:.0f} kB and"
        f" {input.stat().st_size / 1e3:.0f} kB of Markdown.",
        "",
        "| command (cold, --no-cache) | before s | this revision s | ratio |",
        "|---|---|---|---|",
        *rows,
        "",
        "Progress of one cold offline comparison of the pair (reports per step; the longest time with no report):",
        "",
        "| revision | total s | reports per step | longest without a report |",
        "|---|---|---|---|",
        *progress_rows,
        "",
        f"Findings of the offline default (kind, both spans, reason types) before and after, on the samples and every"
        f" consecutive Common Paper version pair: {same} of {len(pairs)} pairs identical"
        + (f"; different: {', '.join(different)}." if different else "."),
    ]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
