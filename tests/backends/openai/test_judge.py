"""The llm judge: NLI mode both ways, log-probabilities or the answered label, alone and last in a cascade."""

import pytest

from conflictkit.errors import BackendError
from conflictkit.model import CandidatePair
from conflictkit.stages import Comparison
from conflictkit.testing.clauses import indexed_document
from conflictkit.testing.openai import SPLIT_LABELS, FakeOpenAI, split_labels
from conflictkit_openai.client import ChatAnswer
from conflictkit_openai.judge import LLMJudge, label_of, probabilities, quoted_words
from conflictkit_openai.labels import label_probabilities
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
    assert fake.count(200) == 5 and all(r.body["temperature"] == 0 and r.body["logprobs"] for r in fake.requests)  # a probe, then 2 x 2
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
                                           ("NE", "NEUTRAL"), ("**NEUTRAL**", "NEUTRAL"), ("Answer: NEUTRAL", "NEUTRAL"),
                                           ("Neither", None), ("No", None), ("", None), ("maybe", None),
                                           ("not CONTRADICTION but ENTAILMENT", None)])
def test_label_of(answer, label):
    assert label_of(answer) == label


def test_log_probabilities_are_renormalised_over_the_three_labels():
    probs = probabilities(ChatAnswer("CONTRADICTION", [("CON", -0.1, [("CON", -0.1), ("ENT", -3.0), ("The", -2.0)])]), 0.9)
    assert sum(probs.values()) == pytest.approx(1.0) and probs["CONTRADICTION"] > 0.9 and probs["NEUTRAL"] == 0.0


def _spelt(label: str, first: dict[str, float], rest: float = 0.95, lead: tuple[str, ...] = ()) -> list:
    """Positions of an answer spelling ``label`` in SPLIT_LABELS tokens: the first token's alternatives
    are the labels' first tokens with ``first`` probabilities, each later token has probability ``rest``."""
    import math

    tokens = SPLIT_LABELS[label]
    positions = [(t, 0.0, [(t, 0.0)]) for t in lead]
    positions.append((tokens[0], math.log(first[label]),
                      [(SPLIT_LABELS[name][0], math.log(p)) for name, p in first.items()]))
    other = [("X", math.log(1 - rest))] if rest < 1 else []
    positions += [(t, math.log(rest), [(t, math.log(rest)), *other]) for t in tokens[1:]]
    return positions


def test_a_label_whose_first_token_is_two_letters_is_read_by_its_whole_token_sequence():
    """Issue 28: NEUTRAL's first token was 'NE', so P(neutral) read 0 and a confident NEUTRAL became P(conflict) 0.62."""
    first = {"NEUTRAL": 0.80, "CONTRADICTION": 0.12, "ENTAILMENT": 0.08}
    probs = label_probabilities(_spelt("NEUTRAL", first, rest=0.95))
    neutral = 0.80 * 0.95 * 0.95  # NE, then UT and RAL
    assert probs["NEUTRAL"] == pytest.approx(neutral / (neutral + 0.12 + 0.08))
    assert probs["CONTRADICTION"] < 0.15


def test_blank_and_quote_tokens_before_the_label_are_skipped():
    first = {"CONTRADICTION": 0.7, "ENTAILMENT": 0.2, "NEUTRAL": 0.1}
    probs = label_probabilities(_spelt("CONTRADICTION", first, rest=1.0, lead=("\n", " ", '"')))
    assert probs == pytest.approx({"CONTRADICTION": 0.7, "ENTAILMENT": 0.2, "NEUTRAL": 0.1})


def test_alternatives_that_begin_no_label_or_two_are_ignored_and_spellings_of_one_label_add_up():
    import math

    top = [("N", math.log(0.3)), (" Neut", math.log(0.2)), ("No", math.log(0.3)), ("C", math.log(0.1)), ("", math.log(0.1))]
    probs = label_probabilities([("N", math.log(0.3), top), ("EUTRAL", 0.0, [("EUTRAL", 0.0)])])
    assert probs == pytest.approx({"NEUTRAL": 0.5 / 0.6, "CONTRADICTION": 0.1 / 0.6, "ENTAILMENT": 0.0})


