"""Model answers cached in conflictkit's store, so a repeated comparison sends no request.

Keys hold only what determines an answer: the model, the request parameters that change it
(task, dimensions, IQL or not, scoring method) and SHA-256 hashes of the query and the text.
Never the API key, the URL or a threshold: changing a threshold re-asks nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from conflictkit.errors import ResponseError

from conflictkit.store import cached_values, key_of, vector_bytes, vector_from

__all__ = ["cached_values", "vector_bytes", "vector_from"]  # shared with the core, re-exported for the backends

NS_ENRICHMENTS = "isaacus.enrichments"
NS_EMBEDDINGS = "isaacus.embeddings"
NS_SCORES = "isaacus.scores"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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


def checked(decode: Callable[[bytes], Any], check: Callable[[Any], Any]) -> Callable[[bytes], Any]:
    """``decode`` then ``check`` (the same check as a fresh answer's): an entry that fails reads as a miss and is
    asked again, so a bad answer cached by an earlier version never poisons a run."""
    def read(raw: bytes) -> Any:
        try:
            return check(decode(raw))
        except ResponseError as exc:
            raise ValueError(str(exc)) from None
    return read


def group_by_query(pairs: Sequence[tuple[str, str]], positions: Sequence[int]) -> dict[Hashable, list[int]]:
    """Positions of ``pairs`` grouped by their query, in first-seen order."""
    groups: dict[Hashable, list[int]] = {}
    for i in positions:
        groups.setdefault(pairs[i][0], []).append(i)
    return groups
