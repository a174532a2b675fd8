"""Clause pairs with identical text are settled as covered before any scorer or judge sees them.

An unchanged clause is the common case between two versions of an agreement (half of the clause
texts of real version pairs, nearly all of a lightly edited draft), and no judge can find a
difference between two identical texts. Identical operative clauses are paired as the alignment
anchors them (copies of a repeated text by nearest relative position, see :func:`identical_pairs`);
each such pair is covered with P(same matter) 1 and P(conflict) 0. A
clause so settled needs nothing else: the engine settles before retrieval and retrieves among the
unsettled clauses only (:func:`unsettled`), so a settled clause is neither embedded nor judged
(its counterpart is known, and the alignment anchors it by its exact text). A changed copy of a
settled clause is compared with the unsettled clauses of the other side: it is new matter there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from conflictkit.align.exact import exact_anchors
from conflictkit.align.text import clause_source, text_key
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
    """(reference id, input id) of operative clauses with the same text, paired as the alignment pairs them.

    The alignment anchors clauses of equal text first (:func:`conflictkit.align.exact.exact_anchors`:
    copies of a repeated text pair by nearest relative position); only those anchors are settled, so
    a settled clause is always aligned with its twin, and a copy the alignment leaves open stays open
    for retrieval and the judge.
    """
    ref = [reference.clauses[i] for i in operative_indices(reference)]
    inp = [input.clauses[i] for i in operative_indices(input)]
    anchors = exact_anchors([text_key(clause_source(reference.document, c)) for c in ref],
                            [text_key(clause_source(input.document, c)) for c in inp])
    return [(ref[r].id, inp[i].id) for r, i in anchors if ref[r].text == inp[i].text]


def unsettled(document: IndexedDocument, settled_ids: set[str]) -> IndexedDocument:
    """The operative clauses of ``document`` that no identical pair settled (no vectors): what retrieval ranks."""
    clauses = [document.clauses[i] for i in operative_indices(document) if document.clauses[i].id not in settled_ids]
    return IndexedDocument(document=document.document, clauses=clauses)


def identical_judgement(reference_id: str, input_id: str) -> Judgement:
    """The verdict on two clauses of identical text: the same matter, no difference, no judge asked."""
    return Judgement.model_construct(reference_id=reference_id, input_id=input_id, p_same=1.0, p_differs=0.0,
                                     p_conflict=0.0, judge=JUDGE_NAME, signals={"identical": 1.0})


def settle_identical(
    candidates: list[CandidatePair], reference: IndexedDocument, input: IndexedDocument,
    exact: list[tuple[str, str]] | None = None,
) -> Settled:
    """Split retrieval's candidates into pairs to judge and identical pairs settled as covered.

    ``exact`` is :func:`identical_pairs` of the two documents when the caller has it already.
    """
    exact = identical_pairs(reference, input) if exact is None else exact
    settled_ref = {r for r, _ in exact}
    settled_inp = {i for _, i in exact}
    retrieved = {(c.reference_id, c.input_id): c for c in candidates}
    result = Settled()
    for key in exact:
        found = retrieved.get(key)
        candidate = found if found is not None else CandidatePair.model_construct(reference_id=key[0], input_id=key[1], relevance=1.0)
        result.candidates.append(candidate.model_copy(update={"signals": {**candidate.signals, "identical": 1.0}}))
        result.judgements.append(identical_judgement(*key))
    result.to_judge = [
        c for c in candidates if not (c.reference_id in settled_ref and c.input_id in settled_inp)
    ]
    return result
