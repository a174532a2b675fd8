"""What every Isaacus backend shares: the client built at warm-up, cached scoring, usage, describe()."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from typing import Any

from conflictkit.errors import ConfigError

from conflictkit_isaacus.cache import NS_SCORES, cached_values, checked, from_json, group_by_query, json_bytes, score_key
from conflictkit_isaacus.client import IsaacusClient, check_score
from conflictkit_isaacus.options import IsaacusOptions


class IsaacusBackend:
    """Mixin placed before a conflictkit stage class: ``class X(IsaacusBackend, Embedder)``.

    ``http_client`` (an ``httpx.Client``) is for tests that serve the fake API in-process.
    """

    options: IsaacusOptions

    def __init__(self, options: IsaacusOptions | dict | None = None, *, http_client: Any = None) -> None:
        super().__init__(options)  # type: ignore[call-arg]  # the stage class validates options
        self._http_client = http_client
        self.client: IsaacusClient | None = None

    def warm_up(self) -> None:
        """Build the API client; a missing key fails here, before any work."""
        if self.client is None:
            self.client = IsaacusClient.from_options(self.options, http_client=self._http_client)
        super().warm_up()  # type: ignore[misc]

    def unavailable(self) -> str | None:
        if not (self.options.api_key or os.environ.get("ISAACUS_API_KEY")):
            return "no Isaacus API key (set ISAACUS_API_KEY)"
        return None

    def _client(self) -> IsaacusClient:
        if self.client is None:
            raise ConfigError(f"{self.name} {self.stage}: call warm_up() before using it")  # type: ignore[attr-defined]
        return self.client

    def _answer_options(self) -> dict[str, Any]:
        dumped = self.options.model_dump(mode="json")
        return {k: v for k, v in dumped.items() if k not in IsaacusOptions.transport_fields}

    @property
    def fingerprint(self) -> str:
        """Only options that change answers: a new key, URL or concurrency keeps the cached index."""
        payload = json.dumps({"name": self.name, "version": self.version, "options": self._answer_options()}, sort_keys=True)  # type: ignore[attr-defined]
        return f"{self.name}@{self.version}:{hashlib.sha256(payload.encode()).hexdigest()[:16]}"  # type: ignore[attr-defined]

    def describe(self) -> dict:
        """Backend, models and options for params.json, with the API key never written out."""
        options = self.options.model_dump(mode="json")
        options["api_key"] = "(set in config)" if self.options.api_key else ("$ISAACUS_API_KEY" if os.environ.get("ISAACUS_API_KEY") else None)
        base_url = str(self.client.sdk.base_url) if self.client else (self.options.base_url or os.environ.get("ISAACUS_BASE_URL"))
        return {"name": self.name, "version": self.version, "provider": "isaacus", "base_url": base_url, "options": options}  # type: ignore[attr-defined]

    def usage(self) -> dict:
        """Requests, input tokens and estimated cost per model since construction."""
        return self.client.usage.report() if self.client else {}

    def _scores(self, endpoint: str, model: str, pairs: Sequence[tuple[str, str]], *, is_iql: bool,
                scoring_method: str = "auto", batch_size: int = 64) -> list[float]:
        """Score (query, text) pairs with the classifier or the reranker, cached, grouped by query.

        Each distinct (query, text) is asked once; each query is sent with all its texts in
        batches of ``batch_size``.
        """
        client = self._client()
        keys = [score_key(endpoint, model, is_iql, scoring_method, q, t) for q, t in pairs]

        def compute(positions: list[int], save: Callable[[int, float], None]) -> list[float]:
            groups = list(group_by_query(pairs, positions).items())
            jobs = [(query, [pairs[i][1] for i in members]) for query, members in groups]

            def arrived(job: int, start: int, scores: list[float]) -> None:
                for i, score in zip(groups[job][1][start:], scores):
                    save(i, score)

            answers = client.score(jobs, endpoint=endpoint, model=model, is_iql=is_iql,
                                   scoring_method=scoring_method, batch_size=batch_size, on_answer=arrived)
            by_position = {i: s for (_, members), scores in zip(groups, answers) for i, s in zip(members, scores)}
            return [by_position[i] for i in positions]

        decode = checked(from_json, lambda score: check_score(score, "(cached score)"))
        values, hits = cached_values(getattr(self, "store", None), NS_SCORES, keys, compute, json_bytes, decode)
        client.usage.cached(model, hits)
        return [float(v) for v in values]
