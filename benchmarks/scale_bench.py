"""Scaling: time, peak memory and judged pairs from 100 to 100k one-line clauses, per config.

    python benchmarks/scale_bench.py [--configs fast,hybrid,offline] [--sizes 100,1000,...] [--cap offline=3000]
                                     [--samples] [--out benchmarks/results/scale.md]

Each comparison runs cold (an empty cache) in its own process on a synthetic document of N numbered
one-line clauses and an edited version of it (``benchmarks/scale_docs.py``: about 5% of the
clauses changed, deleted, inserted or reworded), so peak RSS is that comparison's alone; as in a
first run of the CLI, the input's unchanged clauses take their vectors from the per-text cache. Sizes
over ``limits.max_clauses`` are run too and show the refusal. ``--samples`` adds whole-process
timings of the bundled samples: ``--version``, cold and warm ``compare`` per config, and the
ratio of each config's warm run to ``--config fast``'s, measured side by side in one run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = (ROOT / "samples/reference-saas-agreement.md", ROOT / "samples/input-vendor-draft.md")

# One comparison in a fresh interpreter: prints its figures as JSON on stdout.
_CHILD = """
import json, resource, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, {bench!r})
from scale_docs import as_text, document, edited
from conflictkit.config import load_config, resolve, config_data
from conflictkit.engine import Engine
from conflictkit.errors import ConflictkitError
from conflictkit.loaders import document_from_text
from conflictkit.store import Store
n, config_name, overrides = int(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
config = load_config(config_name)
if overrides:
    data = config_data(config)
    data["pipeline"].update(overrides)
    config = resolve(data)
clauses = document(n)
reference, input = document_from_text(as_text(clauses), f"ref-{{n}}.txt"), document_from_text(as_text(edited(clauses)), f"inp-{{n}}.txt")
started = time.perf_counter()
engine = Engine(config, store=Store(Path(tempfile.mkdtemp()) / "cache.sqlite"))  # empty: a first run
try:
    result = engine.compare_documents(reference, input)
except ConflictkitError as exc:
    print(json.dumps({{"refused": str(exc), "seconds": time.perf_counter() - started,
                      "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
    sys.exit(0)
summary = result.report["summary"]
print(json.dumps({{
    "seconds": time.perf_counter() - started,
    "n": summary["clauses"]["reference"], "m": summary["clauses"]["input"],
    "judged": sum(j.judge != "identical" for j in result.judgements),
    "settled": sum(j.judge == "identical" for j in result.judgements),
    "findings": len(result.report["findings"]),
    "timings": result.timings,
    "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}}))
"""

# The bench's own configs, beside the presets: hybrid retrieval without a neural embedder shows
# BM25 + fusion at sizes where embedding with a model would take the whole time budget.
VARIANTS = {"hybrid-hashing": ("hybrid", {"embedder": {"use": "hashing"}})}


def run_child(n: int, config: str, timeout: float) -> dict:
    base, overrides = VARIANTS.get(config, (config, {}))
    code = _CHILD.format(bench=str(ROOT / "benchmarks"))
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    started = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-c", code, str(n), base, json.dumps(overrides)],
                              capture_output=True, text=True, env=env, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    out = proc.stdout.strip()
    row = json.loads(out.splitlines()[-1]) if proc.returncode == 0 and out else {"error": proc.stderr.strip()[-300:]}
    row["wall"] = time.perf_counter() - started
    return row


def popen_with_usage(args: list[str], timeout: float, env: dict) -> tuple[int, str, float, float]:
    """(exit code, stderr, wall seconds, peak RSS MB) of one process."""
    with tempfile.TemporaryFile("w+") as stderr:
        started = time.perf_counter()
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=stderr, text=True, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        stderr.seek(0)
        return proc.returncode, stderr.read(), wall, usage.ru_maxrss / 1024


def exponent(rows: list[tuple[int, float]]) -> float | None:
    """Least-squares slope of log(time) against log(clauses), over sizes of 1,000 clauses and more."""
    points = [(math.log(n), math.log(t)) for n, t in rows if n >= 1000 and t > 0]
    if len(points) < 2:
        return None
    mx, my = statistics.fmean(p[0] for p in points), statistics.fmean(p[1] for p in points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else None


def scaling_table(configs: list[str], sizes: list[int], caps: dict[str, int], timeout: float) -> list[str]:
    lines = ["| config | clauses (ref x input) | engine s | process wall s | peak RSS MB | judged pairs | settled identical "
             "| judged / max(n, m) | findings |", "|---|---|---|---|---|---|---|---|---|"]
    fits = []
    for config in configs:
        points = []
        for n in sizes:
            if n > caps.get(config, 10**9):
                lines.append(f"| {config} | {n:,} | not run: over this run's cap for {config} (--cap) | | | | | | |")
                continue
            row = run_child(n, config, timeout)
            print(config, n, row, file=sys.stderr, flush=True)
            if "refused" in row:
                lines.append(f"| {config} | {n:,} | refused in {row['seconds']:.1f} s: {row['refused'][:90]}… | {row['wall']:.1f} "
                             f"| {row.get('rss_mb', 0):.0f} | | | | |")
                continue
            if "timeout" in row or "error" in row:
                lines.append(f"| {config} | {n:,} | {'timed out after %.0f s' % timeout if 'timeout' in row else row['error']} | | | | | | |")
                continue
            points.append((max(row["n"], row["m"]), row["seconds"]))
            lines.append(
                f"| {config} | {row['n']:,} x {row['m']:,} | {row['seconds']:.2f} | {row['wall']:.2f} | {row.get('rss_mb', 0):.0f} "
                f"| {row['judged']:,} | {row['settled']:,} | {row['judged'] / max(row['n'], row['m']):.2f} | {row['findings']} |"
            )
        slope = exponent(points)
        fits.append(f"- `{config}`: time ~ n^{slope:.2f} over {len([p for p in points if p[0] >= 1000])} sizes of 1,000 clauses "
                    "and more" if slope is not None else f"- `{config}`: too few sizes to fit an exponent")
    return [*lines, "", "Fitted exponent (least squares of log engine time against log clauses):", *fits]


def samples_table(configs: list[str], repeat: int) -> list[str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    command = [sys.executable, "-m", "conflictkit"]
    lines = ["| what | config | median wall s | runs | peak RSS MB | ratio to fast |", "|---|---|---|---|---|---|"]
    versions = [popen_with_usage([*command, "--version"], 60, env) for _ in range(repeat)]
    lines.append(f"| `conflictkit --version` | | {statistics.median(v[2] for v in versions):.3f} | {repeat} "
                 f"| {max(v[3] for v in versions):.0f} | |")
    with tempfile.TemporaryDirectory() as tmp:
        cold, warm = {}, {c: [] for c in configs}
        for config in configs:
            cache = {**env, "CONFLICTKIT_CACHE_DIR": str(Path(tmp) / config)}
            cold[config] = popen_with_usage([*command, "compare", "--config", config, *map(str, SAMPLES)], 600, cache)
        for _ in range(repeat):  # interleaved, so machine load hits every config alike
            for config in configs:
                cache = {**env, "CONFLICTKIT_CACHE_DIR": str(Path(tmp) / config)}
                warm[config].append(popen_with_usage([*command, "compare", "--config", config, *map(str, SAMPLES)], 600, cache))
    for kind, runs in (("cold compare of the samples (fresh cache, model load included)", {c: [cold[c]] for c in configs}),
                       ("warm compare of the samples (everything cached)", warm)):
        fast = statistics.median(r[2] for r in runs["fast"]) if "fast" in runs else None
        for config in configs:
            median = statistics.median(r[2] for r in runs[config])
            codes = {r[0] for r in runs[config]}
            note = "" if codes <= {0, 3} else f" (exit {sorted(codes)}: {runs[config][0][1].strip()[-120:]})"
            ratio = f"{median / fast:.2f}" if fast else ""
            lines.append(f"| {kind}{note} | {config} | {median:.2f} | {len(runs[config])} | {max(r[3] for r in runs[config]):.0f} | {ratio} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--configs", default="fast,hybrid-hashing,offline,hybrid")
    parser.add_argument("--sizes", default="100,300,1000,3000,10000,20000,100000")
    parser.add_argument("--cap", action="append", default=[], help="CONFIG=N: skip sizes over N clauses for CONFIG")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--samples", action="store_true", help="also time the samples: --version, cold and warm compare")
    parser.add_argument("--samples-configs", default="fast,offline,hybrid")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/scale.md"))
    args = parser.parse_args()
    caps = {c: int(n) for c, n in (item.split("=") for item in args.cap)}
    configs = [c for c in args.configs.split(",") if c]
    lines = [
        "# Scaling: one-line clauses, 100 to 100k",
        "",
        f"Command: `python benchmarks/scale_bench.py {' '.join(sys.argv[1:])}`".rstrip() + "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores shared with other jobs (wall times are noisy), "
        f"Python {platform.python_version()}.",
        "",
        *scaling_table(configs, [int(s) for s in args.sizes.split(",")], caps, args.timeout),
    ]
    if args.samples:
        lines += ["", "## The samples, whole process", "", *samples_table(args.samples_configs.split(","), args.repeat)]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
