"""The OpenAI SDK, wrapped: cached answers, validated answers, the shared retry policy, a cost ceiling.

Every answer is checked (a JSON body with at least one choice holding text) and then cached in
the conflictkit store as it arrives, keyed by the model and the whole prompt, so a re-run (or a
run after a failure) sends only what is still unanswered. Requests go through
:class:`conflictkit.remote.Runner` (the SDK's own retries off): the retry policy every hosted API
gets (408/409/429/5xx, timeouts and dropped connections, backoff with jitter honouring
``retry-after``, adaptive concurrency, ``max_retries`` and ``retry_budget_s``). Then one error
says how far the run got; nothing partial is returned. An answer that is not a completion (an
HTML page, malformed JSON, ``choices: []``) is a :class:`~conflictkit.errors.ResponseError` (exit 2).
"""

from __future__ import annotations

import ipaddress
import math
import os
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from conflictkit.errors import ConfigError, MissingDependencyError, ResponseError, UserError, plugin_install_hint
from conflictkit.remote import RetryPolicy, Runner, Transient, json_answer, sdk_final, sdk_transient
from conflictkit.store import Store, key_of

from conflictkit_openai.options import LLMOptions

INSTALL_HINT = plugin_install_hint("conflictkit-openai") + " (it brings the openai SDK)"
CACHE_NAMESPACE = "llm.answers"
API = "llm endpoint"
ENDPOINT = "/chat/completions"


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
                                 http_client=http_client)  # conflictkit.remote retries, under the policy every hosted API gets
        self.runner = Runner(API, RetryPolicy.of(options), options.max_concurrency, self._transient, self._translate)

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

        def ask(i: int) -> Callable[[], ChatAnswer]:
            def run() -> ChatAnswer:
                answer = self._send(requests[i])
                if accept is not None and not accept(answer.content):
                    with self.usage.lock:
                        self.usage.retries += 1
                    answer = self._send(requests[i])
                return answer
            return run

        def arrived(n: int, answer: ChatAnswer) -> None:
            i = todo[n]
            answers[i] = answer
            if accept is None or accept(answer.content):
                self.store.put_json(CACHE_NAMESPACE, keys[i], {"content": answer.content, "top_logprobs": answer.top_logprobs})

        self.runner.run([ask(i) for i in todo], arrived, ENDPOINT)
        return answers  # type: ignore[return-value]

    def report(self) -> dict:
        u = self.usage
        return {"model": self.options.model, "endpoint": self.base_url or "https://api.openai.com/v1", "requests": u.requests,
                "cached_answers": u.cached, "retries": u.retries + self.runner.retries,
                "lowest_concurrency": int(self.runner.limit.lowest), "prompt_tokens": u.prompt_tokens,
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
        """One try: the checked answer, or the SDK's error for the runner to retry or report."""
        raw = self.sdk.chat.completions.with_raw_response.create(**self._params(request))
        return self._answer(json_answer(raw.http_response, API, ENDPOINT))

    def _transient(self, exc: BaseException) -> Transient | None:
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

    def _answer(self, data: dict) -> ChatAnswer:
        """The first choice's text (and its first token's log-probabilities, where usable), usage recorded."""
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
        return ChatAnswer(content, _top_logprobs(choice.get("logprobs")))


def _top_logprobs(logprobs: Any) -> list[tuple[str, float]] | None:
    """The first answer token's alternatives, or None where the server sent none or nothing usable (never NaN)."""
    try:
        top = logprobs["content"][0]["top_logprobs"] or []
        pairs = [(str(t["token"]), float(t["logprob"])) for t in top]
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return [(t, p) for t, p in pairs if math.isfinite(p) and p <= 0.0] or None


def _count(value: Any) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0 else 0


def _shown(value: Any) -> str:
    return "choices: []" if value == [] else "no choices field" if value is None else f"choices: {type(value).__name__}"


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:300]
