"""Support (no tests here): builds a one-pair comparison from two clause texts, for the legal-atoms judge tests."""

from __future__ import annotations

import hashlib

from conflictkit.judges.atoms import LegalAtomsJudge
from conflictkit.model import CandidatePair, Clause, Document, IndexedDocument, Judgement, Span
from conflictkit.normalize import normalize
from conflictkit.segmenters.markup import clause_text
from conflictkit.stages import Comparison


def indexed(text: str, clause_id: str, heading: str | None = None) -> IndexedDocument:
    norm = normalize(text)
    doc = Document(path=f"{clause_id}.md", original=text, normalized=norm.text, offsets=norm.offsets,
                   sha256=hashlib.sha256(norm.text.encode()).hexdigest())
    clause = Clause(id=clause_id, text=clause_text(text), span=Span(start=0, end=len(text)), heading=heading)
    return IndexedDocument(document=doc, clauses=[clause])


def judged(reference: str, input: str, *, similarity: float | None = None, relevance: float = 0.0,
           ref_heading: str | None = None, inp_heading: str | None = None,
           judge: LegalAtomsJudge | None = None) -> Judgement:
    """Judge one (reference, input) clause pair through the judge's public ``judge`` method."""
    comparison = Comparison(reference=indexed(reference, "r1", ref_heading), input=indexed(input, "i1", inp_heading))
    pair = CandidatePair(reference_id="r1", input_id="i1", similarity=similarity, relevance=relevance)
    (judgement,) = (judge or LegalAtomsJudge()).judge([pair], comparison)
    return judgement
