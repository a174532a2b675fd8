"""Hybrid retrieval: reciprocal-rank fusion (RRF) of BM25 and cosine rankings.

Cosine pairs paraphrases that share few words; BM25 pairs clauses that share rare words, numbers
and section references even when an embedding drifts (a dropped "not" moves a vector little, a
rewritten clause a lot). For every clause on each side, each ranker ranks the other side's
clauses; a counterpart at rank r (1-based, among the ranker's ``k`` best) earns
``weight / (rrf_k + r)``. Row and column fusions are averaged and divided by the best possible
score, so the fused relevance is in [0, 1] and 1.0 means "first for both rankers, both ways".
Only each ranker's ``k`` best per row and per column are ever held (row blocks, see
:mod:`conflictkit.retrievers.blocks`), so time and memory stay linear in the clause counts.
A pair is kept when it is in the fused top ``top_k`` of either clause and at least one ranker finds
it plausible (``min_cosine`` or ``min_bm25``), so fusion never pairs clauses only because
nothing else is there.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from pydantic import Field

from conflictkit.errors import ConfigError
from conflictkit.model import CandidatePair, IndexedDocument
from conflictkit.retrievers.blocks import RowBlocks, top_k_of_groups, top_k_rows_and_columns
from conflictkit.retrievers.cosine import cosine_at, cosine_blocks, operative_indices, operative_vectors
from conflictkit.stages import Options, Retriever
from conflictkit_bm25.bm25 import BM25Params, bm25_index


class FusionWeights(Options):
    bm25: float = Field(1.0, ge=0.0, description="weight of the BM25 ranking")
    cosine: float = Field(1.0, ge=0.0, description="weight of the cosine ranking")


class HybridOptions(Options):
    top_k: int = Field(3, ge=1, le=100, description="keep each clause's k best fused counterparts (either side)")
    k: int = Field(10, ge=1, le=1000, description="how many of each ranker's best counterparts enter the fusion")
    rrf_k: float = Field(10.0, gt=0.0, description="RRF damping constant: larger flattens the rank weights")
    weights: FusionWeights = Field(default_factory=FusionWeights)
    min_cosine: float = Field(0.3, ge=-1.0, le=1.0, description="a pair needs this cosine similarity...")
    min_bm25: float = Field(0.1, ge=0.0, le=1.0, description="...or this normalized BM25 relevance")
    bm25: BM25Params = Field(default_factory=BM25Params)


def _reciprocal(ranks: np.ndarray, rrf_k: float) -> np.ndarray:
    return np.where(ranks > 0, 1.0 / (rrf_k + np.maximum(ranks, 1)), 0.0)


def _dense_ranks(scores: np.ndarray, depth: int, axis: int) -> np.ndarray:
    """1-based rank of each cell along ``axis`` (1 = best, ties to the lower index), or 0 beyond ``depth``."""
    order = np.argsort(-scores, axis=axis, kind="stable")
    ranks = np.empty_like(order)
    positions = np.arange(1, scores.shape[axis] + 1)
    shape = positions if axis == 1 else positions[:, None]
    np.put_along_axis(ranks, order, np.broadcast_to(shape, scores.shape), axis=axis)
    ranks[ranks > depth] = 0
    return ranks


def rrf_fuse(matrices: dict[str, np.ndarray], weights: dict[str, float], depth: int, rrf_k: float) -> np.ndarray:
    """Fused relevance in [0, 1] of small dense (reference x input) score matrices, rows and columns alike.

    The retriever computes the same fusion without dense matrices (:func:`sparse_rrf`); this one
    is the definition, for tests and small inputs.
    """
    total = _total_weight(weights)
    shape = next(iter(matrices.values())).shape
    fused = np.zeros(shape)
    for name, scores in matrices.items():
        by_row = _reciprocal(_dense_ranks(scores, depth, axis=1), rrf_k)
        by_col = _reciprocal(_dense_ranks(scores, depth, axis=0), rrf_k)
        fused += weights[name] * (by_row + by_col) / 2.0
    return fused / (total / (rrf_k + 1.0))


def _total_weight(weights: dict[str, float]) -> float:
    total = sum(weights.values())
    if total <= 0:
        raise ConfigError("hybrid retriever: at least one of weights.bm25 and weights.cosine must be positive")
    return total


def sparse_rrf(
    rankers: dict[str, RowBlocks], weights: dict[str, float], n: int, m: int, depth: int, rrf_k: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`rrf_fuse` for rankers given as row blocks of their scores.

    Only cells within some ranker's ``depth`` best of a row or column have a fused score above
    zero, so fusion needs each ranker's top ``depth`` per row and per column, never a whole matrix.
    Returns (rows, columns, fused) of those cells, sorted by row, then column.
    """
    total = _total_weight(weights)
    keys, contributions = [], []
    for name, scores in rankers.items():
        by_row, by_col = top_k_rows_and_columns(scores, n, m, depth)
        for top, transposed in ((by_row, False), (by_col, True)):
            rows, cols = (top.cols, top.rows) if transposed else (top.rows, top.cols)
            keys.append(rows * m + cols)
            contributions.append(weights[name] * _reciprocal(top.ranks, rrf_k) / 2.0)
    unique, inverse = np.unique(np.concatenate(keys), return_inverse=True)
    fused = np.bincount(inverse, weights=np.concatenate(contributions), minlength=unique.size)
    return unique // m, unique % m, fused / (total / (rrf_k + 1.0))


