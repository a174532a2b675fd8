"""What writing a redline adds to a cold comparison of two ~50-page agreements (issue 22's target: <= 20%).

    python benchmarks/redline_bench.py [--rounds 7] [--out benchmarks/results/redline.md] [--before DIR]

The pair is default_targets.py's ~50 pages a side (the Common Paper CSA, DPA, PSA and the Bonterms
Cloud Terms against their next versions; read from ../shared/corpus, never copied). Each row is a
whole `conflictkit compare --config fast --no-cache` process (cold: nothing cached), the rows run
interleaved round by round so a change in the machine's load hits them alike, and the medians are
compared as ratios. The baselines are the same comparison printing the terminal view, and writing
the default --out set (report.json, pairs.json, params.json, report.md); the redlines write that set
plus report.docx (Markdown input, typeset; and a .docx input built from it) or redline.md.
A second table times the parts of report.docx in one process. ``--before DIR`` (a folder holding
another revision's ``conflictkit/`` package: ``git archive main conflictkit | tar -x -C DIR``) adds
the terminal view of the core alone (no plugin loaded) at that revision and at this one, side by side.
"""

from __future__ import annotations

import argparse
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

from default_targets import fifty_pages  # noqa: E402


def run(args: list[str], extra_env: dict[str, str] | None = None) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra_env or {})
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "conflictkit", *args], capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr.strip()[-400:]}")
    return elapsed


def parts(reference: Path, input: Path) -> list[tuple[str, float]]:
    """The stages of report.docx in one process, after a comparison (medians of three)."""
    from conflictkit.config import load_config
    from conflictkit.engine import Engine
    from conflictkit.report.view import ReportView
    from conflictkit.stages import Rendering
    from conflictkit_docx.redline import report_docx

    timings: dict[str, list[float]] = {}
    for _ in range(3):
        started = time.perf_counter()
        result = Engine(load_config("fast"), store=None).compare(str(reference), str(input))
        timings.setdefault("the comparison itself (for scale)", []).append(time.perf_counter() - started)
    for _ in range(3):
        from conflictkit.report import doctext

        doctext._CACHE.clear()
        rendering = Rendering.of_result(result)
        view = rendering.view
        started = time.perf_counter()
        view.document("reference"), view.document("input")
        rendered = time.perf_counter()
        view.diff()
        diffed = time.perf_counter()
        report_docx(rendering)
        written = time.perf_counter()
        for name, seconds in (("render both documents (doctext)", rendered - started), ("diff and classify", diffed - rendered),
                              ("write report.docx (typeset, tracked changes, comments, zip)", written - diffed)):
            timings.setdefault(name, []).append(seconds)
        assert isinstance(view, ReportView)
    return [(name, statistics.median(values)) for name, values in timings.items()]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/redline.md"))
    parser.add_argument("--before", help="a folder with another revision's conflictkit/ package, to time its terminal view")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ck-redline-"))
    reference, input = fifty_pages(work)
    from conflictkit_docx.testing import rendered_to_docx

    reference_docx, input_docx = work / "ref-50p.docx", work / "inp-50p.docx"
    reference_docx.write_bytes(rendered_to_docx(reference.read_text(encoding="utf-8")))
    input_docx.write_bytes(rendered_to_docx(input.read_text(encoding="utf-8")))
    base = ["compare", "--config", "fast", "--no-cache"]
    cases = {
        "terminal view (baseline)": [*base, str(reference), str(input)],
        "--out: json + report.md (baseline)": [*base, str(reference), str(input), "--out", str(work / "a")],
        "--format redline --out": [*base, str(reference), str(input), "--format", "redline", "--out", str(work / "b")],
        "--format docx --out (Markdown input)": [*base, str(reference), str(input), "--format", "docx", "--out", str(work / "c")],
        "--out: json + report.md, .docx pair (baseline)": [*base, str(reference_docx), str(input_docx), "--out", str(work / "d")],
        "--format docx --out (.docx input)": [*base, str(reference_docx), str(input_docx), "--format", "docx", "--out", str(work / "e")],
    }
    envs: dict[str, dict[str, str]] = {}
    if args.before:
        for label, path in (("terminal view, core only, --before revision", args.before),
                            ("terminal view, core only, this revision", str(ROOT))):
            cases[label] = cases["terminal view (baseline)"]
            envs[label] = {"PYTHONPATH": path, "CONFLICTKIT_LOAD_PLUGINS": ""}
    load_before = os.getloadavg()[0]
    for name in cases:
        run(cases[name], envs.get(name))  # bytecode written once
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, command in cases.items():
            times[name].append(run(command, envs.get(name)))
    load_after = os.getloadavg()[0]
    median = {name: statistics.median(values) for name, values in times.items()}
    ratio = {
        "--format redline --out": ("--out: json + report.md (baseline)", "terminal view (baseline)"),
        "--format docx --out (Markdown input)": ("--out: json + report.md (baseline)", "terminal view (baseline)"),
        "--format docx --out (.docx input)": ("--out: json + report.md, .docx pair (baseline)", None),
        "terminal view, core only, this revision": (None, "terminal view, core only, --before revision"),
    }
    rows = []
    for name in cases:
        against = ratio.get(name)
        vs_out = f"{median[name] / median[against[0]]:.2f}x" if against and against[0] else ""
        vs_text = f"{median[name] / median[against[1]]:.2f}x" if against and against[1] else ""
        rows.append(f"| {name} | {median[name]:.2f} | {min(times[name]):.2f}-{max(times[name]):.2f} | {vs_out} | {vs_text} |")
    breakdown = parts(reference, input)
    lines = [
        "# What a redline adds to a cold comparison (~50 pages a side)",
        "",
        f"Command: `python benchmarks/redline_bench.py --rounds {args.rounds}`. Whole `conflictkit compare --config fast"
        " --no-cache` processes, interleaved round by round; median and range of the rounds.",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load average "
        f"{load_before:.1f} at the start and {load_after:.1f} at the end (other sessions share the machine; 0 is idle).",
        f"Documents: {reference.stat().st_size / 1e3:.0f} kB and {input.stat().st_size / 1e3:.0f} kB of Markdown "
        "(and the same as Word files, built with `conflictkit_docx.testing.rendered_to_docx`).",
        "",
        "| command | median s | range s | vs the --out baseline | vs the terminal view (or the --before revision's) |",
        "|---|---|---|---|---|",
        *rows,
        "",
        "Inside one process, after the comparison (median of three):",
        "",
        "| part | s |",
        "|---|---|",
        *[f"| {name} | {seconds:.3f} |" for name, seconds in breakdown],
    ]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
