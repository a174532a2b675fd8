"""Issue 17 measures: a portfolio of contracts against one template, on each batch engine.

    python benchmarks/batch_bench.py [--pairs 200] [--config offline] [--engines local:1,local:2,ray:2]
        [--rounds 1] [--python label=/path/to/python ...] [--out benchmarks/results/batch.md]

The portfolio: variants of the Common Paper agreements (read from ../shared/corpus, never copied)
with seeded scripted edits (numbers changed, a "not" dropped, a party swapped, a paragraph deleted
or duplicated), all compared against CSA 2.1. Each engine runs the same pairs in one run, with a
fresh cache each (cold: every document indexed, models loaded per worker). Reports pairs per minute,
peak RSS per worker, the peak of the summed PSS of every process the run starts (shared pages
counted once: what the machine really holds), the share of worker time spent loading models
(measured as a fresh process's ``Engine.warm_up()`` times the worker count), and whether every
engine gave identical findings. ``--rounds`` repeats the engines interleaved (medians are reported);
``--python`` runs them under other installs too (e.g. the code before a change), side by side.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CONFLICTKIT_CORPUS", ROOT.parent / "shared" / "corpus"))
TEMPLATE = CORPUS / "commonpaper/csa/CSA_v2.1.md"
BASES = sorted((CORPUS / "commonpaper/csa").glob("CSA_v*.md"))
NUMBER = re.compile(r"\b(\d{1,3})\b")
MODAL = re.compile(r"\b(will not|may not|must not|shall not)\b")
PARTY = re.compile(r"\b(Customer|Provider)\b")


def edit(text: str, rng: random.Random) -> str:
    """Two to four seeded edits of the kinds a negotiated draft has."""
    for _ in range(rng.randint(2, 4)):
        kind = rng.choice(["number", "negation", "party", "delete", "duplicate"])
        paragraphs = text.split("\n\n")
        if kind == "number" and (ms := list(NUMBER.finditer(text))):
            m = rng.choice(ms)
            text = text[: m.start()] + str(int(m.group()) * 2 + 1) + text[m.end():]
        elif kind == "negation" and (ms := list(MODAL.finditer(text))):
            m = rng.choice(ms)
            text = text[: m.start()] + m.group().replace(" not", "") + text[m.end():]
        elif kind == "party" and (ms := list(PARTY.finditer(text))):
            m = rng.choice(ms)
            text = text[: m.start()] + ("Provider" if m.group() == "Customer" else "Customer") + text[m.end():]
        elif kind == "delete" and len(paragraphs) > 10:
            del paragraphs[rng.randrange(5, len(paragraphs))]
            text = "\n\n".join(paragraphs)
        elif kind == "duplicate" and len(paragraphs) > 10:
            i = rng.randrange(5, len(paragraphs))
            paragraphs.insert(rng.randrange(5, len(paragraphs)), paragraphs[i])
            text = "\n\n".join(paragraphs)
    return text


def build_portfolio(folder: Path, count: int) -> list[Path]:
    rng = random.Random(17)
    paths = []
    for i in range(count):
        base = BASES[i % len(BASES)]
        path = folder / f"contract-{i:04d}.md"
        path.write_text(edit(base.read_text(encoding="utf-8"), rng), encoding="utf-8")
        paths.append(path)
    return paths


def warm_up_seconds(config: str | None) -> float:
    code = ("import time,sys;from conflictkit.config import load_config;from conflictkit.engine import Engine;"
            "e=Engine(load_config(sys.argv[1] if len(sys.argv)>1 else None));t=time.perf_counter();e.warm_up();"
            "print(time.perf_counter()-t)")
    out = subprocess.run([sys.executable, "-c", code, *([config] if config else [])], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def run_engine(name: str, workers: int, folder: Path, out: Path, config: str | None, python: str = sys.executable) -> dict:
    """One engine in a child process (its own fresh cache), timed from outside, memory sampled from every process it starts."""
    import psutil

    cache = Path(tempfile.mkdtemp(prefix="ck-batch-cache-"))
    env = {**os.environ, "CONFLICTKIT_CACHE_DIR": str(cache), "RAY_AUTH_MODE": "disabled"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed package runs: bytecode cached
    cmd = [python, "-m", "conflictkit", "batch", "--reference", str(TEMPLATE), str(folder), "--out", str(out),
           "--workers", str(workers), "--engine", name, *(["--config", config] if config else [])]
    started = time.perf_counter()
    # run outside the checkout: `python -m conflictkit` would otherwise import its source, not the install's
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cache)
    peaks: dict[int, tuple[str, int]] = {}  # pid -> (name, largest RSS seen)
    cpu: dict[int, float] = {}  # pid -> CPU seconds (user + system) at its last sample
    peak_pss = 0  # the largest sum of PSS over every process at one moment
    root = psutil.Process(proc.pid)
    while proc.poll() is None:
        total_pss = 0
        try:
            for p in [root, *root.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    memory = p.memory_full_info()
                    label = " ".join(p.cmdline()[:3])
                    peaks[p.pid] = (label, max(memory.rss, peaks.get(p.pid, ("", 0))[1]))
                    total_pss += getattr(memory, "pss", memory.rss)
                    times = p.cpu_times()
                    cpu[p.pid] = times.user + times.system
        except psutil.Error:
            pass
        peak_pss = max(peak_pss, total_pss)
        time.sleep(0.25)
    _, stderr = proc.communicate()
    elapsed = time.perf_counter() - started
    if proc.returncode not in (0, 3):
        raise SystemExit(f"{name} x{workers} failed ({proc.returncode}): {stderr[-2000:]}")
    summary = json.loads((out / "summary.json").read_text())
    # a worker is a process that ran comparisons: the pool's children, Ray's actors, or the CLI itself
    infrastructure = ("resource_tracker", "raylet", "gcs_server", "dashboard", "log_monitor", "monitor.py", "runtime_env")
    workers_rss = [rss for pid, (label, rss) in peaks.items()
                   if pid != proc.pid and not any(word in label for word in infrastructure)]
    per_worker = max(workers_rss) if workers_rss else peaks.get(proc.pid, ("", 0))[1]
    return {"engine": name, "workers": workers, "seconds": elapsed, "pairs": summary["totals"]["pairs"],
            "failed": summary["totals"]["failed"], "peak_rss_mb": per_worker / 2**20,
            "all_rss_mb": sum(rss for _, rss in peaks.values()) / 2**20, "pss_mb": peak_pss / 2**20, "out": out,
            "cpu": sum(cpu.values()), "busiest_cpu": max(cpu.values(), default=0.0)}


def idle_seconds(run: dict, cores: int) -> float:
    """What the run's wall time would be on an idle machine with ``cores`` cores, from its processes' CPU
    times: no less than its busiest process's CPU time, nor than all its CPU time spread over the cores.
    An estimate (it ignores waits for one another), for a machine too loaded to measure it on."""
    return max(run["busiest_cpu"], run["cpu"] / max(1, min(cores, run["workers"] + 1)))


def findings_of(out: Path) -> dict[str, list]:
    found = {}
    for row in json.loads((out / "summary.json").read_text())["pairs"]:
        report = json.loads((out / row["folder"] / "report.json").read_text())
        found[row["folder"]] = [(f["kind"], f["p_conflict"], f["reference"] and f["reference"]["start"],
                                 f["input"] and f["input"]["start"]) for f in report["findings"]]
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--config", default=None, help="preset or file (default: the offline preset)")
    parser.add_argument("--engines", default="local:1,local:2,ray:2")
    parser.add_argument("--rounds", type=int, default=1, help="repeat the engines, interleaved; medians are reported")
    parser.add_argument("--python", action="append", default=[], metavar="LABEL=PATH",
                        help="also run under another install (default: this interpreter only)")
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/batch.md"))
    args = parser.parse_args()
    if not TEMPLATE.is_file():
        raise SystemExit(f"needs the Common Paper agreements under {CORPUS}")
    pythons = [tuple(p.split("=", 1)) for p in args.python] or [("this install", sys.executable)]
    work = Path(tempfile.mkdtemp(prefix="ck-batch-bench-"))
    folder = work / "portfolio"
    folder.mkdir()
    build_portfolio(folder, args.pairs)
    load = warm_up_seconds(args.config)
    loads = [os.getloadavg()[0]]
    specs = [(label, python, spec.split(":")[0], int(spec.split(":")[1])) for label, python in pythons
             for spec in args.engines.split(",")]
    runs: dict[tuple, list[dict]] = {key: [] for key in specs}
    for round_ in range(args.rounds):
        for key in specs if round_ % 2 == 0 else list(reversed(specs)):  # alternate the order: drift hits all alike
            label, python, name, workers = key
            out = work / f"out-{len(runs[key])}-{label}-{name}-{workers}".replace(" ", "_")
            runs[key].append(run_engine(name, workers, folder, out, args.config, python))
            loads.append(os.getloadavg()[0])
            print(f"{label} {name}:{workers}: {runs[key][-1]['seconds']:.1f} s", file=sys.stderr)
    identical = {}  # per install: every run of every engine gives the findings of its first run
    for label, _ in pythons:
        outs = [r["out"] for key, rows in runs.items() if key[0] == label for r in rows]
        identical[label] = all(findings_of(out) == findings_of(outs[0]) for out in outs[1:])

    def median(rows: list[dict], key: str) -> float:
        return statistics.median(r[key] for r in rows)

    lines = [
        "# Batch: one template against a portfolio",
        "",
        f"Command: `python benchmarks/batch_bench.py --pairs {args.pairs}{f' --config {args.config}' if args.config else ''} "
        f"--engines {args.engines} --rounds {args.rounds}{''.join(f' --python {p}' for p in args.python)}` "
        f"(config: {args.config or 'offline default'}); template CSA 2.1, {args.pairs} variants of CSA 1.0-2.1 with 2-4 "
        "seeded edits each; a fresh cache per run (cold).",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; shared with other "
        f"sessions, load average {min(loads):.1f}-{max(loads):.1f} during the runs: compare the rows as ratios.",
        "",
        "| install | engine | workers | pairs | failed | wall s (median) | pairs/min | vs 1 worker | CPU s, all / busiest process "
        "| idle estimate vs 1 worker | peak RSS per worker (MB) | peak PSS, every process (MB) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    cores = os.cpu_count() or 1
    for (label, _, name, workers), rows in runs.items():
        one = runs.get((label, _, name, 1)) or rows
        rate = 60 * rows[0]["pairs"] / median(rows, "seconds")
        base = 60 * one[0]["pairs"] / median(one, "seconds")
        seconds = ", ".join(f"{r['seconds']:.1f}" for r in rows)
        idle = statistics.median(idle_seconds(r, cores) for r in one) / statistics.median(idle_seconds(r, cores) for r in rows)
        lines.append(f"| {label} | {name} | {workers} | {rows[0]['pairs']} | {rows[0]['failed']} | {median(rows, 'seconds'):.1f} "
                     f"({seconds}) | {rate:.1f} | {rate / base:.2f}x | {median(rows, 'cpu'):.1f} / {median(rows, 'busiest_cpu'):.1f} "
                     f"| {idle:.2f}x | {median(rows, 'peak_rss_mb'):.0f} | {median(rows, 'pss_mb'):.0f} |")
    lines += [
        "",
        f"Model load (a fresh process's `Engine.warm_up()`): {load:.2f} s.",
        "Identical findings (kind, P(conflict), both spans) for every pair in every run, engine and worker count: "
        + "; ".join(f"{label} **{'yes' if same else 'NO'}**" for label, same in identical.items()) + ".",
        "",
        f"The idle estimate is the 1-worker run's wall time on an idle {cores}-core machine over this run's, each taken",
        "as its busiest process's CPU seconds or all its CPU seconds spread over the cores, whichever is larger",
        "(`idle_seconds`): an estimate for a machine too loaded to measure the speed-up on, since a process's wall time",
        "there is mostly waiting for a core.",
        "",
        "RSS is sampled every 0.25 s from every process the run starts: per worker is the largest pool worker or Ray",
        "actor (the CLI itself for one in-process worker). PSS (proportional set size) splits each shared page among",
        "the processes that map it, so their sum is what the run holds in memory, pages shared by forked workers counted",
        "once; the column is the largest such sum seen.",
    ]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
