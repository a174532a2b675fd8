"""The OpenAI SDK, wrapped: cached answers, checked answers, streamed and timed by measured speed, the
shared retry policy, a cost ceiling.

Requests go through :class:`conflictkit.remote.Runner` (the SDK's own retries off), the policy every
hosted API gets: 408/409/429/5xx, timeouts and dropped connections retried with jittered backoff
honouring ``retry-after``, adaptive concurrency (halved on 429), ``max_retries`` and
``retry_budget_s``; then one error says how far the step got, and nothing partial is returned.

Each try is one exchange with the endpoint. Answers are streamed by default: a request waits as long
as its prompt takes at the endpoint's measured speed (:mod:`conflictkit_openai.pace`), and a request
given up (``max_request_s``, an interrupt) has its connection closed, which is what makes a server
stop computing it. A body that is not a completion (an HTML page, malformed JSON, ``choices: []``, a
choice without text) is a :class:`~conflictkit.errors.ResponseError` (exit 2) naming the endpoint,
streamed or not. An answer's text is then checked by the caller (``check``): an unusable one is asked
for once more, never cached, and comes back with the problem named. Usable answers are cached in the
conflictkit store as they arrive, keyed by the model and the whole prompt, so a re-run (or a run
after a failure) sends only what is still unanswered.
"""

from __future__ import annotations

import ipaddress
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from conflictkit.errors import BackendError, ConfigError, MissingDependencyError, ResponseError, UserError, plugin_install_hint
from conflictkit.remote import RetryPolicy, Runner, Transient, json_answer, sdk_final, sdk_transient
from conflictkit.store import Store, key_of

from conflictkit_openai.options import LLMOptions
from conflictkit_openai.pace import Pace

INSTALL_HINT = plugin_install_hint("conflictkit-openai") + " (it brings the openai SDK)"
CACHE_NAMESPACE = "llm.answers"
CACHE_VERSION = 2  # answers keep every token's log-probabilities (version 1 kept the first token's)
LOCAL_CONCURRENCY, REMOTE_CONCURRENCY = 1, 4
API = "llm endpoint"
ENDPOINT = "/chat/completions"

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
    positions: list[Position] | None = None  # every answer token's log-probabilities, when the server gives usable ones
    cached: bool = False
    problem: str | None = None  # what ``check`` found wrong with the answer it was still given after one more try


@dataclass
class Usage:
    requests: int = 0
    cached: int = 0
    retries: int = 0  # answers asked for again because a check refused them (the runner counts its own retries)
    rejected: int = 0  # answers a check refused
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


def key_problem(options: LLMOptions) -> str | None:
    """Why the endpoint cannot be called for want of a key (a hosted one without ``api_key_env`` set), else None.
    Read without any request, so the review app can say so before an upload (``unavailable()``)."""
    base_url = options.base_url or os.environ.get("OPENAI_BASE_URL")
    if os.environ.get(options.api_key_env) or is_local(base_url):
        return None
    return f"no API key (set {options.api_key_env}, or point base_url at a local server)"


