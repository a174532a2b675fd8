"""The benchmark harness: every config on every dataset, with metrics, timings and judge calls.

Judgements do not depend on thresholds, so the harness caches each clause pair's judgement in the
store under the fingerprints of the configured backends (thresholds left out) and the pair's two
texts; document pairs go through :meth:`Engine.compare`, which caches indexes and judged pairs the
same way. Re-running with only a threshold changed recomputes metrics and partitions, no model.

A harness config is a conflictkit config plus an optional ``bench:`` section, removed before the
config is resolved: ``bench: {name, smoke, note}``. ``smoke: true`` marks a backend that cannot
run its real model here (Isaacus against its fake API): its numbers are labelled smoke tests.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from conflictkit.bench import metrics
from conflictkit.bench.datasets import ClausePair, ClausePairDataset, Dataset, DocumentPair, DocumentPairDataset
from conflictkit.bench.revisions import RevisionSet
from conflictkit.config import Config, dump_config, load_yaml, resolve
from conflictkit.errors import BackendError, ConfigError, MissingDependencyError, UnknownBackendError, UserError
from conflictkit.progress import ProgressCallback, silent
from conflictkit.store import Store, key_of

SCHEMA = "conflictkit.bench/1"
SWEEP = [round(t, 2) for t in np.arange(0.05, 0.96, 0.05)]
_BATCH = 64


@dataclass
class BenchConfig:
    """A config to benchmark: its display name, source file and bench-only settings."""

    name: str
    path: str | None
    config: Config | None
    smoke: bool = False
    note: str = ""
    skipped: str | None = None  # why it cannot run here (plugin or model absent)


def load_bench_config(path: str | Path) -> BenchConfig:
    """Read a harness config; a backend whose plugin is absent gives a skipped entry, not an error."""
    file = Path(path)
    if not file.is_file():
        raise ConfigError(f"config file {file} does not exist")
    try:
        data = load_yaml(file.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"config {file} is not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config {file}: the top level must be a mapping")
    bench = data.pop("bench", None) or {}
    if not isinstance(bench, dict) or set(bench) - {"name", "smoke", "note"}:
        raise ConfigError(f"config {file}: 'bench' takes only name, smoke and note")
    name = str(bench.get("name") or file.stem)
    entry = BenchConfig(name, str(file), None, bool(bench.get("smoke", False)), str(bench.get("note") or ""))
    try:
        entry.config = resolve(data, str(file))
    except ConfigError as exc:
        if not _only_unknown_backends(exc):
            raise
        entry.skipped = f"not installed here: {exc}"
    return entry


def _only_unknown_backends(exc: ConfigError) -> bool:
    # resolve() joins every problem; a plugin that is simply not installed says "unknown ... backend"
    message = str(exc)
    return isinstance(exc, UnknownBackendError) or ("unknown " in message and " backend " in message and "available:" in message)


def bench_config_of(name: str, config: Config) -> BenchConfig:
    """Wrap an in-memory config (tests, calibration)."""
    return BenchConfig(name=name, path=None, config=config)


def judgement_fingerprint(engine) -> list[str | None]:
    """What a judgement depends on: every backend's fingerprint, the code and rule data, no thresholds."""
    return [engine.code_key, *[c.fingerprint if c is not None else None for c in engine.components.values()]]


@dataclass
class Judged:
    """A clause pair's judgement as the harness keeps it (plain, JSON-able)."""

    p_same: float
    p_differs: float
    p_conflict: float
    reasons: list[str]
    judge: str
    seconds: float  # this pair's share of the batch that judged it, kept with the cache entry
    signals: dict[str, float] = field(default_factory=dict)


def judge_clause_pairs(engine, pairs: list[ClausePair], store: Store, progress: ProgressCallback, label: str) -> tuple[list[Judged], int]:
    """Judge every pair, reusing cached judgements; returns them and how many were computed now."""
    fingerprint = judgement_fingerprint(engine)
    keys = [key_of("bench.judgement", fingerprint, p.reference, p.input) for p in pairs]
    results: list[Judged | None] = [_cached(store, k) for k in keys]
    todo = [i for i, r in enumerate(results) if r is None]
    progress(label, len(pairs) - len(todo), len(pairs))
    for start in range(0, len(todo), _BATCH):
        batch = todo[start : start + _BATCH]
        began = time.perf_counter()
        judgements = engine.judge_texts([(pairs[i].reference, pairs[i].input) for i in batch])
        share = (time.perf_counter() - began) / len(batch)
        for i, j in zip(batch, judgements, strict=True):
            results[i] = Judged(j.p_same, j.p_differs, j.p_conflict, [r.type for r in j.reasons], j.judge, share, dict(j.signals))
            store.put_json("bench.judgement", keys[i], results[i].__dict__)
        progress(label, len(pairs) - len(todo) + start + len(batch), len(pairs))
    return results, len(todo)  # type: ignore[return-value]


