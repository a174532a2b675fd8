"""Identical clause texts are settled as covered without the judge; everything else is still judged."""

import pytest

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


def test_copies_pair_as_the_alignment_anchors_them_and_extra_copies_stay_open():
    ref = indexed_document([A, A, A, B], "r")
    inp = indexed_document([B, A, A], "i")
    # the input's two copies sit at 1/3 and 2/3 of it: the reference copies nearest those places pair
    assert identical_pairs(ref, inp) == [("r2", "i2"), ("r3", "i3"), ("r4", "i1")]


def test_only_an_exact_text_pair_is_settled_not_one_equal_up_to_labels_or_emphasis():
    ref = indexed_document([f"1. {A}", B], "r")
    inp = indexed_document([f"(a) {A}", B], "i")
    assert identical_pairs(ref, inp) == [("r2", "i2")]


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


def _counting_engine(judge="recording"):
    """The model-free pipeline with the counting embedder (inside ``registered()``)."""
    pipeline = {**FAST_CONFIG["pipeline"], "embedder": {"use": "counting"}, "judge": {"use": judge}}
    return Engine(resolve({**FAST_CONFIG, "pipeline": pipeline}))


def test_a_changed_copy_of_a_settled_clause_is_compared_with_unsettled_clauses_only():
    C = "The Customer shall not deliver the Goods within thirty (30) days."
    text_ref = f"1. {A}\n\n2. {B}\n\n3. {C}\n"
    text_inp = f"1. {A}\n\n2. {B}\n\n3. {A_NOT}\n"
    with registered():
        engine = _counting_engine()
        result = engine.compare_texts(text_ref, text_inp)
        judged = {(p.reference_id, p.input_id) for call in engine.judge.calls for p in call}
    changed = next(c.id for c in result.input.clauses if "Supplier shall not" in c.text)
    other = next(c.id for c in result.reference.clauses if "Customer" in c.text)
    assert judged == {(other, changed)}


def test_settled_and_non_operative_clauses_are_not_embedded():
    text_ref = f"# Terms\n\n1. {A}\n\n2. {B}\n"
    text_inp = f"# Terms\n\n1. {A_NOT}\n\n2. {B}\n"
    with registered():
        engine = _counting_engine("legal-atoms")
        result = engine.compare_texts(text_ref, text_inp)
        embedded = list(engine.embedder.embedded)
    assert sorted(embedded) == sorted([A, A_NOT])  # B is settled, the heading is filtered
    assert result.reference.vectors is None and result.input.vectors is None
    assert [f["kind"] for f in result.report["findings"]] == ["deviation"]


def test_a_judge_that_reads_the_documents_vectors_gets_every_clause_embedded():
    text = f"# Terms\n\n1. {A}\n\n2. {B}\n"
    with registered():
        engine = _counting_engine("cosine-only")
        result = engine.compare_texts(text, text.replace("thirty (30)", "sixty (60)"))
        embedded = set(engine.embedder.embedded)
    assert embedded == {c.text for c in result.reference.clauses} | {c.text for c in result.input.clauses}
    assert result.reference.vectors.shape[0] == len(result.reference.clauses)


def test_a_run_is_judged_on_the_mean_of_its_clauses_vectors_though_the_documents_carry_none():
    import numpy as np

    from conflictkit.embedders.hashing import HashingEmbedder

    first, second = "Each party shall keep the other party's Confidential Information secret.", \
        "It may use it only to perform this Agreement and for any other purpose."
    text_ref = f"1. {A}\n\n2. {first[:-1]} and shall use it only to perform this Agreement.\n\n3. {B}\n"
    text_inp = f"1. {A}\n\n2. {first}\n\n3. {second}\n\n4. {B}\n"
    with registered():
        engine = _counting_engine()
        result = engine.compare_texts(text_ref, text_inp)
        runs = [p for call in engine.judge.calls for p in call if "+" in p.input_id]
    assert result.input.vectors is None and len(runs) == 1
    hashing = HashingEmbedder()
    members = [result.input.clause(cid).text for cid in runs[0].input_id.split("+")]
    mean = hashing.embed(members).mean(axis=0)
    expected = float(hashing.embed([result.reference.clause(runs[0].reference_id).text])[0] @ (mean / np.linalg.norm(mean)))
    assert runs[0].similarity == pytest.approx(expected, abs=1e-6)
