"""Model answers cached in conflictkit's store, so a repeated comparison sends no request.

Keys hold only what determines an answer: the model, the request parameters that change it
(task, dimensions, IQL or not, scoring method) and SHA-256 hashes of the query and the text.
Never the API key, the URL or a threshold: changing a threshold re-asks nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

from conflictkit.store import Store, key_of

NS_ENRICHMENTS = "isaacus.enrichments"
NS_EMBEDDINGS = "isaacus.embeddings"
NS_SCORES = "isaacus.scores"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _usable(store: Store | None) -> bool:
    return store is not None and store.enabled


def cached_values(
    store: Store | None,
    namespace: str,
    keys: Sequence[str],
    compute: Callable[[list[int], Callable[[int, Any], None]], list[Any]],
    encode: Callable[[Any], bytes],
    decode: Callable[[bytes], Any],
) -> tuple[list[Any], int]:
    """The value of each key: from the store where present, else from ``compute(positions, save)``.

    ``compute`` gets the positions of the first occurrence of each missing key (so a text asked
    twice is sent once) and returns their values in that order. It calls ``save(position, value)``
    as each answer arrives, so what was answered stays cached when a later request fails; a value
    it did not save is stored when it returns. Returns the values and the number of positions
    served from the store.
    """
    values: list[Any] = [None] * len(keys)
    first: dict[str, int] = {}
    hits = 0
    for i, key in enumerate(keys):
        if key in first:
            continue
        first[key] = i
        raw = store.get(namespace, key) if _usable(store) else None
        if raw is not None:
            try:
                values[i] = decode(raw)
                hits += 1
            except (ValueError, TypeError):
                values[i] = None  # an undecodable entry is a miss, recomputed below
    missing = [i for i in first.values() if values[i] is None]
    if missing:
        saved: set[int] = set()

        def save(i: int, value: Any) -> None:
            if _usable(store):
                store.put(namespace, keys[i], encode(value))
            saved.add(i)

        for i, value in zip(missing, compute(missing, save), strict=True):
            values[i] = value
            if i not in saved:
                save(i, value)
    for i, key in enumerate(keys):
        if values[i] is None:
            values[i] = values[first[key]]
    return values, hits


def vector_bytes(vector: Any) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()


def vector_from(raw: bytes) -> np.ndarray:
    if len(raw) % 4:
        raise ValueError("not a float32 vector")
    return np.frombuffer(raw, dtype=np.float32).copy()


def json_bytes(value: Any) -> bytes:
    import json

    return json.dumps(value, separators=(",", ":")).encode()


def from_json(raw: bytes) -> Any:
    import json

    return json.loads(raw)


def enrichment_key(model: str, overflow_strategy: str | None, text: str) -> str:
    return key_of("enrichment", model, overflow_strategy, sha(text))


def embedding_key(model: str, task: str | None, dimensions: int | None, text: str) -> str:
    return key_of("embedding", model, task, dimensions, sha(text))


def score_key(endpoint: str, model: str, is_iql: bool, scoring_method: str, query: str, text: str) -> str:
    return key_of("score", endpoint, model, is_iql, scoring_method, sha(query), sha(text))


def group_by_query(pairs: Sequence[tuple[str, str]], positions: Sequence[int]) -> dict[Hashable, list[int]]:
    """Positions of ``pairs`` grouped by their query, in first-seen order."""
    groups: dict[Hashable, list[int]] = {}
    for i in positions:
        groups.setdefault(pairs[i][0], []).append(i)
    return groups
