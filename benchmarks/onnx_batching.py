"""ONNX embedder throughput by batch size and thread count, on the clauses a cold compare embeds.

    python benchmarks/onnx_batching.py [--rounds 5]

Texts: the distinct operative clause texts of the ~50-page pair of ``default_targets.py`` (read
from the corpus), all of them and the unsettled ones only (what a compare embeds since identical
pairs are settled before retrieval). Each variant is the bundled int8 MiniLM through
``OnnxEmbedder`` with its options; rounds are interleaved, the best round is reported, and the
vectors are compared with those of the default options (a text's vector must not depend on the
batch it is embedded in).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from default_targets import fifty_pages

VARIANTS = {
    "batch 1": {"batch_size": 1},
    "batch 2": {"batch_size": 2},
    "batch 4 (default)": {},
    "batch 8": {"batch_size": 8},
    "batch 16": {"batch_size": 16},
    f"batch 4, {os.cpu_count()} threads": {"threads": os.cpu_count()},
}


def texts_of_fifty_pages() -> tuple[list[str], list[str]]:
    """(every distinct operative clause text, the unsettled ones) of the ~50-page pair."""
    from conflictkit.config import load_config
    from conflictkit.engine import Engine
    from conflictkit.identical import identical_pairs, unsettled
    from conflictkit.loaders import read_document
    from conflictkit.model import IndexedDocument
    from conflictkit.retrievers.cosine import operative_indices

    engine = Engine(load_config("offline"))
    docs = [read_document(str(p), 10**8) for p in fifty_pages(Path(tempfile.mkdtemp(prefix="ck-batching-")))]
    ref, inp = (IndexedDocument(document=d, clauses=engine.clauses(d)) for d in docs)
    every = list(dict.fromkeys(d.clauses[i].text for d in (ref, inp) for i in operative_indices(d)))
    exact = identical_pairs(ref, inp)
    open_ = unsettled(ref, {r for r, _ in exact}).clauses + unsettled(inp, {i for _, i in exact}).clauses
    return every, list(dict.fromkeys(c.text for c in open_))


def main() -> None:
    from conflictkit_onnx.embedder import OnnxEmbedder

    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    every, open_ = texts_of_fifty_pages()
    embedders = {name: OnnxEmbedder(options) for name, options in VARIANTS.items()}
    for embedder in embedders.values():
        embedder.warm_up()
    rows = []
    for label, texts in (("unsettled", open_), ("all operative", every)):
        reference = embedders["batch 4 (default)"].embed(texts)
        best = dict.fromkeys(embedders, float("inf"))
        closest = {}
        for _ in range(args.rounds):
            for name, embedder in embedders.items():
                started = time.perf_counter()
                vectors = embedder.embed(texts)
                best[name] = min(best[name], time.perf_counter() - started)
                closest[name] = float((vectors * reference).sum(axis=1).min())
        for name in embedders:
            rows.append(f"| {label} ({len(texts)} texts) | {name} | {len(texts) / best[name]:.0f} | {best[name]:.2f} | {closest[name]:.4f} |")
    print(f"Command: `python benchmarks/onnx_batching.py --rounds {args.rounds}`. Machine: {platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}; load average at the end "
          f"{os.getloadavg()[0]:.1f}.\n")
    print("| texts | options | clauses/s (best round) | s | min cosine to the default's vectors |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