class HybridRetriever(Retriever):
    """BM25 and cosine rankings fused by reciprocal rank; needs clause vectors (an embedder)."""

    name: ClassVar[str] = "hybrid"
    Options: ClassVar[type[Options]] = HybridOptions
    needs_vectors: ClassVar[bool] = True

    def retrieve(self, reference: IndexedDocument, input: IndexedDocument) -> list[CandidatePair]:
        if reference.vectors is None or input.vectors is None:
            raise ConfigError(
                "the hybrid retriever fuses BM25 with cosine similarity and needs clause vectors: "
                "set pipeline.embedder (e.g. {use: sentence-transformers} or {use: hashing}), or use retriever bm25"
            )
        ref_idx, inp_idx = operative_indices(reference), operative_indices(input)
        if not ref_idx or not inp_idx:
            return []
        o = self.options
        n, m = len(ref_idx), len(inp_idx)
        ref_vectors, inp_vectors = operative_vectors(reference, ref_idx), operative_vectors(input, inp_idx)
        lexical = bm25_index([reference.clauses[i].text for i in ref_idx], [input.clauses[j].text for j in inp_idx], o.bm25)
        rankers = {"bm25": lexical.rows, "cosine": cosine_blocks(ref_vectors, inp_vectors)}
        rows, cols, fused = sparse_rrf(rankers, o.weights.model_dump(), n, m, o.k, o.rrf_k)
        cosine = cosine_at(ref_vectors, inp_vectors, rows, cols)
        bm25 = lexical.at(rows, cols)
        # fusion never pairs clauses only because nothing else is there: one ranker must find the pair plausible
        plausible = ((cosine >= o.min_cosine) | (bm25 >= o.min_bm25)) & (fused > 1e-12)
        rows, cols, fused, cosine, bm25 = rows[plausible], cols[plausible], fused[plausible], cosine[plausible], bm25[plausible]
        kept = top_k_of_groups(rows, cols, fused, o.top_k) | top_k_of_groups(cols, rows, fused, o.top_k)
        return [
            CandidatePair.model_construct(
                reference_id=reference.clauses[ref_idx[i]].id,
                input_id=input.clauses[inp_idx[j]].id,
                similarity=c,
                relevance=float(np.clip(f, 0.0, 1.0)),
                signals={"cosine": c, "bm25": b, "rrf": f},
            )
            for i, j, f, c, b in zip(rows[kept].tolist(), cols[kept].tolist(), fused[kept].tolist(),
                                     cosine[kept].tolist(), bm25[kept].tolist())
        ]