def test_a_path_that_leaves_the_label_keeps_only_what_it_spelt():
    import math

    # "N" then "o": the answer was "No", not NEUTRAL; only the first token's probability counts for it
    probs = label_probabilities([("N", math.log(0.6), [("N", math.log(0.6)), ("CON", math.log(0.4))]),
                                 ("o", math.log(0.9), [("o", math.log(0.9))])])
    assert probs == pytest.approx({"NEUTRAL": 0.6, "CONTRADICTION": 0.4, "ENTAILMENT": 0.0})
    assert label_probabilities([("\n", 0.0, [("\n", 0.0)])]) is None


def test_the_judge_reads_split_label_tokens_from_a_real_stream(store, tmp_path):
    fake = FakeOpenAI(tokenizer=split_labels, continuation=0.97)
    with fake.serve() as server:
        judge = LLMJudge({**LOCAL, "base_url": server.base_url})
        judge.use_store(store)
        comparison = _comparison()
        changed, same = judge.judge(_pairs(comparison), comparison)
    c = 0.85 * 0.97 * 0.97
    assert changed.p_conflict == pytest.approx(c / (c + 0.15))
    assert same.p_conflict < 0.1 and all(r.body.get("stream") for r in fake.requests)


@pytest.mark.parametrize("answer, words", [
    ('CONTRADICTION\nQUOTE: "within 60 days" <> "within thirty (30) days"', ("within 60 days", "within thirty (30) days")),
    ("CONTRADICTION\nquote: within 60 days <> within thirty (30) days", ("within 60 days", "within thirty (30) days")),
    ("CONTRADICTION\nQUOTE: \u201cwithin 60 days\u201d", ("within 60 days", None)),
    ("CONTRADICTION", (None, None)),
])
def test_quoted_words(answer, words):
    assert quoted_words(answer) == words


def test_a_contradiction_quotes_the_clauses_own_words_and_a_made_up_quote_is_dropped(store, http_client, fake):
    fake.quote = True
    judge = LLMJudge(LOCAL, http_client=http_client)
    judge.use_store(store)
    comparison = _comparison()
    changed, same = judge.judge(_pairs(comparison), comparison)
    (reason,) = changed.reasons
    assert reason.type == "llm" and reason.input and reason.input in INPUT[0] and reason.reference in REFERENCE[0]
    assert not same.reasons
    fake.script = lambda body: 'CONTRADICTION\nQUOTE: "within ninety days" <> "never said"'
    judge = LLMJudge({**LOCAL, "model": "gpt-4o-mini"}, http_client=http_client)
    judge.use_store(store)
    changed, _ = judge.judge(_pairs(comparison), comparison)
    assert changed.reasons[0].input is None and changed.reasons[0].reference is None
    assert judge.usage()["ungrounded_quotes_dropped"] == 8  # two pairs, two directions, two sides


def test_one_unreadable_answer_is_counted_and_read_as_no_information(store, http_client, fake):
    fake.logprobs = False
    answers = iter(["CONTRADICTION", "I cannot say.", "I cannot say.", "ENTAILMENT", "ENTAILMENT"])
    fake.script = lambda body: next(answers)
    judge = LLMJudge({**LOCAL, "quote": False, "probe": False, "max_concurrency": 1}, http_client=http_client)
    judge.use_store(store)
    comparison = _comparison()
    changed, same = judge.judge(_pairs(comparison), comparison)
    assert changed.p_conflict == pytest.approx(0.9)  # the readable direction decides
    assert judge.usage()["unreadable_answers"] == 1 and judge.usage()["rejected_answers"] == 2


def test_a_model_that_calls_a_clause_and_itself_a_contradiction_has_no_quote_kept(store, http_client, fake):
    fake.judge, fake.quote = "contradiction", True
    judge = LLMJudge(LOCAL, http_client=http_client)
    judge.use_store(store)
    comparison = _comparison()
    changed, same = judge.judge(_pairs(comparison), comparison)
    assert changed.p_conflict > 0.8 and same.p_conflict > 0.8  # its probabilities are what it says...
    assert all(r.reference is None and r.input is None for r in changed.reasons + same.reasons)  # ...its quotes are not kept
    assert "answered CONTRADICTION to a clause and itself" in judge.usage()["failed_probe"]
    fake.judge = "rules"
    sound = LLMJudge({**LOCAL, "model": "gpt-4o-mini"}, http_client=http_client)
    sound.use_store(store)
    changed, _ = sound.judge(_pairs(comparison), comparison)
    assert changed.reasons[0].input and "failed_probe" not in sound.usage()
