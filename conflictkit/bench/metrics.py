"""Metrics as plain functions from (gold, predictions) to plain dicts (beir/mteb style).

Clause pairs: per-category recall (conflict categories) and false-positive rate (consistent
ones), precision/recall/F1 at a threshold, ROC-AUC and PR-AUC (average precision) on the score,
expected calibration error. Document pairs: finding recall and precision by span overlap, per kind.
Everything is numpy only, so the core install can score a benchmark.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def _arrays(labels: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    y = np.asarray(labels, dtype=np.int64)
    s = np.asarray(scores, dtype=np.float64)
    if y.shape != s.shape:
        raise ValueError(f"labels and scores differ in length ({len(y)} vs {len(s)})")
    return y, s


def roc_auc(labels, scores) -> float | None:
    """Area under the ROC curve (Mann-Whitney U, ties count one half); None with a single class."""
    y, s = _arrays(labels, scores)
    n_pos, n_neg = int(y.sum()), int((1 - y).sum())
    if n_pos == 0 or n_neg == 0:
        return None
    ranks = _average_ranks(s)
    u = ranks[y == 1].sum() - n_pos * (n_pos + 1) / 2
    return float(u / (n_pos * n_neg))


def _average_ranks(values: np.ndarray) -> np.ndarray:
    """1-based ranks, tied values sharing their average rank."""
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(len(values), dtype=np.float64)
    sorted_values = values[order]
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and sorted_values[j + 1] == sorted_values[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def pr_curve(labels, scores) -> dict[str, list[float]]:
    """Precision and recall at every distinct score used as threshold (flag when score >= t)."""
    y, s = _arrays(labels, scores)
    order = np.argsort(-s, kind="mergesort")
    y_sorted, s_sorted = y[order], s[order]
    last_of_tie = np.r_[np.diff(s_sorted) != 0, True] if len(s_sorted) else np.array([], dtype=bool)
    tp = np.cumsum(y_sorted)[last_of_tie]
    flagged = (np.arange(len(y_sorted)) + 1)[last_of_tie]
    n_pos = max(int(y.sum()), 1)
    return {
        "thresholds": s_sorted[last_of_tie].tolist(),
        "precision": (tp / flagged).tolist(),
        "recall": (tp / n_pos).tolist(),
    }


def pr_auc(labels, scores) -> float | None:
    """Average precision: the step-wise area under the precision-recall curve; None without positives."""
    y, _ = _arrays(labels, scores)
    if y.sum() == 0:
        return None
    curve = pr_curve(labels, scores)
    recall = np.r_[0.0, curve["recall"]]
    return float(np.sum(np.diff(recall) * np.asarray(curve["precision"])))


def expected_calibration_error(labels, probabilities, bins: int = 10) -> float | None:
    """Mean |accuracy - confidence| over equal-width probability bins, weighted by bin size."""
    y, p = _arrays(labels, probabilities)
    if len(y) == 0:
        return None
    edges = np.linspace(0.0, 1.0, bins + 1)
    index = np.clip(np.digitize(p, edges[1:-1], right=False), 0, bins - 1)
    error = 0.0
    for b in range(bins):
        mask = index == b
        if mask.any():
            error += mask.sum() / len(y) * abs(y[mask].mean() - p[mask].mean())
    return float(error)


def at_threshold(labels, scores, threshold: float) -> dict[str, float | int | None]:
    """Confusion counts and precision/recall/F1 when flagging ``score >= threshold``."""
    y, s = _arrays(labels, scores)
    flagged = s >= threshold
    tp = int((flagged & (y == 1)).sum())
    fp = int((flagged & (y == 0)).sum())
    fn = int((~flagged & (y == 1)).sum())
    tn = int((~flagged & (y == 0)).sum())
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else None
    fpr = fp / (fp + tn) if fp + tn else None
    return {"threshold": threshold, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": precision, "recall": recall, "f1": f1, "fpr": fpr}


def per_category(categories: Sequence[str], labels, flagged) -> dict[str, dict]:
    """Per category: recall for conflict categories, false-positive rate for consistent ones."""
    out: dict[str, dict] = {}
    y = np.asarray(labels, dtype=np.int64)
    f = np.asarray(flagged, dtype=bool)
    cats = np.asarray(categories, dtype=object)
    for category in dict.fromkeys(categories):
        mask = cats == category
        n = int(mask.sum())
        hits = int(f[mask].sum())
        if int(y[mask].max()) == 1:
            out[category] = {"label": "conflict", "n": n, "metric": "recall", "value": hits / n, "missed": n - hits}
        else:
            out[category] = {"label": "consistent", "n": n, "metric": "fpr", "value": hits / n, "flagged": hits}
    return out


def clause_pair_metrics(categories: Sequence[str], labels, scores, threshold: float) -> dict:
    """Every clause-pair number at once: per category, at threshold, AUCs, calibration error."""
    point = at_threshold(labels, scores, threshold)
    flagged = np.asarray(scores, dtype=np.float64) >= threshold
    return {
        "n": len(labels),
        "n_conflict": int(np.sum(labels)),
        "categories": per_category(categories, labels, flagged),
        "at_threshold": point,
        "roc_auc": roc_auc(labels, scores),
        "pr_auc": pr_auc(labels, scores),
        "ece": expected_calibration_error(labels, scores),
    }


def best_f1_threshold(labels, scores) -> tuple[float, float]:
    """The threshold (a midpoint between distinct scores) maximising F1, and that F1.

    Ties go to the highest threshold: fewer flags for the same F1 keeps paraphrases quiet.
    """
    y, s = _arrays(labels, scores)
    distinct = np.unique(s)
    candidates = np.r_[(distinct[:-1] + distinct[1:]) / 2, distinct[-1:] if len(distinct) else []]
    best = (1.0, -1.0)
    for t in candidates:
        f1 = at_threshold(y, s, float(t))["f1"] or 0.0
        if f1 > best[1] or (f1 == best[1] and t > best[0]):
            best = (float(t), f1)
    return best


# ---------------------------------------------------------------------------------------------
# document pairs


def overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Half-open spans share at least one character."""
    return a[0] < b[1] and b[0] < a[1]


