"""The ``legal-atoms`` judge: deterministic, needs no model, explains every verdict with typed reasons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from pydantic import Field

from conflictkit.judges.atoms.compare import Difference, compare
from conflictkit.judges.atoms.extract import extract
from conflictkit.judges.atoms.score import (
    atom_overlap,
    compete,
    dice,
    heading_agreement,
    p_conflict,
    p_differs,
    p_same,
    semantic,
    verb_disjoint,
)
from conflictkit.model import CandidatePair, Clause, Judgement, Reason
from conflictkit.stages import Comparison, Judge, Options


def _w(default: float, what: str) -> float:
    return Field(default, ge=0.0, le=1.0, description=what)


class DifferenceWeights(Options):
    """How strongly each kind of difference means the clauses differ in effect (noisy-OR weights)."""

    negation: float = _w(0.93, "a negation added or dropped; shall <-> shall not; may <-> may not")
    modality: float = _w(0.85, "obligation <-> permission, prohibition <-> no obligation...")
    modality_presence: float = _w(0.2, "a modal on one side with no counterpart (often rewording)")
    party: float = _w(0.9, "the party that acts is on the other side of the deal")
    party_mutuality: float = _w(0.85, "a mutual duty becomes one party's, or the reverse")
    party_presence: float = _w(0.35, "a party named on one side only")
    number: float = _w(0.93, "an amount, percentage, duration or count changed")
    number_presence: float = _w(0.75, "a number on one side only")
    frequency_presence: float = _w(0.6, "a frequency or a currency on one side only")
    comparator: float = _w(0.85, "at least <-> at most, within <-> after, prior to <-> after")
    comparator_presence: float = _w(0.25, "a comparator or direction on one side only")
    date: float = _w(0.9, "a date changed")
    date_presence: float = _w(0.6, "a date on one side only")
    governing_law: float = _w(0.93, "the governing law changed")
    jurisdiction: float = _w(0.9, "the venue, courts or arbitral institution changed")
    forum: float = _w(0.85, "arbitration <-> courts")
    place_presence: float = _w(0.7, "a place on one side only")
    qualifier: float = _w(0.8, "prior, written, reasonable, material, sole discretion, gross negligence...")
    qualifier_minor: float = _w(0.35, "promptly, immediately, good faith, mutual")
    exception: float = _w(0.78, "unless / except / subject to / provided that / only on one side")
    scope: float = _w(0.9, "exclusive <-> non-exclusive, worldwide <-> a country, revocable <-> irrevocable...")
    scope_presence: float = _w(0.85, "a scope word (perpetual, irrevocable, exclusive...) on one side only")
    scope_minor: float = _w(0.3, "including / excluding on one side only")
    content: float = _w(0.75, "words cut from (or added to) a clause that is otherwise the same, no atom changed")
    quantity: float = _w(0.8, "all <-> some")


class LegalAtomsOptions(Options):
    """Options of the legal-atoms judge; the formulas are in :mod:`conflictkit.judges.atoms.score`."""

    weights: DifferenceWeights = DifferenceWeights()
    floor: float = Field(0.03, ge=0.0, le=1.0, description="P(differs) of clauses with no difference found")
    residual: float = Field(0.3, ge=0.0, le=0.6, description="P(differs) added by rewording no atom explains, times 1 - overlap")
    same_bias: float = Field(-2.7, description="logit of P(same) with no evidence")
    same_evidence: float = Field(6.5, ge=0.0, description="logit slope on the combined overlap evidence")
    same_heading: float = Field(1.0, ge=0.0, description="logit weight of heading agreement in [-1, 1]")
    same_atoms: float = Field(1.0, ge=0.0, description="logit weight of shared topic-bearing atom groups in [0, 1]")
    same_verbs: float = Field(1.0, ge=0.0, description="logit lowered when the two clauses' modal verbs share no action")
    lexical_weight: float = Field(1.0, ge=0.0, description="weight of topic-word overlap in the evidence")
    semantic_weight: float = Field(0.5, ge=0.0, description="weight of the retrieval cosine in the evidence")
    similarity_low: float = Field(0.25, ge=-1.0, le=1.0, description="cosine that counts as no semantic evidence")
    similarity_high: float = Field(0.9, ge=-1.0, le=1.0, description="cosine that counts as full semantic evidence")
    same_exponent: float = Field(0.5, ge=0.0, le=4.0, description="P(conflict) = P(differs) * P(same) ** same_exponent")
    competition: float = Field(2.5, ge=0.0, le=10.0, description=(
        "how much a clause's far better counterpart lowers P(same) of its other pairs "
        "(P(same) *= 1 - competition * gap); 0 judges every pair alone"))
    max_reasons: int = Field(8, ge=1, description="reasons kept per pair, strongest first")


class LegalAtomsJudge(Judge):
    """Extracts typed legal atoms from both clauses of each pair and compares them.

    Atoms: negation, modality (and who acts), numbers / amounts / percentages / durations with
    their comparators, dates, governing law / venue / territory / forum, qualifiers, exceptions
    and scope words. Every difference becomes a typed :class:`Reason` quoting each side's text.
    """

    name: ClassVar[str] = "legal-atoms"
    Options: ClassVar[type[Options]] = LegalAtomsOptions
    version: ClassVar[str] = "2"

    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]:
        judgements = [self._one(p, comparison.reference.clause(p.reference_id), comparison.input.clause(p.input_id))
                      for p in pairs]
        return compete(judgements, self.options.competition, self.options.same_exponent)

    def judge_clauses(self, pair: CandidatePair, reference: Clause, input: Clause) -> Judgement:
        """Judge one pair given its two clauses directly."""
        return self._one(pair, reference, input)

    def _one(self, pair: CandidatePair, ref_clause: Clause, inp_clause: Clause) -> Judgement:
        o = self.options
        ref, inp = extract(ref_clause.text), extract(inp_clause.text)
        diffs = compare(ref, inp)
        lexical = dice(ref.stems, inp.stems)
        sem = semantic(pair.similarity, pair.relevance, pair.signals, o.similarity_low, o.similarity_high)
        heading = heading_agreement(ref_clause.heading, inp_clause.heading)
        shared = atom_overlap(ref, inp)
        verbs = verb_disjoint(ref, inp)
        same, evidence = p_same(lexical, sem, heading, shared, o, verbs)
        differs, per_type = p_differs(diffs, lexical, o)
        signals = {"lexical": round(lexical, 4), "evidence": round(evidence, 4), "heading": round(heading, 4),
                   "atom_overlap": round(shared, 4), "differences": float(len(diffs)), "verbs_disjoint": verbs}
        if sem is not None:
            signals["semantic"] = round(sem, 4)
        signals.update({f"atoms.{t}": round(w, 4) for t, w in per_type.items()})
        return Judgement(
            reference_id=pair.reference_id, input_id=pair.input_id, p_same=same, p_differs=differs,
            p_conflict=p_conflict(same, differs, o.same_exponent), reasons=self._reasons(diffs),
            judge=self.name, signals=signals,
        )

    def _reasons(self, diffs: list[Difference]) -> list[Reason]:
        weights = self.options.weights.model_dump()
        ranked = sorted(diffs, key=lambda d: -weights[d.weight])
        return [Reason(type=d.type, reference=d.reference, input=d.input, detail=d.detail)
                for d in ranked[: self.options.max_reasons]]
