"""Calling hosted APIs (Isaacus, OpenAI-compatible endpoints): one retry policy, one request runner.

Both clients send their requests through :class:`Runner`, with their SDK's own retries switched
off, so they behave the same way:

- **What is retried**: what the SDKs retry: 408, 409, 429, 5xx, timeouts and dropped connections.
  Anything else (a refused key, a 400, an answer that is not what the endpoint promises) fails at once.
- **How long to wait**: the server's ``retry-after-ms`` / ``retry-after`` when it sends one, else an
  exponentially growing, jittered delay from ``backoff_s`` (doubling up to 8 s), so parallel workers
  do not retry in lockstep. A 429 also halves the requests in flight (:mod:`conflictkit.ratelimit`).
- **When to give up on a request**: after ``max_retries`` failures in a row during which no other
  request of the step was answered (while answers keep arriving the service is up, and a request
  that was unlucky keeps its place), or when a retry would start more than ``retry_budget_s``
  after the request's first try (the overall deadline; a 429 counts only against this).
- **What is kept**: each answer goes to ``on_answer`` (the caller's cache) the moment it arrives and
  passes the caller's checks, so a failed step loses nothing that was answered: a re-run sends only
  the rest. The first request that fails for good stops the step: requests not yet sent are never
  sent, those in flight finish and are kept, and one error says how far the step got.

:func:`json_answer` reads a 2xx body and turns an empty body, an HTML page or malformed JSON into a
:class:`~conflictkit.errors.ResponseError` (exit 2) naming the endpoint.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import AliasChoices, Field

from conflictkit.errors import BackendError, ConfigError, ResponseError
from conflictkit.ratelimit import AdaptiveLimit, advertised_delay, backoff_delay
from conflictkit.stages import Options

T = TypeVar("T")

RETRY_BACKOFF_CAP = 8.0  # the SDKs' longest wait between two tries of a request that got no advice


class RetryOptions(Options):
    """The options of every backend that calls a hosted API: one policy, the same names everywhere."""

    timeout: float = Field(60.0, gt=0, le=3600, description="seconds one try of a request may take")
    max_retries: int = Field(6, ge=0, le=50, description=(
        "retries of a request on 408/409/5xx, timeouts and dropped connections, counted only while no other "
        "request is being answered (429s are retried until retry_budget_s)"))
    backoff_s: float = Field(0.5, ge=0.0, le=60.0, description="first retry wait, doubled each time up to 8 s, jittered; "
                                                                "never less than the server's retry-after")
    retry_budget_s: float = Field(300.0, gt=0, validation_alias=AliasChoices("retry_budget_s", "rate_limit_budget"),
                                  description="no retry of a request starts later than this many seconds after its first try")


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 6
    backoff_s: float = 0.5
    budget_s: float = 300.0

    @classmethod
    def of(cls, options: RetryOptions) -> RetryPolicy:
        return cls(options.max_retries, options.backoff_s, options.retry_budget_s)


@dataclass(frozen=True)
class Transient:
    """A failure worth another try: what happened, in words for a message, and the wait the server asked for."""

    what: str
    status: int | None = None
    advertised: float | None = None

    @property
    def rate_limited(self) -> bool:
        return self.status == 429


def sdk_transient(sdk: Any, exc: BaseException, where: str, timeout: float) -> Transient | None:
    """The retryable failures of a Stainless-generated SDK (``isaacus``, ``openai``: the same classes), else None."""
    if isinstance(exc, sdk.APIStatusError):
        status = exc.status_code
        if status in (408, 409, 429) or status >= 500:
            what = "rate limit (429) still hit" if status == 429 else f"server error ({status})"
            return Transient(what, status, advertised_delay(getattr(exc.response, "headers", None)))
        return None
    if isinstance(exc, sdk.APITimeoutError):
        return Transient(f"request timed out (timeout {timeout:g} s; raise timeout in the config if the service is slow)")
    if isinstance(exc, sdk.APIConnectionError):
        cause = exc.__cause__ or exc
        return Transient(f"cannot reach {where} ({_one_line(cause) or type(cause).__name__})")
    return None


def sdk_final(sdk: Any, exc: BaseException, api: str, key_hint: str, not_found: str | None = None) -> BaseException:
    """The error to raise for a failure of a Stainless-generated SDK that is not worth another try.

    ``key_hint`` says where the key comes from; ``not_found`` what a 404 means (else it is a refusal like any 4xx).
    """
    if isinstance(exc, (sdk.AuthenticationError, sdk.PermissionDeniedError)):
        return ConfigError(f"{api} refused the API key ({exc.status_code}): {key_hint}")
    if not_found is not None and isinstance(exc, sdk.NotFoundError):
        return ConfigError(f"{api}: {not_found} ({exc.status_code})")
    if isinstance(exc, sdk.APIResponseValidationError):
        return ResponseError(f"{api} answered a body that does not match the SDK's models: {_one_line(exc)}")
    if isinstance(exc, sdk.APIStatusError):
        return BackendError(f"{api} refused a request ({exc.status_code}): {_one_line(exc)}")
    if type(exc).__module__.split(".")[0] == sdk.__name__:
        return BackendError(f"{api}: {_one_line(exc)}")
    return exc


class Runner:
    """Runs batches of requests for one API under one :class:`RetryPolicy`, with adaptive concurrency.

    ``transient(exc)`` says whether a failure is worth another try; ``final(exc)`` turns any other
    failure into the error to raise (a :class:`~conflictkit.errors.ConflictkitError`).
    """

    def __init__(self, api: str, policy: RetryPolicy, max_concurrency: int,
                 transient: Callable[[BaseException], Transient | None], final: Callable[[BaseException], BaseException]) -> None:
        self.api = api
        self.policy = policy
        self.limit = AdaptiveLimit(max_concurrency)  # shared by every step: what a storm taught carries over
        self.retries = 0
        self._transient = transient
        self._final = final
        self._lock = threading.Lock()

    def run(self, calls: Sequence[Callable[[], T]], on_answer: Callable[[int, T], None] | None = None,
            endpoint: str = "") -> list[T]:
        """Each call's answer, in order, or one error. ``on_answer(i, answer)`` as each arrives (cache it there)."""
        step = _Step(total=len(calls))

        def attempt(i: int, call: Callable[[], T]) -> T:
            answer = self._patiently(call, step, endpoint)
            if on_answer is not None:
                on_answer(i, answer)
            step.arrived()
            return answer

        try:
            if len(calls) <= 1 or self.limit.ceiling == 1:
                return [attempt(i, call) for i, call in enumerate(calls)]
            with ThreadPoolExecutor(max_workers=min(self.limit.ceiling, len(calls)), thread_name_prefix="remote") as pool:
                futures = []
                try:
                    futures.extend(pool.submit(attempt, i, call) for i, call in enumerate(calls))
                    wait(futures, return_when=FIRST_EXCEPTION)
                except BaseException:  # Ctrl-C: nothing more is sent, and no one sleeps out a backoff
                    step.stopped.set()
                    for future in futures:
                        future.cancel()
                    raise
                failed = next((f for f in futures if f.done() and not f.cancelled() and f.exception() is not None), None)
                if failed is not None:
                    step.stopped.set()  # queued requests are never sent; those backing off give up now
                    for future in futures:
                        future.cancel()
                    raise failed.exception()  # type: ignore[misc]  # after the pool has let the in-flight ones finish
                return [f.result() for f in futures]
        except _Stopped:  # pragma: no cover  (only ever raised after another failure, which wins)
            raise BackendError(f"{self.api}{_at(endpoint)}: stopped") from None
        except _GaveUp as exc:
            raise BackendError(f"{self.api}{_at(endpoint)}: {exc}" + (f"; {step.progress()}" if step.total > 1 else "")) from None
        except Exception as exc:  # noqa: BLE001  (every failure becomes one error for the user)
            error = exc if isinstance(exc, ResponseError) else self._final(exc)
            if isinstance(error, BackendError) and step.total > 1:
                error = type(error)(f"{error}; {step.progress()}")
            raise error from None

    def _patiently(self, call: Callable[[], T], step: _Step, endpoint: str) -> T:
        first = time.monotonic()
        attempt = counted = 0
        seen = step.answers  # answers of the step when this request last started or failed
        while True:
            with self.limit.slot():
                if step.stopped.is_set():
                    raise _Stopped
                try:
                    answer = call()
                except ResponseError:
                    raise
                except Exception as exc:  # noqa: BLE001  (classified just below)
                    failure = self._transient(exc)
                    if failure is None:
                        raise
                    if failure.rate_limited:
                        self.limit.throttled()
                else:
                    self.limit.succeeded()
                    return answer
            if not failure.rate_limited and step.answers == seen:
                counted += 1  # nothing else got through since its last try: the service itself may be down
            seen = step.answers
            delay = backoff_delay(attempt, failure.advertised, base=self.policy.backoff_s, cap=RETRY_BACKOFF_CAP)
            elapsed = time.monotonic() - first
            if counted > self.policy.max_retries or elapsed + delay > self.policy.budget_s:
                raise _GaveUp(failure, attempt, elapsed, self.policy)
            with self._lock:
                self.retries += 1
            if step.stopped.wait(delay):
                raise _Stopped
            attempt += 1