class ChatClient:
    """Chat completions for one model on one endpoint; thread-safe; built in a backend's ``warm_up()``."""

    def __init__(self, options: LLMOptions, store: Store | None, http_client: Any = None) -> None:
        self.options = options
        self.store = store or Store.disabled()
        self.usage = Usage()
        self.base_url = options.base_url or os.environ.get("OPENAI_BASE_URL")
        key = os.environ.get(options.api_key_env)
        if not key:
            if key_problem(options) is not None:
                raise ConfigError(f"the llm backends need an API key: export {options.api_key_env}=... "
                                  "(or point base_url at a local server, which needs none)")
            key = "unused-local-key"
        if options.max_usd is not None and not options.prices:
            raise ConfigError("max_usd needs prices ({input: USD per million tokens, output: ...}) to estimate a cost")
        openai = _sdk()
        self.sdk = openai.OpenAI(api_key=key, base_url=self.base_url, timeout=options.timeout, max_retries=0,
                                 http_client=http_client)  # conflictkit.remote retries, under the policy every hosted API gets
        self.concurrency = options.max_concurrency or (LOCAL_CONCURRENCY if is_local(self.base_url) else REMOTE_CONCURRENCY)
        self.runner = Runner(API, RetryPolicy.of(options), self.concurrency, self._transient, self._translate)
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
        with ``problem`` set. ``on_answer(i, answer)`` is called as each answer is in hand (cached
        ones first), one call at a time. An interrupt closes every request in flight before it propagates.
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
            if answer.problem is None:
                self.store.put_json(CACHE_NAMESPACE, keys[i], {"content": answer.content, "positions": answer.positions})
            if on_answer is not None:
                with handed:
                    on_answer(i, answer)

        for i, answer in enumerate(answers):
            if answer is not None and on_answer is not None:
                on_answer(i, answer)
        if not todo:
            return answers  # type: ignore[return-value]
        self._check_budget([requests[i] for i in todo])
        self._cancel.clear()
        calls = [self._asking(requests[i], checks[i]) for i in todo]
        self.runner.run(calls, lambda n, answer: hand(todo[n], answer), ENDPOINT, on_interrupt=self.cancel)
        return answers  # type: ignore[return-value]

    def cancel(self) -> None:
        """Give up every request in flight: each stream is closed, so its server stops computing it."""
        self._cancel.set()
        with self._open_lock:
            streams = list(self._open)
        for stream in streams:
            _close_quietly(stream)

    def report(self) -> dict:
        u = self.usage
        return {"model": self.options.model, "endpoint": self.base_url or "https://api.openai.com/v1", "requests": u.requests,
                "cached_answers": u.cached, "retries": u.retries + self.runner.retries, "rejected_answers": u.rejected,
                "cancelled": u.cancelled, "lowest_concurrency": int(self.runner.limit.lowest), "prompt_tokens": u.prompt_tokens,
                "completion_tokens": u.completion_tokens, "cost_usd": u.cost(self.options.prices), **self.pace.report()}

    # ---- internals ----------------------------------------------------------------------------

    def _asking(self, request: ChatRequest, check: Check | None) -> Callable[[], ChatAnswer]:
        """The runner's call for one request: one exchange, its answer checked, a refused answer asked
        for once more (a retry after a failure of that second try resumes there, not at the first)."""
        refused = 0

        def run() -> ChatAnswer:
            nonlocal refused
            while True:
                answer = self._exchange(request)
                answer.problem = check(answer.content) if check is not None else None
                if answer.problem is None:
                    return answer
                refused += 1
                with self.usage.lock:
                    self.usage.rejected += 1
                    self.usage.retries += refused == 1
                if refused > 1:
                    return answer
        return run

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
        return ChatAnswer(data["content"], _usable(positions), cached=True)

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

    def _transient(self, exc: BaseException) -> Transient | None:
        # a streamed answer that stalls or breaks off mid-way reaches here as the SDK's timeout or connection error
        return sdk_transient(_sdk(), exc, self.base_url or "https://api.openai.com/v1", self.options.timeout)

    def _translate(self, exc: BaseException) -> BaseException:
        return sdk_final(_sdk(), exc, API, f"check {self.options.api_key_env}",
                         not_found=f"no model {self.options.model!r} there; set model: to one it serves")

    def _params(self, request: ChatRequest) -> dict:
        params = {"model": self.options.model, "messages": [{"role": r, "content": c} for r, c in request.messages],
                  "temperature": self.options.temperature, "max_tokens": request.max_tokens}
        if request.logprobs:
            params.update(logprobs=True, top_logprobs=5)
        return params

    def _exchange(self, request: ChatRequest) -> ChatAnswer:
        """One try, streamed or not, with the waits the measured speed allows; the SDK's errors go to the runner."""
        if self._cancel.is_set():
            raise BackendError(f"{API}: cancelled before the request was sent")
        prompt_tokens = estimate_tokens(request.prompt_text())
        create = self.sdk.chat.completions.with_raw_response.create
        if not self.options.stream:
            read = self.pace.whole_answer_s(prompt_tokens, request.max_tokens)
            raw = create(**self._params(request), timeout=self._timeout(read))
            return self._answer(json_answer(raw.http_response, API, ENDPOINT))
        params = {**self._params(request), "stream": True, "timeout": self._timeout(self.pace.first_piece_s(prompt_tokens))}
        if self._usage_in_stream:
            params["stream_options"] = {"include_usage": True}
        try:
            raw = create(**params)
        except _sdk().BadRequestError as exc:
            if "stream_options" not in str(exc) or not self._usage_in_stream:
                raise
            self._usage_in_stream = False  # an older server: count tokens from the answer instead
            params.pop("stream_options")
            raw = create(**params)
        response = raw.http_response
        if "text/event-stream" not in response.headers.get("content-type", ""):
            response.read()  # a server that ignored stream: true, or a proxy's page: checked like any answer
            return self._answer(json_answer(response, API, ENDPOINT))
        return self._read_stream(raw.parse(), prompt_tokens)

    def _timeout(self, read_s: float):
        import httpx

        return httpx.Timeout(read_s, connect=self.options.connect_timeout)

    def _read_stream(self, stream: Any, estimated_prompt: int) -> ChatAnswer:
        """Pieces of a streamed answer until it ends, the request is cancelled or runs over ``max_request_s``."""
        started = time.monotonic()
        first: float | None = None
        parts: list[str] = []
        positions: list[Position] = []
        usage = finish = None
        choices = texts = 0
        with self._open_lock:
            self._open.add(stream)
        try:
            for chunk in stream:
                now = time.monotonic()
                if self._cancel.is_set():
                    raise _Cancelled("cancelled")
                if self.options.max_request_s and now - started > self.options.max_request_s:
                    raise _Cancelled(f"the answer took longer than max_request_s ({self.options.max_request_s:g} s)")
                usage = _field(chunk, "usage") or usage
                for choice in _field(chunk, "choices") or []:
                    choices += 1
                    finish = _field(choice, "finish_reason") or finish
                    text = _field(_field(choice, "delta"), "content")
                    if isinstance(text, str):
                        texts += 1
                        if text:
                            parts.append(text)
                            first = now if first is None else first
                    positions.extend(_positions(_field(choice, "logprobs")))
        except _Cancelled as exc:
            with self.usage.lock:
                self.usage.cancelled += 1
            raise BackendError(f"{API}: {exc}; the request was cancelled (its connection closed)") from None
        except ValueError as exc:  # a piece that is not JSON
            raise ResponseError(f"{API} {ENDPOINT} streamed a piece that is not a completion chunk ({_one_line(exc)}); "
                                "is base_url an OpenAI-compatible endpoint?") from None
        except Exception:
            if not self._cancel.is_set():
                raise
            with self.usage.lock:
                self.usage.cancelled += 1
            raise BackendError(f"{API}: cancelled; the request's connection was closed") from None
        finally:
            with self._open_lock:
                self._open.discard(stream)
            _close_quietly(stream)
        if not choices:
            raise ResponseError(f"{API} {ENDPOINT} answered no choices (choices: []); is base_url an OpenAI-compatible endpoint?")
        if not texts:
            raise ResponseError(f"{API} {ENDPOINT} answered a choice without text content "
                                f"(finish_reason {finish!r}); raise max_tokens or use another model")
        content = "".join(parts)
        prompt = _count(_field(usage, "prompt_tokens")) or estimated_prompt
        written = _count(_field(usage, "completion_tokens")) or len(positions) or estimate_tokens(content)
        if first is not None:
            self.pace.observe(prompt, first - started, written, time.monotonic() - started)
        with self.usage.lock:
            self.usage.requests += 1
            self.usage.prompt_tokens += prompt
            self.usage.completion_tokens += written
        return ChatAnswer(content, _usable(positions))

    def _answer(self, data: dict) -> ChatAnswer:
        """The first choice's text (and its tokens' log-probabilities, where usable), usage recorded."""
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices:
            raise ResponseError(f"{API} {ENDPOINT} answered no choices ({_shown(choices)}); is base_url an OpenAI-compatible endpoint?")
        choice = choices[0] if isinstance(choices[0], dict) else {}
        message = choice.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            raise ResponseError(f"{API} {ENDPOINT} answered a choice without text content "
                                f"(finish_reason {choice.get('finish_reason')!r}); raise max_tokens or use another model")
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        with self.usage.lock:
            self.usage.requests += 1
            self.usage.prompt_tokens += _count(usage.get("prompt_tokens"))
            self.usage.completion_tokens += _count(usage.get("completion_tokens"))
        return ChatAnswer(content, _usable(_positions(choice.get("logprobs"))))


