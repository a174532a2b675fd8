"""Speed and output of the rules segmenter and rules filter on large and real documents.

    python benchmarks/segmenter_bench.py [--sizes 1,2,5] [--repeat 3] [--baseline SRC]

Builds documents of the given sizes (MB of UTF-8) by concatenating the corpus's .md files (read as
Markdown, ``bench.md``) and its .txt files (read as plain text, ``bench.txt``) from ../shared/corpus
(the samples/ documents when it is absent), then times loading (normalization), segmentation and
filtering separately, best of ``--repeat`` runs, and prints a Markdown table followed by clause
counts per corpus family. ``--baseline SRC`` also runs every measurement with the ``conflictkit``
package found in SRC (a checkout of an older commit), interleaved with this one's, so both sets of
figures come from the same machine under the same load. Figures go to benchmarks/results/segmenter.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path

from conflictkit.filters.rules import RulesFilter
from conflictkit.loaders import document_from_text
from conflictkit.segmenters.rules import RulesSegmenter

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CONFLICTKIT_CORPUS", ROOT.parent / "shared" / "corpus"))
FORMATS = {"md": ".md", "txt": ".txt"}


def sources(suffix: str) -> list[Path]:
    if CORPUS.is_dir():
        return sorted(p for p in CORPUS.rglob("*") if p.suffix == suffix and p.name != "MANIFEST.md")
    return sorted((ROOT / "samples").glob("*" + suffix))


def build(megabytes: float, files: list[Path]) -> str:
    parts, size, i = [], 0, 0
    while size < megabytes * 1_000_000:
        text = files[i % len(files)].read_text(encoding="utf-8-sig")
        parts.append(text)
        size += len(text.encode()) + 2
        i += 1
    return "\n\n".join(parts)


def best_of(repeat: int, fn):
    """(best wall seconds, best CPU seconds, result): CPU time is what a shared machine distorts least."""
    best, best_cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return best, best_cpu, result


def measure(size: float, fmt: str, repeat: int) -> dict:
    """One row: segmenting and filtering a document of ``size`` MB built from the corpus's ``fmt`` files."""
    text = build(size, sources(FORMATS[fmt]))
    segmenter, filt = RulesSegmenter(), RulesFilter()
    t_load, _, document = best_of(repeat, partial(document_from_text, text, f"bench.{fmt}"))
    t_seg, c_seg, clauses = best_of(repeat, partial(segmenter.segment, document))
    t_filter, c_filter, _ = best_of(repeat, partial(filt.flag, clauses))
    mb = len(text.encode()) / 1e6
    return {"format": fmt, "mb": mb, "clauses": len(clauses), "load": t_load, "segment": t_seg, "segment_cpu": c_seg,
            "filter": t_filter, "filter_cpu": c_filter}


def families() -> dict[str, dict]:
    """Clause counts, kinds and filter reasons per corpus family, each file read under its own name."""
    segmenter, filt = RulesSegmenter(), RulesFilter()
    out: dict[str, dict] = {}
    for path in sources(".md") + sources(".txt"):
        family = path.relative_to(CORPUS).parts[0] if CORPUS.is_dir() else "samples"
        row = out.setdefault(family, {"files": 0, "clauses": 0, "kinds": Counter(), "filtered": Counter()})
        clauses = segmenter.segment(document_from_text(path.read_text(encoding="utf-8-sig"), path.name))
        row["files"] += 1
        row["clauses"] += len(clauses)
        row["kinds"].update(c.kind for c in clauses)
        row["filtered"].update(r for r in filt.flag(clauses) if r)
    return out


def _in_baseline(src: str, *args: str) -> dict | list:
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run([sys.executable, __file__, *args], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _row(label: str, r: dict) -> str:
    return (f"| {label} | {r['format']} | {r['mb']:.1f} MB | {r['clauses']:,} | {r['load']:.2f} "
            f"| {r['segment']:.2f} ({r['segment_cpu']:.2f}) | {r['filter']:.2f} ({r['filter_cpu']:.2f}) "
            f"| {r['mb'] / r['segment_cpu']:.2f} |")


def _counts(counter: dict) -> str:
    return ", ".join(f"{k} {n}" for k, n in Counter(counter).most_common())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,5")
    parser.add_argument("--formats", default="md,txt")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", metavar="SRC", help="also measure the conflictkit package in SRC")
    parser.add_argument("--json", choices=("rows", "families"), help=argparse.SUPPRESS)  # the baseline's answer
    args = parser.parse_args()
    sizes = [float(s) for s in args.sizes.split(",")]
    formats = args.formats.split(",")
    if args.json == "rows":
        print(json.dumps([measure(size, fmt, args.repeat) for size in sizes for fmt in formats]))
        return
    if args.json == "families":
        print(json.dumps(families()))
        return
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print("\n| code | format | size | clauses | load+normalize s | segment s (CPU s) | filter s (CPU s) "
          "| segment MB per CPU s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        for fmt in formats:
            if args.baseline:
                base, = _in_baseline(args.baseline, "--json", "rows", "--sizes", str(size), "--formats", fmt,
                                     "--repeat", str(args.repeat))
                print(_row("baseline", base), flush=True)
            print(_row("this", measure(size, fmt, args.repeat)), flush=True)
    print(f"\npeak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    print("\n| corpus family | code | files | clauses | kinds | filtered |")
    print("|---|---|---:|---:|---|---|")
    base_families = _in_baseline(args.baseline, "--json", "families") if args.baseline else {}
    for family, row in sorted(families().items()):
        for label, r in (("baseline", base_families.get(family)), ("this", row)):
            if r is not None:
                print(f"| {family} | {label} | {r['files']} | {r['clauses']:,} | {_counts(r['kinds'])} "
                      f"| {_counts(r['filtered'])} |")


if __name__ == "__main__":
    main()
