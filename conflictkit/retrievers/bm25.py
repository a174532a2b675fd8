"""BM25 relevance of two clause lists, on numpy alone: the lexical signal of retrieval.

Each side is scored as queries against the other side's clauses as a corpus, in both directions,
with Okapi BM25 and Lucene's idf. A raw BM25 score is divided by the score the query would get
against an exact copy of itself in that corpus, so 1.0 means "every query term matched as well
as it could" and terms the other document never uses count against the pair. The relevance of a
pair is the mean of its two directions, each clipped to [0, 1].

BM25 is linear in the query's term counts, so the scores of a block of reference clauses against
every input clause are sums over shared terms: each (clause, term) entry of the block meets the
input clauses that use the term (an inverted index), and the products are summed per cell with
one ``bincount``. Scores come a block of rows at a time (:mod:`conflictkit.retrievers.blocks`),
never as the whole n x m matrix, and no Python loop runs over clauses or terms.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from conflictkit.retrievers.tokenize import tokenize

ENTRIES_PER_CHUNK = 4_000_000  # (query entry, posting) products summed at once: ~100 MB of temporaries


@dataclass(frozen=True)
class BM25Params:
    """Okapi BM25's two constants."""

    k1: float = 1.5  # term-frequency saturation
    b: float = 0.75  # length normalization


def _idf(corpus_size: int, doc_freq: np.ndarray) -> np.ndarray:
    """Lucene's BM25 idf, always positive: a word in most clauses of a short document still counts a little."""
    return np.log1p((corpus_size - doc_freq + 0.5) / (doc_freq + 0.5))


class _Side:
    """One document's clauses as sparse (clause, term, count) entries, grouped by clause, and their BM25 weights.

    ``background`` are more clauses of the same document: they count in the corpus statistics
    (document frequencies, average length) but are not scored.
    """

    def __init__(self, token_lists: Sequence[list[str]], vocabulary: dict[str, int], params: BM25Params,
                 background: Sequence[list[str]] = ()) -> None:
        self.size = len(token_lists)
        rows = np.repeat(np.arange(self.size, dtype=np.int64), [len(t) for t in token_lists])
        terms = np.fromiter((vocabulary[t] for tokens in token_lists for t in tokens), dtype=np.int64, count=rows.size)
        width = max(len(vocabulary), 1)
        keys, tf = np.unique(rows * width + terms, return_counts=True)  # sorted: grouped by clause, then term
        self.rows, self.terms, self.tf = keys // width, keys % width, tf.astype(np.float64)
        self.lengths = np.bincount(self.rows, weights=self.tf, minlength=self.size).astype(np.float64)
        corpus_size = self.size + len(background)
        total_length = self.lengths.sum() + sum(len(tokens) for tokens in background)
        self.average_length = float(total_length / corpus_size) if corpus_size else 0.0
        doc_freq = np.bincount(self.terms, minlength=width).astype(np.float64)
        known = [vocabulary[t] for tokens in background for t in set(tokens) if t in vocabulary]
        doc_freq += np.bincount(np.asarray(known, dtype=np.int64), minlength=width)
        self.idf = _idf(corpus_size, doc_freq)
        self.params = params
        # weights[entry]: what one occurrence of the entry's term in a query adds to its score against the entry's clause
        norm = 1 - params.b + params.b * self.lengths[self.rows] / self.average_length if self.average_length else 1.0
        self.weights = self.idf[self.terms] * self.tf * (params.k1 + 1) / (self.tf + params.k1 * norm)
        self.starts = np.searchsorted(self.rows, np.arange(self.size + 1))  # entries of clause i: starts[i]:starts[i+1]


def _self_scores(corpus: _Side, queries: _Side) -> np.ndarray:
    """For each query, the BM25 score it would get against a copy of itself added to ``corpus``."""
    if not corpus.size or not corpus.average_length:
        return np.zeros(queries.size)
    k1, b = corpus.params.k1, corpus.params.b
    tf = queries.tf
    idf = corpus.idf[queries.terms]  # a term the corpus never uses gets the idf of doc_freq 0, as it would with the copy
    length_norm = 1 - b + b * queries.lengths[queries.rows] / corpus.average_length
    # a term's contribution counts once per occurrence in the query, hence the leading tf
    terms = tf * idf * tf * (k1 + 1) / (tf + k1 * length_norm)
    return np.bincount(queries.rows, weights=terms, minlength=queries.size).astype(np.float64)


def _normalized_queries(side: _Side, self_scores: np.ndarray) -> np.ndarray:
    """Each entry's count scaled so that its query's score against its own copy would be 1.0 (0 for empty queries)."""
    scale = np.divide(1.0, self_scores, out=np.zeros_like(self_scores), where=self_scores > 0)
    return side.tf * scale[side.rows]


