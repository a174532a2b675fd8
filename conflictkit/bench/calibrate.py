"""Calibration: fit a config's thresholds (and a weighted judge's weights) on labelled data.

The labelled pairs are split deterministically by a hash of their ids (:func:`split_of`): the
``fit`` part chooses the values, the ``holdout`` part, never seen by the fit, shows the metrics
before and after. What is fitted:

- the weights and bias of a ``weighted`` judge, by logistic regression on its sub-judges'
  P(conflict) (:func:`conflictkit.judges.compose.fit`);
- ``thresholds.conflict``: the threshold with the best F1 on the fit clause pairs;
- ``thresholds.same_matter``, when document pairs are given: the value with the best finding F1
  on them, re-partitioning cached judgements (no model runs again).

The result is a complete config (every default filled in) that ``compare`` and ``bench`` accept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import yaml

from conflictkit.bench import metrics
from conflictkit.bench.datasets import ClausePair, ClausePairDataset, Dataset, DocumentPairDataset, split_of
from conflictkit.bench.harness import Judged, evaluate_document_pair, judge_clause_pairs, pair_scores
from conflictkit.config import Config, dump_config, resolve
from conflictkit.errors import UserError
from conflictkit.progress import ProgressCallback, silent
from conflictkit.store import Store

SAME_MATTER_GRID = [round(t, 2) for t in np.arange(0.1, 0.91, 0.05)]


@dataclass
class Calibration:
    """What calibration found: the new config, and metrics before/after on the held-apart data."""

    config: Config
    fitted: dict[str, Any]
    before: dict[str, Any]
    after: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def _with_thresholds(config: Config, **values: float) -> Config:
    return config.model_copy(update={"thresholds": config.thresholds.model_copy(update=values)})


def _split(pairs: list[ClausePair]) -> tuple[list[ClausePair], list[ClausePair]]:
    fit = [p for p in pairs if split_of(p.id) == "fit"]
    hold = [p for p in pairs if split_of(p.id) == "holdout"]
    return fit, hold


def _labels(pairs: list[ClausePair]) -> np.ndarray:
    return np.array([1 if p.label == "conflict" else 0 for p in pairs])


def clause_summary(pairs: list[ClausePair], judged: list[Judged], config: Config) -> dict:
    """Precision/recall/F1 and per-category figures of ``judged`` at the config's thresholds."""
    scores = pair_scores(judged, config.thresholds.same_matter)
    labels = _labels(pairs)
    out = metrics.clause_pair_metrics([p.category for p in pairs], labels, scores, config.thresholds.conflict)
    return {"n": len(pairs), **out["at_threshold"], "roc_auc": out["roc_auc"], "ece": out["ece"],
            "categories": {c: {"metric": v["metric"], "n": v["n"], "value": v["value"]} for c, v in out["categories"].items()}}


def _judge(config: Config, pairs: list[ClausePair], store: Store, progress: ProgressCallback, label: str):
    from conflictkit.engine import Engine

    engine = Engine(config, store=store)
    judged, _ = judge_clause_pairs(engine, pairs, store, progress, label)
    return engine, judged


def fit_weights(engine, fit_pairs: list[ClausePair], judged: list[Judged]) -> dict | None:
    """Weights and bias of a ``weighted`` judge from its sub-judges' P(conflict); None for other judges."""
    if engine.judge.name != "weighted":
        return None
    from conflictkit.judges.compose import fit

    keys = [f"{label}.p_conflict" for label in engine.judge.labels]
    X = np.array([[j.signals[k] for k in keys] for j in judged])
    y = _labels(fit_pairs)
    if len(set(y.tolist())) < 2:
        raise UserError("calibration needs both conflict and consistent pairs in the fit split")
    return fit(X, y)


def _with_weights(config: Config, fitted: dict) -> Config:
    spec = config.pipeline.judge
    options = {**spec.options, "weights": fitted["weights"], "bias": fitted["bias"]}
    data = config.model_dump(mode="json")
    data["pipeline"]["judge"] = {"use": spec.use, "options": options}
    return resolve(data, "calibrated config")


