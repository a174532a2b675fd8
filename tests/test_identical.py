"""Identical clause texts are settled as covered without the judge; everything else is still judged."""

from conflictkit.config import resolve
from conflictkit.engine import Engine
from conflictkit.identical import identical_pairs, settle_identical
from conflictkit.model import CandidatePair
from conflictkit.testing.clauses import indexed_document
from conflictkit.testing.judges import registered
from tests.conftest import FAST_CONFIG, REFERENCE

A = "The Supplier shall deliver the Goods within thirty (30) days."
B = "This Agreement is governed by the laws of Delaware."
A_NOT = "The Supplier shall not deliver the Goods within thirty (30) days."


def pair(r, i):
    return CandidatePair(reference_id=r, input_id=i, relevance=0.5)


def test_copies_pair_in_document_order_and_extra_copies_stay_open():
    ref = indexed_document([A, A, A, B], "r")
    inp = indexed_document([B, A, A], "i")
    assert identical_pairs(ref, inp) == [("r1", "i2"), ("r2", "i3"), ("r4", "i1")]


def test_filtered_clauses_are_never_settled():
    ref = indexed_document(["Payment", A], "r")
    ref.clauses[0].filtered = "heading"
    inp = indexed_document(["Payment", A], "i")
    inp.clauses[0].filtered = "heading"
    assert identical_pairs(ref, inp) == [("r2", "i2")]


def test_only_pairs_between_two_settled_clauses_are_dropped():
    ref = indexed_document([A, B], "r")
    inp = indexed_document([A, A_NOT, B], "i")
    retrieved = [pair("r1", "i1"), pair("r1", "i2"), pair("r1", "i3"), pair("r2", "i2")]
    settled = settle_identical(retrieved, ref, inp)
    assert [(c.reference_id, c.input_id) for c in settled.to_judge] == [("r1", "i2"), ("r2", "i2")]
    assert [(j.reference_id, j.input_id, j.p_same, j.p_conflict, j.judge) for j in settled.judgements] == [
        ("r1", "i1", 1.0, 0.0, "identical"), ("r2", "i3", 1.0, 0.0, "identical")]
    # retrieval missed ("r2", "i3"): it is added, so a settled clause always has its counterpart
    assert [(c.reference_id, c.input_id, c.signals["identical"]) for c in settled.candidates] == [("r1", "i1", 1.0), ("r2", "i3", 1.0)]


def test_a_document_compared_with_itself_needs_no_judge():
    with registered():
        config = resolve({**FAST_CONFIG, "pipeline": {**FAST_CONFIG["pipeline"], "judge": {"use": "recording"}}})
        engine = Engine(config)
        result = engine.compare(str(REFERENCE), str(REFERENCE))
        assert engine.judge.calls == [] and engine.judge.warm_ups == 0
    assert result.report["findings"] == []
    operative = sum(c.filtered is None and c.kind == "clause" for c in result.reference.clauses)
    assert result.report["summary"]["covered"] >= operative


def test_a_changed_copy_of_a_settled_clause_is_still_judged():
    text_ref = f"1. {A}\n\n2. {B}\n"
    text_inp = f"1. {A}\n\n2. {B}\n\n3. {A_NOT}\n"
    with registered():
        config = resolve({**FAST_CONFIG, "pipeline": {**FAST_CONFIG["pipeline"], "judge": {"use": "recording"}}})
        engine = Engine(config)
        result = engine.compare_texts(text_ref, text_inp)
        judged = {(p.reference_id, p.input_id) for call in engine.judge.calls for p in call}
    changed = next(c.id for c in result.input.clauses if "shall not" in c.text)
    assert judged and all(i == changed for _, i in judged)
