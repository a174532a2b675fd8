"""The one retry policy every hosted API gets (conflictkit.remote.Runner), on plain callables."""

from __future__ import annotations

import os
import threading
import time

import httpx
import pytest

from conflictkit.errors import BackendError, ConfigError, ResponseError
from conflictkit.remote import RetryPolicy, Runner, Transient, json_answer


class Flaky(Exception):
    """A failure worth another try (a 503, say)."""


def transient(exc: BaseException) -> Transient | None:
    if isinstance(exc, Flaky):
        return Transient(str(exc) or "server error (503)", 429 if str(exc) == "429" else 503)
    return None


def final(exc: BaseException) -> BaseException:
    return ConfigError(f"refused: {exc}")


def runner(max_retries=2, budget=30.0, concurrency=1, backoff=0.001) -> Runner:
    return Runner("Test API", RetryPolicy(max_retries=max_retries, backoff_s=backoff, budget_s=budget), concurrency, transient, final)


def failing(times: int, answer: object = "ok", error: str = ""):
    state = {"left": times}

    def call():
        if state["left"] > 0:
            state["left"] -= 1
            raise Flaky(error)
        return answer
    return call


def test_a_request_is_retried_until_it_is_answered():
    r = runner(max_retries=3)
    assert r.run([failing(3)]) == ["ok"] and r.retries == 3


def test_alone_it_gives_up_after_max_retries_saying_what_and_where():
    with pytest.raises(BackendError, match=r"^Test API /things: server error \(503\) after 2 retries in [\d.]+ s$"):
        runner(max_retries=2).run([failing(5)], endpoint="/things")


def test_failures_while_others_are_answered_do_not_count():
    """Half the requests failing (a 503 on every 2nd) is a service that is up: an unlucky request keeps trying."""
    done = threading.Condition()
    answered = 0

    tries = 0

    def ok():  # the others are paced: 20 answers per try of the flaky request
        nonlocal answered
        with done:
            done.wait_for(lambda: answered < 20 * tries or tries > 6, timeout=30)
            answered += 1
            done.notify_all()
        return "ok"

    def flaky():  # fails 6 times (max_retries is 1), each time only after 20 more answers of the others
        nonlocal tries
        with done:
            tries += 1
            done.notify_all()
            if tries > 6:
                return "ok"
            done.wait_for(lambda: answered >= 20 * tries, timeout=30)
        raise Flaky()

    assert runner(max_retries=1, concurrency=4).run([flaky] + [ok] * 300) == ["ok"] * 301 and tries == 7


def test_once_nothing_else_is_answered_failures_count_again():
    """The same request after the others are done: the service may be down, max_retries holds."""
    done = threading.Event()
    answered = []

    def ok():
        answered.append(1)
        if len(answered) == 3:
            done.set()
        return "ok"

    def down():
        done.wait(30)  # fails only once the others are all answered
        raise Flaky()

    with pytest.raises(BackendError, match=r"server error \(503\) after 2 retries in [\d.]+ s; 3 of 4 requests of this step answered"):
        runner(max_retries=1, concurrency=4, backoff=0.005).run([down, ok, ok, ok])


def test_rate_limits_never_count_but_the_deadline_holds():
    r = runner(max_retries=0, budget=0.3)
    assert r.run([failing(5, error="429")]) == ["ok"]  # five 429s with max_retries 0: still answered
    assert r.limit.lowest < r.limit.ceiling or r.limit.ceiling == 1
    with pytest.raises(BackendError, match=r"rate limit|429.*after [\d.]+ s of retrying \(retry_budget_s 0.3 s"):
        r.run([failing(10_000, error="429")])


def test_advertised_waits_are_honoured():
    def call_with_retry_after():
        state["n"] += 1
        if state["n"] == 1:
            raise Flaky()
        return "ok"

    state = {"n": 0}
    r = Runner("Test API", RetryPolicy(max_retries=2, backoff_s=0.0, budget_s=10),
               1, lambda exc: Transient("server error (503)", 503, 0.25), final)
    started = time.monotonic()
    assert r.run([call_with_retry_after]) == ["ok"] and time.monotonic() - started >= 0.25


def test_a_final_failure_stops_the_step_keeps_what_arrived_and_says_how_far_it_got():
    arrived: dict[int, object] = {}
    sent = []
    lock = threading.Lock()

    def ok(i):
        def call():
            with lock:
                sent.append(i)
            time.sleep(0.02)
            return i
        return call

    def refused():
        time.sleep(0.005)
        raise ValueError("400 bad request")

    calls = [ok(0), ok(1), refused] + [ok(i) for i in range(3, 40)]
    with pytest.raises(ConfigError, match="refused: 400 bad request"):
        runner(concurrency=3).run(calls, lambda i, answer: arrived.setdefault(i, answer))
    assert set(arrived) == set(sent)  # every request that was answered reached on_answer (the cache)
    assert len(sent) < 39  # the queued requests were never sent


def test_a_response_error_is_never_retried_and_keeps_its_exit_code():
    calls = 0

    def bad():
        nonlocal calls
        calls += 1
        raise ResponseError("Test API /x answered an HTML page")

    with pytest.raises(ResponseError) as raised:
        runner(max_retries=5).run([bad, bad])
    assert calls == 1 and raised.value.exit_code == 2 and "0 of 2 requests of this step answered" in str(raised.value)


@pytest.mark.parametrize("body, content_type, message", [
    (b"", "application/json", "answered 200 with an empty body"),
    (b"<html><body>Sign in</body></html>", "text/html", "answered 200 with an HTML page instead of JSON"),
    (b'{"results": [', "application/json", "answered 200 with malformed JSON"),
    (b"[1, 2]", "application/json", "answered a JSON list instead of an object"),
])
def test_json_answer_names_the_endpoint_and_what_came_instead(body, content_type, message):
    response = httpx.Response(200, content=body, headers={"content-type": content_type})
    with pytest.raises(ResponseError, match=rf"^Test API /x {message}"):
        json_answer(response, "Test API", "/x")
    assert json_answer(httpx.Response(200, json={"a": 1}), "Test API", "/x") == {"a": 1}


def test_ctrl_c_sends_nothing_more_and_waits_out_no_backoff():
    import signal

    sent = []

    def interrupt():
        sent.append("interrupt")
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, while the main thread waits for the step
        return "ok"

    def backing_off():
        sent.append("flaky")
        raise Flaky()

    def slow():
        sent.append("slow")
        time.sleep(0.05)
        return "ok"

    r = Runner("Test API", RetryPolicy(max_retries=50, backoff_s=5.0, budget_s=300), 3, transient, final)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        r.run([backing_off, interrupt] + [slow] * 100)
    assert time.monotonic() - started < 2.5  # not the 5 s backoff, nor 100 slow requests
    assert sent.count("slow") < 20
