"""Calibration fits thresholds (and weights) on the fit split and improves F1 on the held-apart split."""

import yaml

from conflictkit.bench.calibrate import calibrate, calibrated_yaml
from conflictkit.bench.datasets import load_dataset
from conflictkit.config import load_config, resolve
from conflictkit.store import Store

from tests.bench.conftest import model_free


def test_threshold_calibration_improves_f1_and_writes_a_loadable_config(line_diff_config, toy_jsonl, tmp_path):
    result = calibrate(line_diff_config, [load_dataset(toy_jsonl)], Store(tmp_path / "c.sqlite"))
    before, after = result.before["clause_pairs"], result.after["clause_pairs"]
    assert before["f1"] < 0.8 and after["f1"] == 1.0
    assert 0.7 < result.config.thresholds.conflict < 0.9
    out = tmp_path / "calibrated.yaml"
    out.write_text(calibrated_yaml(result, "line-diff", [str(toy_jsonl)]), encoding="utf-8")
    loaded = load_config(out)
    assert loaded.thresholds.conflict == result.config.thresholds.conflict
    assert loaded.pipeline.judge.use == "line-diff"


def test_weighted_judge_gets_fitted_weights(toy_jsonl, tmp_path):
    config = resolve(model_free({"use": "weighted", "options": {"judges": [{"use": "line-diff"}, {"use": "cosine-only"}]}}))
    result = calibrate(config, [load_dataset(toy_jsonl)], Store(tmp_path / "c.sqlite"))
    weights = result.fitted["weights"]
    assert len(weights["weights"]) == 2 and weights["weights"][0] > 0  # the diff carries the signal here
    assert result.after["clause_pairs"]["f1"] >= result.before["clause_pairs"]["f1"]
    assert result.after["clause_pairs"]["f1"] == 1.0
    text = calibrated_yaml(result, "weighted", [str(toy_jsonl)])
    options = yaml.safe_load(text)["pipeline"]["judge"]["options"]
    assert options["weights"] == weights["weights"] and options["bias"] == weights["bias"]


def test_same_matter_fitted_with_document_pairs(fast_config, toy_jsonl, doc_manifest, tmp_path):
    result = calibrate(fast_config, [load_dataset(toy_jsonl), load_dataset(doc_manifest)], Store(tmp_path / "c.sqlite"))
    assert "same_matter" in result.fitted and "document_pairs" in result.after
    assert result.after["document_pairs"]["f1"] >= result.before["document_pairs"]["f1"]
    assert any("not held apart" in n for n in result.notes)  # one document pair cannot be split
