"""Cascade and weighted judges, on deterministic fake judges."""

from __future__ import annotations

import numpy as np
import pytest

from conflictkit.config import PipelineConfig, validate_backend_options
from conflictkit.errors import ConfigError
from conflictkit.judges.compose import CascadeJudge, WeightedJudge, fit, logit
from conflictkit.model import CandidatePair
from conflictkit.stages import Comparison
from conflictkit.testing.clauses import indexed_document
from conflictkit.testing.judges import registered



def resolve_judge(raw):
    """What config resolution does with ``pipeline.judge``: list -> cascade, then registry validation."""
    spec = PipelineConfig.model_validate({"judge": raw}).judge
    filled, problems = validate_backend_options("judge", spec, ("pipeline", "judge"))
    if problems:
        raise ConfigError("; ".join(problems))
    return filled


@pytest.fixture(autouse=True)
def fakes():
    with registered():
        yield


@pytest.fixture
def comparison():
    ref = indexed_document(["a", "b", "c"], prefix="r")
    inp = indexed_document(["a", "b", "c"], prefix="i")
    return Comparison(reference=ref, input=inp)


def pairs(n=3):
    return [CandidatePair(reference_id=f"r{k}", input_id=f"i{k}", relevance=0.9) for k in range(1, n + 1)]


def test_cascade_passes_only_uncertain_pairs_and_records_who_decided(comparison):
    judge = CascadeJudge(
        {
            "judges": [
                {"use": "fixed", "options": {"p_conflict": 0.05, "reasons": ["number"], "by_input": {"i2": 0.5, "i3": 0.95}}},
                {"use": "recording", "options": {"p_conflict": 0.9}},
            ],
            "overrule": "free",
        }
    )
    out = judge.judge(pairs(), comparison)
    second = judge.judges[1]
    assert [p.input_id for call in second.calls for p in call] == ["i2"]
    assert [j.judge for j in out] == ["fixed", "recording", "fixed"]
    assert out[1].p_conflict == 0.9
    assert out[1].signals["fixed.p_conflict"] == 0.5 and out[1].signals["recording.p_conflict"] == 0.9
    assert "recording.p_conflict" not in out[0].signals
    assert [r.type for r in out[1].reasons] == ["number"]  # the first judge's reason is kept
    assert judge.usage()["pairs_per_judge"] == {"fixed": 3, "recording": 1}


def test_cascade_escalates_pairs_without_typed_reason_unless_told_not_to(comparison):
    specs = [{"use": "fixed", "options": {"p_conflict": 0.01}}, {"use": "recording"}]
    eager = CascadeJudge({"judges": specs})
    eager.judge(pairs(), comparison)
    assert len(eager.judges[1].calls[0]) == 3
    strict = CascadeJudge({"judges": specs, "escalate": {"without_reasons": False}})
    strict.judge(pairs(), comparison)
    assert strict.judges[1].calls == []


def test_cascade_keeps_different_matter_pairs_with_the_cheap_judge(comparison):
    judge = CascadeJudge({"judges": [{"use": "fixed", "options": {"p_same": 0.1}}, {"use": "recording"}]})
    out = judge.judge(pairs(), comparison)
    assert judge.judges[1].calls == [] and {j.judge for j in out} == {"fixed"}


def test_same_judge_twice_gets_numbered_labels(comparison):
    judge = CascadeJudge({"judges": [{"use": "fixed", "options": {"p_conflict": 0.5}}, {"use": "fixed", "options": {"p_conflict": 0.7}}],
                          "overrule": "free"})
    out = judge.judge(pairs(1), comparison)
    assert out[0].judge == "fixed.2"
    assert out[0].signals["fixed.1.p_conflict"] == 0.5 and out[0].signals["fixed.2.p_conflict"] == 0.7


REFERENCE = "The Customer shall pay each invoice within thirty (30) days of receipt."
INPUT = "Each invoice shall be paid by the Customer within 30 days after it is received."


@pytest.fixture
def reworded():
    """One pair: a paraphrase with the same effect, as the rules judge reads it."""
    return Comparison(reference=indexed_document([REFERENCE], prefix="r"), input=indexed_document([INPUT], prefix="i"))


def _cascade(later: dict, earlier: dict | None = None) -> CascadeJudge:
    return CascadeJudge({"judges": [{"use": "fixed", "options": {"p_conflict": 0.05, **(earlier or {})}},
                                    {"use": "fixed", "options": {"p_conflict": 0.95, "reasons": ["llm"], **later}}]})


def test_a_later_judge_cannot_raise_a_verdict_on_its_word_alone(reworded):
    """Issue 28: a 1.5B model said CONTRADICTION to every pair, and the cascade reported harmless clauses."""
    (out,) = _cascade({}).judge(pairs(1), reworded)
    assert out.judge == "fixed.1" and out.p_conflict == 0.05 and not out.reasons
    assert out.signals["fixed.2.p_conflict"] == 0.95 and out.signals["fixed.2.unsupported"] == 1.0


@pytest.mark.parametrize("quote, stands", [
    ({"quote_input": "after it is received", "quote_reference": "of receipt"}, True),
    ({"quote_input": "The Customer shall", "quote_reference": "The Customer shall"}, False),  # the same words
    ({"quote_input": "Customer"}, False),  # words both clauses share say nothing about what changed
    ({"quote_input": "within 90 days"}, False),  # not in the clause
    ({"quote_reference": "thirty (30) days"}, True),
])
def test_a_raise_stands_only_with_a_quote_of_the_change(reworded, quote, stands):
    (out,) = _cascade(quote).judge(pairs(1), reworded)
    assert (out.p_conflict == 0.95) is stands and ("fixed.2.unsupported" in out.signals) is not stands


