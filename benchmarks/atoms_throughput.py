"""Legal-atoms judge throughput, this checkout against an earlier commit, side by side in one run.

    python benchmarks/atoms_throughput.py --before 1788968 --clauses 3000 --top-k 1 3 --rounds 3

Both versions judge the same generated clauses (``conflictkit.judges.atoms.throughput.generate``)
through ``LegalAtomsJudge.judge`` with a cold extraction cache; each reference clause is paired with
``top-k`` input clauses, as retrieval pairs them, so a clause is in ``top-k`` pairs. The rounds
alternate between the versions so that the machine's load falls on both alike; the median is printed,
per wall-clock second and per CPU second (the fairer measure on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def worker(clauses: int, top_k: int) -> dict:
    """Run in a child process with the version under test first on sys.path."""
    from conflictkit.judges.atoms.extract import extract
    from conflictkit.judges.atoms.judge import LegalAtomsJudge
    from conflictkit.judges.atoms.throughput import _indexed, generate
    from conflictkit.model import CandidatePair
    from conflictkit.stages import Comparison

    pairs = generate(clauses)
    comparison = Comparison(reference=_indexed([a for a, _ in pairs], "r"), input=_indexed([b for _, b in pairs], "i"))
    candidates = [CandidatePair(reference_id=f"r{k}", input_id=f"i{(k + d) % clauses}", similarity=0.8)
                  for k in range(clauses) for d in range(top_k)]
    judge = LegalAtomsJudge()
    judge.warm_up()
    extract.cache_clear()
    start, cpu = time.perf_counter(), time.process_time()
    judge.judge(candidates, comparison)
    return {"pairs": len(candidates), "seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu}


def _checkout(rev: str, into: Path) -> Path:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "conflictkit"], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def _run(path: Path, clauses: int, top_k: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(path)}
    out = subprocess.run([sys.executable, __file__, "--worker", str(clauses), str(top_k)], env=env, cwd=tempfile.gettempdir(),
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="the commit to compare with (git rev)")
    parser.add_argument("--clauses", type=int, default=3000)
    parser.add_argument("--top-k", type=int, nargs="+", default=[1, 3])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--worker", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return
    if not args.before:
        parser.error("--before REV is required (the commit to compare with)")
    with tempfile.TemporaryDirectory() as tmp:
        versions = {f"before ({args.before})": _checkout(args.before, Path(tmp) / "before"), "after (this checkout)": ROOT}
        print(f"legal-atoms judge, {args.clauses} clauses a side, {args.rounds} alternating rounds, median; "
              f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
              f"load {os.getloadavg()[0]:.1f}\n")
        print("| top-k | pairs | " + " | ".join(f"{name} pairs/s (per CPU s)" for name in versions) + " | ratio (CPU) |")
        print("|---|---|" + "---|" * len(versions) + "---|")
        for k in args.top_k:
            wall: dict[str, list[float]] = {name: [] for name in versions}
            cpu: dict[str, list[float]] = {name: [] for name in versions}
            pairs = 0
            for _ in range(args.rounds):
                for name, path in versions.items():
                    r = _run(path, args.clauses, k)
                    pairs = r["pairs"]
                    wall[name].append(r["pairs"] / r["seconds"])
                    cpu[name].append(r["pairs"] / r["cpu"])
            w = [statistics.median(v) for v in wall.values()]
            c = [statistics.median(v) for v in cpu.values()]
            print(f"| {k} | {pairs} | " + " | ".join(f"{a:.0f} ({b:.0f})" for a, b in zip(w, c, strict=True))
                  + f" | {w[-1] / w[0]:.2f} ({c[-1] / c[0]:.2f}) |")


if __name__ == "__main__":
    main()
