"""Mutual top-k cosine retrieval: a pair is kept when it is in the top k for either clause.

The number of pairs is at most ``k * (n + m)``, linear in the clause counts, whatever the
document sizes; ``min_relevance`` drops pairs that are close only because nothing else is.
Similarities are computed a block of rows at a time (:mod:`conflictkit.retrievers.blocks`), so
memory stays linear too.

With ``lexical`` options (the default), clauses whose BM25 match is clear are paired lexically
first and never embedded (:mod:`conflictkit.retrievers.lexical`); cosine ranks the rest.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from pydantic import Field

from conflictkit.model import CandidatePair, IndexedDocument
from conflictkit.retrievers.blocks import RowBlocks, mutual_top_k
from conflictkit.retrievers.lexical import LexicalOptions, lexical_pass
from conflictkit.stages import Options, Retriever, Settlement


class CosineOptions(Options):
    top_k: int = Field(3, ge=1, le=100, description="keep each clause's k most similar counterparts")
    min_relevance: float = Field(0.3, ge=-1.0, le=1.0, description="minimum cosine similarity of a kept pair")
    lexical: LexicalOptions | None = Field(default_factory=LexicalOptions, description=(
        "pair clauses whose BM25 match is clear before embedding, and embed only the rest; null embeds every clause"))


def operative_vectors(document: IndexedDocument, indices: list[int]) -> np.ndarray:
    """The unit vectors of the clauses at ``indices`` (rows), as float32."""
    if document.vectors is None:
        raise ValueError("cosine retrieval needs clause vectors: configure an embedder")
    return np.ascontiguousarray(document.vectors[indices], dtype=np.float32)


def cosine_blocks(left: np.ndarray, right: np.ndarray) -> RowBlocks:
    """Row blocks of ``left @ right.T`` (cosine similarities of unit vectors), computed on demand."""
    return lambda start, stop: left[start:stop] @ right.T


def cosine_at(left: np.ndarray, right: np.ndarray, rows: np.ndarray, cols: np.ndarray, chunk: int = 50_000) -> np.ndarray:
    """Cosine similarities of given (row, column) cells, ``chunk`` cells at a time (two gathered
    vectors per cell would otherwise take cells x dimensions x 8 bytes at once)."""
    out = np.zeros(rows.size)
    for start in range(0, rows.size, chunk):
        r, c = rows[start : start + chunk], cols[start : start + chunk]
        out[start : start + chunk] = np.einsum("ij,ij->i", left[r], right[c])
    return out


def operative_indices(document: IndexedDocument) -> list[int]:
    """Positions of the clauses worth pairing: operative clauses and definitions."""
    return [i for i, c in enumerate(document.clauses) if c.filtered is None or c.kind == "definition"]


class CosineRetriever(Retriever):
    """Pairs clauses whose embeddings are mutually among the k nearest."""

    name: ClassVar[str] = "cosine"
    Options: ClassVar[type[Options]] = CosineOptions

    def settle(self, reference: IndexedDocument, input: IndexedDocument,
               open: tuple[list[int], list[int]]) -> Settlement | None:
        if self.options.lexical is None:
            return None
        return lexical_pass(reference, input, self.options.lexical, self.options.top_k, open)

    def retrieve(self, reference: IndexedDocument, input: IndexedDocument) -> list[CandidatePair]:
        ref_idx = operative_indices(reference)
        inp_idx = operative_indices(input)
        if not ref_idx or not inp_idx:
            return []
        ref_vectors, inp_vectors = operative_vectors(reference, ref_idx), operative_vectors(input, inp_idx)
        rows, cols, scores = mutual_top_k(
            cosine_blocks(ref_vectors, inp_vectors), len(ref_idx), len(inp_idx), self.options.top_k, self.options.min_relevance,
        )
        pairs = []
        for i, j, score in zip(rows.tolist(), cols.tolist(), scores.tolist()):
            pairs.append(
                CandidatePair.model_construct(
                    reference_id=reference.clauses[ref_idx[i]].id,
                    input_id=input.clauses[inp_idx[j]].id,
                    similarity=score,
                    relevance=max(0.0, min(1.0, score)),
                    signals={"cosine": score},
                )
            )
        return pairs
