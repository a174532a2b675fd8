"""The ``legal-atoms`` judge: deterministic, needs no model, explains every verdict with typed reasons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from pydantic import Field, create_model

from conflictkit.filters.rules import non_binding_reason, version_stamp
from conflictkit.judges.atoms.compare import Difference, compare
from conflictkit.judges.atoms.extract import ClauseAtoms, extract
from conflictkit.judges.atoms.family import derived, families
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
    weight_values,
)
from conflictkit.context import EMPTY, DocumentContext
from conflictkit.judges.atoms.edits import PairView, view_of
from conflictkit.judges.atoms.verdicts import containment, judge_edits
from conflictkit.model import CandidatePair, Clause, Edit, EditSide, IndexedDocument, Judgement, Reason
from conflictkit.stages import Comparison, Judge, Options


_EDIT_WEIGHTS = {
    "non_binding": (0.0, "one clause binds no one (a plain-language summary, an update banner, a change log)"),
    "version_date": (0.9, "the date or version number of the document's own version stamp changed"),
    "content_sentence": (0.85, "a sentence or more of operative text added, cut or rewritten in an otherwise unchanged clause"),
}


def _difference_weights(found: tuple) -> type[Options]:
    """The ``weights:`` options: every family's weights, each a field with its default and meaning."""
    weights = {name: spec for family in found for name, spec in family.weights.items()} | _EDIT_WEIGHTS
    fields = {name: (float, Field(default, ge=0.0, le=1.0, description=what)) for name, (default, what) in weights.items()}
    return create_model("DifferenceWeights", __base__=Options, __module__=__name__,
                        __doc__="How strongly each kind of difference means the clauses differ in effect "
                                "(noisy-OR weights), gathered from the atom families.", **fields)


PROGRESS_STEPS = 50
"""How many times a call reports its progress (every pair of a big document would cost more than it shows)."""


class _JudgeOptions(Options):
    """Options of the legal-atoms judge; the formulas are in :mod:`conflictkit.judges.atoms.score`."""

    floor: float = Field(0.03, ge=0.0, le=1.0, description="P(differs) of clauses with no difference found")
    residual: float = Field(0.3, ge=0.0, le=0.6, description="P(differs) added by rewording no atom explains, times 1 - overlap")
    same_bias: float = Field(-2.7, description="logit of P(same) with no evidence")
    same_evidence: float = Field(6.5, ge=0.0, description="logit slope on the combined overlap evidence")
    same_heading: float = Field(1.0, ge=0.0, description="logit weight of heading agreement in [-1, 1]")
    same_atoms: float = Field(1.0, ge=0.0, description="logit weight of shared topic-bearing atom groups in [0, 1]")
    same_verbs: float = Field(1.0, ge=0.0, description="logit lowered when the two clauses' modal verbs share no action")
    verbs_below: float = Field(0.8, ge=0.0, le=1.0, description=(
        "same_verbs applies only below this overlap of the two clauses' words (all of them): a clause that "
        "differs in little but its verb is the same matter with a changed act"))
    lexical_weight: float = Field(1.0, ge=0.0, description="weight of topic-word overlap in the evidence")
    semantic_weight: float = Field(0.5, ge=0.0, description="weight of the retrieval cosine in the evidence")
    similarity_low: float = Field(0.25, ge=-1.0, le=1.0, description="cosine that counts as no semantic evidence")
    similarity_high: float = Field(0.9, ge=-1.0, le=1.0, description="cosine that counts as full semantic evidence")
    same_exponent: float = Field(0.5, ge=0.0, le=4.0, description="P(conflict) = P(differs) * P(same) ** same_exponent")
    competition: float = Field(2.5, ge=0.0, le=10.0, description=(
        "how much a clause's far better counterpart lowers P(same) of its other pairs "
        "(P(same) *= 1 - competition * gap); 0 judges every pair alone"))
    max_reasons: int = Field(8, ge=1, description="reasons kept per pair, strongest first")




