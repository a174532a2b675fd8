"""Every fault an OpenAI-compatible endpoint can throw, from the fake, under the retry policy the Isaacus
client shares (conflictkit.remote): storms of 500/503/429, hangs and dropped connections on every 2nd
request are ridden out; a body that is not a completion fails in one line (exit 2) naming the endpoint,
is never cached, and the answers that did arrive are kept."""

from __future__ import annotations

import pytest

from conflictkit.errors import ResponseError
from conflictkit.testing.loopback import STORMS
from conflictkit_openai.client import ChatClient
from conflictkit_openai.options import LLMOptions
from tests.backends.openai.conftest import LOCAL
from tests.backends.openai.test_client import nli


@pytest.mark.parametrize("fault", STORMS)
def test_a_fault_on_every_second_request_is_ridden_out(fake, store, fault):
    with fake.serve() as server:
        fake.storm(every=2, **STORMS[fault])
        options = LLMOptions(**{**LOCAL, "base_url": server.base_url, "backoff_s": 0.01, "timeout": 0.5, "max_concurrency": 4})
        answers = ChatClient(options, store).complete([nli(i) for i in range(12)])
    assert [a.content for a in answers] == ["ENTAILMENT"] * 12
    assert fake.faults_injected >= 6


@pytest.mark.parametrize("kind, message", [
    ("html", "answered 200 with an HTML page instead of JSON"),
    ("empty", "answered 200 with an empty body"),
    ("malformed", "answered 200 with malformed JSON"),
    ("no_choices", r"answered no choices \(choices: \[\]\)"),
    ("no_content", "answered a choice without text content"),
])
@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
def test_a_broken_body_fails_in_one_line_and_keeps_the_answers_that_arrived(fake, store, http_client, kind, message, stream):
    requests = [nli(i) for i in range(6)]
    fake.corrupt(kind)
    with pytest.raises(ResponseError, match=rf"^llm endpoint /chat/completions {message}") as raised:
        ChatClient(LLMOptions(**{**LOCAL, "max_concurrency": 1, "stream": stream}), store, http_client).complete(requests)
    assert raised.value.exit_code == 2 and "\n" not in str(raised.value)
    sent = fake.count(None)
    again = ChatClient(LLMOptions(**LOCAL), store, http_client).complete(requests)
    assert [a.content for a in again] == ["ENTAILMENT"] * 6
    assert fake.count(None) - sent == 6 - sum(a.cached for a in again)  # only the unanswered asked again
    assert not again[0].cached  # the broken answer was never cached


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
def test_nan_log_probabilities_are_never_used(fake, store, http_client, stream):
    fake.corrupt("nan_logprobs")
    (answer,) = ChatClient(LLMOptions(**{**LOCAL, "stream": stream}), store, http_client).complete([nli(1)])
    assert answer.content == "ENTAILMENT" and answer.positions is None  # not one of them is used


@pytest.mark.parametrize("served", [False, True], ids=["in-process", "loopback"])
def test_a_stream_cut_off_halfway_is_retried_like_a_dropped_connection(fake, store, http_client, served):
    fake.corrupt("cut", times=2)
    if served:
        with fake.serve() as server:
            client = ChatClient(LLMOptions(**{**LOCAL, "base_url": server.base_url, "backoff_s": 0.01}), store)
            answers = client.complete([nli(1), nli(2)])
    else:
        client = ChatClient(LLMOptions(**{**LOCAL, "backoff_s": 0.01}), store, http_client)
        answers = client.complete([nli(1), nli(2)])
    assert [a.content for a in answers] == ["ENTAILMENT"] * 2 and all(a.positions for a in answers)
    assert client.report()["retries"] == 2 and fake.count(None) == 4
