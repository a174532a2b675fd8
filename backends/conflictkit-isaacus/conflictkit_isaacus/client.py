"""The Isaacus SDK client, wrapped: batches, bounded concurrency, clear errors, usage accounting.

The SDK validates nothing client-side, so the batch limits are enforced here. Responses are read
as plain JSON: the SDK's loose model construction takes seconds per batch of embeddings (one
Python call per float); with ``strict_responses`` each response is also validated against the
SDK's models, which is how the tests keep the fake API honest. Retries of server errors and
timeouts (with the SDK's backoff) come from the options. A rate limit (429) is never a failure by
itself: the request waits (``retry-after`` honoured, else jittered exponential backoff), the
number in flight is lowered adaptively (:mod:`conflictkit.ratelimit`), and only after
``rate_limit_budget`` seconds of backing off with no answer does the call give up, saying how far
it got. Each
answer is handed to ``on_answer`` as it arrives, so callers cache it even when a later request
fails. Every failure becomes one :mod:`conflictkit.errors` error with a line that says what to
do; a failed request aborts the whole call, so no caller ever sees a partial answer.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, TypeVar

from conflictkit.errors import BackendError, ConfigError, MissingDependencyError, plugin_install_hint
from conflictkit.ratelimit import AdaptiveLimit, advertised_delay, backoff_delay

from conflictkit_isaacus.options import IsaacusOptions

T = TypeVar("T")

ENRICH_BATCH = 8  # the API's limit of texts per enrichment request
EMBED_BATCH = 128  # the API's limit of texts per embedding request
INSTALL_HINT = plugin_install_hint("conflictkit-isaacus") + ", which brings isaacus==0.22.1"
KEY_HINT = "export ISAACUS_API_KEY=... or set api_key in the isaacus options of the config"


def batched(items: Sequence[T], size: int) -> list[list[T]]:
    """``items`` cut into consecutive lists of at most ``size``."""
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def _import_sdk():
    try:
        import isaacus
    except ImportError as exc:
        raise MissingDependencyError(f"the Isaacus backends need the isaacus SDK: {INSTALL_HINT} ({exc})") from None
    return isaacus


class Usage:
    """Requests and input tokens per model, and texts answered from the cache; thread-safe."""

    def __init__(self, prices: dict[str, float]) -> None:
        self.prices = prices
        self._models: dict[str, dict[str, int]] = {}
        self._lock = threading.Lock()

    def _entry(self, model: str) -> dict[str, int]:
        return self._models.setdefault(model, {"requests": 0, "input_tokens": 0, "texts": 0, "cached_texts": 0})

    def record(self, model: str, tokens: int, texts: int) -> None:
        with self._lock:
            entry = self._entry(model)
            entry["requests"] += 1
            entry["input_tokens"] += tokens
            entry["texts"] += texts

    def cached(self, model: str, texts: int) -> None:
        with self._lock:
            self._entry(model)["cached_texts"] += texts

    def report(self) -> dict[str, Any]:
        """``{requests, input_tokens, cost_usd, models: {model: {..., cost_usd}}}``; cost is an estimate."""
        with self._lock:
            models = {}
            for model, entry in sorted(self._models.items()):
                price = self.prices.get(model)
                cost = None if price is None else round(entry["input_tokens"] * price / 1e6, 6)
                models[model] = {**entry, "usd_per_million_tokens": price, "cost_usd": cost}
        return {
            "requests": sum(m["requests"] for m in models.values()),
            "input_tokens": sum(m["input_tokens"] for m in models.values()),
            "cost_usd": round(sum(m["cost_usd"] or 0.0 for m in models.values()), 6),
            "models": models,
        }


class IsaacusClient:
    """One SDK client plus a bounded thread pool; every public method returns complete answers or raises."""

    def __init__(self, sdk: Any, *, max_concurrency: int = 6, prices: dict[str, float] | None = None,
                 rate_limit_budget: float = 300.0) -> None:
        self.sdk = sdk
        self.max_concurrency = max_concurrency
        self.rate_limit_budget = rate_limit_budget
        self.limit = AdaptiveLimit(max_concurrency)  # shared by every call: what a storm taught carries over
        self.usage = Usage(prices or {})

    @classmethod
    def from_options(cls, options: IsaacusOptions, http_client: Any = None) -> IsaacusClient:
        """Build the SDK client; a missing key is a ConfigError raised before any request."""
        api_key = options.api_key or os.environ.get("ISAACUS_API_KEY")
        if not api_key:
            raise ConfigError(f"the Isaacus backends need an API key: {KEY_HINT}")
        isaacus = _import_sdk()
        sdk = isaacus.Isaacus(
            api_key=api_key,
            base_url=options.base_url,  # None: the SDK reads ISAACUS_BASE_URL, then its default
            timeout=options.timeout,
            max_retries=options.max_retries,
            http_client=http_client,
            _strict_response_validation=options.strict_responses,
        )
        return cls(sdk, max_concurrency=options.max_concurrency, prices=options.prices,
                   rate_limit_budget=options.rate_limit_budget)

    # ---- running calls -------------------------------------------------------------------

    def run(self, calls: Sequence[Callable[[], T]], on_answer: Callable[[int, T], None] | None = None) -> list[T]:
        """Run ``calls`` with at most ``max_concurrency`` in flight (fewer while rate-limited); results in order.

        ``on_answer(i, result)`` is called as each call succeeds. The first error wins.
        """
        progress = _Progress(total=len(calls))

        def attempt(i: int, call: Callable[[], T]) -> T:
            result = self._patiently(call, progress)
            if on_answer is not None:
                on_answer(i, result)
            with progress.lock:
                progress.answered += 1
                progress.stalled_since = None  # an answer: the storm is being ridden, the budget starts again
            return result

        if len(calls) <= 1 or self.max_concurrency == 1:
            return [attempt(i, call) for i, call in enumerate(calls)]
        with ThreadPoolExecutor(max_workers=min(self.max_concurrency, len(calls)), thread_name_prefix="isaacus") as pool:
            futures = [pool.submit(attempt, i, call) for i, call in enumerate(calls)]
            done, _ = wait(futures, return_when=FIRST_EXCEPTION)
            failed = next((f for f in futures if f in done and f.exception() is not None), None)
            if failed is not None:
                progress.stopped.set()  # workers backing off give up now instead of sleeping on
                for future in futures:
                    future.cancel()
                raise failed.exception()
            return [f.result() for f in futures]

    def _patiently(self, call: Callable[[], T], progress: _Progress) -> T:
        """One call, retried through rate limits until the budget is spent; other errors are final."""
        isaacus = _import_sdk()
        attempt = 0
        while True:
            with self.limit.slot():
                if progress.stopped.is_set():
                    raise BackendError("Isaacus API: stopped after another request failed")
                try:
                    result = call()
                except isaacus.RateLimitError as exc:
                    self.limit.throttled()
                    delay = backoff_delay(attempt, advertised_delay(getattr(exc.response, "headers", None)))
                except isaacus.IsaacusError as exc:
                    raise self._translate(isaacus, exc) from None
                else:
                    self.limit.succeeded()
                    return result
            self._wait_out(delay, progress)
            attempt += 1

    def _wait_out(self, delay: float, progress: _Progress) -> None:
        now = time.monotonic()
        with progress.lock:
            if progress.stalled_since is None:
                progress.stalled_since = now
            spent = now - progress.stalled_since
        if spent + delay > self.rate_limit_budget:
            progress.stopped.set()
            raise BackendError(
                f"Isaacus API rate limit (429) still hit after {spent:.1f} s of backing off with no answer (rate_limit_budget "
                f"{self.rate_limit_budget:g} s): {progress.answered} of {progress.total} requests of this step answered, "
                f"{max(1, int(self.limit.limit))} in flight at the end; run again to send only the rest "
                "(answers are cached as they arrive), or raise rate_limit_budget in the config"
            )
        progress.stopped.wait(delay)

    def _translate(self, isaacus: Any, exc: Exception) -> Exception:
        retries = f"after {self.sdk.max_retries} retr{'y' if self.sdk.max_retries == 1 else 'ies'}"
        where = str(self.sdk.base_url).rstrip("/")
        if isinstance(exc, (isaacus.AuthenticationError, isaacus.PermissionDeniedError)):
            return ConfigError(f"Isaacus API: invalid API key ({exc.status_code}) (check ISAACUS_API_KEY, or api_key in the config)")
        if isinstance(exc, isaacus.InternalServerError):
            return BackendError(f"Isaacus API server error ({exc.status_code}) {retries}; try again later")
        if isinstance(exc, isaacus.APITimeoutError):
            return BackendError(f"Isaacus API request to {where} timed out {retries} (timeout {self.sdk.timeout}); raise timeout in the config or try again")
        if isinstance(exc, isaacus.APIConnectionError):
            return BackendError(f"cannot reach the Isaacus API at {where} {retries}: {_one_line(exc)}")
        if isinstance(exc, isaacus.APIStatusError):
            return BackendError(f"Isaacus API refused a request ({exc.status_code}): {_one_line(exc)}")
        return BackendError(f"Isaacus API: unexpected response: {_one_line(exc)}")

    # ---- endpoints -----------------------------------------------------------------------

    def enrich(self, texts: Sequence[str], *, model: str, overflow_strategy: str | None, on_answer: OnAnswer = None) -> list[dict]:
        """ILGS documents (plain dicts), one per text, at most 8 texts per request.

        ``on_answer(start, documents)``: each request's answers as they arrive (``start``: the first text's index).
        """
        def call(batch: list[str]) -> Callable[[], list[dict]]:
            def run() -> list[dict]:
                data = self._json(self.sdk.enrichments, model=model, texts=batch, overflow_strategy=overflow_strategy)
                self._record(model, data, len(batch))
                return _by_index(data.get("results"), len(batch), lambda r: r["document"])
            return run

        return _flat(self.run([call(b) for b in batched(texts, ENRICH_BATCH)], _by_start(ENRICH_BATCH, on_answer)))

    def embed(self, texts: Sequence[str], *, model: str, task: str | None, dimensions: int | None, batch_size: int = EMBED_BATCH,
              on_answer: OnAnswer = None) -> list[list[float]]:
        """One embedding per text, at most 128 texts per request; ``on_answer`` as for :meth:`enrich`."""
        extra = {} if dimensions is None else {"dimensions": dimensions}

        def call(batch: list[str]) -> Callable[[], list[list[float]]]:
            def run() -> list[list[float]]:
                data = self._json(self.sdk.embeddings, model=model, texts=batch, task=task, **extra)
                self._record(model, data, len(batch))
                return _by_index(data.get("embeddings"), len(batch), lambda e: _floats(e["embedding"]))
            return run

        size = min(batch_size, EMBED_BATCH)
        return _flat(self.run([call(b) for b in batched(texts, size)], _by_start(size, on_answer)))

    def score(self, jobs: Sequence[tuple[str, Sequence[str]]], *, endpoint: str, model: str, is_iql: bool,
              scoring_method: str, batch_size: int,
              on_answer: Callable[[int, int, list[float]], None] | None = None) -> list[list[float]]:
        """Scores of each job's texts against its query, by the classifier or the reranker, in order.

        ``on_answer(job, start, scores)``: each request's scores as they arrive.
        """
        calls, owners = [], []
        for j, (query, texts) in enumerate(jobs):
            for start in range(0, len(texts), batch_size):
                batch = list(texts[start : start + batch_size])
                calls.append(self._score_call(endpoint, model, query, batch, is_iql, scoring_method))
                owners.append((j, start))
        arrived = None if on_answer is None else (lambda i, scores: on_answer(*owners[i], scores))
        results: list[list[float]] = [[] for _ in jobs]
        for (owner, _), scores in zip(owners, self.run(calls, arrived)):
            results[owner].extend(scores)
        return results

    def _score_call(self, endpoint: str, model: str, query: str, batch: list[str], is_iql: bool, scoring_method: str) -> Callable[[], list[float]]:
        resource, field = (self.sdk.classifications.universal, "classifications") if endpoint == "classify" else (self.sdk.rerankings, "results")

        def run() -> list[float]:
            data = self._json(resource, model=model, query=query, texts=batch, is_iql=is_iql, scoring_method=scoring_method)
            self._record(model, data, len(batch))
            return _by_index(data.get(field), len(batch), lambda r: float(r["score"]))
        return run

    def _json(self, resource: Any, **params: Any) -> dict:
        """POST through the SDK (its retries, timeouts and errors) and return the body as JSON."""
        raw = resource.with_raw_response.create(**params)
        if self.sdk._strict_response_validation:
            raw.parse()  # raises APIResponseValidationError when the body drifts from the SDK's models
        data = raw.http_response.json()
        if not isinstance(data, dict):
            raise BackendError(f"Isaacus API returned {type(data).__name__} instead of a JSON object")
        return data

    def _record(self, model: str, data: dict, texts: int) -> None:
        tokens = (data.get("usage") or {}).get("input_tokens")
        self.usage.record(model, int(tokens) if isinstance(tokens, (int, float)) else 0, texts)


OnAnswer = Callable[[int, list], None] | None


@dataclass
class _Progress:
    """How far one :meth:`IsaacusClient.run` got, shared by its workers."""

    total: int
    answered: int = 0
    stalled_since: float | None = None  # the first 429 since the last answer
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopped: threading.Event = field(default_factory=threading.Event)


def _by_start(size: int, on_answer: OnAnswer) -> Callable[[int, list], None] | None:
    """Turn a request number into the index of its first text, for ``on_answer``."""
    return None if on_answer is None else (lambda i, answers: on_answer(i * size, answers))


def _flat(parts: list[list[T]]) -> list[T]:
    return [item for part in parts for item in part]


def _by_index(items: Any, expected: int, value: Callable[[dict], Any]) -> list[Any]:
    """Map results to inputs by their ``index`` (the API sorts them by score), refusing gaps."""
    if not isinstance(items, list):
        raise BackendError("Isaacus API returned a response without its list of results")
    out: list[Any] = [None] * expected
    for item in items:
        index = item.get("index") if isinstance(item, dict) else None
        if not isinstance(index, int) or not 0 <= index < expected or out[index] is not None:
            raise BackendError(f"Isaacus API returned an unexpected result index {index!r} for {expected} inputs")
        try:
            out[index] = value(item)
        except (KeyError, TypeError, ValueError) as exc:
            raise BackendError(f"Isaacus API returned a malformed result ({type(exc).__name__}: {exc})") from None
    if any(v is None for v in out):
        raise BackendError(f"Isaacus API returned {sum(v is not None for v in out)} results for {expected} inputs")
    return out


def _floats(values: Any) -> list[float]:
    if not isinstance(values, list) or not values or not all(isinstance(v, (int, float)) for v in values):
        raise ValueError("an embedding is not a list of numbers")
    return values


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:300]
