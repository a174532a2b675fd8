"""Grounding throughput: verify 1,000 extractions against a 1 MB document.

The document is real agreement text from ../shared/corpus (Common Paper, Bonterms, OpenAgreements,
permissive licenses, then Basecamp policy versions until it reaches the size), or the project's
samples repeated when the corpus is absent. The extractions are sentences of it, mixed as
grounded (with and without offsets), offset mismatches (shifted 1-40 characters) and not found
(a negator dropped or added, or a number changed). Fixed seed: the same mix on every run.

    .venv/bin/python benchmarks/grounding_bench.py [--size 1000000] [--n 1000] [--out benchmarks/results/grounding.md]

Compared: the Verifier (normalize and index once), a str.find scan of the normalized text per
quote (no word index), and verify_extraction per quote (normalizes the document every time,
timed on a sample and scaled).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conflictkit.grounding import Verifier, verify_extraction
from conflictkit.normalize import normalize

CORPUS = ROOT.parent / "shared" / "corpus"
SENTENCE = re.compile(r"(?<!\w)[A-Z][^.\r\n]{30,300}\.")
# Copyleft license texts say "changing it is not allowed": left out, since quotes get perturbed.
COPYLEFT = re.compile(r"gpl|gfdl", re.IGNORECASE)


def source_files() -> list[Path]:
    groups = [sorted((CORPUS / "commonpaper").glob("*/*.md")), sorted((CORPUS / "bonterms").glob("*_v*.md")),
              sorted((CORPUS / "openagreements").rglob("*.md")),
              [p for p in sorted((CORPUS / "licenses").glob("*.txt")) if not COPYLEFT.search(p.name)],
              sorted((CORPUS / "basecamp").rglob("*.md"))]
    files = [p for group in groups for p in group]
    return files or sorted((ROOT / "samples").glob("*.md")) + sorted((ROOT / "samples").glob("*.txt"))


def build_document(size: int) -> tuple[str, str]:
    files = source_files()
    if not files:
        sys.exit("no ../shared/corpus and no samples/: nothing to build a document from")
    parts, total, k = [], 0, 0
    while total < size:
        path = files[k % len(files)]
        text = f"\n\n## Part {k + 1}\n\n" + path.read_bytes().decode("utf-8")
        parts.append(text)
        total += len(text.encode("utf-8"))
        k += 1
    origin = "../shared/corpus" if files[0].is_relative_to(CORPUS) else "samples/"
    return "".join(parts), f"{k} files from {origin}"


def make_extractions(doc: str, n: int, rng: random.Random) -> list[dict]:
    spans = [m.span() for m in SENTENCE.finditer(doc) if m.group().count(" ") >= 3]
    out = []
    for k in range(n):
        start, end = rng.choice(spans)
        quote = doc[start:end]
        kind = ("grounded", "grounded", "grounded", "no-offsets", "mismatch", "mismatch", "flip", "flip")[k % 8]
        if kind == "mismatch":
            shift = rng.choice([-1, 1]) * rng.randint(1, 40)
            start, end = max(0, start + shift), min(len(doc), end + shift)
        elif kind == "flip":
            quote = flip(quote, rng)
        item = {"label": f"{kind}-{k}", "quote": quote}
        if kind != "no-offsets":
            item.update(start=start, end=end)
        out.append(item)
    return out


def flip(quote: str, rng: random.Random) -> str:
    """Drop a negator, change a number, or add "not" after a modal or at a space."""
    m = re.search(r" (not|no|never) ", quote)
    if m:
        return quote[: m.start()] + quote[m.end() - 1 :]
    m = re.search(r"\d+", quote)
    if m:
        return quote[: m.start()] + str(int(m.group()) + 7) + quote[m.end() :]
    spaces = [i for i, c in enumerate(quote) if c == " "]
    i = rng.choice(spaces)
    return quote[: i + 1] + "not " + quote[i + 1 :]


def timed(fn, repeat: int) -> tuple[float, float, object]:
    """Median wall-clock and CPU seconds of ``repeat`` calls (CPU time is steadier on a shared box)."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        result = fn()
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - w)
    return statistics.median(walls), statistics.median(cpus), result


def verify_all(verifier: Verifier, items: list[dict]) -> list:
    return [verifier.verify(i["quote"], start=i.get("start"), end=i.get("end"), label=i["label"]) for i in items]


