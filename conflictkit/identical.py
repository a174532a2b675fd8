"""Clause pairs with identical text are settled as covered before any scorer or judge sees them.

An unchanged clause is the common case between two versions of an agreement (half of the clause
texts of real version pairs, nearly all of a lightly edited draft), and no judge can find a
difference between two identical texts. Identical operative clauses are paired in document order
(the k-th copy of a text in the reference with its k-th copy in the input, so repeated
boilerplate stays linear); each such pair is covered with P(same matter) 1 and P(conflict) 0. A
clause so settled needs nothing else: candidate pairs between two settled clauses are dropped
unjudged. Pairs between a settled clause and an unsettled one are still judged, so a new clause
that copies an old one with a change is still compared with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from conflictkit.model import CandidatePair, IndexedDocument, Judgement
from conflictkit.retrievers.cosine import operative_indices

JUDGE_NAME = "identical"


@dataclass
class Settled:
    """Candidates after settling: what a judge must still see, and what is already decided."""

    to_judge: list[CandidatePair] = field(default_factory=list)
    candidates: list[CandidatePair] = field(default_factory=list)  # settled pairs, as candidates
    judgements: list[Judgement] = field(default_factory=list)  # their judgements, in the same order


def identical_pairs(reference: IndexedDocument, input: IndexedDocument) -> list[tuple[str, str]]:
    """(reference id, input id) of operative clauses with the same text, copies paired in order."""
    waiting: dict[str, list[str]] = {}
    for i in reversed(operative_indices(input)):
        clause = input.clauses[i]
        waiting.setdefault(clause.text, []).append(clause.id)
    pairs = []
    for i in operative_indices(reference):
        clause = reference.clauses[i]
        copies = waiting.get(clause.text)
        if copies:
            pairs.append((clause.id, copies.pop()))
    return pairs


def settle_identical(candidates: list[CandidatePair], reference: IndexedDocument, input: IndexedDocument) -> Settled:
    """Split retrieval's candidates into pairs to judge and identical pairs settled as covered."""
    exact = identical_pairs(reference, input)
    settled_ref = {r for r, _ in exact}
    settled_inp = {i for _, i in exact}
    retrieved = {(c.reference_id, c.input_id): c for c in candidates}
    result = Settled()
    for key in exact:
        found = retrieved.get(key)
        candidate = found if found is not None else CandidatePair(reference_id=key[0], input_id=key[1], relevance=1.0)
        result.candidates.append(candidate.model_copy(update={"signals": {**candidate.signals, "identical": 1.0}}))
        result.judgements.append(Judgement(
            reference_id=key[0], input_id=key[1], p_same=1.0, p_differs=0.0, p_conflict=0.0,
            judge=JUDGE_NAME, signals={"identical": 1.0},
        ))
    result.to_judge = [
        c for c in candidates if not (c.reference_id in settled_ref and c.input_id in settled_inp)
    ]
    return result