def _cached(store: Store, key: str) -> Judged | None:
    raw = store.get_json("bench.judgement", key)
    if raw is None:
        return None
    try:
        return Judged(**raw)
    except TypeError:
        return None  # an entry from another harness version is recomputed


def pair_scores(judged: list[Judged], same_matter: float) -> np.ndarray:
    """The score the pipeline acts on: P(conflict) for a pair judged same-matter, else 0.

    Partition reports a deviation only for a pair at or above ``same_matter``; a clause pair the
    judge calls unrelated is therefore never flagged, whatever its P(conflict).
    """
    return np.array([j.p_conflict if j.p_same >= same_matter else 0.0 for j in judged], dtype=np.float64)


def evaluate_clause_pairs(dataset: ClausePairDataset, judged: list[Judged], config: Config, sweep: bool) -> dict:
    """Metrics of one config on one clause-pair dataset, with the failing cases listed."""
    labels = np.array([1 if p.label == "conflict" else 0 for p in dataset.pairs])
    scores = pair_scores(judged, config.thresholds.same_matter)
    threshold = config.thresholds.conflict
    out = metrics.clause_pair_metrics([p.category for p in dataset.pairs], labels, scores, threshold)
    out["pr_curve"] = metrics.pr_curve(labels, scores)
    out["failures"] = [
        {"id": p.id, "category": p.category, "label": p.label, "p_conflict": round(j.p_conflict, 4),
         "p_same": round(j.p_same, 4), "reasons": j.reasons, "note": p.note}
        for p, j, s in zip(dataset.pairs, judged, scores)
        if (s >= threshold) != (p.label == "conflict")
    ]
    if sweep:
        out["sweep"] = [metrics.at_threshold(labels, scores, t) for t in SWEEP]
    return out


def run_clause_pairs(engine, entry: BenchConfig, dataset: ClausePairDataset, store: Store, progress: ProgressCallback, sweep: bool) -> dict:
    """Judge (or reuse) every pair of one dataset, then score it: metrics, failures, speed."""
    started = time.perf_counter()
    judged, computed = judge_clause_pairs(engine, dataset.pairs, store, progress, f"{entry.name}:{dataset.name}")
    judge_seconds = sum(j.seconds for j in judged)
    result = evaluate_clause_pairs(dataset, judged, entry.config, sweep)
    result.update({
        "pairs": len(dataset.pairs),
        "held_apart": len(dataset.held_apart),
        "judge_calls": computed,
        "cached": len(judged) - computed,
        "judge_seconds": round(judge_seconds, 4),
        "pairs_per_s": round(len(judged) / judge_seconds, 1) if judge_seconds > 0 else None,
        "wall_s": round(time.perf_counter() - started, 4),
        "judged_by": _count([j.judge for j in judged]),
    })
    return result


