"""Loading ~50-page DOCX and PDF contracts: seconds, and their share of the whole comparison.

    python benchmarks/loaders_bench.py [--pages 50] [--repeat 3] [--config fast,offline]

Builds a long reference and input by repeating samples/reference-saas-agreement.md and
samples/input-vendor-draft.md with their sections renumbered, typesets them as DOCX
(conflictkit_docx.testing, automatic numbering) and one-column PDF (conflictkit_pdf.testing,
running header and footer) and as Markdown, then times, side by side in one run and best of
``--repeat``: loading each file (read_document: parse + extract + normalize), and the whole
comparison (``Engine.compare``: load both, index, judge, report; no cache; models warmed up first).
Prints a Markdown table; figures go to benchmarks/results/loaders.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import tempfile
import time
from functools import partial
from pathlib import Path

from conflictkit_docx.testing import markdown_to_docx
from conflictkit_pdf.testing import markdown_to_pdf

from conflictkit.config import load_config, resolve
from conflictkit.engine import Engine
from conflictkit.loaders import read_document

ROOT = Path(__file__).resolve().parent.parent
FAST = {"pipeline": {"segmenter": {"use": "rules"}, "filter": {"use": "rules"}, "embedder": {"use": "hashing"},
                     "retriever": {"use": "cosine", "options": {"top_k": 3, "min_relevance": 0.2}},
                     "judge": {"use": "legal-atoms"}}}


def renumbered(markdown: str, offset: int) -> str:
    """The document with every top-level section number moved up by ``offset`` ("## 3." -> "## 17.", "3.2" -> "17.2")."""
    text = re.sub(r"(?m)^(## )(\d+)\.", lambda m: f"{m.group(1)}{int(m.group(2)) + offset}.", markdown)
    return re.sub(r"(?m)^(\d+)\.(\d+) ", lambda m: f"{int(m.group(1)) + offset}.{m.group(2)} ", text)


def long_version(path: Path, copies: int) -> str:
    markdown = path.read_text(encoding="utf-8")
    sections = len(re.findall(r"(?m)^## \d+\.", markdown))
    return "\n\n".join(renumbered(markdown, i * sections) for i in range(copies))


def best(repeat: int, fn):
    """(wall seconds, CPU seconds of this process, value) of the fastest of ``repeat`` runs."""
    runs, value = [], None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        value = fn()
        runs.append((time.perf_counter() - wall, time.process_time() - cpu))
    wall, cpu = min(runs)
    return wall, cpu, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--config", default="fast,offline", help="comma-separated: fast (hashing embedder) and/or a preset")
    parser.add_argument("--repeat-whole", type=int, default=None, help="repeats of the whole comparison (default: --repeat)")
    args = parser.parse_args()
    probe_copies = 4  # pages per copy measured on a few copies: one alone rounds badly
    probe = markdown_to_pdf(long_version(ROOT / "samples" / "reference-saas-agreement.md", probe_copies), columns=1)
    with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
        file.write(probe)
        file.flush()
        pages_per_copy = read_document(file.name).source.details["pages"] / probe_copies
    copies = max(1, round(args.pages / pages_per_copy))
    work = Path(tempfile.mkdtemp(prefix="ck-loaders-bench-"))
    files: dict[str, tuple[Path, Path]] = {}
    for fmt in ("md", "docx", "pdf"):
        pair = []
        for sample in ("reference-saas-agreement", "input-vendor-draft"):
            markdown = long_version(ROOT / "samples" / f"{sample}.md", copies)
            path = work / f"{sample}.{fmt}"
            if fmt == "md":
                path.write_text(markdown, encoding="utf-8")
            elif fmt == "docx":
                path.write_bytes(markdown_to_docx(markdown))
            else:
                path.write_bytes(markdown_to_pdf(markdown, columns=1))
            pair.append(path)
        files[fmt] = (pair[0], pair[1])
    pages = read_document(files["pdf"][0]).source.details["pages"]
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{copies} copies of each sample: the PDF reference has {pages} pages, "
          f"{files['docx'][0].stat().st_size / 1e3:.0f} kB as DOCX, {files['pdf'][0].stat().st_size / 1e3:.0f} kB as PDF")
    print()
    print("| config | format | load reference s (CPU s) | load input s (CPU s) | whole comparison s (CPU s) "
          "| loading share of CPU | findings |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name in args.config.split(","):
        config = resolve(FAST) if name == "fast" else load_config(name)
        engine = Engine(config)
        engine.warm_up()
        for fmt, (reference, input) in files.items():
            w_ref, c_ref, _ = best(args.repeat, partial(read_document, reference))
            w_inp, c_inp, _ = best(args.repeat, partial(read_document, input))
            w_all, c_all, result = best(args.repeat_whole or args.repeat, partial(engine.compare, str(reference), str(input)))
            findings = sum(result.report["summary"][k] for k in ("deviation", "missing", "added"))
            print(f"| {name} | {fmt} | {w_ref:.3f} ({c_ref:.3f}) | {w_inp:.3f} ({c_inp:.3f}) | {w_all:.2f} ({c_all:.2f}) "
                  f"| {(c_ref + c_inp) / c_all:.0%} | {findings} |")

if __name__ == "__main__":
    main()
