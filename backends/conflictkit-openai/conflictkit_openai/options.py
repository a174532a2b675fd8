"""Options shared by the ``llm`` backends: which endpoint and model, limits, retries, prices."""

from __future__ import annotations

from pydantic import Field

from conflictkit.stages import Options


class LLMOptions(Options):
    model: str = Field("gpt-4o-mini", description="model id as the endpoint names it")
    base_url: str | None = Field(None, description="OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1 (default: $OPENAI_BASE_URL, then OpenAI)")
    api_key_env: str = Field("OPENAI_API_KEY", description="environment variable holding the key (never put the key in a config)")
    timeout: float = Field(60.0, gt=0, le=3600, description="seconds per request")
    max_retries: int = Field(6, ge=0, le=50, description="retries of a request on 429, 5xx, timeouts and dropped connections")
    backoff_s: float = Field(0.5, ge=0.0, le=60.0, description="first retry wait, doubled each time (with jitter; never less than retry-after)")
    retry_budget_s: float = Field(300.0, gt=0, description="give up retrying after this many seconds in all")
    max_concurrency: int = Field(4, ge=1, le=64, description="requests in flight at most (halved on 429, grown back by one per success)")
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    prices: dict[str, float] = Field(default_factory=dict, description="USD per million tokens: {input: X, output: Y}")
    max_usd: float | None = Field(None, gt=0, description="refuse to send requests whose estimated cost would pass this (needs prices)")
