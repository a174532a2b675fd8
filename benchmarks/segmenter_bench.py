"""Speed and output of the rules segmenter and rules filter on large and real documents.

    python benchmarks/segmenter_bench.py [--sizes 1,2,5] [--repeat 3]

Builds documents of the given sizes (MB of UTF-8) by concatenating the corpus's .md and .txt files
(../shared/corpus; the samples/ documents when it is absent), then times loading (normalization),
segmentation and filtering separately, best of ``--repeat`` runs, and prints a Markdown table
followed by clause counts per corpus family. Figures go to benchmarks/results/segmenter.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import time
from collections import Counter
from functools import partial
from pathlib import Path

from conflictkit.filters.rules import RulesFilter
from conflictkit.loaders import document_from_text
from conflictkit.segmenters.rules import RulesSegmenter

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"


def sources() -> list[Path]:
    if CORPUS.is_dir():
        return sorted(p for p in CORPUS.rglob("*") if p.suffix in (".md", ".txt") and p.name != "MANIFEST.md")
    return sorted((ROOT / "samples").glob("*.md")) + sorted((ROOT / "samples").glob("*.txt"))


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,5")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    files = sources()
    segmenter, filt = RulesSegmenter(), RulesFilter()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print("\n| size | clauses | load+normalize s | segment s (CPU s) | filter s (CPU s) | segment MB per CPU s |")
    print("|---:|---:|---:|---:|---:|---:|")
    for size in (float(s) for s in args.sizes.split(",")):
        text = build(size, files)
        t_load, _, document = best_of(args.repeat, partial(document_from_text, text))
        t_seg, c_seg, clauses = best_of(args.repeat, partial(segmenter.segment, document))
        t_filter, c_filter, _ = best_of(args.repeat, partial(filt.flag, clauses))
        mb = len(text.encode()) / 1e6
        print(f"| {mb:.1f} MB | {len(clauses):,} | {t_load:.2f} | {t_seg:.2f} ({c_seg:.2f}) "
              f"| {t_filter:.2f} ({c_filter:.2f}) | {mb / c_seg:.2f} |")
    print(f"\npeak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    print("\n| corpus family | files | clauses | kinds | filtered |")
    print("|---|---:|---:|---|---|")
    families: dict[str, list[Path]] = {}
    for path in files:
        family = path.relative_to(CORPUS).parts[0] if CORPUS.is_dir() else "samples"
        families.setdefault(family, []).append(path)
    for family, paths in sorted(families.items()):
        kinds, reasons, total = Counter(), Counter(), 0
        for path in paths:
            clauses = segmenter.segment(document_from_text(path.read_text(encoding="utf-8-sig")))
            total += len(clauses)
            kinds.update(c.kind for c in clauses)
            reasons.update(r for r in filt.flag(clauses) if r)
        kinds_text = ", ".join(f"{k} {n}" for k, n in kinds.most_common())
        reasons_text = ", ".join(f"{k} {n}" for k, n in reasons.most_common())
        print(f"| {family} | {len(paths)} | {total:,} | {kinds_text} | {reasons_text} |")


if __name__ == "__main__":
    main()
