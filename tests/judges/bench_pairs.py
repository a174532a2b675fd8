"""The hand-written clause pairs of the bench splits, for judge tests that need realistic clause text."""

from __future__ import annotations

import json
from pathlib import Path

PAIRS_DIR = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "clause-pairs"
TUNED_SPLITS = ("tune.jsonl", "report.jsonl")


def bench_pairs(splits: tuple[str, ...] = TUNED_SPLITS) -> list[dict]:
    """Every pair of ``splits`` (file names in the clause-pair folder), in file order."""
    return [json.loads(line) for name in splits
            for line in (PAIRS_DIR / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def bench_texts_lower(splits: tuple[str, ...] = TUNED_SPLITS) -> list[str]:
    """Both clauses of every pair, lower-cased as the judge's patterns read them."""
    return [text.lower() for pair in bench_pairs(splits) for text in (pair["reference"], pair["input"])]
