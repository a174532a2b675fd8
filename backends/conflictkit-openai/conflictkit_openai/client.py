"""The OpenAI SDK, wrapped: cached answers, streamed and timed by measured speed, adaptive concurrency,
retries that honour Retry-After, a cost ceiling.

Every answer is checked (``check``) and, when usable, cached in the conflictkit store as it
arrives, keyed by the model and the whole prompt, so a re-run (or a run after a failure) sends
only what is still unanswered; an unusable answer is asked for once more, never cached, and comes
back with the problem named. Answers are streamed by default: a request waits as long as its
prompt takes at the endpoint's measured speed (:mod:`conflictkit_openai.pace`), and a request that
is given up (a timeout, ``max_request_s``, an interrupt) has its connection closed, which is what
makes a server stop computing it. On 429 the
number of requests in flight is halved (and grows back by about one per round: AIMD, in
:mod:`conflictkit.ratelimit`, shared with the Isaacus backend); 429, 5xx,
timeouts and dropped connections are retried with exponential backoff and jitter, waiting at
least what ``retry-after`` asks, until ``max_retries`` or ``retry_budget_s`` runs out. Then one
BackendError says how far the run got; nothing partial is returned.
"""

from __future__ import annotations

import ipaddress
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from conflictkit.errors import BackendError, ConfigError, MissingDependencyError, UserError, plugin_install_hint
from conflictkit.ratelimit import AdaptiveLimit, advertised_delay, backoff_delay
from conflictkit.store import Store, key_of

from conflictkit_openai.options import LLMOptions
from conflictkit_openai.pace import Pace

INSTALL_HINT = plugin_install_hint("conflictkit-openai") + " (it brings the openai SDK)"
CACHE_NAMESPACE = "llm.answers"
CACHE_VERSION = 2  # answers keep every token's log-probabilities (version 1 kept the first token's)
LOCAL_CONCURRENCY, REMOTE_CONCURRENCY = 1, 4

Check = Callable[[str], "str | None"]
"""An answer check: the problem with an answer's text ("no JSON object", "an echo of the findings"), or None."""


def _sdk():
    try:
        import openai
    except ImportError as exc:
        raise MissingDependencyError(f"the llm backends need the openai SDK ({exc}); {INSTALL_HINT}") from None
    return openai