def finding_span(finding: dict, side: str) -> tuple[int, int] | None:
    quote = finding.get(side)
    return None if not quote else (int(quote["start"]), int(quote["end"]))


def match_findings(expected: Sequence[dict], findings: Sequence[dict]) -> dict:
    """Match report findings to expected ones of the same kind whose span they overlap.

    ``expected`` items are ``{kind, side, start, end}``; a finding is compared on that side
    (input for deviation and added, reference for missing). Returns which were matched.
    """
    matched_expected: set[int] = set()
    matched_findings: set[int] = set()
    for i, exp in enumerate(expected):
        for j, finding in enumerate(findings):
            if finding["kind"] != exp["kind"]:
                continue
            span = finding_span(finding, exp["side"])
            if span is not None and overlaps(span, (exp["start"], exp["end"])):
                matched_expected.add(i)
                matched_findings.add(j)
    return {"expected": sorted(matched_expected), "findings": sorted(matched_findings)}


def flagged_consistent(consistent: Sequence[dict], findings: Sequence[dict]) -> list[int]:
    """Indices of must-not-flag input spans that some finding overlaps."""
    hits = []
    for i, span in enumerate(consistent):
        if any((s := finding_span(f, "input")) and overlaps(s, (span["start"], span["end"])) for f in findings):
            hits.append(i)
    return hits


def document_metrics(per_pair: Sequence[dict]) -> dict:
    """Aggregate per-pair matches into recall and precision per kind and overall.

    Each item: ``{expected: [...], findings: [...], matched: match_findings(...)}``.
    """
    out: dict[str, dict] = {}
    for kind in ("deviation", "missing", "added", "moved", "all"):
        n_exp = n_found = exp_hit = found_hit = 0
        for item in per_pair:
            exp_idx = [i for i, e in enumerate(item["expected"]) if kind in ("all", e["kind"])]
            find_idx = [j for j, f in enumerate(item["findings"]) if kind in ("all", f["kind"])]
            n_exp += len(exp_idx)
            n_found += len(find_idx)
            exp_hit += len(set(exp_idx) & set(item["matched"]["expected"]))
            found_hit += len(set(find_idx) & set(item["matched"]["findings"]))
        out[kind] = {
            "expected": n_exp, "found": n_found,
            "recall": exp_hit / n_exp if n_exp else None,
            "precision": found_hit / n_found if n_found else None,
        }
    return out
