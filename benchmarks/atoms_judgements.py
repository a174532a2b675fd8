"""Dump every judgement the legal-atoms judge makes on the bench sets, one JSON line each, to diff two versions.

    python benchmarks/atoms_judgements.py > before.jsonl   # (on the old code)
    python benchmarks/atoms_judgements.py > after.jsonl
    cmp before.jsonl after.jsonl

A speed-up of the judge must change no judgement: the probabilities, signals and reasons of every
pair of the clause-pair splits and of every document pair (judged through the ``fast`` pipeline, or
``--config``, so retrieval pairs the clauses as a real comparison does) are printed exactly, in a fixed order.
Document pairs that need the third-party corpus are skipped when it is absent (``CONFLICTKIT_CORPUS``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATASETS = ["clause-pairs/tune.jsonl", "clause-pairs/report.jsonl", "documents/edits/edits.yaml",
            "documents/samples.yaml", "documents/corpus.yaml"]


def main(argv: list[str] | None = None) -> None:
    from conflictkit.bench.datasets import ClausePairDataset, load_dataset
    from conflictkit.config import load_config
    from conflictkit.engine import Engine

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="*", default=[str(ROOT / "benchmarks" / "data" / d) for d in DATASETS])
    parser.add_argument("--config", default="fast", help="the pipeline that pairs the document clauses (a preset or a file)")
    parser.add_argument("--generated", type=int, default=600, help="also judge this many generated clauses, each with 3 inputs")
    args = parser.parse_args(argv)
    engine = Engine(load_config(args.config))
    _generated(args.generated)
    for path in args.datasets:
        dataset = load_dataset(path)
        if isinstance(dataset, ClausePairDataset):
            judged = zip([p.id for p in dataset.pairs], engine.judge_texts([(p.reference, p.input) for p in dataset.pairs]))
            for pair_id, j in judged:
                print(json.dumps({"dataset": dataset.name, "pair": pair_id, **j.model_dump(mode="json")}, sort_keys=True))
            continue
        for pair in dataset.pairs:
            for j in engine.compare(str(pair.reference), str(pair.input)).judgements:
                print(json.dumps({"dataset": dataset.name, "pair": pair.id, **j.model_dump(mode="json")}, sort_keys=True))


def _generated(clauses: int) -> None:
    """The throughput benchmark's workload: generated clauses, each paired with three inputs."""
    from conflictkit.judges.atoms.judge import LegalAtomsJudge
    from conflictkit.judges.atoms.throughput import _indexed, generate
    from conflictkit.model import CandidatePair
    from conflictkit.stages import Comparison

    if clauses <= 0:
        return
    pairs = generate(clauses)
    comparison = Comparison(reference=_indexed([a for a, _ in pairs], "r"), input=_indexed([b for _, b in pairs], "i"))
    candidates = [CandidatePair(reference_id=f"r{k}", input_id=f"i{(k + d) % clauses}", similarity=0.8)
                  for k in range(clauses) for d in range(3)]
    for j in LegalAtomsJudge().judge(candidates, comparison):
        print(json.dumps({"dataset": "generated", **j.model_dump(mode="json")}, sort_keys=True))


if __name__ == "__main__":
    main()
