"""Partition: judged pairs -> deviation / covered / missing / added.

Every clause on each side picks its best same-matter counterpart (highest P(same matter) among
its judged pairs, at least ``same_matter``). A picked pair at or above ``conflict`` is a
deviation, below it the two clauses are covered. A reference clause with no same-matter
counterpart is missing, an input clause with none is added. Definitions and filtered
(non-operative) clauses are never missing or added.

A clause may pick a counterpart that itself prefers another clause (a clause split in two, two
clauses merged into one) only when its P(same matter) is within ``shared_margin`` of that
counterpart's own best: otherwise a deleted clause would be reported as a "deviation" of its
nearest neighbour, which has its real counterpart already.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from conflictkit.model import Clause, IndexedDocument, Judgement


@dataclass
class Partition:
    """The outcome of partitioning, as clause ids and judgements (no text, no offsets yet)."""

    deviations: list[Judgement] = field(default_factory=list)
    covered: list[Judgement] = field(default_factory=list)
    missing: list[tuple[str, float]] = field(default_factory=list)  # (reference clause id, best p_same)
    added: list[tuple[str, float]] = field(default_factory=list)  # (input clause id, best p_same)
    picked: set[tuple[str, str]] = field(default_factory=set)


def can_be_gap(clause: Clause) -> bool:
    """Only operative clauses can be missing or added: never definitions or filtered text."""
    return clause.kind == "clause" and clause.filtered is None


def _best_by(judgements: list[Judgement], side: str) -> dict[str, Judgement]:
    best: dict[str, Judgement] = {}
    for j in judgements:
        key = j.reference_id if side == "reference" else j.input_id
        current = best.get(key)
        if current is None or (j.p_same, j.p_conflict) > (current.p_same, current.p_conflict):
            best[key] = j
    return best


def partition(
    reference: IndexedDocument,
    input: IndexedDocument,
    judgements: list[Judgement],
    same_matter: float,
    conflict: float,
    shared_margin: float = 1.0,
) -> Partition:
    """Split judged pairs and unmatched clauses into the four outcomes."""
    same = [j for j in judgements if j.p_same >= same_matter]
    top_ref = _best_by(same, "reference")
    top_inp = _best_by(same, "input")
    best_ref = {k: j for k, j in top_ref.items() if j.p_same >= top_inp[j.input_id].p_same - shared_margin}
    best_inp = {k: j for k, j in top_inp.items() if j.p_same >= top_ref[j.reference_id].p_same - shared_margin}
    picked = {(j.reference_id, j.input_id): j for j in [*best_ref.values(), *best_inp.values()]}
    result = Partition(picked=set(picked))
    ref_order = {c.id: i for i, c in enumerate(reference.clauses)}
    for key in sorted(picked, key=lambda k: (ref_order[k[0]], k[1])):
        j = picked[key]
        (result.deviations if j.p_conflict >= conflict else result.covered).append(j)
    all_ref = _best_by(judgements, "reference")
    all_inp = _best_by(judgements, "input")
    for clause in reference.clauses:
        if can_be_gap(clause) and clause.id not in best_ref:
            best = all_ref.get(clause.id)
            result.missing.append((clause.id, best.p_same if best else 0.0))
    for clause in input.clauses:
        if can_be_gap(clause) and clause.id not in best_inp:
            best = all_inp.get(clause.id)
            result.added.append((clause.id, best.p_same if best else 0.0))
    return result
