"""Options shared by the ``llm`` backends: which endpoint and model, limits, retries, prices."""

from __future__ import annotations

from pydantic import Field

from conflictkit.remote import RetryOptions


class LLMOptions(RetryOptions):
    """``timeout``, ``max_retries``, ``backoff_s`` and ``retry_budget_s``: the retry policy every hosted API gets (:mod:`conflictkit.remote`)."""

    model: str = Field("gpt-4o-mini", description="model id as the endpoint names it")
    base_url: str | None = Field(None, description="OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1 (default: $OPENAI_BASE_URL, then OpenAI)")
    api_key_env: str = Field("OPENAI_API_KEY", description="environment variable holding the key (never put the key in a config)")
    max_concurrency: int = Field(4, ge=1, le=64, description="requests in flight at most (halved on 429, grown back by one per success)")
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    prices: dict[str, float] = Field(default_factory=dict, description="USD per million tokens: {input: X, output: Y}")
    max_usd: float | None = Field(None, gt=0, description="refuse to send requests whose estimated cost would pass this (needs prices)")
