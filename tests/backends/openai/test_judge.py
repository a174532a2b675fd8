"""The llm judge: NLI mode both ways, log-probabilities or the answered label, alone and last in a cascade."""

import pytest

from conflictkit.errors import BackendError
from conflictkit.model import CandidatePair
from conflictkit.stages import Comparison
from conflictkit.testing.clauses import indexed_document
from conflictkit_openai.judge import LLMJudge, label_of, probabilities
from tests.backends.openai.conftest import LOCAL

REFERENCE = ["Customer shall pay each invoice within thirty (30) days of receipt.",
             "Provider may suspend the Services for non-payment."]
INPUT = ["Customer shall pay each invoice within 60 days of receipt.",
         "Provider may suspend the Services for non-payment."]


def _comparison():
    return Comparison(reference=indexed_document(REFERENCE), input=indexed_document(INPUT))


def _pairs(comparison):
    return [CandidatePair(reference_id=a.id, input_id=b.id, relevance=0.9)
            for a, b in zip(comparison.reference.clauses, comparison.input.clauses)]


def test_contradiction_and_entailment_from_log_probabilities(store, http_client, fake):
    judge = LLMJudge(LOCAL, http_client=http_client)
    judge.use_store(store)
    comparison = _comparison()
    changed, same = judge.judge(_pairs(comparison), comparison)
    assert changed.p_conflict == pytest.approx(0.85) and changed.reasons[0].type == "llm"
    assert same.p_conflict == pytest.approx(0.075) and not same.reasons and same.p_differs == pytest.approx(0.15)
    assert fake.count(200) == 4 and all(r.body["temperature"] == 0 and r.body["logprobs"] for r in fake.requests)
    assert judge.usage()["pairs_sent"] == 2 and judge.usage()["prompt_tokens"] > 0


def test_a_server_without_log_probabilities_gives_the_answered_label_its_confidence(store, http_client, fake):
    fake.logprobs = False
    judge = LLMJudge({**LOCAL, "confidence": 0.8}, http_client=http_client)
    judge.use_store(store)
    comparison = _comparison()
    changed, _ = judge.judge(_pairs(comparison), comparison)
    assert changed.p_conflict == pytest.approx(0.8)


def test_an_answer_that_names_no_label_is_a_clear_error(store, http_client, fake):
    fake.script = lambda body: "I think these are probably fine."
    fake.logprobs = False
    judge = LLMJudge(LOCAL, http_client=http_client)
    judge.use_store(store)
    comparison = _comparison()
    with pytest.raises(BackendError, match="not ENTAILMENT, CONTRADICTION or NEUTRAL"):
        judge.judge(_pairs(comparison), comparison)


@pytest.mark.parametrize("answer, label", [("CONTRADICTION", "CONTRADICTION"), ("contradiction.", "CONTRADICTION"),
                                           (" Entailment\n", "ENTAILMENT"), ("NEU", "NEUTRAL"), ("CON", "CONTRADICTION"),
                                           ("No", None), ("", None), ("maybe", None)])
def test_label_of(answer, label):
    assert label_of(answer) == label


def test_log_probabilities_are_renormalised_over_the_three_labels():
    probs = probabilities("CONTRADICTION", [("CON", -0.1), ("ENT", -3.0), ("The", -2.0)], 0.9)
    assert sum(probs.values()) == pytest.approx(1.0) and probs["CONTRADICTION"] > 0.9 and probs["NEUTRAL"] == 0.0
