"""Kanon Universal Classifier as a filter, with the published IQL statement and threshold."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from pydantic import Field

from conflictkit.model import Clause
from conflictkit.stages import Filter, Options

from conflictkit_isaacus.component import IsaacusBackend
from conflictkit_isaacus.options import IsaacusOptions

PUBLISHED_FILTER_QUERY = "this is a footnote, citation, editorial note, heading or signature, not a contractual provision"


class IsaacusFilterOptions(IsaacusOptions):
    model: str = Field("kanon-universal-classifier", description="Isaacus universal classification model id")
    query: str = Field(PUBLISHED_FILTER_QUERY, min_length=1, max_length=5000, description="what a non-operative clause is")
    is_iql: bool = Field(True, description="read the query as IQL (the published statement is a valid IQL query)")
    threshold: float = Field(0.5, ge=0.0, le=1.0, description="scores above this mark a clause non-operative")
    scoring_method: Literal["auto", "chunk_max", "chunk_avg", "chunk_min"] = "auto"
    batch_size: int = Field(64, ge=1, le=1000, description="texts per classification request")


class IsaacusFilter(IsaacusBackend, Filter):
    """Flags footnotes, citations, notes, headings and signatures; definitions are never filtered.

    A clause the segmenter already flagged (e.g. enricher front matter) keeps its reason and is
    not sent; each distinct text is sent once.
    """

    name: ClassVar[str] = "isaacus"
    Options: ClassVar[type[Options]] = IsaacusFilterOptions

    def flag(self, clauses: Sequence[Clause]) -> list[str | None]:
        opts = self.options
        asked = [i for i, c in enumerate(clauses) if c.kind != "definition" and c.filtered is None and c.text.strip()]
        scores = self._scores("classify", opts.model, [(opts.query, clauses[i].text) for i in asked],
                              is_iql=opts.is_iql, scoring_method=opts.scoring_method, batch_size=opts.batch_size)
        flags: list[str | None] = [None if c.kind == "definition" else c.filtered for c in clauses]
        for i, score in zip(asked, scores):
            if score > opts.threshold:
                flags[i] = f"isaacus classifier: non-operative ({score:.2f})"
        return flags
