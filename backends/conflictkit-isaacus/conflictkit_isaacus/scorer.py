"""Kanon 2 Reranker as a scorer: relevance of each input clause to its reference clause."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from pydantic import Field

from conflictkit.stages import Options, Scorer

from conflictkit_isaacus.component import IsaacusBackend
from conflictkit_isaacus.options import IsaacusOptions


class IsaacusScorerOptions(IsaacusOptions):
    model: str = Field("kanon-2-reranker", description="Isaacus reranking model id")
    is_iql: bool = Field(False, description="clause texts are plain text, not IQL")
    scoring_method: Literal["auto", "chunk_max", "chunk_avg", "chunk_min"] = "auto"
    batch_size: int = Field(64, ge=1, le=1000, description="texts per reranking request")


class IsaacusScorer(IsaacusBackend, Scorer):
    """Scores (reference, input) pairs; pairs sharing a reference clause go in one request."""

    name: ClassVar[str] = "isaacus"
    Options: ClassVar[type[Options]] = IsaacusScorerOptions

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        opts = self.options
        return self._scores("rerank", opts.model, list(pairs), is_iql=opts.is_iql,
                            scoring_method=opts.scoring_method, batch_size=opts.batch_size)