def json_answer(response: Any, api: str, endpoint: str) -> dict:
    """The JSON object in a 2xx answer (an ``httpx.Response``), else a ResponseError naming the endpoint."""
    body: bytes = response.content or b""
    status = response.status_code
    kind = response.headers.get("content-type", "")
    start = body.lstrip()[:1]
    if not start:
        raise ResponseError(f"{api}{_at(endpoint)} answered {status} with an empty body instead of JSON; "
                            "check base_url, or try again later")
    if start == b"<" or "html" in kind:
        raise ResponseError(f"{api}{_at(endpoint)} answered {status} with an HTML page instead of JSON "
                            "(a proxy's, a login or an error page?); check base_url")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ResponseError(f"{api}{_at(endpoint)} answered {status} with malformed JSON ({_one_line(exc)}); "
                            "check base_url, or try again later") from None
    if not isinstance(data, dict):
        raise ResponseError(f"{api}{_at(endpoint)} answered a JSON {type(data).__name__} instead of an object")
    return data


@dataclass
class _Step:
    """How far one :meth:`Runner.run` got, shared by its workers."""

    total: int
    answers: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopped: threading.Event = field(default_factory=threading.Event)

    def arrived(self) -> None:
        with self.lock:
            self.answers += 1

    def progress(self) -> str:
        return (f"{self.answers} of {self.total} requests of this step answered and kept in the cache: "
                "run again to send only the rest")


class _Stopped(Exception):
    """Another request of the step failed for good: this one is not sent (again)."""


class _GaveUp(Exception):
    def __init__(self, failure: Transient, retries: int, elapsed: float, policy: RetryPolicy) -> None:
        if failure.rate_limited:
            text = (f"{failure.what} after {elapsed:.1f} s of retrying (retry_budget_s {policy.budget_s:g} s; "
                    "raise it in the config to wait longer)")
        else:
            text = f"{failure.what} after {retries} retr{'y' if retries == 1 else 'ies'} in {elapsed:.1f} s"
        super().__init__(text)


def _at(endpoint: str) -> str:
    return f" {endpoint}" if endpoint else ""


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]
