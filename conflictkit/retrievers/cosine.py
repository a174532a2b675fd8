"""Mutual top-k cosine retrieval: a pair is kept when it is in the top k for either clause.

The number of pairs is at most ``k * (n + m)``, linear in the clause counts, whatever the
document sizes; ``min_relevance`` drops pairs that are close only because nothing else is.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from pydantic import Field

from conflictkit import hookimpl
from conflictkit.model import CandidatePair, IndexedDocument
from conflictkit.stages import Options, Retriever


class CosineOptions(Options):
    top_k: int = Field(3, ge=1, le=100, description="keep each clause's k most similar counterparts")
    min_relevance: float = Field(0.3, ge=-1.0, le=1.0, description="minimum cosine similarity of a kept pair")


def similarity_matrix(reference: IndexedDocument, input: IndexedDocument) -> np.ndarray:
    """Cosine similarities (rows: reference clauses, columns: input clauses) of unit vectors."""
    if reference.vectors is None or input.vectors is None:
        raise ValueError("cosine retrieval needs clause vectors: configure an embedder")
    return reference.vectors @ input.vectors.T


def mutual_top_k(similarity: np.ndarray, top_k: int, min_relevance: float) -> list[tuple[int, int]]:
    """Index pairs (row, column) in the top k of their row or of their column, above ``min_relevance``."""
    n, m = similarity.shape
    if n == 0 or m == 0:
        return []
    keep: set[tuple[int, int]] = set()
    k_row = min(top_k, m)
    rows = np.argpartition(-similarity, k_row - 1, axis=1)[:, :k_row]
    for i in range(n):
        keep.update((i, int(j)) for j in rows[i])
    k_col = min(top_k, n)
    cols = np.argpartition(-similarity, k_col - 1, axis=0)[:k_col, :]
    for j in range(m):
        keep.update((int(i), j) for i in cols[:, j])
    return sorted((i, j) for i, j in keep if similarity[i, j] >= min_relevance)


def operative_indices(document: IndexedDocument) -> list[int]:
    """Positions of the clauses worth pairing: operative clauses and definitions."""
    return [i for i, c in enumerate(document.clauses) if c.filtered is None or c.kind == "definition"]


class CosineRetriever(Retriever):
    """Pairs clauses whose embeddings are mutually among the k nearest."""

    name: ClassVar[str] = "cosine"
    Options: ClassVar[type[Options]] = CosineOptions

    def retrieve(self, reference: IndexedDocument, input: IndexedDocument) -> list[CandidatePair]:
        ref_idx = operative_indices(reference)
        inp_idx = operative_indices(input)
        if not ref_idx or not inp_idx:
            return []
        full = similarity_matrix(reference, input)
        sim = full[np.ix_(ref_idx, inp_idx)]
        pairs = []
        for i, j in mutual_top_k(sim, self.options.top_k, self.options.min_relevance):
            score = float(sim[i, j])
            pairs.append(
                CandidatePair(
                    reference_id=reference.clauses[ref_idx[i]].id,
                    input_id=input.clauses[inp_idx[j]].id,
                    similarity=score,
                    relevance=max(0.0, min(1.0, score)),
                    signals={"cosine": score},
                )
            )
        return pairs


@hookimpl
def register_retrievers(register):
    register(CosineRetriever)