def options_model() -> type[Options]:
    """The legal-atoms judge's options, with a weight for every registered family's kinds of difference
    (built once per registry: a plugin's family adds its weights)."""
    def build(found: tuple) -> type[Options]:
        weights = _difference_weights(found)
        return create_model("LegalAtomsOptions", __base__=_JudgeOptions, __module__=__name__,
                            __doc__=_JudgeOptions.__doc__, weights=(weights, weights()))
    return derived("options", build)


class _OptionsOfTheFamilies:
    """``LegalAtomsJudge.Options``: the model of :func:`options_model`, read when asked for."""

    def __get__(self, obj, cls=None) -> type[Options]:
        return options_model()


def __getattr__(name: str):
    if name == "LegalAtomsOptions":
        return options_model()
    if name == "DifferenceWeights":
        return options_model().model_fields["weights"].annotation
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class LegalAtomsJudge(Judge):
    """Extracts typed legal atoms from both clauses of each pair and compares them, edit by edit.

    Atoms: negation, modality (and who acts), numbers / amounts / percentages / durations with
    their comparators, dates, governing law / venue / territory / forum, qualifiers, exceptions
    and scope words. Every difference becomes a typed :class:`Reason` quoting each side's text.

    A pair of one clause edited is judged edit by edit (:mod:`conflictkit.judges.atoms.verdicts`):
    editorial edits (typography, links, renames the document context shows...) are applied to the
    reference before the atoms are compared, every difference is attributed to its edits, and the
    judgement carries every edit with its verdict (``Judgement.edits``).
    """

    name: ClassVar[str] = "legal-atoms"
    Options = _OptionsOfTheFamilies()  # type: ignore[assignment]
    version: ClassVar[str] = "3"  # 3: judged edit by edit, with the document context

    reads_words: ClassVar[bool] = True

    def use_language(self, language) -> None:
        """Read ``language`` from now on; a pack that lacks the table a registered family reads is refused."""
        super().use_language(language)
        for family in families():
            family.check_pack(self.language)

    def warm_up(self) -> None:
        """Read the language pack and compile its patterns (once per process), so the first pairs pay nothing."""
        lexicon = self.language
        words = lexicon.data.pack.detection_words  # a text of the pack's own words runs every family
        sample = " ".join(words) + " 30 " + " ".join(reversed(words)) + "."
        compare(extract(sample, lexicon.language), extract(sample.replace(" 30 ", " 60 "), lexicon.language), lexicon)
        super().warm_up()

    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]:
        # each clause is read once per call, however many pairs it is in (the extraction cache is
        # bounded; a 16k-clause document would otherwise be re-read pair after pair)
        read: dict[tuple[str, str], ClauseAtoms] = {}

        def atoms(side: str, clause: Clause) -> ClauseAtoms:
            key = (side, clause.id)
            if key not in read:
                read[key] = extract(clause.text, self.language.language)
            return read[key]

        judgements = []
        every = max(1, len(pairs) // PROGRESS_STEPS)
        for k, p in enumerate(pairs, 1):
            ref_clause, inp_clause = comparison.reference.clause(p.reference_id), comparison.input.clause(p.input_id)
            sources = (_source(comparison.reference, ref_clause), _source(comparison.input, inp_clause))
            judgements.append(self._one(p, ref_clause, inp_clause, atoms("r", ref_clause), atoms("i", inp_clause),
                                        sources, comparison.context))
            if k % every == 0:
                comparison.advance(k, len(pairs))
        return compete(judgements, self.options.competition, self.options.same_exponent)

    def judge_clauses(self, pair: CandidatePair, reference: Clause, input: Clause) -> Judgement:
        """Judge one pair given its two clauses directly (edit offsets then index the clause texts)."""
        language = self.language.language
        return self._one(pair, reference, input, extract(reference.text, language), extract(input.text, language),
                         ((reference.text, 0), (input.text, 0)), EMPTY)

    def _one(self, pair: CandidatePair, ref_clause: Clause, inp_clause: Clause, ref: ClauseAtoms,
             inp: ClauseAtoms, sources: tuple[tuple[str, int], tuple[str, int]], context: DocumentContext) -> Judgement:
        o, lexicon = self.options, self.language
        sem = semantic(pair.similarity, pair.relevance, pair.signals, o.similarity_low, o.similarity_high)
        heading = heading_agreement(ref_clause.heading, inp_clause.heading, lexicon.language)
        if heading <= 0 and _defines_same_term(ref_clause.text, inp_clause.text, lexicon):
            heading = 1.0  # two definitions of one term deal with one matter, like clauses under one heading
        shared = atom_overlap(ref, inp)
        # clauses that differ in little but their verb are one matter with a changed act, not two matters
        verbs = verb_disjoint(ref, inp, lexicon) if dice(ref.word_set, inp.word_set) < o.verbs_below else 0.0
        lexical = dice(ref.stems, inp.stems)
        # two clauses about different matters, or one rewritten throughout, have no edits worth judging one by one
        view = (self._view(sources, ref_clause, inp_clause, context, lexicon)
                if (_one_clause_edited(ref, inp) and p_same(lexical, sem, heading, shared, o, verbs)[0] >= _EDIT_FLOOR)
                or _stamps(ref_clause.text, inp_clause.text, lexicon.language) else None)
        ruled = judge_edits(view, ref, inp, lexicon.language) if view is not None else None
        diffs = ruled.differences if ruled is not None else compare(ref, inp, lexicon)
        non_binding = self._non_binding(ref_clause, inp_clause)
        if non_binding is not None:
            diffs = [non_binding]
        lexical = _edited_overlap(lexical, ruled, ref, inp, view)
        same, evidence = p_same(lexical, sem, heading, shared, o, verbs)
        differs, per_type = p_differs(diffs, 1.0 if non_binding else lexical, o)
        signals = {"lexical": round(lexical, 4), "evidence": round(evidence, 4), "heading": round(heading, 4),
                   "atom_overlap": round(shared, 4), "differences": float(len(diffs)), "verbs_disjoint": verbs}
        if sem is not None:
            signals["semantic"] = round(sem, 4)
        signals.update({f"atoms.{t}": round(w, 4) for t, w in per_type.items()})
        ranked = self._ranked(diffs)
        reasons = self._reasons(ranked)
        made = {id(d): r for d, r in zip(ranked, reasons, strict=True)}
        edits = self._edits(view, ruled, same, non_binding is not None, made) if ruled is not None else []
        if edits:
            signals["edits.substantive"] = float(sum(e.verdict == "substantive" for e in edits))
            signals["edits.editorial"] = float(sum(e.verdict == "editorial" for e in edits))
        return Judgement(
            reference_id=pair.reference_id, input_id=pair.input_id, p_same=same, p_differs=differs,
            p_conflict=p_conflict(same, differs, o.same_exponent), reasons=reasons,
            judge=self.name, signals=signals, edits=edits,
        )

    def _non_binding(self, ref_clause: Clause, inp_clause: Clause) -> Difference | None:
        """A summary, a banner or a change log binds no one: it cannot change what the other clause says
        (the rules filter keeps such text out of a comparison; pairs judged on their own get here)."""
        language = self.language.language
        for side, c in (("reference", ref_clause), ("input", inp_clause)):
            why = non_binding_reason(c.text, c.heading, language)
            if why is not None:
                return Difference("non-binding", "non_binding", ref_clause.text[:80] if side == "reference" else None,
                                  inp_clause.text[:80] if side == "input" else None, f"the {side} is a {why}, not a term")
        return None

    def _view(self, sources, ref_clause: Clause, inp_clause: Clause, context: DocumentContext, lexicon) -> PairView | None:
        """The pair's edits, when the clauses' own texts are what their tokens read (a table row with its
        pipes is not: it is judged as a whole) and they differ."""
        (ref_source, ref_origin), (inp_source, inp_origin) = sources
        if ref_clause.text == inp_clause.text:
            return None
        view = view_of(ref_source, ref_origin, inp_source, inp_origin, context, lexicon,
                       (ref_clause.heading, inp_clause.heading))
        if not view.edits or view.ref.normalized.strip() != ref_clause.text or view.inp.normalized.strip() != inp_clause.text:
            return None
        return view

    def _edits(self, view: PairView, ruled, p_same: float, non_binding: bool, made: dict[int, Reason]) -> list[Edit]:
        """The pair's edits with their verdicts and probabilities, spans in the original files."""
        o = self.options
        weights = weight_values(o.weights)
        out = []
        for e, ruling in zip(view.edits, ruled.rulings, strict=True):
            keep = 1.0 - o.floor
            for d in ruling.differences:
                keep *= 1.0 - weights[d.weight]
            verdict, kind = ruling.verdict, ruling.kind
            if non_binding and verdict != "editorial":
                verdict, kind, keep = "editorial", "non-binding", 1.0 - o.floor
            reasons = [made[id(d)] if id(d) in made else self._reasons([d], validate=False)[0]
                       for d in self._ranked(ruling.differences)] if verdict == "substantive" else []
            if reasons:
                kind = reasons[0].type  # the strongest reason names the edit
            (rs, re_), (is_, ie) = view.ref_span(e), view.inp_span(e)
            # built without validation: every field is computed here, and edits are made for every pair judged
            out.append(Edit.model_construct(
                reference=EditSide.model_construct(start=rs, end=re_, text=view.ref.original[rs - view.ref_origin:re_ - view.ref_origin]),
                input=EditSide.model_construct(start=is_, end=ie, text=view.inp.original[is_ - view.inp_origin:ie - view.inp_origin]),
                verdict=verdict, kind=kind, p_conflict=round(p_conflict(p_same, 1.0 - keep, o.same_exponent), 4),
                reasons=reasons, detail=reasons[0].detail if reasons else ruling.detail,
            ))
        return out

    def _ranked(self, diffs: list[Difference]) -> list[Difference]:
        """Strongest first, at most ``max_reasons``."""
        weights = weight_values(self.options.weights)
        return sorted(diffs, key=lambda d: -weights[d.weight])[: self.options.max_reasons]

    def _reasons(self, diffs: list[Difference], validate: bool = True) -> list[Reason]:
        make = Reason if validate else Reason.model_construct  # an edit's reasons repeat the pair's, already checked
        return [make(type=d.type, reference=d.reference, input=d.input, detail=d.detail) for d in self._ranked(diffs)]


def _source(document: IndexedDocument, clause: Clause) -> tuple[str, int]:
    """A clause's text as it stands in its file, and where it starts there."""
    return document.document.original[clause.span.start:clause.span.end], clause.span.start


_EDIT_FLOOR = 0.2  # P(same matter) below which a pair is not judged edit by edit
_HELD = 1.0  # the shorter clause's content words all repeated, in order, by the longer one: text was added


def _stamps(a: str, b: str, language: str) -> bool:
    """Two version stamps: short, mostly their dates, so they differ in most words when the date changes."""
    return version_stamp(a, language) and version_stamp(b, language)


def _one_clause_edited(ref: ClauseAtoms, inp: ClauseAtoms) -> bool:
    """Whether most words of the shorter clause are in the other: an edited clause, not another one."""
    a, b = ref.word_set, inp.word_set
    return bool(a) and bool(b) and len(a & b) >= _EDITED_WORDS * min(len(a), len(b))


_EDITED_WORDS = 0.6


def _edited_overlap(lexical: float, ruled, ref: ClauseAtoms, inp: ClauseAtoms, view: PairView | None) -> float:
    """The overlap of the clauses' words once their editorial edits are applied (renamed or retyped words
    are no loss of overlap), and raised when one clause is held, in order, in the other (a sentence added)."""
    if ruled is not None and ruled.base is not ref:
        lexical = max(lexical, dice(ruled.base.stems, inp.stems))
    held = containment(view) if view is not None and lexical < _HELD else 0.0
    if held >= _HELD:  # a clause held, in order, in the other (a sentence added) is one matter edited
        lexical = max(lexical, (lexical + held) / 2)
    return lexical


def _defines_same_term(a: str, b: str, lexicon) -> bool:
    from conflictkit.segmenters.kinds import defined_term

    term = defined_term(a, lexicon)
    return term is not None and term == defined_term(b, lexicon)
