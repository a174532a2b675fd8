"""Issue 28's target: with an LLM tier that answers CONTRADICTION to everything, the cascade's false-positive
rate on the paraphrase and format pairs is no higher than the rules judge's (the whole table, for every split:
benchmarks/cascade_contract.py -> benchmarks/results/cascade-contract.md)."""

from pathlib import Path

import pytest

from conflictkit.bench.contract import Variant, false_positive_rate, measure
from conflictkit.bench.datasets import ClausePairDataset, load_clause_pairs

pytestmark = [pytest.mark.slow]
PAIRS = Path(__file__).resolve().parents[3] / "benchmarks/data/clause-pairs/report.jsonl"
TARGET = ("paraphrase", "format")


def test_a_poor_llm_tier_adds_no_false_positive_on_paraphrase_and_format():
    split = load_clause_pairs(PAIRS)
    consistent = ClausePairDataset(name="report", path=split.path, pairs=[p for p in split.pairs if p.category in TARGET])
    variants = [Variant("rules"), Variant("one word", {"judge": "contradiction", "quote": False}),
                Variant("quoting", {"judge": "contradiction", "quote": True}),
                Variant("before the contract", {"judge": "contradiction", "quote": False}, "free")]
    results = measure([consistent], variants)
    rules, _ = false_positive_rate(results["rules"]["report"], TARGET)
    assert false_positive_rate(results["one word"]["report"], TARGET)[0] <= rules
    assert false_positive_rate(results["quoting"]["report"], TARGET)[0] <= rules  # the probe catches it
    before, n = false_positive_rate(results["before the contract"]["report"], TARGET)
    assert before > n // 2  # the failure issue 28 saw, so the test can fail