def test_a_later_judge_may_always_lower_a_verdict(reworded):
    (out,) = _cascade({"p_conflict": 0.1}, {"p_conflict": 0.6}).judge(pairs(1), reworded)
    assert out.judge == "fixed.2" and out.p_conflict == 0.1


def test_edits_the_earlier_judge_found_same_effect_cannot_be_quoted_against_it(reworded):
    from conflictkit.model import Edit, EditSide, Judgement

    judge = _cascade({"quote_input": "after it is received", "quote_reference": "of receipt"})
    first = judge.judges[0]
    edit = Edit(reference=EditSide(start=0, end=10, text="of receipt"), input=EditSide(start=0, end=20, text="after it is received"),
                verdict="same-effect", kind="synonym", p_conflict=0.02)
    plain = first.judge

    def with_edits(pair_list, comparison):
        return [j.model_copy(update={"edits": [edit]}) for j in plain(pair_list, comparison)]

    first.judge = with_edits
    (out,) = judge.judge(pairs(1), reworded)
    assert out.p_conflict == 0.05 and out.signals["fixed.2.unsupported"] == 1.0
    edit = edit.model_copy(update={"verdict": "substantive", "kind": "trigger"})
    (out,) = judge.judge(pairs(1), reworded)
    assert out.p_conflict == 0.95


def test_warm_up_store_and_describe_reach_every_child():
    judge = CascadeJudge({"judges": [{"use": "fixed"}, {"use": "weighted", "options": {"judges": ["fixed", "fixed"]}}]})
    sentinel = object()
    judge.use_store(sentinel)
    judge.warm_up()
    judge.warm_up()
    inner = judge.judges[1].judges
    assert [j.warm_ups for j in [judge.judges[0], *inner]] == [1, 1, 1]
    assert all(j.stores == [sentinel] for j in [judge.judges[0], *inner])
    described = judge.describe()
    assert [d["name"] for d in described["judges"]] == ["fixed", "weighted"]
    assert [d["name"] for d in described["judges"][1]["judges"]] == ["fixed", "fixed"]


def test_list_judge_in_config_becomes_a_cascade_with_defaults_filled():
    spec = resolve_judge([{"use": "fixed"}, {"use": "recording", "options": {"p_conflict": 0.8}}])
    assert spec.use == "cascade"
    assert spec.options["judges"][1] == {"use": "recording", "options": {**spec.options["judges"][0]["options"], "p_conflict": 0.8}}
    assert spec.options["escalate"]["p_same_min"] == 0.3


def test_bad_sub_judge_errors_carry_their_path():
    with pytest.raises(ConfigError) as err:
        resolve_judge([{"use": "fixed"}, {"use": "fixed", "options": {"p_conflict": 3}}])
    assert "pipeline.judge.options.judges.1.options.p_conflict" in str(err.value)
    with pytest.raises(ConfigError) as err:
        resolve_judge([{"use": "fixed"}, {"use": "no-such-judge"}])
    assert "judges.1.use" in str(err.value) and "available:" in str(err.value)
    with pytest.raises(ConfigError, match="judges.0.options.colour: unknown key"):
        CascadeJudge({"judges": [{"use": "fixed", "options": {"colour": 1}}]})
    with pytest.raises(ConfigError, match="non-empty list"):
        CascadeJudge({"judges": []})


def test_weighted_is_a_logistic_blend_of_logits(comparison):
    judge = WeightedJudge(
        {"judges": [{"use": "fixed", "options": {"p_conflict": 0.8}}, {"use": "fixed", "options": {"p_conflict": 0.3, "reasons": ["negation"]}}],
         "weights": [2.0, 1.0], "bias": -0.5}
    )
    out = judge.judge(pairs(2), comparison)
    z = -0.5 + 2.0 * logit(0.8) + 1.0 * logit(0.3)
    assert out[0].p_conflict == pytest.approx(1 / (1 + np.exp(-z)))
    assert out[0].judge == "weighted" and [r.type for r in out[0].reasons] == ["negation"]
    assert out[0].signals["fixed.1.p_conflict"] == 0.8 and out[0].signals["weighted.logit"] == pytest.approx(z)


def test_weighted_needs_one_weight_per_judge():
    with pytest.raises(ValueError, match="one weight per judge"):
        WeightedJudge({"judges": ["fixed", "fixed"], "weights": [1.0]})


def test_fit_recovers_the_judge_that_predicts_the_labels():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    informative = np.where(y == 1, rng.uniform(0.6, 0.99, 400), rng.uniform(0.01, 0.4, 400))
    noise = rng.uniform(0.01, 0.99, 400)
    fitted = fit(np.column_stack([informative, noise]), y)
    assert fitted["weights"][0] > 1.0 and abs(fitted["weights"][1]) < 0.3
    judge = WeightedJudge({"judges": ["fixed", "fixed"], **fitted})
    z = np.column_stack([logit(informative), logit(noise)]) @ judge.weights + fitted["bias"]
    assert ((z > 0) == (y == 1)).mean() > 0.95


def test_fit_rejects_bad_labels():
    with pytest.raises(ValueError, match="0 or 1"):
        fit([[0.5], [0.2]], [0, 2])


def test_a_composite_reads_the_documents_vectors_when_one_of_its_judges_does():
    with registered():
        plain = CascadeJudge({"judges": [{"use": "fixed"}, {"use": "recording"}]})
        nested = CascadeJudge({"judges": [{"use": "fixed"}, {"use": "weighted", "options": {
            "judges": [{"use": "fixed"}, {"use": "cosine-only"}]}}]})
    assert not plain.needs_vectors and nested.needs_vectors