def scan_all(text: str, quotes: list[str]) -> int:
    """Baseline lookup: one str.find scan of the whole normalized text per quote."""
    found = 0
    for q in quotes:
        p = text.find(q)
        while p != -1:
            found += 1
            p = text.find(q, p + 1)
    return found


def index_all(verifier: Verifier, quotes: list[str]) -> int:
    """The Verifier's lookup: the places where each quote's rarest word occurs (word-bounded)."""
    return sum(len(verifier.index.find(q)) for q in quotes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000, help="document size in bytes (UTF-8)")
    parser.add_argument("--n", type=int, default=1000, help="number of extractions")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, help="also write the Markdown table here")
    args = parser.parse_args()

    load = os.getloadavg()[0]
    doc, origin = build_document(args.size)
    items = make_extractions(doc, args.n, random.Random(20261129))
    n = len(items)
    norm = timed(lambda: Verifier(doc), args.repeat)
    verifier = norm[2]
    index = timed(lambda: Verifier(doc).index, args.repeat)
    _ = verifier.index
    check = timed(lambda: verify_all(verifier, items), args.repeat)
    quotes = [normalize(i["quote"], flatten=True).text.strip(" ") for i in items]
    scan = timed(lambda: scan_all(verifier.text, quotes), args.repeat)
    lookup = timed(lambda: index_all(verifier, quotes), args.repeat)
    sample = items[:5]
    naive = timed(lambda: [verify_extraction(doc, i["quote"], start=i.get("start"), end=i.get("end")) for i in sample], 1)
    tracemalloc.start()
    _ = Verifier(doc).index
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    counts = Counter(r.status for r in check[2])
    per_status = status_times(verifier, items, check[2])

    def row(what: str, t: tuple, per: int | None = None) -> str:
        rate = f"{per / t[1]:,.0f} /s" if per else ""
        return f"| {what} | {t[1] * 1000:,.0f} ms | {t[0] * 1000:,.0f} ms | {rate} |"

    lines = [
        "# Grounding throughput",
        "",
        (f"Document: {len(doc.encode('utf-8')):,} bytes, {len(doc):,} characters ({origin}); "
        f"{n:,} extractions; median of {args.repeat} runs."),
        "Results: " + ", ".join(f"{c} {s}" for s, c in sorted(counts.items())) + ".",
        "",
        "| step | CPU time | wall time | throughput (CPU) |",
        "|---|---:|---:|---:|",
        row("`Verifier(doc)`: normalize the document (once)", norm),
        row("word index of the normalized text (once, on first lookup)",
            (index[0] - norm[0], index[1] - norm[1])),
        row(f"verify {n:,} extractions (index built)", check, n),
        row(f"lookup only, {n:,} normalized quotes: word index (what the Verifier does)", lookup, n),
        row(f"lookup only, {n:,} normalized quotes: `str.find` scan of the whole text per quote", scan, n),
        (f"| `verify_extraction` per quote (normalizes the document every call; {len(sample)} timed, "
        f"scaled to {n:,}) | {naive[1] / len(sample) * n:,.0f} s | {naive[0] / len(sample) * n:,.0f} s | "
        f"{len(sample) / naive[1]:,.1f} /s |"),
        "",
        "Mean CPU time per extraction by status (index built): " + ", ".join(
            f"{s} {v * 1e6:,.0f} µs" for s, v in sorted(per_status.items())) + ".",
        f"Peak Python memory of normalize + index: {peak / 2**20:.0f} MiB (tracemalloc).",
        "",
        (f"Machine: {os.cpu_count()} cores ({cpu_name()}), Python {platform.python_version()}, "
        f"{platform.system()}; shared with other jobs (1-minute load average {load:.1f} at start), "
        "so wall time runs above CPU time."),
        (f"Command: `.venv/bin/python benchmarks/grounding_bench.py --size {args.size} --n {args.n} "
        f"--repeat {args.repeat} --out benchmarks/results/grounding.md`"),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        tmp = args.out.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(args.out)


def status_times(verifier: Verifier, items: list[dict], results: list) -> dict[str, float]:
    spent: dict[str, list[float]] = {}
    for item, result in zip(items, results):
        t = time.process_time()
        verifier.verify(item["quote"], start=item.get("start"), end=item.get("end"))
        spent.setdefault(result.status, []).append(time.process_time() - t)
    return {s: statistics.mean(v) for s, v in spent.items()}


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    main()
