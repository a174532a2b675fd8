"""The Isaacus judge: the four questions, each clause sent once per question, probabilities by the recipe."""

from __future__ import annotations

import numpy as np
import pytest

from conflictkit.errors import ConfigError
from conflictkit.loaders import document_from_text
from conflictkit.model import CandidatePair, Clause, IndexedDocument, Span
from conflictkit.stages import Comparison
from conflictkit.testing.isaacus import embed
from conflictkit_isaacus import recipe
from conflictkit_isaacus.judge import IsaacusJudge

REF = ["Customer shall pay all fees within thirty (30) days of the invoice date.",
       "This Agreement is governed by the laws of the State of New York.",
       "Fees and Payment"]
INP = ["Customer shall pay all fees within sixty (60) days of the invoice date.",
       "This Agreement is governed by the laws of England and Wales.",
       "Provider may suspend the Services for late payment."]


def _indexed(texts, prefix, filtered=()):
    clauses = [Clause(id=f"{prefix}{i}", text=t, span=Span(start=0, end=len(t)), order=i,
                      filtered="heading" if i in filtered else None) for i, t in enumerate(texts)]
    vectors = np.stack([embed(t, 256) for t in texts]).astype(np.float32)
    return IndexedDocument(document=document_from_text("\n\n".join(texts), prefix), clauses=clauses, vectors=vectors)


@pytest.fixture
def comparison():
    return Comparison(reference=_indexed(REF, "r", filtered={2}), input=_indexed(INP, "i"))


PAIRS = [CandidatePair(reference_id="r0", input_id="i0"), CandidatePair(reference_id="r0", input_id="i2"),
         CandidatePair(reference_id="r1", input_id="i1"), CandidatePair(reference_id="r2", input_id="i0")]


def _requests(fake, path, query=None):
    return [r for r in fake.requests if r.path == path and (query is None or query(r.body["query"]))]


def test_each_distinct_clause_is_sent_once_per_question(make, fake, comparison):
    judge = make(IsaacusJudge)
    judge.judge(PAIRS, comparison)
    opts = judge.options
    distinct = {REF[0], REF[1], REF[2], INP[0], INP[1], INP[2]}
    (empty,) = _requests(fake, "/rerankings", lambda q: q == opts.empty_query)
    (money,) = _requests(fake, "/classifications/universal", lambda q: q == opts.money_query)
    assert sorted(empty.body["texts"]) == sorted(distinct) == sorted(money.body["texts"])
    # care and agree: one request per distinct clause used as a query (3 reference + 3 input clauses),
    # carrying all of that clause's partners.
    care = _requests(fake, "/classifications/universal", lambda q: q.startswith("A party"))
    agree = _requests(fake, "/rerankings", lambda q: q.startswith("A lawyer"))
    assert len(care) == len(agree) == 6
    r0 = next(r for r in care if r.body["query"].endswith(REF[0]))
    assert sorted(r0.body["texts"]) == sorted([INP[0], INP[2]])
    assert {r.body["model"] for r in care} == {"kanon-universal-classifier"}
    assert {r.body["model"] for r in agree} == {"kanon-2-reranker"}


def test_probabilities_follow_the_recipe_from_the_answers(make, comparison):
    judgements = make(IsaacusJudge).judge(PAIRS, comparison)
    assert [(j.reference_id, j.input_id) for j in judgements] == [(p.reference_id, p.input_id) for p in PAIRS]
    for j in judgements:
        s = j.signals
        material = recipe.materiality(s["empty"], s["care"], s["agree"], s["money"])
        assert s["materiality"] == pytest.approx(material)
        assert j.p_same == pytest.approx(recipe.p_same(s["match"]))
        assert j.p_differs == pytest.approx(recipe.p_differs(material))
        assert j.p_conflict == pytest.approx(recipe.p_conflict_from(j.p_same, j.p_differs))
        assert j.judge == "isaacus" and j.reasons[0].type == "isaacus"
        assert j.reasons[0].detail.startswith(f"materiality {material:.1f}; money: ")
    by_pair = {(j.reference_id, j.input_id): j for j in judgements}
    # the payment clauses are each other's best match; a payment clause and a suspension clause are not
    assert by_pair[("r0", "i0")].p_same > by_pair[("r0", "i2")].p_same
    assert "money: yes" in by_pair[("r0", "i0")].reasons[0].detail


def test_match_uses_the_full_matrix_of_the_engine_vectors(make, comparison):
    (j,) = make(IsaacusJudge).judge([PAIRS[0]], comparison)
    sim = comparison.reference.vectors @ comparison.input.vectors.T
    (expected,) = recipe.mutual_match(sim, [(0, 0)], [0, 1], [0, 1, 2])  # r2 was filtered
    assert j.signals["match"] == pytest.approx(expected)


def test_a_second_judgement_of_the_same_pairs_sends_no_request(make, fake, comparison):
    first = make(IsaacusJudge).judge(PAIRS, comparison)
    sent = len(fake.requests)
    again = make(IsaacusJudge).judge(PAIRS, comparison)
    assert len(fake.requests) == sent
    assert [j.p_conflict for j in again] == [j.p_conflict for j in first]


def test_no_pairs_no_requests_and_no_vectors_is_a_config_error(make, fake, comparison):
    judge = make(IsaacusJudge)
    assert judge.judge([], comparison) == []
    assert fake.requests == []
    bare = Comparison(reference=comparison.reference.model_copy(update={"vectors": None}), input=comparison.input)
    with pytest.raises(ConfigError, match="needs clause vectors"):
        judge.judge(PAIRS, bare)


def test_long_clauses_are_cut_to_fit_the_query_limit(make, fake, comparison):
    long_text = "word " * 2000
    ref = _indexed([long_text.strip()], "r")
    inp = _indexed(["short clause text"], "i")
    make(IsaacusJudge).judge([CandidatePair(reference_id="r0", input_id="i0")], Comparison(reference=ref, input=inp))
    assert max(len(r.body["query"]) for r in fake.requests) <= 5000