class _Cancelled(Exception):
    """A streamed answer given up by this client (an interrupt or ``max_request_s``)."""


def _field(obj: Any, name: str) -> Any:
    """``name`` of a JSON object or of an SDK model (a streamed chunk), None where absent."""
    if obj is None:
        return None
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def _positions(logprobs: Any) -> list[Position]:
    """Every token of (a piece of) an answer with its log-probability and top alternatives, as the server gives them."""
    out: list[Position] = []
    try:
        for item in _field(logprobs, "content") or []:
            top = [(str(_field(t, "token")), float(_field(t, "logprob"))) for t in _field(item, "top_logprobs") or []]
            out.append((str(_field(item, "token")), float(_field(item, "logprob")), top))
    except (TypeError, ValueError):
        return [("", math.nan, [])]  # unreadable: _usable drops the answer's log-probabilities
    return out


def _usable(positions: list[Position]) -> list[Position] | None:
    """The log-probabilities, or None where there are none or any is not one (NaN, infinite, above 0): never used."""
    values = [chosen for _, chosen, _ in positions] + [lp for _, _, top in positions for _, lp in top]
    if not positions or not all(math.isfinite(v) and v <= 0.0 for v in values):
        return None
    return positions


def _close_quietly(stream: Any) -> None:
    try:
        stream.close()
    except Exception:  # already closed, or closed from two threads at once
        pass


def _count(value: Any) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0 else 0


def _shown(value: Any) -> str:
    return "choices: []" if value == [] else "no choices field" if value is None else f"choices: {type(value).__name__}"


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]
