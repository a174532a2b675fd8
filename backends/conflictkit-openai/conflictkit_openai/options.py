"""Options shared by the ``llm`` backends: which endpoint and model, waits, limits, retries, prices."""

from __future__ import annotations

from pydantic import Field

from conflictkit.remote import RetryOptions


class LLMOptions(RetryOptions):
    """``max_retries``, ``backoff_s`` and ``retry_budget_s``: the retry policy every hosted API gets
    (:mod:`conflictkit.remote`); ``timeout`` is a silence here, stretched by the endpoint's measured
    speed (:mod:`conflictkit_openai.pace`)."""

    model: str = Field("gpt-4o-mini", description="model id as the endpoint names it")
    base_url: str | None = Field(None, description="OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1 (default: $OPENAI_BASE_URL, then OpenAI)")
    api_key_env: str = Field("OPENAI_API_KEY", description="environment variable holding the key (never put the key in a config)")
    stream: bool = Field(True, description=(
        "stream answers: a slow model is timed by its silences, not its total time, and an abandoned "
        "request is cancelled on the server by closing its connection"))
    timeout: float = Field(60.0, gt=0, le=3600, description=(
        "seconds an answer may stay silent: between two streamed pieces, and before the first one "
        "on top of the time its prompt takes (see prompt_tokens_per_s); a try that passes it is retried"))
    connect_timeout: float = Field(10.0, gt=0, le=600, description="seconds to open a connection to the endpoint")
    prompt_tokens_per_s: float = Field(50.0, gt=0, description=(
        "prompt-reading speed assumed until one is measured: the first piece of an answer may take "
        "timeout + 2 x prompt tokens / this speed (a CPU llama.cpp server reads 50-500 tokens/s)"))
    tokens_per_s: float = Field(5.0, gt=0, description="writing speed assumed until one is measured (answers that are not streamed)")
    max_request_s: float | None = Field(None, gt=0, description="cancel a request that takes longer than this in all (its connection is closed)")
    max_concurrency: int | None = Field(None, ge=1, le=64, description=(
        "requests in flight at most (halved on 429, grown back by one per success); default 1 for a "
        "loopback endpoint (a local server that computes one answer at a time would only queue the rest "
        "until they time out), else 4"))
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    prices: dict[str, float] = Field(default_factory=dict, description="USD per million tokens: {input: X, output: Y}")
    max_usd: float | None = Field(None, gt=0, description="refuse to send requests whose estimated cost would pass this (needs prices)")