class BM25Index:
    """Normalized, symmetric BM25 relevance of reference texts (rows) against input texts (columns)."""

    def __init__(self, reference: Sequence[str], input: Sequence[str], params: BM25Params | None = None,
                 background: tuple[Sequence[str], Sequence[str]] = ((), ())) -> None:
        """``background``: more texts of each side that count in its corpus statistics but are not scored
        (the rest of a document whose open clauses alone are compared): the scores are then those of the
        whole documents' index, restricted to the texts given."""
        params = params or BM25Params()
        ref_tokens = [tokenize(t) for t in reference]
        inp_tokens = [tokenize(t) for t in input]
        vocabulary: dict[str, int] = {}
        for tokens in (*ref_tokens, *inp_tokens):
            for token in tokens:
                vocabulary.setdefault(token, len(vocabulary))
        self.n, self.m = len(reference), len(input)
        ref = _Side(ref_tokens, vocabulary, params, [tokenize(t) for t in background[0]])
        inp = _Side(inp_tokens, vocabulary, params, [tokenize(t) for t in background[1]])
        self._ref = ref
        self._ref_queries = _normalized_queries(ref, _self_scores(inp, ref))  # per reference entry
        inp_queries = _normalized_queries(inp, _self_scores(ref, inp))
        # the input side as an inverted index: its entries grouped by term
        by_term = np.argsort(inp.terms, kind="stable")
        self._postings = inp.rows[by_term]
        self._posting_weights = inp.weights[by_term]
        self._posting_queries = inp_queries[by_term]
        width = max(len(vocabulary), 1)
        self._term_starts = np.searchsorted(inp.terms[by_term], np.arange(width + 1))
        # for ``at``: input entries keyed by (clause, term), sorted
        self._vocabulary_size = width
        self._inp_keys = inp.rows * width + inp.terms
        self._inp_weights, self._inp_queries = inp.weights, inp_queries

    def rows(self, start: int, stop: int) -> np.ndarray:
        """Relevance of reference texts ``start:stop`` against every input text, as a dense block."""
        cells = (stop - start) * self.m
        forward, backward = np.zeros(cells), np.zeros(cells)
        first, last = int(self._ref.starts[start]), int(self._ref.starts[stop])
        terms = self._ref.terms[first:last]
        counts = self._term_starts[terms + 1] - self._term_starts[terms]  # input entries each reference entry meets
        cumulative = np.cumsum(counts)
        lo = 0
        while lo < counts.size:  # chunks of about ENTRIES_PER_CHUNK products
            done = int(cumulative[lo - 1]) if lo else 0
            hi = max(int(np.searchsorted(cumulative, done + ENTRIES_PER_CHUNK, side="right")), lo + 1)
            self._accumulate(first + lo, first + hi, counts[lo:hi], start, forward, backward)
            lo = hi
        both = np.clip(forward, 0.0, 1.0)
        both += np.clip(backward, 0.0, 1.0)
        both /= 2.0
        return both.reshape(stop - start, self.m)

    def _accumulate(self, first: int, last: int, counts: np.ndarray, row0: int, forward: np.ndarray,
                    backward: np.ndarray) -> None:
        """Add the products of reference entries ``first:last`` with the input entries sharing their terms."""
        total = int(counts.sum())
        if not total:
            return
        terms = self._ref.terms[first:last]
        offsets = np.repeat(self._term_starts[terms] - np.cumsum(counts) + counts, counts)
        postings = offsets + np.arange(total)
        cells = np.repeat((self._ref.rows[first:last] - row0) * self.m, counts) + self._postings[postings]
        forward += np.bincount(cells, weights=np.repeat(self._ref_queries[first:last], counts) * self._posting_weights[postings],
                               minlength=forward.size)
        backward += np.bincount(cells, weights=np.repeat(self._ref.weights[first:last], counts) * self._posting_queries[postings],
                                minlength=backward.size)

    def at(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Relevance of given (reference, input) cells, without any dense row."""
        rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
        if rows.size == 0:
            return np.zeros(0)
        starts, stops = self._ref.starts[rows], self._ref.starts[rows + 1]
        counts = stops - starts
        entries = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
        cells = np.repeat(np.arange(rows.size), counts)
        keys = np.repeat(cols, counts) * self._vocabulary_size + self._ref.terms[entries]
        found = np.searchsorted(self._inp_keys, keys)
        found = np.minimum(found, max(self._inp_keys.size - 1, 0))
        hit = (self._inp_keys[found] == keys) if self._inp_keys.size else np.zeros(keys.size, dtype=bool)
        forward = np.bincount(cells[hit], weights=self._ref_queries[entries[hit]] * self._inp_weights[found[hit]],
                              minlength=rows.size)
        backward = np.bincount(cells[hit], weights=self._ref.weights[entries[hit]] * self._inp_queries[found[hit]],
                               minlength=rows.size)
        return (np.clip(forward, 0.0, 1.0) + np.clip(backward, 0.0, 1.0)) / 2.0


def bm25_matrix(reference: Sequence[str], input: Sequence[str], params: BM25Params | None = None) -> np.ndarray:
    """Symmetric BM25 relevance (rows: reference texts, columns: input texts) in [0, 1], dense: for small inputs."""
    index = BM25Index(reference, input, params)
    return index.rows(0, index.n)


__all__ = ["BM25Index", "BM25Params", "bm25_matrix", "tokenize"]
