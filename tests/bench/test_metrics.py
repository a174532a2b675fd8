"""Metrics against examples computed by hand."""

import pytest

from conflictkit.bench import metrics


def test_roc_auc_hand_example():
    # positives 0.9, 0.4; negatives 0.8, 0.1: of 4 (pos, neg) pairs, 3 are ordered right
    assert metrics.roc_auc([1, 1, 0, 0], [0.9, 0.4, 0.8, 0.1]) == pytest.approx(0.75)


def test_roc_auc_ties_count_half_and_single_class_is_none():
    assert metrics.roc_auc([1, 0], [0.5, 0.5]) == pytest.approx(0.5)
    assert metrics.roc_auc([1, 1], [0.2, 0.3]) is None


def test_pr_auc_is_average_precision():
    # ranked: 0.9 (pos), 0.8 (neg), 0.4 (pos), 0.1 (neg): AP = 0.5 * 1 + 0.5 * 2/3
    assert metrics.pr_auc([1, 1, 0, 0], [0.9, 0.4, 0.8, 0.1]) == pytest.approx(0.5 + 1 / 3)
    assert metrics.pr_auc([0, 0], [0.1, 0.2]) is None


def test_pr_curve_groups_ties():
    curve = metrics.pr_curve([1, 0, 1], [0.5, 0.5, 0.2])
    assert curve["thresholds"] == [0.5, 0.2]
    assert curve["precision"] == pytest.approx([0.5, 2 / 3])
    assert curve["recall"] == pytest.approx([0.5, 1.0])


def test_expected_calibration_error():
    # bin [0.9,1.0): p 0.9 and 0.9, accuracy 0.5 -> |0.5-0.9| * 2/4; bin [0.1,0.2): p 0.1 twice, acc 0 -> 0.1 * 2/4
    ece = metrics.expected_calibration_error([1, 0, 0, 0], [0.9, 0.9, 0.1, 0.1])
    assert ece == pytest.approx(0.5 * 0.4 + 0.5 * 0.1)


def test_at_threshold_counts():
    point = metrics.at_threshold([1, 1, 0, 0], [0.9, 0.4, 0.8, 0.1], 0.5)
    assert (point["tp"], point["fp"], point["fn"], point["tn"]) == (1, 1, 1, 1)
    assert point["precision"] == 0.5 and point["recall"] == 0.5 and point["f1"] == 0.5 and point["fpr"] == 0.5


def test_per_category_recall_and_fpr():
    cats = ["negation", "negation", "paraphrase", "paraphrase", "paraphrase", "paraphrase"]
    out = metrics.per_category(cats, [1, 1, 0, 0, 0, 0], [True, False, True, False, False, False])
    assert out["negation"] == {"label": "conflict", "n": 2, "metric": "recall", "value": 0.5, "missed": 1}
    assert out["paraphrase"]["metric"] == "fpr" and out["paraphrase"]["value"] == 0.25


def test_best_f1_threshold_separates():
    t, f1 = metrics.best_f1_threshold([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.9])
    assert f1 == 1.0 and 0.3 < t <= 0.6


def test_match_findings_by_overlap_and_kind():
    expected = [{"kind": "deviation", "side": "input", "start": 10, "end": 20},
                {"kind": "missing", "side": "reference", "start": 0, "end": 5}]
    findings = [
        {"kind": "deviation", "input": {"start": 15, "end": 40}, "reference": {"start": 0, "end": 3}},
        {"kind": "added", "input": {"start": 12, "end": 13}, "reference": None},  # wrong kind
        {"kind": "missing", "reference": {"start": 5, "end": 9}, "input": None},  # touches, no overlap
    ]
    matched = metrics.match_findings(expected, findings)
    assert matched == {"expected": [0], "findings": [0]}
    summary = metrics.document_metrics([{"expected": expected, "findings": findings, "matched": matched}])
    assert summary["deviation"] == {"expected": 1, "found": 1, "recall": 1.0, "precision": 1.0}
    assert summary["missing"]["recall"] == 0.0 and summary["added"]["precision"] == 0.0
    assert summary["all"]["recall"] == 0.5 and summary["all"]["precision"] == pytest.approx(1 / 3)


def test_flagged_consistent():
    findings = [{"kind": "deviation", "input": {"start": 0, "end": 10}}]
    assert metrics.flagged_consistent([{"start": 5, "end": 6}, {"start": 10, "end": 12}], findings) == [0]


def test_target_misses_lists_each_failing_category_and_pair():
    from conflictkit.bench.report import target_misses

    clause_run = {"kind": "clause-pairs", "categories": {
        "negation": {"metric": "recall", "value": 0.9, "n": 10, "missed": 1},
        "context": {"metric": "recall", "value": 0.1, "n": 10, "missed": 9},  # exempt
        "paraphrase": {"metric": "fpr", "value": 0.1, "n": 10, "flagged": 1},
        "format": {"metric": "fpr", "value": 0.0, "n": 10, "flagged": 0}}}
    assert target_misses(clause_run) == ["negation: recall 0.90 < 0.95 (1 of 10 missed)",
                                         "paraphrase: false-positive rate 0.10 > 0.05 (1 of 10 flagged)"]
    doc_run = {"kind": "document-pairs", "per_pair": [
        {"id": "dpa", "findings": [{}], "max_findings": 0, "missed": [], "expected": [], "consistent_flagged": []},
        {"id": "mnda", "findings": [{}], "max_findings": 2, "missed": ["upon written notice"], "expected": [{}, {}],
         "consistent_flagged": ["earlier request"]}]}
    assert target_misses(doc_run) == ["dpa: 1 findings > 0 allowed", "mnda: 1 of 2 expected findings missed",
                                      "mnda: 1 harmless change(s) flagged: `earlier request`"]
