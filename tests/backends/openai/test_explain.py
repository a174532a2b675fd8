"""The llm explainer through the engine: every quote grounded, the published rules kept, broken answers survived."""

import json

import pytest

from conflictkit.config import resolve
from conflictkit.engine import Engine
from conflictkit.store import Store
from tests.conftest import FAST_CONFIG, INPUT, REFERENCE


@pytest.fixture
def explained(fake, tmp_path):
    """``explained(**options)`` compares the samples with the llm explainer on the fake (loopback)."""
    with fake.serve() as server:
        def run(store=None, **options):
            config = resolve({**FAST_CONFIG, "pipeline": {**FAST_CONFIG["pipeline"], "explainer": {"use": "llm", "options": {
                "model": "fake-model", "base_url": server.base_url, "backoff_s": 0.0, **options}}}})
            engine = Engine(config, store=store or Store(tmp_path / "cache.sqlite"))
            return engine.compare(str(REFERENCE), str(INPUT))
        yield run


def test_every_finding_gets_a_summary_and_a_recommendation_with_grounded_quotes(explained, fake):
    result = explained()
    report = result.report
    ids = [f["id"] for f in report["findings"]]
    assert [s["finding"] for s in report["summaries"]] == ids
    assert [r["finding"] for r in report["recommendations"]] == ids
    info = report["explainer"]
    assert info["model"] == "fake-model" and sorted(p["name"] for p in info["parties"]) == ["Customer", "Provider"]
    assert info["unexplained"] == [] and info["ungrounded_quotes_dropped"] == 0
    original = {"input": INPUT.read_text(), "reference": REFERENCE.read_text()}
    for rec in report["recommendations"]:
        for quote in rec["quotes"]:
            assert original[quote["side"]][quote["start"] : quote["end"]] == quote["text"]
    kinds = {f["id"]: f["kind"] for f in report["findings"]}
    for rec in report["recommendations"]:
        if kinds[rec["finding"]] == "added":
            assert "rewrite" not in rec and "insert" not in rec
        if kinds[rec["finding"]] == "deviation":
            assert rec["rewrite"] and rec["redline"]["ops"]
        if kinds[rec["finding"]] == "missing":
            assert "remove" not in rec["actions"].values()
    assert result.params["usage"]["explainer"]["requests"] == 1 + -(-len(ids) // 8)  # parties, then batches of 8


def test_a_rerun_sends_nothing(explained, fake, tmp_path):
    explained()
    sent = fake.count(None)
    again = explained()
    assert fake.count(None) == sent and again.report["recommendations"]


def test_hallucinated_quotes_are_dropped_and_counted(explained, fake):
    fake.corrupt("hallucinated_quote", times=2)  # the parties answer (first) has no quotes to corrupt
    report = explained(batch_size=100).report
    assert report["explainer"]["ungrounded_quotes_dropped"] == len(report["findings"])
    assert all(r["ungrounded_quotes"] == 1 for r in report["recommendations"])
    assert "the Provider shall not be liable for anything at all" not in json.dumps(report["recommendations"])


def test_unknown_party_ids_are_dropped(explained, fake):
    fake.corrupt("unknown_party", times=2)
    report = explained(batch_size=100).report
    assert report["explainer"]["unknown_parties_dropped"] == len(report["findings"])
    assert all("p99" not in r["actions"] for r in report["recommendations"])


def test_missing_ids_are_listed_and_prose_around_json_is_read(explained, fake):
    fake.corrupt("prose", times=1)  # the parties answer comes wrapped in prose and fences
    fake.script = None
    report = explained(batch_size=100).report
    assert sorted(p["name"] for p in report["explainer"]["parties"]) == ["Customer", "Provider"]


def test_findings_the_model_skipped_are_listed_as_unexplained(explained, fake):
    fake.corrupt("missing_ids", times=2)  # the parties answer (first) has no findings to drop
    report = explained(batch_size=100).report
    assert report["explainer"]["unexplained"] and len(report["recommendations"]) + len(report["explainer"]["unexplained"]) == len(report["findings"])


def test_a_truncated_answer_is_asked_again(explained, fake):
    fake.corrupt("truncated", times=2)  # parties, then its retry... and the batch answers fine
    report = explained(batch_size=100).report
    assert report["recommendations"]


def test_an_echo_of_the_findings_is_not_an_explanation_and_is_never_cached(explained, fake):
    fake.explainer = "echo"
    result = explained(batch_size=100)
    report = result.report
    info = report["explainer"]
    n = len(report["findings"])
    assert info["explained"] == 0 and len(info["unexplained"]) == n and not report["recommendations"]
    assert info["problems"] == [{"problem": "an echo of the finding (no summary, comment, action, quote or rewrite)", "findings": n}]
    assert result.params["usage"]["explainer"]["rejected_answers"] == 2  # asked once more, then given up
    sent = fake.count(None)
    fake.explainer = "good"
    again = explained(batch_size=100).report  # nothing was cached: the batch is asked again
    assert fake.count(None) > sent and again["explainer"]["explained"] == n


def test_lists_where_maps_were_asked_for_are_read(explained, fake):
    """Issue 28: the model answered `reasons` as a list, as the prompt's payload shows them; that crashed."""
    fake.explainer = "lists"
    report = explained().report
    assert report["explainer"]["explained"] == len(report["findings"])
    rec = report["recommendations"][0]
    assert rec["actions"] and set(rec["actions"]) <= {"p1", "p2"} and rec["reasons"]


def test_a_reasons_list_of_plain_sentences_is_dropped_not_fatal(explained, fake):
    def answer(body):
        user = body["messages"][-1]["content"]
        if "TASK: explain" not in user:
            return json.dumps({"parties": [{"id": "p1", "name": "Provider"}, {"id": "p2", "name": "Customer"}]})
        ids = [f["id"] for f in json.loads(user.split("FINDINGS:\n", 1)[1].split("\n\nANSWER FORMAT:")[0])]
        return "```json\n" + json.dumps({"findings": [{"id": i, "summary": "It changed.", "reasons": ["It departs.", "Fine."],
                                                       "actions": "rewrite", "quotes": "Provider"} for i in ids]}) + "\n```"
    fake.script = answer
    report = explained(batch_size=100).report
    assert report["explainer"]["explained"] == len(report["findings"])
    assert all(r["reasons"] == {} and r["actions"] == {} for r in report["recommendations"])
    assert all(r["quotes"] and r["quotes"][0]["text"] == "Provider" for r in report["recommendations"])


def test_an_answer_cut_off_mid_list_keeps_its_complete_items(explained, fake):
    fake.corrupt("truncated", times=3)  # parties, its retry, then the batch answer cut in half
    fake.script = None
    report = explained(batch_size=100).report
    info = report["explainer"]
    assert 0 < info["explained"] < len(report["findings"])
    assert info["problems"] == [{"problem": "skipped by the model", "findings": len(info["unexplained"])}]


def test_explanations_are_handed_over_batch_by_batch(fake, tmp_path):
    from conflictkit.stages import Comparison

    config = resolve({**FAST_CONFIG, "pipeline": {**FAST_CONFIG["pipeline"], "explainer": {"use": "llm", "options": {
        "model": "fake-model", "base_url": "http://127.0.0.1:9/v1", "batch_size": 4}}}})
    engine = Engine(config, store=Store(tmp_path / "cache.sqlite"))
    result = engine.compare(str(REFERENCE), str(INPUT), explain=False)
    assert "recommendations" not in result.report
    import httpx

    from conflictkit_openai.explain import LLMExplainer

    explainer = LLMExplainer(config.pipeline.explainer.options, http_client=httpx.Client(transport=fake.transport()))
    explainer.use_store(Store(tmp_path / "other.sqlite"))
    seen = []
    final = explainer.explain(result.report, Comparison(reference=result.reference, input=result.input),
                              lambda report: seen.append(report["explainer"]["explained"]))
    n = len(result.report["findings"])
    assert seen == sorted(seen) and seen[-1] == n == final["explainer"]["explained"] and len(seen) == -(-n // 4)
