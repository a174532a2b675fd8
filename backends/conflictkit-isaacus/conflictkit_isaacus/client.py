"""The Isaacus SDK client, wrapped: batches, validated answers, the shared retry policy, usage accounting.

The SDK validates nothing client-side, so the batch limits are enforced here. Responses are read
as plain JSON: the SDK's loose model construction takes seconds per batch of embeddings (one
Python call per float); with ``strict_responses`` each response is also validated against the
SDK's models, which is how the tests keep the fake API honest. Requests go through
:class:`conflictkit.remote.Runner` (the SDK's own retries off): the retry policy every hosted API
gets. Every answer is checked before anyone sees it (scores finite and in [0, 1], embeddings of
the model's size, enriched documents whose spans fit their text): a bad one is a
:class:`~conflictkit.errors.ResponseError` (exit 2) and is never cached. Each good answer is
handed to ``on_answer`` as it arrives, so callers cache it even when a later request fails; a
failed request aborts the whole call, so no caller ever sees a partial answer.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from conflictkit.errors import BackendError, ConfigError, MissingDependencyError, ResponseError, plugin_install_hint
from conflictkit.remote import RetryPolicy, Runner, Transient, json_answer, sdk_final, sdk_transient

from conflictkit_isaacus.options import IsaacusOptions

T = TypeVar("T")

ENRICH_BATCH = 8  # the API's limit of texts per enrichment request
EMBED_BATCH = 128  # the API's limit of texts per embedding request
INSTALL_HINT = plugin_install_hint("conflictkit-isaacus") + ", which brings isaacus==0.22.1"
API = "Isaacus API"
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
    """One SDK client (its own retries off) and the shared request runner; every method returns complete answers or raises."""

    def __init__(self, sdk: Any, *, max_concurrency: int = 6, prices: dict[str, float] | None = None,
                 policy: RetryPolicy | None = None) -> None:
        self.sdk = sdk
        self.runner = Runner(API, policy or RetryPolicy(), max_concurrency, self._transient, self._translate)
        self.usage = Usage(prices or {})
        self._sizes: dict[str, int] = {}  # embedding size first seen, per model of unknown size

    @property
    def max_concurrency(self) -> int:
        return self.runner.limit.ceiling

    @property
    def limit(self):
        return self.runner.limit

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
            max_retries=0,  # conflictkit.remote retries, under the same policy as every hosted API
            http_client=http_client,
            _strict_response_validation=options.strict_responses,
        )
        return cls(sdk, max_concurrency=options.max_concurrency, prices=options.prices, policy=RetryPolicy.of(options))

    # ---- failures ------------------------------------------------------------------------

    def _transient(self, exc: BaseException) -> Transient | None:
        return sdk_transient(_import_sdk(), exc, str(self.sdk.base_url).rstrip("/"), float(getattr(self.sdk.timeout, "read", None) or self.sdk.timeout))

    def _translate(self, exc: BaseException) -> BaseException:
        return sdk_final(_import_sdk(), exc, API, "check ISAACUS_API_KEY, or api_key in the config")

    # ---- endpoints -----------------------------------------------------------------------

    def enrich(self, texts: Sequence[str], *, model: str, overflow_strategy: str | None, on_answer: OnAnswer = None) -> list[dict]:
        """ILGS documents (plain dicts), one per text, at most 8 texts per request, each checked against its text.

        ``on_answer(start, documents)``: each request's answers as they arrive (``start``: the first text's index).
        """
        def call(batch: list[str]) -> Callable[[], list[dict]]:
            def run() -> list[dict]:
                data = self._json(self.sdk.enrichments, "/enrichments", model=model, texts=batch, overflow_strategy=overflow_strategy)
                documents = _by_index(data.get("results"), len(batch), "/enrichments", lambda r: r["document"])
                for text, document in zip(batch, documents):
                    check_document(document, text)
                return documents
            return run

        return _flat(self.runner.run([call(b) for b in batched(texts, ENRICH_BATCH)], _by_start(ENRICH_BATCH, on_answer), "/enrichments"))

    def embed(self, texts: Sequence[str], *, model: str, task: str | None, dimensions: int | None, batch_size: int = EMBED_BATCH,
              on_answer: OnAnswer = None) -> list[list[float]]:
        """One embedding per text, at most 128 texts per request, each of the size the model gives; ``on_answer`` as for :meth:`enrich`."""
        extra = {} if dimensions is None else {"dimensions": dimensions}

        def call(batch: list[str]) -> Callable[[], list[list[float]]]:
            def run() -> list[list[float]]:
                data = self._json(self.sdk.embeddings, "/embeddings", model=model, texts=batch, task=task, **extra)
                vectors = _by_index(data.get("embeddings"), len(batch), "/embeddings", lambda e: e["embedding"])
                size = embedding_size(model, dimensions) or self._sizes.setdefault(model, len(vectors[0]) if isinstance(vectors[0], list) else 0)
                return [check_vector(v, size, model) for v in vectors]
            return run

        size = min(batch_size, EMBED_BATCH)
        return _flat(self.runner.run([call(b) for b in batched(texts, size)], _by_start(size, on_answer), "/embeddings"))

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
        path = "/classifications/universal" if endpoint == "classify" else "/rerankings"
        for (owner, _), scores in zip(owners, self.runner.run(calls, arrived, path)):
            results[owner].extend(scores)
        return results

    def _score_call(self, endpoint: str, model: str, query: str, batch: list[str], is_iql: bool, scoring_method: str) -> Callable[[], list[float]]:
        if endpoint == "classify":
            resource, path, field = self.sdk.classifications.universal, "/classifications/universal", "classifications"
        else:
            resource, path, field = self.sdk.rerankings, "/rerankings", "results"

        def run() -> list[float]:
            data = self._json(resource, path, model=model, query=query, texts=batch, is_iql=is_iql, scoring_method=scoring_method)
            return [check_score(s, path) for s in _by_index(data.get(field), len(batch), path, lambda r: r["score"])]
        return run

    def _json(self, resource: Any, path: str, **params: Any) -> dict:
        """POST through the SDK and return the body as a JSON object, its usage recorded."""
        raw = resource.with_raw_response.create(**params)
        if self.sdk._strict_response_validation:
            raw.parse()  # raises APIResponseValidationError when the body drifts from the SDK's models
        data = json_answer(raw.http_response, API, path)
        tokens = (data.get("usage") or {}).get("input_tokens") if isinstance(data.get("usage"), dict) else None
        texts = params["texts"]
        self.usage.record(params["model"], int(tokens) if isinstance(tokens, (int, float)) and math.isfinite(tokens) else 0,
                          1 if isinstance(texts, str) else len(texts))
        return data


# ---- what an answer must be before it is used or cached ----------------------------------------

# Embedding sizes of the models we know, when no ``dimensions`` is asked for.
MODEL_DIMENSIONS = {"kanon-2-embedder": 1792}


def embedding_size(model: str, dimensions: int | None) -> int | None:
    """The size every vector of ``model`` must have (None: a model we do not know, asked for no size)."""
    return dimensions or MODEL_DIMENSIONS.get(model)


def check_vector(values: Any, size: int, model: str) -> list[float]:
    """``values`` when it is ``size`` finite numbers, not all zero; else a ResponseError saying what it is."""
    if not isinstance(values, list) or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise ResponseError("Isaacus API /embeddings answered an embedding that is not a list of numbers")
    if len(values) != size:
        raise ResponseError(f"Isaacus API /embeddings answered an embedding of {len(values)} numbers where {model} gives {size}; "
                            "check the model and dimensions in the config (vectors of another size are never used)")
    if not all(math.isfinite(v) for v in values):
        raise ResponseError("Isaacus API /embeddings answered an embedding holding NaN or infinity")
    if not any(values):
        raise ResponseError("Isaacus API /embeddings answered an embedding of zeros")
    return values


def check_score(value: Any, path: str) -> float:
    """A score the API promises: a finite number from 0 to 1."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ResponseError(f"Isaacus API {path} answered a score of {value!r}; scores are numbers from 0 to 1")
    return float(value)


