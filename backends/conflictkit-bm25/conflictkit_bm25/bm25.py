"""BM25 retrieval: mutual top-k over BM25 scores normalized to [0, 1].

The scores are the core's (:class:`conflictkit.retrievers.bm25.BM25Index`: symmetric, normalized by
each query's score against its own copy, computed a block of rows at a time on numpy alone), the
same index the engine's lexical pass uses; this plugin adds the ``bm25`` and ``hybrid`` retrievers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from pydantic import Field

from conflictkit.model import CandidatePair, IndexedDocument
from conflictkit.retrievers import bm25 as core
from conflictkit.retrievers.blocks import mutual_top_k
from conflictkit.retrievers.cosine import operative_indices
from conflictkit.stages import Options, Retriever


class BM25Params(Options):
    k1: float = Field(1.5, gt=0.0, le=5.0, description="term-frequency saturation")
    b: float = Field(0.75, ge=0.0, le=1.0, description="length normalization")


def bm25_index(reference: Sequence[str], input: Sequence[str], params: BM25Params) -> core.BM25Index:
    """The core BM25 index of two text lists under these options' k1 and b."""
    return core.BM25Index(reference, input, core.BM25Params(k1=params.k1, b=params.b))


def bm25_matrix(reference: Sequence[str], input: Sequence[str], params: BM25Params) -> np.ndarray:
    """Symmetric BM25 relevance (rows: reference texts, columns: input texts) in [0, 1], dense: for small inputs."""
    return core.bm25_matrix(reference, input, core.BM25Params(k1=params.k1, b=params.b))


class BM25Options(BM25Params):
    top_k: int = Field(3, ge=1, le=100, description="keep each clause's k best counterparts (either side)")
    min_relevance: float = Field(0.1, ge=0.0, le=1.0, description="minimum normalized BM25 relevance of a kept pair")


class BM25Retriever(Retriever):
    """Pairs clauses that share rare words, numbers and section references; needs no embedder."""

    name: ClassVar[str] = "bm25"
    Options: ClassVar[type[Options]] = BM25Options
    needs_vectors: ClassVar[bool] = False

    def retrieve(self, reference: IndexedDocument, input: IndexedDocument) -> list[CandidatePair]:
        ref_idx, inp_idx = operative_indices(reference), operative_indices(input)
        if not ref_idx or not inp_idx:
            return []
        index = bm25_index([reference.clauses[i].text for i in ref_idx], [input.clauses[j].text for j in inp_idx], self.options)
        rows, cols, scores = mutual_top_k(index.rows, index.n, index.m, self.options.top_k, self.options.min_relevance)
        return [
            CandidatePair.model_construct(
                reference_id=reference.clauses[ref_idx[i]].id,
                input_id=input.clauses[inp_idx[j]].id,
                relevance=score,
                signals={"bm25": score},
            )
            for i, j, score in zip(rows.tolist(), cols.tolist(), scores.tolist())
        ]


__all__ = ["BM25Options", "BM25Params", "BM25Retriever", "bm25_index", "bm25_matrix"]
