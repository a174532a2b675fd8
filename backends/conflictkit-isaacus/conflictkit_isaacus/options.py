"""Options every Isaacus backend shares: credentials, endpoint, retries, concurrency, prices."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from conflictkit.stages import Options

# Public list prices, USD per 1M input tokens (docs.isaacus.com; unconfirmed, so configurable).
DEFAULT_PRICES: dict[str, float] = {
    "kanon-2-embedder": 0.35,
    "kanon-2-reranker": 0.35,
    "kanon-universal-classifier": 1.00,
    "kanon-universal-classifier-mini": 1.00,
    "kanon-2-enricher": 3.50,
}


class IsaacusOptions(Options):
    """Connection options; none of them changes an answer, so none is part of a cache key."""

    api_key: str | None = Field(
        None, description="Isaacus API key; defaults to $ISAACUS_API_KEY (prefer the variable: configs are saved with reports)"
    )
    base_url: str | None = Field(None, description="API base URL; defaults to $ISAACUS_BASE_URL, then https://api.isaacus.com/v1")
    timeout: float = Field(60.0, gt=0, description="seconds before a request is abandoned")
    max_retries: int = Field(2, ge=0, le=10, description="retries on 408/409/429/5xx, timeouts and connection errors")
    max_concurrency: int = Field(6, ge=1, le=64, description="requests in flight at once")
    rate_limit_budget: float = Field(
        300.0, gt=0, description="seconds of rate limits (429) with no request answered before a step gives up"
    )
    prices: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_PRICES), description="USD per 1M input tokens, by model")
    strict_responses: bool = Field(False, description="fail on any response that does not match the SDK's models (tests)")

    # Fields that only say how to reach the API; the rest determine the answers.
    transport_fields: ClassVar[frozenset[str]] = frozenset(
        {"api_key", "base_url", "timeout", "max_retries", "max_concurrency", "rate_limit_budget", "prices",
         "strict_responses", "batch_size"}
    )
