"""The harness end to end on tiny datasets with the hashing embedder and the line-diff baseline."""

import pytest

from conflictkit.bench import harness
from conflictkit.bench.datasets import load_dataset
from conflictkit.store import Store


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "bench.sqlite")


def with_conflict(config, value):
    return config.model_copy(update={"thresholds": config.thresholds.model_copy(update={"conflict": value})})


def test_clause_pairs_metrics_and_cache(line_diff_config, toy_jsonl, store):
    dataset = load_dataset(toy_jsonl)
    first = harness.run([harness.bench_config_of("diff", line_diff_config)], [dataset], store)
    [run] = first["runs"]
    assert run["judge_calls"] == 80 and run["cached"] == 0 and run["pairs_per_s"] > 0
    # a line diff flags every change: all conflicts found, and every one-character edit is a false positive
    assert run["categories"]["negation"]["value"] == 1.0
    assert run["categories"]["format"]["value"] == 1.0
    assert run["roc_auc"] == 1.0  # but its score does separate small edits from rewrites
    assert len(run["failures"]) == 40 and {f["category"] for f in run["failures"]} == {"format"}

    # only the threshold changed: every judgement comes from the cache, the metrics are recomputed
    second = harness.run([harness.bench_config_of("diff", with_conflict(line_diff_config, 0.8))], [dataset], store, sweep=True)
    [again] = second["runs"]
    assert again["judge_calls"] == 0 and again["cached"] == 80
    assert again["categories"]["format"]["value"] == 0.0 and again["at_threshold"]["f1"] == 1.0
    assert again["judge_seconds"] == run["judge_seconds"]  # timings travel with the cached judgements
    assert [row["threshold"] for row in again["sweep"]] == harness.SWEEP


def test_disabled_store_judges_again(line_diff_config, toy_jsonl):
    dataset = load_dataset(toy_jsonl)
    for _ in range(2):
        [run] = harness.run([harness.bench_config_of("diff", line_diff_config)], [dataset], Store.disabled())["runs"]
        assert run["judge_calls"] == 80


def test_document_pairs_by_span_overlap(fast_config, doc_manifest, store):
    dataset = load_dataset(doc_manifest)
    result = harness.run([harness.bench_config_of("fast", fast_config)], [dataset], store, sweep=True)
    [run] = result["runs"]
    [pair] = run["per_pair"]
    assert run["kind"] == "document-pairs" and run["judged_pairs"] > 0
    assert pair["matched"]["expected"] == [0, 1], pair  # the number change and the new audit clause
    assert run["findings"]["deviation"]["recall"] == 1.0 and run["findings"]["added"]["recall"] == 1.0
    assert pair["consistent_flagged"] == []
    assert len(run["sweep"]) == len(harness.SWEEP)


def test_bench_config_skips_missing_backend_and_strips_bench_section(tmp_path):
    path = tmp_path / "nli.yaml"
    path.write_text("bench: {name: nli-alone, smoke: true}\npipeline:\n  judge: {use: no-such-judge}\n", encoding="utf-8")
    entry = harness.load_bench_config(path)
    assert entry.name == "nli-alone" and entry.smoke and entry.config is None
    assert "no-such-judge" in entry.skipped
    out = harness.run([entry], [], Store.disabled())
    assert out["configs"]["nli-alone"]["skipped"] and out["runs"] == []