def calibrate(
    config: Config, datasets: list[Dataset], store: Store, progress: ProgressCallback | None = None
) -> Calibration:
    """Fit on the ``fit`` split of ``datasets``; measure before and after on the ``holdout`` split."""
    progress = progress or silent
    pairs = [p for ds in datasets if isinstance(ds, ClausePairDataset) for p in ds.pairs]
    documents = [p for ds in datasets if isinstance(ds, DocumentPairDataset) for p in ds.pairs]
    if not pairs:
        raise UserError("calibration needs labelled clause pairs (a .jsonl dataset or ContractNLI)")
    fit_pairs, hold_pairs = _split(pairs)
    if not hold_pairs or len(set(_labels(fit_pairs).tolist())) < 2:
        raise UserError(f"too few labelled pairs to hold some apart ({len(pairs)}); give at least a few dozen of each label")
    notes: list[str] = []
    fitted: dict[str, Any] = {}
    engine, judged_fit = _judge(config, fit_pairs, store, progress, "calibrate: fit")
    _, judged_hold_before = _judge(config, hold_pairs, store, progress, "calibrate: holdout")
    new = config
    weights = fit_weights(engine, fit_pairs, judged_fit)
    if weights is not None:
        fitted["weights"] = weights
        new = _with_weights(config, weights)
        _, judged_fit = _judge(new, fit_pairs, store, progress, "calibrate: refit")
    threshold, f1 = metrics.best_f1_threshold(_labels(fit_pairs), pair_scores(judged_fit, new.thresholds.same_matter))
    fitted["conflict"] = {"value": round(threshold, 4), "fit_f1": round(f1, 4)}
    new = _with_thresholds(new, conflict=round(threshold, 4))
    _, judged_hold_after = _judge(new, hold_pairs, store, progress, "calibrate: holdout") if weights else (None, judged_hold_before)
    before = {"clause_pairs": clause_summary(hold_pairs, judged_hold_before, config)}
    after = {"clause_pairs": clause_summary(hold_pairs, judged_hold_after, new)}
    if documents:
        new, doc_before, doc_after, doc_fitted = _fit_same_matter(config, new, documents, store, notes)
        fitted["same_matter"] = doc_fitted
        before["document_pairs"], after["document_pairs"] = doc_before, doc_after
    return Calibration(new, fitted, before, after, notes)


def _document_f1(engine, documents, results, config: Config) -> dict:
    per_pair = [evaluate_document_pair(p, engine.repartition(r, config).report) for p, r in zip(documents, results)]
    found = metrics.document_metrics(per_pair)["all"]
    r, p = found["recall"], found["precision"]
    f1 = None if r is None or p is None else (2 * r * p / (r + p) if r + p else 0.0)
    return {**found, "f1": f1}


def _fit_same_matter(old: Config, new: Config, documents: list, store: Store, notes: list[str]):
    """Best-F1 same_matter on the fit document pairs (all pairs when there are too few to split)."""
    from conflictkit.engine import Engine

    engine = Engine(new, store=store)
    results = [engine.compare(str(p.reference), str(p.input)) for p in documents]
    fit_idx = [i for i, p in enumerate(documents) if split_of(p.id) == "fit"]
    hold_idx = [i for i in range(len(documents)) if i not in fit_idx]
    if not fit_idx or not hold_idx:
        fit_idx = hold_idx = list(range(len(documents)))
        notes.append(f"only {len(documents)} document pairs: same_matter fitted and measured on all of them (not held apart)")
    pick = lambda idx: ([documents[i] for i in idx], [results[i] for i in idx])  # noqa: E731
    best = (new.thresholds.same_matter, -1.0)
    for value in SAME_MATTER_GRID:
        f1 = _document_f1(engine, *pick(fit_idx), _with_thresholds(new, same_matter=value))["f1"] or 0.0
        if f1 > best[1]:
            best = (value, f1)
    chosen = _with_thresholds(new, same_matter=best[0])
    before = _document_f1(engine, *pick(hold_idx), old)
    after = _document_f1(engine, *pick(hold_idx), chosen)
    return chosen, before, after, {"value": best[0], "fit_f1": round(best[1], 4)}


def calibrated_yaml(calibration: Calibration, source: str, datasets: list[str]) -> str:
    """The calibrated config as YAML with a header saying how it was made; checked to load back."""
    header = [
        f"# Calibrated from {source} by `conflictkit calibrate` on: {', '.join(datasets)}",
        f"# Fitted: {yaml.safe_dump(calibration.fitted, default_flow_style=True, width=1000).strip()}",
    ]
    text = "\n".join(header) + "\n" + dump_config(calibration.config)
    resolve(yaml.safe_load(text), "calibrated config")  # never write a config compare would refuse
    return text


def format_comparison(calibration: Calibration) -> str:
    """Before/after lines on the held-apart data, for the terminal."""
    lines = ["held-apart data: before -> after"]
    b, a = calibration.before["clause_pairs"], calibration.after["clause_pairs"]
    lines.append(f"  clause pairs (n={b['n']}): " + ", ".join(
        f"{k} {_f(b[k])} -> {_f(a[k])}" for k in ("precision", "recall", "f1", "fpr")))
    for cat, v in b["categories"].items():
        lines.append(f"    {cat:<14} {v['metric']:<6} (n={v['n']:>3}) {_f(v['value'])} -> {_f(a['categories'][cat]['value'])}")
    if "document_pairs" in calibration.before:
        bd, ad = calibration.before["document_pairs"], calibration.after["document_pairs"]
        lines.append("  document pairs: " + ", ".join(f"{k} {_f(bd[k])} -> {_f(ad[k])}" for k in ("recall", "precision", "f1")))
    thresholds = calibration.config.thresholds
    lines.append(f"  thresholds: same_matter {thresholds.same_matter}, conflict {thresholds.conflict}")
    if "weights" in calibration.fitted:
        w = calibration.fitted["weights"]
        lines.append(f"  weighted judge: weights {[round(x, 3) for x in w['weights']]}, bias {w['bias']:.3f}")
    lines.extend(f"  note: {n}" for n in calibration.notes)
    return "\n".join(lines)


def _f(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}"
