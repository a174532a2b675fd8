"""Hybrid retrieval: reciprocal-rank fusion (RRF) of BM25 and cosine rankings.

Cosine pairs paraphrases that share few words; BM25 pairs clauses that share rare words, numbers
and section references even when an embedding drifts (a dropped "not" moves a vector little, a
rewritten clause a lot). For every clause on each side, each ranker ranks the other side's
clauses; a counterpart at rank r (1-based, among the ranker's ``k`` best) earns
``weight / (rrf_k + r)``. Row and column fusions are averaged and divided by the best possible
score, so the fused relevance is in [0, 1] and 1.0 means "first for both rankers, both ways".
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
from conflictkit.retrievers.cosine import mutual_top_k, operative_indices, similarity_matrix
from conflictkit.stages import Options, Retriever
from conflictkit_bm25.bm25 import BM25Params, _bm25_class, bm25_matrix


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


def _ranks(scores: np.ndarray, depth: int, axis: int) -> np.ndarray:
    """1-based rank of each cell along ``axis`` (1 = best), or 0 beyond ``depth``."""
    order = np.argsort(-scores, axis=axis, kind="stable")
    ranks = np.empty_like(order)
    positions = np.arange(1, scores.shape[axis] + 1)
    if axis == 1:
        np.put_along_axis(ranks, order, np.broadcast_to(positions, scores.shape), axis=1)
    else:
        np.put_along_axis(ranks, order, np.broadcast_to(positions[:, None], scores.shape), axis=0)
    ranks[ranks > depth] = 0
    return ranks


def _reciprocal(ranks: np.ndarray, rrf_k: float) -> np.ndarray:
    return np.where(ranks > 0, 1.0 / (rrf_k + np.maximum(ranks, 1)), 0.0)


def rrf_fuse(matrices: dict[str, np.ndarray], weights: dict[str, float], depth: int, rrf_k: float) -> np.ndarray:
    """Fused relevance in [0, 1] of several (reference x input) score matrices, rows and columns alike."""
    total = sum(weights.values())
    if total <= 0:
        raise ConfigError("hybrid retriever: at least one of weights.bm25 and weights.cosine must be positive")
    shape = next(iter(matrices.values())).shape
    fused = np.zeros(shape)
    for name, scores in matrices.items():
        by_row = _reciprocal(_ranks(scores, depth, axis=1), rrf_k)
        by_col = _reciprocal(_ranks(scores, depth, axis=0), rrf_k)
        fused += weights[name] * (by_row + by_col) / 2.0
    return fused / (total / (rrf_k + 1.0))


class HybridRetriever(Retriever):
    """BM25 and cosine rankings fused by reciprocal rank; needs clause vectors (an embedder)."""

    name: ClassVar[str] = "hybrid"
    Options: ClassVar[type[Options]] = HybridOptions
    needs_vectors: ClassVar[bool] = True

    def warm_up(self) -> None:
        _bm25_class()
        super().warm_up()

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
        cosine = similarity_matrix(reference, input)[np.ix_(ref_idx, inp_idx)]
        lexical = bm25_matrix([reference.clauses[i].text for i in ref_idx], [input.clauses[j].text for j in inp_idx], o.bm25)
        fused = rrf_fuse({"bm25": lexical, "cosine": cosine}, o.weights.model_dump(), o.k, o.rrf_k)
        plausible = (cosine >= o.min_cosine) | (lexical >= o.min_bm25)
        fused_kept = np.where(plausible, fused, -1.0)
        pairs = []
        for i, j in mutual_top_k(fused_kept, o.top_k, min_relevance=1e-12):
            pairs.append(
                CandidatePair(
                    reference_id=reference.clauses[ref_idx[i]].id,
                    input_id=input.clauses[inp_idx[j]].id,
                    similarity=float(cosine[i, j]),
                    relevance=float(np.clip(fused[i, j], 0.0, 1.0)),
                    signals={"cosine": float(cosine[i, j]), "bm25": float(lexical[i, j]), "rrf": float(fused[i, j])},
                )
            )
        return pairs
