"""Kanon 2 Embedder: clause texts to unit vectors, at most 128 texts per request, cached by text hash."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

import numpy as np
from pydantic import Field

from conflictkit.stages import Embedder, Options

from conflictkit.errors import ResponseError

from conflictkit_isaacus.cache import NS_EMBEDDINGS, cached_values, checked, embedding_key, vector_bytes, vector_from
from conflictkit_isaacus.client import EMBED_BATCH, check_vector, embedding_size
from conflictkit_isaacus.component import IsaacusBackend
from conflictkit_isaacus.options import IsaacusOptions


class IsaacusEmbedderOptions(IsaacusOptions):
    model: str = Field("kanon-2-embedder", description="Isaacus embedding model id")
    task: Literal["retrieval/document", "retrieval/query"] | None = Field(
        "retrieval/document", description="what the vectors are for; clauses are compared as documents"
    )
    dimensions: Literal[1792, 1024, 768, 512, 256] | None = Field(None, description="vector size; None is the model's 1792")
    batch_size: int = Field(EMBED_BATCH, ge=1, le=EMBED_BATCH, description="texts per request (the API allows 128)")


class IsaacusEmbedder(IsaacusBackend, Embedder):
    """Embeds texts with Kanon 2 Embedder; rows are unit-normalized float32.

    A blank text (the API refuses them) gets a zero row without a request.
    """

    name: ClassVar[str] = "isaacus"
    Options: ClassVar[type[Options]] = IsaacusEmbedderOptions

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        opts = self.options
        client = self._client()
        live = [i for i, t in enumerate(texts) if t.strip()]
        keys = [embedding_key(opts.model, opts.task, opts.dimensions, texts[i]) for i in live]

        def compute(positions: list[int], save) -> list[np.ndarray]:
            def arrived(start: int, vectors: list) -> None:
                for position, vector in zip(positions[start:], vectors):
                    save(position, np.asarray(vector, dtype=np.float32))

            batch = [texts[live[p]] for p in positions]
            vectors = client.embed(batch, model=opts.model, task=opts.task, dimensions=opts.dimensions,
                                   batch_size=opts.batch_size, on_answer=arrived)
            return [np.asarray(v, dtype=np.float32) for v in vectors]

        size = embedding_size(opts.model, opts.dimensions)
        decode = vector_from if size is None else checked(vector_from, lambda v: np.asarray(check_vector(v.tolist(), size, opts.model), dtype=np.float32))
        values, hits = cached_values(self.store, NS_EMBEDDINGS, keys, compute, vector_bytes, decode)
        client.usage.cached(opts.model, hits)
        return _matrix(len(texts), live, values, size)


def _matrix(count: int, live: list[int], values: list[np.ndarray], size: int | None) -> np.ndarray:
    dim = len(values[0]) if values else (size or 1792)
    if any(len(v) != dim for v in values):
        raise ResponseError(f"Isaacus API /embeddings answered vectors of different sizes ({sorted({len(v) for v in values})}); "
                            "set dimensions in the config")
    out = np.zeros((count, dim), dtype=np.float32)
    for row, vector in zip(live, values):
        norm = float(np.linalg.norm(vector))
        if norm > 0:
            out[row] = vector / norm
    return out
