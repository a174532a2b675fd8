"""The chat client against the fake: cache, retries and AIMD under storms, clear errors, the cost ceiling."""

import pytest

from conflictkit.errors import BackendError, ConfigError, ResponseError, UserError
from conflictkit_openai.client import ChatClient, ChatRequest
from conflictkit_openai.options import LLMOptions
from tests.backends.openai.conftest import LOCAL


def nli(i: int) -> ChatRequest:
    text = f"PREMISE:\nCustomer shall pay within {i} days.\n\nHYPOTHESIS:\nCustomer shall pay within {i} days.\n"
    return ChatRequest(messages=(("user", text),), max_tokens=4, logprobs=True)


def client(store, http_client, **options) -> ChatClient:
    return ChatClient(LLMOptions(**{**LOCAL, **options}), store, http_client)


def test_answers_are_cached_by_model_and_prompt(fake, store, http_client):
    first = client(store, http_client).complete([nli(i) for i in range(5)])
    assert [a.content for a in first] == ["ENTAILMENT"] * 5 and first[0].top_logprobs
    sent = fake.count(None)
    again = client(store, http_client).complete([nli(i) for i in range(5)])
    assert fake.count(None) == sent and all(a.cached for a in again)
    assert [a.content for a in again] == [a.content for a in first]
    client(store, http_client, model="gpt-4o-mini").complete([nli(0)])
    assert fake.count(None) == sent + 1  # another model is another answer


@pytest.mark.parametrize("every", [2, 3, 4])
def test_a_429_storm_is_survived_with_backoff_and_less_concurrency(fake, store, http_client, every):
    fake.storm(429, every, retry_after=0.001)
    c = client(store, http_client, max_concurrency=4)
    answers = c.complete([nli(i) for i in range(12)])
    assert len(answers) == 12 and fake.count(429) >= 12 // every - 1
    assert c.report()["retries"] == fake.count(429)
    assert c.report()["lowest_concurrency"] < 4  # halved on a 429, grown back on successes (AIMD)


def test_after_retries_run_out_the_error_says_how_far_it_got_and_a_rerun_resumes(fake, store, http_client):
    fake.storm(500, 3)  # every third request fails, and there are no retries
    with pytest.raises(BackendError, match=r"server error \(500\) after 0 retries in [\d.]+ s; \d+ of 6 requests of this step answered and kept"):
        client(store, http_client, max_retries=0, max_concurrency=1).complete([nli(i) for i in range(6)])
    fake.calm()
    answered = fake.count(200)
    client(store, http_client).complete([nli(i) for i in range(6)])
    assert fake.count(200) - answered == 6 - answered  # only the unanswered ones are asked again


def test_retry_after_is_honoured(fake, store, http_client):
    import time

    fake.fail(503, times=1, retry_after=0.3)
    started = time.monotonic()
    client(store, http_client).complete([nli(1)])
    assert time.monotonic() - started >= 0.3


def test_timeouts_are_retried_then_reported(fake, store):
    with fake.serve() as server:
        options = {**LOCAL, "base_url": server.base_url, "timeout": 0.2, "max_retries": 1}
        fake.delay(1.0, times=2)
        with pytest.raises(BackendError, match=r"request timed out \(timeout 0.2 s.*after 1 retry"):
            ChatClient(LLMOptions(**options), store).complete([nli(1)])
        fake.delay(1.0, times=1)
        assert ChatClient(LLMOptions(**options), store).complete([nli(2)])[0].content == "ENTAILMENT"


def test_configuration_problems_are_config_errors(fake, store, http_client, monkeypatch):
    fake.api_key = "sk-right"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
    with pytest.raises(ConfigError, match="refused the API key"):
        client(store, http_client).complete([nli(1)])
    monkeypatch.setenv("OPENAI_API_KEY", "sk-right")
    with pytest.raises(ConfigError, match="no model 'gpt-9'"):
        client(store, http_client, model="gpt-9").complete([nli(1)])
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(ConfigError, match="export OPENAI_API_KEY"):
        ChatClient(LLMOptions(base_url="https://api.example.com/v1"), store)
    with pytest.raises(ConfigError, match="max_usd needs prices"):
        client(store, http_client, max_usd=1.0)


def test_the_cost_ceiling_is_checked_before_any_request(fake, store, http_client, capsys):
    c = client(store, http_client, prices={"input": 1000.0, "output": 1000.0}, max_usd=0.01)
    with pytest.raises(UserError, match=r"would cost up to \$0\.\d+, over max_usd \$0.01"):
        c.complete([nli(i) for i in range(10)])
    assert fake.count(None) == 0
    assert "estimated at most $" in capsys.readouterr().err


def test_a_malformed_body_is_a_clear_response_error(fake, store, http_client):
    fake.corrupt("malformed")
    with pytest.raises(ResponseError, match="llm endpoint /chat/completions answered 200 with malformed JSON"):
        client(store, http_client, max_retries=0).complete([nli(1)])


def test_a_rejected_answer_is_asked_again_once_and_never_cached(fake, store, http_client):
    c = client(store, http_client)
    request = ChatRequest(messages=(("user", "TASK: parties\n\nDOCUMENT:\nThe Provider (\"Provider\") and the Customer (\"Customer\").\n"),), max_tokens=50)
    fake.corrupt("truncated", times=2)
    (answer,) = c.complete([request], accept=lambda text: text.rstrip().endswith("}"))
    assert not answer.content.rstrip().endswith("}") and fake.count(200) == 2
    (answer,) = c.complete([request], accept=lambda text: text.rstrip().endswith("}"))
    assert answer.content.rstrip().endswith("}") and not answer.cached and fake.count(200) == 3