def check_document(document: Any, text: str | None = None) -> dict:
    """An ILGS document of ``text`` (else of its own text): its segments' spans inside the text (what the segmenter reads)."""
    if not isinstance(document, dict) or not isinstance(document.get("segments"), list):
        raise ResponseError("Isaacus API /enrichments answered a document without its list of segments")
    if text is not None and document.get("text", text) != text:
        raise ResponseError("Isaacus API /enrichments answered a document whose text is not the text sent")
    text = document.get("text") if text is None else text
    if not isinstance(text, str):
        raise ResponseError("Isaacus API /enrichments answered a document without its text")
    for segment in document["segments"]:
        span = segment.get("span") if isinstance(segment, dict) else None
        ok = isinstance(span, dict) and all(isinstance(span.get(k), int) and not isinstance(span.get(k), bool) for k in ("start", "end"))
        if not ok or not 0 <= span["start"] <= span["end"] <= len(text):
            raise ResponseError(f"Isaacus API /enrichments answered a segment span {span!r} outside the text of {len(text)} characters")
    return document


OnAnswer = Callable[[int, list], None] | None


def _by_start(size: int, on_answer: OnAnswer) -> Callable[[int, list], None] | None:
    """Turn a request number into the index of its first text, for ``on_answer``."""
    return None if on_answer is None else (lambda i, answers: on_answer(i * size, answers))


def _flat(parts: list[list[T]]) -> list[T]:
    return [item for part in parts for item in part]


def _by_index(items: Any, expected: int, path: str, value: Callable[[dict], Any]) -> list[Any]:
    """Map results to inputs by their ``index`` (the API sorts them by score), refusing gaps."""
    if not isinstance(items, list):
        raise ResponseError(f"Isaacus API {path} answered without its list of results")
    out: list[Any] = [None] * expected
    for item in items:
        index = item.get("index") if isinstance(item, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < expected or out[index] is not None:
            raise ResponseError(f"Isaacus API {path} answered an unexpected result index {index!r} for {expected} inputs")
        try:
            out[index] = value(item)
        except (KeyError, TypeError) as exc:
            raise ResponseError(f"Isaacus API {path} answered a malformed result ({type(exc).__name__}: {exc})") from None
        if out[index] is None:
            raise ResponseError(f"Isaacus API {path} answered a result without its value")
    if any(v is None for v in out):
        raise ResponseError(f"Isaacus API {path} answered {sum(v is not None for v in out)} results for {expected} inputs")
    return out


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:300]
