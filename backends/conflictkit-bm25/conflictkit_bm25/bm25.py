"""BM25 retrieval: mutual top-k over BM25 scores normalized to [0, 1].

Each side is scored as queries against the other side's clauses as a corpus, in both directions,
with Okapi BM25 and Lucene's idf. A raw BM25 score is divided by the score the query would get
against an exact copy of itself in that corpus, so 1.0 means "every query term matched as well
as it could" and terms the other document never uses count against the pair. The relevance of a
pair is the mean of its two directions.

BM25 is linear in the query's term counts, so a block of queries against a whole corpus is one
sparse matrix product (queries x vocabulary) @ (vocabulary x corpus): scores come a block of rows
at a time (:mod:`conflictkit.retrievers.blocks`), never as the whole n x m matrix, and no Python
loop runs over the corpus.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from pydantic import Field

from conflictkit.errors import MissingDependencyError, plugin_install_hint
from conflictkit.model import CandidatePair, IndexedDocument
from conflictkit.retrievers.blocks import mutual_top_k
from conflictkit.retrievers.cosine import operative_indices
from conflictkit.stages import Options, Retriever
from conflictkit_bm25.tokenize import tokenize

INSTALL = plugin_install_hint("conflictkit-bm25")


class BM25Params(Options):
    k1: float = Field(1.5, gt=0.0, le=5.0, description="term-frequency saturation")
    b: float = Field(0.75, ge=0.0, le=1.0, description="length normalization")


def _idf(corpus_size: int, doc_freq: np.ndarray | int) -> np.ndarray | float:
    """Lucene's BM25 idf, always positive: a word in most clauses of a short document still counts a little."""
    return np.log1p((corpus_size - doc_freq + 0.5) / (doc_freq + 0.5))


def _sparse():
    try:
        from scipy import sparse
    except ImportError as exc:
        raise MissingDependencyError(f"the bm25 retriever needs scipy: {INSTALL}") from exc
    return sparse


def _counts(token_lists: Sequence[list[str]], vocabulary: dict[str, int]):
    """(texts x vocabulary) term counts as a CSR matrix."""
    sparse = _sparse()
    rows, cols = [], []
    for row, tokens in enumerate(token_lists):
        cols.extend(vocabulary[t] for t in tokens)
        rows.extend([row] * len(tokens))
    data = np.ones(len(rows), dtype=np.float64)
    matrix = sparse.csr_matrix((data, (rows, cols)), shape=(len(token_lists), len(vocabulary)))
    matrix.sum_duplicates()
    return matrix


class _Side:
    """One document's clauses as BM25 queries (term counts) and as a BM25 corpus (term weights)."""

    def __init__(self, token_lists: Sequence[list[str]], vocabulary: dict[str, int], params: BM25Params) -> None:
        self.counts = _counts(token_lists, vocabulary)
        size = len(token_lists)
        self.lengths = lengths = np.asarray(self.counts.sum(axis=1)).ravel()
        self.average_length = float(lengths.mean()) if size else 0.0
        self.idf = _idf(size, np.asarray((self.counts > 0).sum(axis=0)).ravel())
        self.size = size
        self.params = params
        # weights[j, t]: what one occurrence of term t in a query adds to its score against clause j
        weights = self.counts.tocoo(copy=True)
        tf = weights.data
        norm = 1 - params.b + params.b * lengths[weights.row] / self.average_length if self.average_length else 1.0
        weights.data = self.idf[weights.col] * tf * (params.k1 + 1) / (tf + params.k1 * norm)
        self.weights = weights.tocsr()


class BM25Index:
    """Normalized, symmetric BM25 relevance of reference texts (rows) against input texts (columns)."""

    def __init__(self, reference: Sequence[str], input: Sequence[str], params: BM25Params) -> None:
        ref_tokens = [tokenize(t) for t in reference]
        inp_tokens = [tokenize(t) for t in input]
        vocabulary: dict[str, int] = {}
        for tokens in (*ref_tokens, *inp_tokens):
            for token in tokens:
                vocabulary.setdefault(token, len(vocabulary))
        self.n, self.m = len(reference), len(input)
        ref, inp = _Side(ref_tokens, vocabulary, params), _Side(inp_tokens, vocabulary, params)
        # queries of one side against the other side's corpus, each row divided by its self-score
        self._ref_queries = _normalized_queries(ref.counts, _self_scores(inp, ref))
        self._inp_queries = _normalized_queries(inp.counts, _self_scores(ref, inp))
        self._inp_weights_by_term = inp.weights.tocsc()  # column slices: the terms a block of queries uses
        self._inp_queries_by_term = self._inp_queries.tocsc()
        self._ref_weights = ref.weights
        self._inp_weights = inp.weights

    def rows(self, start: int, stop: int) -> np.ndarray:
        """Relevance of reference texts ``start:stop`` against every input text."""
        forward = _scores(self._ref_queries[start:stop], self._inp_weights_by_term)
        backward = _scores(self._ref_weights[start:stop], self._inp_queries_by_term)
        both = np.clip(forward, 0.0, 1.0)
        both += np.clip(backward, 0.0, 1.0)
        both /= 2.0
        return np.ascontiguousarray(both.T)

    def at(self, rows: np.ndarray, cols: np.ndarray, chunk: int = 50_000) -> np.ndarray:
        """Relevance of given (reference, input) cells, without any dense row, ``chunk`` cells at a time."""
        out = np.zeros(rows.size)
        for start in range(0, rows.size, chunk):
            r, c = rows[start : start + chunk], cols[start : start + chunk]
            forward = np.asarray(self._ref_queries[r].multiply(self._inp_weights[c]).sum(axis=1)).ravel()
            backward = np.asarray(self._inp_queries[c].multiply(self._ref_weights[r]).sum(axis=1)).ravel()
            out[start : start + chunk] = (np.clip(forward, 0.0, 1.0) + np.clip(backward, 0.0, 1.0)) / 2.0
        return out


