"""The OpenAI SDK, wrapped: cached answers, adaptive concurrency, retries that honour Retry-After, a cost ceiling.

Every answer is cached in the conflictkit store as it arrives, keyed by the model and the whole
prompt, so a re-run (or a run after a failure) sends only what is still unanswered. On 429 the
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

INSTALL_HINT = plugin_install_hint("conflictkit-openai") + " (it brings the openai SDK)"
CACHE_NAMESPACE = "llm.answers"


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


@dataclass
class ChatAnswer:
    content: str
    top_logprobs: list[tuple[str, float]] | None = None  # of the first answer token, when the server gives them
    cached: bool = False


@dataclass
class Usage:
    requests: int = 0
    cached: int = 0
    retries: int = 0
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
                                 http_client=http_client)
        self._limit = AdaptiveLimit(options.max_concurrency)

    # ---- public -----------------------------------------------------------------------------

    def complete(self, requests: Sequence[ChatRequest], accept: Callable[[str], bool] | None = None) -> list[ChatAnswer]:
        """Answers in order: cached ones from the store, the rest from the endpoint (or one error after retries).

        ``accept`` checks an answer's text (e.g. "is it the JSON asked for?"): a rejected answer is
        asked for once more, and is never cached, so a re-run asks again.
        """
        keys = [self._key(r) for r in requests]
        answers: list[ChatAnswer | None] = [self._cached(k, accept) for k in keys]
        todo = [i for i, a in enumerate(answers) if a is None]
        with self.usage.lock:
            self.usage.cached += len(requests) - len(todo)
        if not todo:
            return answers  # type: ignore[return-value]
        self._check_budget([requests[i] for i in todo])
        errors: list[Exception] = []

        def run(i: int) -> None:
            try:
                answer = self._send(requests[i])
                if accept is not None and not accept(answer.content):
                    with self.usage.lock:
                        self.usage.retries += 1
                    answer = self._send(requests[i])
                answers[i] = answer
                if accept is None or accept(answer.content):
                    self.store.put_json(CACHE_NAMESPACE, keys[i], {"content": answer.content, "top_logprobs": answer.top_logprobs})
            except Exception as exc:  # collected: the others finish (and are cached) first
                errors.append(exc)

        if len(todo) == 1:
            run(todo[0])
        else:
            with ThreadPoolExecutor(max_workers=min(self.options.max_concurrency, len(todo)), thread_name_prefix="llm") as pool:
                list(pool.map(run, todo))
        if errors:
            answered = sum(a is not None for a in answers)
            first = next((e for e in errors if isinstance(e, ConfigError)), errors[0])
            if isinstance(first, ConfigError):
                raise first
            raise BackendError(f"{first}; {answered} of {len(requests)} answers are in hand and cached: run again to resume")
        return answers  # type: ignore[return-value]

    def report(self) -> dict:
        u = self.usage
        return {"model": self.options.model, "endpoint": self.base_url or "https://api.openai.com/v1", "requests": u.requests,
                "cached_answers": u.cached, "retries": u.retries,
                "lowest_concurrency": int(self._limit.lowest), "prompt_tokens": u.prompt_tokens,
                "completion_tokens": u.completion_tokens, "cost_usd": u.cost(self.options.prices)}

    # ---- internals ----------------------------------------------------------------------------

    def _key(self, request: ChatRequest) -> str:
        return key_of("llm", self.options.model, self.options.temperature, request.messages, request.max_tokens, request.logprobs)

    def _cached(self, key: str, accept: Callable[[str], bool] | None) -> ChatAnswer | None:
        data = self.store.get_json(CACHE_NAMESPACE, key)
        if not isinstance(data, dict) or not isinstance(data.get("content"), str):
            return None
        if accept is not None and not accept(data["content"]):
            return None
        top = data.get("top_logprobs")
        return ChatAnswer(data["content"], [tuple(t) for t in top] if top else None, cached=True)

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
                    response = self.sdk.chat.completions.create(**self._params(request))
                self._limit.succeeded()
                return self._answer(response)
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

    def _answer(self, response: Any) -> ChatAnswer:
        choice = response.choices[0]
        content = choice.message.content
        if not isinstance(content, str):
            raise ValueError("the answer has no text content")
        top = None
        logprobs = getattr(choice, "logprobs", None)
        if logprobs is not None and getattr(logprobs, "content", None):
            top = [(t.token, float(t.logprob)) for t in logprobs.content[0].top_logprobs or []] or None
        usage = getattr(response, "usage", None)
        with self.usage.lock:
            self.usage.requests += 1
            if usage is not None:
                self.usage.prompt_tokens += int(usage.prompt_tokens or 0)
                self.usage.completion_tokens += int(usage.completion_tokens or 0)
        return ChatAnswer(content, top)

    def _backoff(self, attempt: int, exc: Exception) -> float:
        headers = getattr(getattr(exc, "response", None), "headers", None)
        return backoff_delay(attempt, advertised_delay(headers), base=self.options.backoff_s)


def _describe(exc: Exception) -> str:
    status = getattr(exc, "status_code", None)
    if status == 429:
        return "rate limit (429) still hit"
    if status is not None:
        return f"server error ({status})"
    return f"{type(exc).__name__}: {_one_line(exc)}"


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:300]
