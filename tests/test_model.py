"""Models built from trusted data (the cache) equal the validated ones, nested models included."""

import pytest

from conflictkit.model import CandidatePair, Clause, Edit, EditSide, Judgement, Reason, Span, trusted


def test_trusted_data_builds_the_same_models_as_validation():
    judgement = Judgement(
        reference_id="c1", input_id="c2", p_same=0.9, p_differs=0.4, p_conflict=0.36, judge="legal-atoms",
        reasons=[Reason(type="number", reference="30 days", input="60 days")], signals={"lexical": 0.8},
        edits=[Edit(reference=EditSide(start=3, end=5, text="30"), input=EditSide(start=3, end=5, text="60"),
                    verdict="substantive", kind="number", p_conflict=0.9, reasons=[Reason(type="number")])],
    )
    data = judgement.model_dump(mode="json")
    built = trusted(Judgement, data)
    assert built == Judgement.model_validate(data) == judgement
    assert isinstance(built.reasons[0], Reason) and isinstance(built.edits[0].input, EditSide)
    assert built.model_dump(mode="json") == data
    clause = Clause(id="c1", text="The term is one year.", span=Span(start=0, end=21), heading=None)
    assert trusted(Clause, clause.model_dump(mode="json")) == clause
    pair = trusted(CandidatePair, {"reference_id": "a", "input_id": "b"})  # defaults filled in
    assert pair.signals == {} and pair.similarity is None and pair.relevance == 0.0


def test_a_damaged_entry_raises_key_error_for_the_caller_to_recompute():
    with pytest.raises(KeyError, match="Judgement.p_same"):
        trusted(Judgement, {"reference_id": "a", "input_id": "b"})
    with pytest.raises(KeyError, match="Span.end"):
        trusted(Clause, {"id": "c1", "text": "x", "span": {"start": 0}})
