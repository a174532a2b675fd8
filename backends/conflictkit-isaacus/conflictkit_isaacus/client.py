"""The Isaacus SDK client, wrapped: batches, bounded concurrency, clear errors, usage accounting.

The SDK validates nothing client-side, so the batch limits are enforced here. Responses are read
as plain JSON: the SDK's loose model construction takes seconds per batch of embeddings (one
Python call per float); with ``strict_responses`` each response is also validated against the
SDK's models, which is how the tests keep the fake API honest. Retries (with the
SDK's backoff honouring ``retry-after``) and timeouts come from the options. Every failure becomes
one :mod:`conflictkit.errors` error with a line that says what to do; a failed request aborts the
whole call, so no caller ever sees a partial answer.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from typing import Any, TypeVar

from conflictkit.errors import BackendError, ConfigError, MissingDependencyError, plugin_install_hint

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

    def __init__(self, sdk: Any, *, max_concurrency: int = 6, prices: dict[str, float] | None = None) -> None:
        self.sdk = sdk
        self.max_concurrency = max_concurrency
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
        return cls(sdk, max_concurrency=options.max_concurrency, prices=options.prices)

    # ---- running calls -------------------------------------------------------------------

    def run(self, calls: Sequence[Callable[[], T]]) -> list[T]:
        """Run ``calls`` with at most ``max_concurrency`` in flight; results in order; the first error wins."""
        if len(calls) <= 1 or self.max_concurrency == 1:
            return [self._guarded(call) for call in calls]
        with ThreadPoolExecutor(max_workers=min(self.max_concurrency, len(calls)), thread_name_prefix="isaacus") as pool:
            futures = [pool.submit(self._guarded, call) for call in calls]
            done, _ = wait(futures, return_when=FIRST_EXCEPTION)
            failed = next((f for f in futures if f in done and f.exception() is not None), None)
            if failed is not None:
                for future in futures:
                    future.cancel()
                raise failed.exception()
            return [f.result() for f in futures]

    def _guarded(self, call: Callable[[], T]) -> T:
        isaacus = _import_sdk()
        try:
            return call()
        except isaacus.IsaacusError as exc:
            raise self._translate(isaacus, exc) from None

    def _translate(self, isaacus: Any, exc: Exception) -> Exception:
        retries = f"after {self.sdk.max_retries} retr{'y' if self.sdk.max_retries == 1 else 'ies'}"
        where = str(self.sdk.base_url).rstrip("/")
        if isinstance(exc, (isaacus.AuthenticationError, isaacus.PermissionDeniedError)):
            return ConfigError(f"Isaacus API: invalid API key ({exc.status_code}) (check ISAACUS_API_KEY, or api_key in the config)")
        if isinstance(exc, isaacus.RateLimitError):
            return BackendError(f"Isaacus API rate limit (429) still hit {retries}; wait and run again, or lower max_concurrency")
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

    def enrich(self, texts: Sequence[str], *, model: str, overflow_strategy: str | None) -> list[dict]:
        """ILGS documents (plain dicts), one per text, at most 8 texts per request."""
        def call(batch: list[str]) -> Callable[[], list[dict]]:
            def run() -> list[dict]:
                data = self._json(self.sdk.enrichments, model=model, texts=batch, overflow_strategy=overflow_strategy)
                self._record(model, data, len(batch))
                return _by_index(data.get("results"), len(batch), lambda r: r["document"])
            return run

        return [doc for part in self.run([call(b) for b in batched(texts, ENRICH_BATCH)]) for doc in part]

    def embed(self, texts: Sequence[str], *, model: str, task: str | None, dimensions: int | None, batch_size: int = EMBED_BATCH) -> list[list[float]]:
        """One embedding per text, at most 128 texts per request."""
        extra = {} if dimensions is None else {"dimensions": dimensions}

        def call(batch: list[str]) -> Callable[[], list[list[float]]]:
            def run() -> list[list[float]]:
                data = self._json(self.sdk.embeddings, model=model, texts=batch, task=task, **extra)
                self._record(model, data, len(batch))
                return _by_index(data.get("embeddings"), len(batch), lambda e: _floats(e["embedding"]))
            return run

        size = min(batch_size, EMBED_BATCH)
        return [vec for part in self.run([call(b) for b in batched(texts, size)]) for vec in part]

    def score(self, jobs: Sequence[tuple[str, Sequence[str]]], *, endpoint: str, model: str, is_iql: bool,
              scoring_method: str, batch_size: int) -> list[list[float]]:
        """Scores of each job's texts against its query, by the classifier or the reranker, in order."""
        calls, owners = [], []
        for j, (query, texts) in enumerate(jobs):
            for batch in batched(list(texts), batch_size):
                calls.append(self._score_call(endpoint, model, query, batch, is_iql, scoring_method))
                owners.append(j)
        results: list[list[float]] = [[] for _ in jobs]
        for owner, scores in zip(owners, self.run(calls)):
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
