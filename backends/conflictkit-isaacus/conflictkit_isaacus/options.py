"""Options every Isaacus backend shares: credentials, endpoint, retries, concurrency, prices."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from conflictkit.remote import RetryOptions

# Public list prices, USD per 1M input tokens (docs.isaacus.com; unconfirmed, so configurable).
DEFAULT_PRICES: dict[str, float] = {
    "kanon-2-embedder": 0.35,
    "kanon-2-reranker": 0.35,
    "kanon-universal-classifier": 1.00,
    "kanon-universal-classifier-mini": 1.00,
    "kanon-2-enricher": 3.50,
}


class IsaacusOptions(RetryOptions):
    """Connection options; none of them changes an answer, so none is part of a cache key.

    ``timeout``, ``max_retries``, ``backoff_s`` and ``retry_budget_s`` (``rate_limit_budget`` is
    its former name) are the retry policy every hosted API gets (:mod:`conflictkit.remote`).
    """

    api_key: str | None = Field(
        None, description="Isaacus API key; defaults to $ISAACUS_API_KEY (prefer the variable: configs are saved with reports)"
    )
    base_url: str | None = Field(None, description="API base URL; defaults to $ISAACUS_BASE_URL, then https://api.isaacus.com/v1")
    max_concurrency: int = Field(6, ge=1, le=64, description="requests in flight at most (halved on 429, grown back by one per round)")
    prices: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_PRICES), description="USD per 1M input tokens, by model")
    strict_responses: bool = Field(False, description="fail on any response that does not match the SDK's models (tests)")

    # Fields that only say how to reach the API; the rest determine the answers.
    transport_fields: ClassVar[frozenset[str]] = frozenset(
        {"api_key", "base_url", "timeout", "max_retries", "backoff_s", "max_concurrency", "retry_budget_s", "prices",
         "strict_responses", "batch_size"}
    )
