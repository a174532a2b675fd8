"""BM25 retrieval: mutual top-k over BM25 scores normalized to [0, 1].

Each side is scored as queries against the other side's clauses as a corpus (rank-bm25's
``BM25Okapi``), in both directions. A raw BM25 score is divided by the score the query would get
against an exact copy of itself in that corpus, so 1.0 means "every query term matched as well
as it could" and terms the other document never uses count against the pair. The relevance of a
pair is the mean of its two directions.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from pydantic import Field

from conflictkit.errors import MissingDependencyError, plugin_install_hint
from conflictkit.model import CandidatePair, IndexedDocument
from conflictkit.retrievers.cosine import mutual_top_k, operative_indices
from conflictkit.stages import Options, Retriever
from conflictkit_bm25.tokenize import tokenize

INSTALL = plugin_install_hint("conflictkit-bm25")


class BM25Params(Options):
    k1: float = Field(1.5, gt=0.0, le=5.0, description="term-frequency saturation")
    b: float = Field(0.75, ge=0.0, le=1.0, description="length normalization")


def _idf(corpus_size: int, doc_freq: int) -> float:
    """Lucene's BM25 idf, always positive: a word in most clauses of a short document still counts a little."""
    return math.log(1.0 + (corpus_size - doc_freq + 0.5) / (doc_freq + 0.5))


def _bm25_class():
    try:
        from rank_bm25 import BM25Okapi
    except ImportError as exc:
        raise MissingDependencyError(f"the bm25 retriever needs rank-bm25: {INSTALL}") from exc

    class LuceneIdfBM25(BM25Okapi):
        """BM25Okapi with Lucene's idf: rank-bm25's own idf is zero or negative for a word in half
        the clauses, which on a 2-clause corpus makes every shared word worthless."""

        def _calc_idf(self, nd):
            self.idf = {word: _idf(self.corpus_size, freq) for word, freq in nd.items()}
            self.average_idf = sum(self.idf.values()) / max(len(self.idf), 1)

    return LuceneIdfBM25


def _self_score(bm25, query: list[str]) -> float:
    """The BM25 score ``query`` would get against a copy of itself added to ``bm25``'s corpus."""
    unseen_idf = _idf(bm25.corpus_size, 0)
    length_norm = 1 - bm25.b + bm25.b * len(query) / bm25.avgdl
    # rank-bm25 adds a term's contribution once per occurrence in the query, hence the leading tf
    return sum(
        tf * bm25.idf.get(term, unseen_idf) * tf * (bm25.k1 + 1) / (tf + bm25.k1 * length_norm)
        for term, tf in Counter(query).items()
    )


def directed_scores(queries: Sequence[list[str]], corpus: Sequence[list[str]], params: BM25Params) -> np.ndarray:
    """(len(queries), len(corpus)) BM25 scores, each row divided by its query's self-score, in [0, 1]."""
    out = np.zeros((len(queries), len(corpus)))
    if not queries or not any(corpus):
        return out
    bm25 = _bm25_class()(list(corpus), k1=params.k1, b=params.b)
    for row, query in enumerate(queries):
        if not query:
            continue
        best = _self_score(bm25, query)
        if best > 0:
            out[row] = np.clip(bm25.get_scores(query) / best, 0.0, 1.0)
    return out


def bm25_matrix(reference: Sequence[str], input: Sequence[str], params: BM25Params) -> np.ndarray:
    """Symmetric BM25 relevance (rows: reference texts, columns: input texts) in [0, 1]."""
    ref_tokens = [tokenize(t) for t in reference]
    inp_tokens = [tokenize(t) for t in input]
    forward = directed_scores(ref_tokens, inp_tokens, params)
    backward = directed_scores(inp_tokens, ref_tokens, params).T
    return (forward + backward) / 2.0


class BM25Options(BM25Params):
    top_k: int = Field(3, ge=1, le=100, description="keep each clause's k best counterparts (either side)")
    min_relevance: float = Field(0.1, ge=0.0, le=1.0, description="minimum normalized BM25 relevance of a kept pair")


class BM25Retriever(Retriever):
    """Pairs clauses that share rare words, numbers and section references; needs no embedder."""

    name: ClassVar[str] = "bm25"
    Options: ClassVar[type[Options]] = BM25Options
    needs_vectors: ClassVar[bool] = False

    def warm_up(self) -> None:
        _bm25_class()
        super().warm_up()

    def retrieve(self, reference: IndexedDocument, input: IndexedDocument) -> list[CandidatePair]:
        ref_idx, inp_idx = operative_indices(reference), operative_indices(input)
        if not ref_idx or not inp_idx:
            return []
        relevance = bm25_matrix(
            [reference.clauses[i].text for i in ref_idx], [input.clauses[j].text for j in inp_idx], self.options
        )
        return [
            CandidatePair(
                reference_id=reference.clauses[ref_idx[i]].id,
                input_id=input.clauses[inp_idx[j]].id,
                relevance=float(relevance[i, j]),
                signals={"bm25": float(relevance[i, j])},
            )
            for i, j in mutual_top_k(relevance, self.options.top_k, self.options.min_relevance)
        ]
