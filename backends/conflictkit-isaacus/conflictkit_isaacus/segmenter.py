"""Kanon 2 Enricher as a segmenter: the enriched document's segments become clauses.

We send ``document.normalized`` (not the original): the enrichment is then cached by the same
text hash as the rest of a document's index, so a typography-only edit (curly quotes, NBSP)
costs no new enrichment, the most expensive call; spans come back into the normalized text and
are mapped to the original with ``document.to_original``.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from conflictkit.model import Clause, Document
from conflictkit.stages import Options, Segmenter

from conflictkit_isaacus.cache import NS_ENRICHMENTS, cached_values, checked, enrichment_key, from_json, json_bytes
from conflictkit_isaacus.client import check_document
from conflictkit_isaacus.component import IsaacusBackend
from conflictkit_isaacus.ilgs import clauses_from_ilgs
from conflictkit_isaacus.options import IsaacusOptions


class IsaacusSegmenterOptions(IsaacusOptions):
    model: str = Field("kanon-2-enricher", description="Isaacus enrichment model id")
    overflow_strategy: Literal["auto", "drop_end", "chunk"] | None = Field(
        "auto", description="what the enricher does with a document longer than its context (auto: chunk and stitch)"
    )


class IsaacusSegmenter(IsaacusBackend, Segmenter):
    """Kanon 2 Enricher: one clause per segment, its children and bare labels cut out.

    The rules are in :mod:`conflictkit_isaacus.ilgs`.
    """

    name: ClassVar[str] = "isaacus"
    Options: ClassVar[type[Options]] = IsaacusSegmenterOptions

    def segment(self, document: Document) -> list[Clause]:
        if not document.normalized.strip():
            return []  # the API refuses blank texts; an empty document has no clauses
        return clauses_from_ilgs(self.enrich([document.normalized])[0], document)

    def enrich(self, texts: list[str]) -> list[dict]:
        """ILGS documents for ``texts`` (cached; at most 8 texts per request, requests in parallel)."""
        opts = self.options
        client = self._client()
        keys = [enrichment_key(opts.model, opts.overflow_strategy, t) for t in texts]

        def compute(positions: list[int], save) -> list[dict]:
            def arrived(start: int, documents: list) -> None:
                for position, document in zip(positions[start:], documents):
                    save(position, document)

            return client.enrich([texts[p] for p in positions], model=opts.model, overflow_strategy=opts.overflow_strategy,
                                 on_answer=arrived)

        values, hits = cached_values(self.store, NS_ENRICHMENTS, keys, compute, json_bytes, checked(from_json, check_document))
        client.usage.cached(opts.model, hits)
        return values