def estimate_tokens(text: str) -> int:
    """Tokens a prompt will cost, estimated before sending (4 characters a token, rounded up)."""
    return -(-len(text) // 4)


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion: the messages, the answer's length, and whether to ask for log-probabilities."""

    messages: tuple[tuple[str, str], ...]  # (role, content)
    max_tokens: int
    logprobs: bool = False

    def prompt_text(self) -> str:
        return "\n".join(content for _, content in self.messages)


Position = tuple[str, float, list[tuple[str, float]]]
"""One answer token as the server reports it: its text, its log-probability, and the top alternatives."""


@dataclass
class ChatAnswer:
    content: str
    positions: list[Position] | None = None  # every answer token's log-probabilities, when the server gives them
    cached: bool = False
    problem: str | None = None  # what ``check`` found wrong with the answer it was still given after one more try


@dataclass
class Usage:
    requests: int = 0
    cached: int = 0
    retries: int = 0
    rejected: int = 0  # answers a check refused (each asked for once more)
    cancelled: int = 0  # requests given up with their connection closed
    prompt_tokens: int = 0
    completion_tokens: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def cost(self, prices: dict[str, float]) -> float | None:
        if not prices:
            return None
        return round((self.prompt_tokens * prices.get("input", 0.0) + self.completion_tokens * prices.get("output", 0.0)) / 1e6, 6)


def is_local(url: str | None) -> bool:
    host = urlparse(url or "").hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ChatClient:
    """Chat completions for one model on one endpoint; thread-safe; built in a backend's ``warm_up()``."""

    def __init__(self, options: LLMOptions, store: Store | None, http_client: Any = None) -> None:
        self.options = options
        self.store = store or Store.disabled()
        self.usage = Usage()
        self.base_url = options.base_url or os.environ.get("OPENAI_BASE_URL")
        key = os.environ.get(options.api_key_env)
        if not key:
            if not is_local(self.base_url):
                raise ConfigError(f"the llm backends need an API key: export {options.api_key_env}=... "
                                  "(or point base_url at a local server, which needs none)")
            key = "unused-local-key"
        if options.max_usd is not None and not options.prices:
            raise ConfigError("max_usd needs prices ({input: USD per million tokens, output: ...}) to estimate a cost")
        openai = _sdk()
        self.sdk = openai.OpenAI(api_key=key, base_url=self.base_url, timeout=options.timeout, max_retries=0,
                                 http_client=http_client)
        self.concurrency = options.max_concurrency or (LOCAL_CONCURRENCY if is_local(self.base_url) else REMOTE_CONCURRENCY)
        self._limit = AdaptiveLimit(self.concurrency)
        self.pace = Pace(options.timeout, options.prompt_tokens_per_s, options.tokens_per_s, options.max_request_s)
        self._usage_in_stream = True  # ask for usage in the stream's last piece, until a server refuses it
        self._cancel = threading.Event()
        self._open: set[Any] = set()  # streams being read, closed by cancel()
        self._open_lock = threading.Lock()

    # ---- public -----------------------------------------------------------------------------

    def complete(self, requests: Sequence[ChatRequest], check: Check | Sequence[Check] | None = None,
                 on_answer: Callable[[int, ChatAnswer], None] | None = None) -> list[ChatAnswer]:
        """Answers in order: cached ones from the store, the rest from the endpoint (or one error after retries).

        ``check`` (one for every request, or a list with one per request) names what is wrong
        with an answer's text (None: nothing): a refused answer is asked for once more, and is
        never cached, so a re-run asks again; if the second answer is refused too it is returned
        with ``problem`` set. ``on_answer(i, answer)`` is called as each
        answer is in hand (cached ones first), one call at a time. An interrupt cancels every
        request in flight (their connections are closed) before it propagates.
        """
        keys = [self._key(r) for r in requests]
        checks = list(check) if isinstance(check, (list, tuple)) else [check] * len(requests)
        answers: list[ChatAnswer | None] = [self._cached(k, c) for k, c in zip(keys, checks)]
        todo = [i for i, a in enumerate(answers) if a is None]
        with self.usage.lock:
            self.usage.cached += len(requests) - len(todo)
        handed = threading.Lock()

        def hand(i: int, answer: ChatAnswer) -> None:
            answers[i] = answer
            if on_answer is not None:
                with handed:
                    on_answer(i, answer)

        for i, answer in enumerate(answers):
            if answer is not None:
                hand(i, answer)
        if not todo:
            return answers  # type: ignore[return-value]
        self._check_budget([requests[i] for i in todo])
        self._cancel.clear()
        errors: list[Exception] = []

        def run(i: int) -> None:
            try:
                answer = self._checked(requests[i], checks[i])
                if answer.problem is None:
                    self.store.put_json(CACHE_NAMESPACE, keys[i], {"content": answer.content, "positions": answer.positions})
                hand(i, answer)
            except Exception as exc:  # collected: the others finish (and are cached) first
                errors.append(exc)

        self._run_all(run, todo)
        if errors:
            answered = sum(a is not None for a in answers)
            first = next((e for e in errors if isinstance(e, ConfigError)), errors[0])
            if isinstance(first, ConfigError):
                raise first
            raise BackendError(f"{first}; {answered} of {len(requests)} answers are in hand and cached: run again to resume")
        return answers  # type: ignore[return-value]

    def cancel(self) -> None:
        """Give up every request in flight: each stream is closed, so its server stops computing it."""
        self._cancel.set()
        with self._open_lock:
            streams = list(self._open)
        for stream in streams:
            _close_quietly(stream)

    def _run_all(self, run: Callable[[int], None], todo: list[int]) -> None:
        if len(todo) == 1:
            try:
                run(todo[0])
            except BaseException:
                self.cancel()
                raise
            return
        pool = ThreadPoolExecutor(max_workers=min(self.concurrency, len(todo)), thread_name_prefix="llm")
        try:
            futures = [pool.submit(run, i) for i in todo]
            for future in futures:
                future.result()
        except BaseException:  # an interrupt: nothing more starts, and what is in flight is closed
            self.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)

    def _checked(self, request: ChatRequest, check: Check | None) -> ChatAnswer:
        answer = self._send(request)
        problem = check(answer.content) if check is not None else None
        if problem is None:
            return answer
        with self.usage.lock:
            self.usage.rejected += 1
            self.usage.retries += 1
        answer = self._send(request)
        problem = check(answer.content)
        if problem is not None:
            with self.usage.lock:
                self.usage.rejected += 1
            answer.problem = problem
        return answer

    def report(self) -> dict:
        u = self.usage
        return {"model": self.options.model, "endpoint": self.base_url or "https://api.openai.com/v1", "requests": u.requests,
                "cached_answers": u.cached, "retries": u.retries, "rejected_answers": u.rejected, "cancelled": u.cancelled,
                "lowest_concurrency": int(self._limit.lowest), "prompt_tokens": u.prompt_tokens,
                "completion_tokens": u.completion_tokens, "cost_usd": u.cost(self.options.prices), **self.pace.report()}

    # ---- internals ----------------------------------------------------------------------------

    def _key(self, request: ChatRequest) -> str:
        return key_of("llm", CACHE_VERSION, self.options.model, self.options.temperature, request.messages,
                      request.max_tokens, request.logprobs)

    def _cached(self, key: str, check: Check | None) -> ChatAnswer | None:
        data = self.store.get_json(CACHE_NAMESPACE, key)
        if not isinstance(data, dict) or not isinstance(data.get("content"), str):
            return None
        if check is not None and check(data["content"]) is not None:
            return None  # cached by an older, laxer check: ask again
        try:
            positions = [(str(t), float(lp), [(str(a), float(b)) for a, b in top]) for t, lp, top in data.get("positions") or []]
        except (TypeError, ValueError):
            return None
        return ChatAnswer(data["content"], positions or None, cached=True)

    def _check_budget(self, requests: Sequence[ChatRequest]) -> None:
        prices = self.options.prices
        if not prices:
            return
        prompt = sum(estimate_tokens(r.prompt_text()) for r in requests)
        output = sum(r.max_tokens for r in requests)
        estimate = (prompt * prices.get("input", 0.0) + output * prices.get("output", 0.0)) / 1e6
        spent = self.usage.cost(prices) or 0.0
        print(f"conflictkit: llm: {len(requests)} request(s) to {self.options.model}, about {prompt} prompt tokens, "
              f"estimated at most ${estimate:.4f}", file=sys.stderr)
        if self.options.max_usd is not None and spent + estimate > self.options.max_usd:
            raise UserError(f"the llm requests would cost up to ${spent + estimate:.4f}, over max_usd ${self.options.max_usd:g}; "
                            "raise max_usd, judge fewer pairs (a cheaper judge first in a cascade), or use a cheaper model")

    def _send(self, request: ChatRequest) -> ChatAnswer:
        openai = _sdk()
        started = time.monotonic()
        attempt = 0
        while True:
            try:
                with self._limit.slot():
                    answer = self._exchange(request)
                self._limit.succeeded()
                return answer
            except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
                raise ConfigError(f"the llm endpoint refused the key ({exc.status_code}): check {self.options.api_key_env}") from None
            except openai.NotFoundError as exc:
                raise ConfigError(f"the llm endpoint has no model {self.options.model!r} ({exc.status_code}); "
                                  "set model: to one it serves") from None
            except (openai.RateLimitError, openai.InternalServerError, openai.APITimeoutError, openai.APIConnectionError) as exc:
                if isinstance(exc, openai.RateLimitError):
                    self._limit.throttled()
                wait = self._backoff(attempt, exc)
                if attempt >= self.options.max_retries or time.monotonic() - started + wait > self.options.retry_budget_s:
                    raise BackendError(f"llm endpoint: {_describe(exc)} after {attempt} retr{'y' if attempt == 1 else 'ies'}") from None
                attempt += 1
                with self.usage.lock:
                    self.usage.retries += 1
                time.sleep(wait)
            except openai.APIStatusError as exc:
                raise BackendError(f"llm endpoint refused a request ({exc.status_code}): {_one_line(exc)}") from None
            except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:  # a body that is not a completion
                raise BackendError(f"llm endpoint returned a malformed response ({type(exc).__name__}: {_one_line(exc)})") from None

    def _params(self, request: ChatRequest) -> dict:
        params = {"model": self.options.model, "messages": [{"role": r, "content": c} for r, c in request.messages],
                  "temperature": self.options.temperature, "max_tokens": request.max_tokens}
        if request.logprobs:
            params.update(logprobs=True, top_logprobs=5)
        return params

    def _exchange(self, request: ChatRequest) -> ChatAnswer:
        """One request, streamed or not, with the waits the measured speed allows."""
        if self._cancel.is_set():
            raise BackendError("llm endpoint: cancelled before the request was sent")
        openai = _sdk()
        prompt_tokens = estimate_tokens(request.prompt_text())
        if not self.options.stream:
            read = self.pace.whole_answer_s(prompt_tokens, request.max_tokens)
            response = self.sdk.chat.completions.create(**self._params(request), timeout=self._timeout(read))
            return self._answer(response)
        params = {**self._params(request), "stream": True, "timeout": self._timeout(self.pace.first_piece_s(prompt_tokens))}
        if self._usage_in_stream:
            params["stream_options"] = {"include_usage": True}
        try:
            stream = self.sdk.chat.completions.create(**params)
        except openai.BadRequestError as exc:
            if "stream_options" not in str(exc) or not self._usage_in_stream:
                raise
            self._usage_in_stream = False  # an older server: count tokens from the answer instead
            params.pop("stream_options")
            stream = self.sdk.chat.completions.create(**params)
        return self._read_stream(stream, prompt_tokens)

    def _timeout(self, read_s: float):
        import httpx

        return httpx.Timeout(read_s, connect=self.options.connect_timeout)

    def _read_stream(self, stream: Any, estimated_prompt: int) -> ChatAnswer:
        """Pieces of a streamed answer until it ends, the request is cancelled or runs over ``max_request_s``."""
        started = time.monotonic()
        first: float | None = None
        pieces = 0
        parts: list[str] = []
        positions: list[Position] = []
        usage = None
        with self._open_lock:
            self._open.add(stream)
        try:
            for chunk in stream:
                now = time.monotonic()
                if self._cancel.is_set():
                    raise _Cancelled("cancelled")
                if self.options.max_request_s and now - started > self.options.max_request_s:
                    raise _Cancelled(f"the answer took longer than max_request_s ({self.options.max_request_s:g} s)")
                pieces += 1
                usage = getattr(chunk, "usage", None) or usage
                for choice in chunk.choices or []:
                    text = getattr(choice.delta, "content", None) if choice.delta is not None else None
                    if text:
                        parts.append(text)
                        first = now if first is None else first
                    positions.extend(_positions(getattr(choice, "logprobs", None)))
        except _Cancelled as exc:
            with self.usage.lock:
                self.usage.cancelled += 1
            raise BackendError(f"llm endpoint: {exc}; the request was cancelled (its connection closed)") from None
        except Exception:
            if not self._cancel.is_set():
                raise
            with self.usage.lock:
                self.usage.cancelled += 1
            raise BackendError("llm endpoint: cancelled; the request's connection was closed") from None
        finally:
            with self._open_lock:
                self._open.discard(stream)
            _close_quietly(stream)
        if not pieces:
            raise ValueError("the answer stream held no event")
        content = "".join(parts)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0) or estimated_prompt
        written = int(getattr(usage, "completion_tokens", 0) or 0) or len(positions) or estimate_tokens(content)
        if first is not None:
            self.pace.observe(prompt, first - started, written, time.monotonic() - started)
        with self.usage.lock:
            self.usage.requests += 1
            self.usage.prompt_tokens += prompt
            self.usage.completion_tokens += written
        return ChatAnswer(content, positions or None)

    def _answer(self, response: Any) -> ChatAnswer:
        choice = response.choices[0]
        content = choice.message.content
        if not isinstance(content, str):
            raise ValueError("the answer has no text content")
        usage = getattr(response, "usage", None)
        with self.usage.lock:
            self.usage.requests += 1
            if usage is not None:
                self.usage.prompt_tokens += int(usage.prompt_tokens or 0)
                self.usage.completion_tokens += int(usage.completion_tokens or 0)
        return ChatAnswer(content, _positions(getattr(choice, "logprobs", None)) or None)

    def _backoff(self, attempt: int, exc: Exception) -> float:
        headers = getattr(getattr(exc, "response", None), "headers", None)
        return backoff_delay(attempt, advertised_delay(headers), base=self.options.backoff_s)


class _Cancelled(Exception):
    """A streamed answer given up by this client (an interrupt or ``max_request_s``)."""


def _positions(logprobs: Any) -> list[Position]:
    """Every token of a (piece of an) answer with its log-probability and top alternatives, as the server gives them."""
    out: list[Position] = []
    for item in getattr(logprobs, "content", None) or []:
        top = [(str(t.token), float(t.logprob)) for t in getattr(item, "top_logprobs", None) or []]
        out.append((str(item.token), float(item.logprob), top))
    return out


def _close_quietly(stream: Any) -> None:
    try:
        stream.close()
    except Exception:  # already closed, or closed from two threads at once
        pass


def _describe(exc: Exception) -> str:
    status = getattr(exc, "status_code", None)
    if status == 429:
        return "rate limit (429) still hit"
    if status is not None:
        return f"server error ({status})"
    return f"{type(exc).__name__}: {_one_line(exc)}"


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:300]