def _self_scores(corpus: _Side, queries: _Side) -> np.ndarray:
    """For each query, the BM25 score it would get against a copy of itself added to ``corpus``."""
    if not corpus.size or not corpus.average_length:
        return np.zeros(queries.size)
    k1, b = corpus.params.k1, corpus.params.b
    counts = queries.counts.tocoo()
    tf = counts.data
    idf = corpus.idf[counts.col]  # a term the corpus never uses gets the idf of doc_freq 0, as it would with the copy
    length_norm = 1 - b + b * queries.lengths[counts.row] / corpus.average_length
    # a term's contribution counts once per occurrence in the query, hence the leading tf
    terms = tf * idf * tf * (k1 + 1) / (tf + k1 * length_norm)
    return np.bincount(counts.row, weights=terms, minlength=queries.size)


def _scores(block, corpus_by_term) -> np.ndarray:
    """(corpus x block) dot products of a sparse block of rows with every corpus row.

    Only the terms the block uses take part, and the block is made dense over those terms:
    a sparse matrix times a dense one is one pass over the corpus's entries, where a product of
    two sparse matrices with a nearly dense result would build that result entry by entry.
    """
    used = np.unique(block.indices)
    if used.size == 0:
        return np.zeros((corpus_by_term.shape[0], block.shape[0]))
    return np.asarray(corpus_by_term[:, used].tocsr() @ block[:, used].T.toarray())  # C-ordered dense: 4x faster


def _normalized_queries(counts, self_scores: np.ndarray):
    """Query term counts scaled so that a query's score against its own copy would be 1.0 (0 rows stay 0)."""
    scale = np.divide(1.0, self_scores, out=np.zeros_like(self_scores), where=self_scores > 0)
    return _sparse().diags(scale) @ counts


def bm25_matrix(reference: Sequence[str], input: Sequence[str], params: BM25Params) -> np.ndarray:
    """Symmetric BM25 relevance (rows: reference texts, columns: input texts) in [0, 1], dense: for small inputs."""
    index = BM25Index(reference, input, params)
    return index.rows(0, index.n)


class BM25Options(BM25Params):
    top_k: int = Field(3, ge=1, le=100, description="keep each clause's k best counterparts (either side)")
    min_relevance: float = Field(0.1, ge=0.0, le=1.0, description="minimum normalized BM25 relevance of a kept pair")


class BM25Retriever(Retriever):
    """Pairs clauses that share rare words, numbers and section references; needs no embedder."""

    name: ClassVar[str] = "bm25"
    Options: ClassVar[type[Options]] = BM25Options
    needs_vectors: ClassVar[bool] = False

    def warm_up(self) -> None:
        _sparse()
        super().warm_up()

    def retrieve(self, reference: IndexedDocument, input: IndexedDocument) -> list[CandidatePair]:
        ref_idx, inp_idx = operative_indices(reference), operative_indices(input)
        if not ref_idx or not inp_idx:
            return []
        index = BM25Index([reference.clauses[i].text for i in ref_idx], [input.clauses[j].text for j in inp_idx], self.options)
        rows, cols, scores = mutual_top_k(index.rows, index.n, index.m, self.options.top_k, self.options.min_relevance)
        return [
            CandidatePair(
                reference_id=reference.clauses[ref_idx[i]].id,
                input_id=input.clauses[inp_idx[j]].id,
                relevance=score,
                signals={"bm25": score},
            )
            for i, j, score in zip(rows.tolist(), cols.tolist(), scores.tolist())
        ]


__all__ = ["BM25Index", "BM25Options", "BM25Params", "BM25Retriever", "bm25_matrix"]