def _count(values: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def _expected_dicts(pair: DocumentPair) -> tuple[list[dict], list[dict]]:
    expected = [e.__dict__ for e in pair.expected]
    consistent = [c.__dict__ for c in pair.consistent]
    return expected, consistent


def evaluate_document_pair(pair: DocumentPair, report: dict) -> dict:
    """Match one report's findings against a pair's expectations."""
    expected, consistent = _expected_dicts(pair)
    findings = report["findings"]
    matched = metrics.match_findings(expected, findings)
    return {
        "id": pair.id,
        "expected": [{k: e[k] for k in ("kind", "side", "start", "end", "quote", "note")} for e in expected],
        "findings": [_finding_brief(f) for f in findings],
        "matched": matched,
        "missed": [expected[i]["quote"][:80] for i in range(len(expected)) if i not in matched["expected"]],
        "unexpected": [_finding_brief(findings[j]) for j in range(len(findings)) if j not in matched["findings"]],
        "consistent_flagged": [consistent[i]["quote"][:80] for i in metrics.flagged_consistent(consistent, findings)],
        "max_findings": pair.max_findings,
        "summary": report.get("summary", {}),
    }


def _finding_brief(finding: dict) -> dict:
    brief: dict[str, Any] = {"kind": finding["kind"], "p_conflict": round(float(finding.get("p_conflict") or 0.0), 4)}
    for side in ("reference", "input"):
        quote = finding.get(side)
        brief[side] = None if not quote else {"start": quote["start"], "end": quote["end"], "text": quote["text"][:160]}
    brief["reasons"] = [r.get("type") for r in finding.get("reasons", [])]
    return brief


def run_document_pairs(engine, entry: BenchConfig, dataset: DocumentPairDataset, progress: ProgressCallback, sweep: bool) -> dict:
    """Compare every document pair; findings matched to expectations by span overlap, per kind."""
    started = time.perf_counter()
    per_pair, results, judged = [], [], 0
    label = f"{entry.name}:{dataset.name}"
    for n, pair in enumerate(dataset.pairs):
        progress(label, n, len(dataset.pairs))
        result = engine.compare(str(pair.reference), str(pair.input))
        results.append(result)
        judged += int(result.report.get("summary", {}).get("judged_pairs", 0))
        item = evaluate_document_pair(pair, result.report)
        item["seconds"] = round(result.timings.get("total", 0.0), 4)
        per_pair.append(item)
    progress(label, len(dataset.pairs), len(dataset.pairs))
    out = {
        "pairs": len(dataset.pairs),
        "skipped": dataset.skipped,
        "findings": metrics.document_metrics(per_pair),
        "per_pair": per_pair,
        "judged_pairs": judged,
        "wall_s": round(time.perf_counter() - started, 4),
    }
    if sweep:
        out["sweep"] = _document_sweep(engine, entry.config, dataset, results)
    return out


def _document_sweep(engine, config: Config, dataset: DocumentPairDataset, results: list) -> list[dict]:
    """Finding metrics at each conflict threshold, re-partitioning cached judgements (no model)."""
    rows = []
    for t in SWEEP:
        changed = config.model_copy(update={"thresholds": config.thresholds.model_copy(update={"conflict": t})})
        per_pair = [evaluate_document_pair(p, engine.repartition(r, changed).report) for p, r in zip(dataset.pairs, results)]
        rows.append({"threshold": t, **metrics.document_metrics(per_pair)["all"]})
    return rows


def run(
    configs: list[BenchConfig],
    datasets: list[Dataset],
    store: Store,
    progress: ProgressCallback | None = None,
    sweep: bool = False,
) -> dict:
    """Run every config on every dataset; returns the plain-dict results that reports are made of."""
    from conflictkit.engine import Engine

    progress = progress or silent
    out: dict[str, Any] = {"schema": SCHEMA, "configs": {}, "datasets": {}, "runs": []}
    for ds in datasets:
        out["datasets"][ds.name] = _dataset_info(ds)
    for entry in configs:
        out["configs"][entry.name] = _config_info(entry)
        if entry.skipped:
            continue
        engine = Engine(entry.config, store=store, progress=silent)
        try:
            engine.warm_up()
        except ConfigError:
            raise  # a wrong config is the user's to fix, never a silent skip
        except (MissingDependencyError, BackendError, UserError) as exc:  # a package or model absent here: say so, go on
            out["configs"][entry.name]["skipped"] = entry.skipped = f"cannot run here: {exc}"
            continue
        for ds in datasets:
            run_one = {"config": entry.name, "dataset": ds.name, "kind": ds.kind, "smoke": entry.smoke}
            if isinstance(ds, ClausePairDataset):
                run_one.update(run_clause_pairs(engine, entry, ds, store, progress, sweep))
            elif isinstance(ds, RevisionSet):
                run_one.update(run_revisions(engine, entry, ds, progress))
            else:
                run_one.update(run_document_pairs(engine, entry, ds, progress, sweep))
            run_one["usage"] = engine.params().get("usage", {})
            out["runs"].append(run_one)
    return out


def run_revisions(engine, entry: BenchConfig, dataset: RevisionSet, progress: ProgressCallback) -> dict:
    """Compare every revision pair and score its findings hunk by hunk, as the set's README says."""
    from conflictkit.bench import revisions

    started = time.perf_counter()
    per_pair = []
    label = f"{entry.name}:{dataset.name}"
    for n, pair in enumerate(dataset.pairs):
        progress(label, n, len(dataset.pairs))
        result = engine.compare(str(pair.reference), str(pair.input))
        scored = revisions.score_pair(pair, revisions.flags_of(result.report))
        scored["seconds"] = round(result.timings.get("total", 0.0), 4)
        per_pair.append(scored)
    progress(label, len(dataset.pairs), len(dataset.pairs))
    return {"pairs": len(dataset.pairs), "skipped": dataset.skipped, "totals": revisions.totals(per_pair),
            "per_pair": per_pair, "baseline": revisions.baseline(dataset), "wall_s": round(time.perf_counter() - started, 4)}


def _dataset_info(ds: Dataset) -> dict:
    if isinstance(ds, RevisionSet):
        return {"kind": ds.kind, "path": ds.path, "pairs": len(ds.pairs), "skipped": ds.skipped,
                "hunks": sum(len(p.hunks) for p in ds.pairs)}
    if isinstance(ds, ClausePairDataset):
        return {"kind": ds.kind, "path": ds.path, "pairs": len(ds.pairs), "held_apart": len(ds.held_apart),
                "categories": ds.categories()}
    return {"kind": ds.kind, "path": ds.path, "pairs": len(ds.pairs), "skipped": ds.skipped}


def _config_info(entry: BenchConfig) -> dict:
    info: dict[str, Any] = {"path": entry.path, "smoke": entry.smoke, "note": entry.note, "skipped": entry.skipped}
    if entry.config is not None:
        info["thresholds"] = entry.config.thresholds.model_dump()
        info["config_yaml"] = dump_config(entry.config)
    return info
