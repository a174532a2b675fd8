"""ONNX Runtime's intra-op threads and spinning, measured on this machine as found and with extra load.

    python benchmarks/onnx_threads.py [--rounds 5] [--load 2] [--out benchmarks/results/onnx-threads.md]

Texts: the unsettled clause texts of the ~50-page pair (what a cold compare could embed; see
``onnx_batching.py``), embedded by the bundled int8 MiniLM through ``OnnxEmbedder`` in its default
batches. Variants: ONNX Runtime's own choice (one thread per physical core, spinning on), and 1 or
2 intra-op threads with spinning on or off. Each variant runs in its own fresh process (model load
excluded from the timing), rounds interleaved; wall seconds and the process's CPU seconds (every
thread's, so a spinning pool shows) are reported as medians. Two conditions: the machine as found
(other sessions' work included: the load average is printed), then with ``--load`` extra busy
processes (pure Python loops, one per core by default) started by this script for the length of
the run, which is what a worker sharing the machine with other workers sees.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = {
    "ONNX Runtime's default (a thread per core, spinning)": {"threads": None, "spinning": True},
    "1 thread (conflictkit's default)": {"threads": 1, "spinning": False},
    "2 threads, spinning": {"threads": 2, "spinning": True},
    "2 threads, no spinning": {"threads": 2, "spinning": False},
}

_CHILD = """
import json, sys, time
from conflictkit_onnx.embedder import OnnxEmbedder
options, texts = json.loads(sys.argv[1]), json.load(open(sys.argv[2]))
embedder = OnnxEmbedder(options)
embedder.warm_up()
embedder.embed(texts[:8])
wall, cpu = time.perf_counter(), time.process_time()
embedder.embed(texts)
print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu]))
"""


def _busy(stop_at: float) -> None:
    while time.time() < stop_at:
        sum(i * i for i in range(10_000))


def measure(texts_file: Path, rounds: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds per variant, rounds interleaved, each run a fresh process."""
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in VARIANTS}
    for _ in range(rounds):
        for name, options in VARIANTS.items():
            done = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(options), str(texts_file)],
                                  capture_output=True, text=True, check=True)
            runs[name].append(tuple(json.loads(done.stdout.strip().splitlines()[-1])))
    return {name: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r)) for name, r in runs.items()}


def main() -> None:
    from onnx_batching import texts_of_fifty_pages

    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--load", type=int, default=os.cpu_count() or 1, help="busy processes for the loaded condition")
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/onnx-threads.md"))
    args = parser.parse_args()
    _, unsettled = texts_of_fifty_pages()
    texts_file = Path(os.environ.get("TMPDIR", "/tmp")) / f"ck-onnx-threads-{os.getpid()}.json"
    texts_file.write_text(json.dumps(unsettled))
    conditions = []
    load_found = os.getloadavg()[0]
    found = measure(texts_file, args.rounds)
    conditions.append((f"as found (load average {load_found:.1f} before, {os.getloadavg()[0]:.1f} after)", found))
    stop_at = time.time() + 3600
    busy = [multiprocessing.Process(target=_busy, args=(stop_at,), daemon=True) for _ in range(args.load)]
    for process in busy:
        process.start()
    try:
        time.sleep(2)
        load_before = os.getloadavg()[0]
        loaded = measure(texts_file, args.rounds)
        conditions.append((f"{args.load} extra busy processes (load average {load_before:.1f} before, "
                           f"{os.getloadavg()[0]:.1f} after)", loaded))
    finally:
        for process in busy:
            process.terminate()
        texts_file.unlink()
    lines = [
        "# ONNX Runtime intra-op threads and spinning",
        "",
        f"Command: `python benchmarks/onnx_threads.py --rounds {args.rounds} --load {args.load}`. Machine: "
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; shared with other sessions.",
        f"Texts: the {len(unsettled)} unsettled clause texts of the ~50-page pair, bundled int8 MiniLM, default batches;",
        "each variant a fresh process, model load excluded, medians of interleaved rounds. CPU s counts every",
        "thread of the process (a spinning pool burns CPU while it waits).",
        "",
    ]
    for label, results in conditions:
        base_wall = results["1 thread (conflictkit's default)"][0]
        lines += [f"## {label}", "", "| variant | wall s | CPU s | wall vs 1 thread |", "|---|---|---|---|"]
        lines += [f"| {name} | {wall:.2f} | {cpu:.2f} | {wall / base_wall:.2f}x |" for name, (wall, cpu) in results.items()]
        lines.append("")
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
