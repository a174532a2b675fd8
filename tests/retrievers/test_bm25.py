"""The core BM25 index: rank-bm25's scores, whatever the blocks and chunks it computes them in."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

from conflictkit.retrievers import bm25
from conflictkit.retrievers.bm25 import BM25Index, BM25Params, bm25_matrix
from conflictkit.retrievers.tokenize import tokenize

WORDS = ("supplier customer shall not may deliver pay goods services within days notice written law "
         "delaware england confidential information terminate agreement liability cap fees 30 60 $1,000 10% "
         "section 4.2(a) warranty audit insurance the of").split()


def random_clauses(rng: random.Random, count: int) -> list[str]:
    """Clauses of 0 to 14 words, some of them nothing but function words (no token at all)."""
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 14))) for _ in range(count)]


def rank_bm25_matrix(reference, input, params):
    """The definition on rank-bm25, as the oracle: each direction divided by the query's self-score."""
    rank_bm25 = pytest.importorskip("rank_bm25")

    def idf(size, freq):
        return math.log(1.0 + (size - freq + 0.5) / (freq + 0.5))

    class Lucene(rank_bm25.BM25Okapi):
        def _calc_idf(self, nd):
            self.idf = {word: idf(self.corpus_size, freq) for word, freq in nd.items()}

    def directed(queries, corpus):
        out = np.zeros((len(queries), len(corpus)))
        if not queries or not any(corpus):
            return out
        index = Lucene(list(corpus), k1=params.k1, b=params.b)
        for row, query in enumerate(queries):
            norm = 1 - index.b + index.b * len(query) / index.avgdl
            best = sum(tf * index.idf.get(t, idf(index.corpus_size, 0)) * tf * (index.k1 + 1) / (tf + index.k1 * norm)
                       for t, tf in Counter(query).items())
            if query and best > 0:
                out[row] = np.clip(index.get_scores(query) / best, 0.0, 1.0)
        return out

    ref, inp = [tokenize(t) for t in reference], [tokenize(t) for t in input]
    return (directed(ref, inp) + directed(inp, ref).T) / 2.0


@pytest.mark.parametrize("seed", range(8))
def test_bm25_equals_rank_bm25(seed):
    rng = random.Random(seed)
    reference, input = random_clauses(rng, rng.randint(1, 25)), random_clauses(rng, rng.randint(1, 25))
    params = BM25Params(k1=rng.uniform(0.5, 2.0), b=rng.uniform(0.0, 1.0))
    assert np.allclose(bm25_matrix(reference, input, params), rank_bm25_matrix(reference, input, params), atol=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_blocks_chunks_and_cells_give_the_same_scores(seed, monkeypatch):
    rng = random.Random(50 + seed)
    reference, input = random_clauses(rng, rng.randint(2, 40)), random_clauses(rng, rng.randint(2, 40))
    whole = bm25_matrix(reference, input)
    monkeypatch.setattr(bm25, "ENTRIES_PER_CHUNK", 5)  # a row's products split over many chunks
    index = BM25Index(reference, input)
    step = rng.randint(1, 7)
    blocked = np.vstack([index.rows(start, min(start + step, index.n)) for start in range(0, index.n, step)])
    assert np.allclose(blocked, whole, atol=1e-12)  # sums in another order: equal to rounding
    rows, cols = np.meshgrid(np.arange(index.n), np.arange(index.m), indexing="ij")
    assert np.allclose(index.at(rows.ravel(), cols.ravel()).reshape(index.n, index.m), whole, atol=1e-12)


def test_identical_clauses_score_one_and_disjoint_or_empty_ones_zero():
    rel = bm25_matrix(["payment within thirty days", "governing law of New York", "the of"],
                      ["payment within thirty days", "confidential information", ""])
    assert rel[0, 0] == pytest.approx(1.0)
    assert rel[1, 1] == 0.0 and rel[2].max() == 0.0 and rel[:, 2].max() == 0.0
    assert 0.0 <= rel.min() and rel.max() <= 1.0
    assert bm25_matrix(["the", "of"], ["a"]).max() == 0.0  # no token on either side
    assert BM25Index(["a clause"], []).at(np.zeros(0, dtype=int), np.zeros(0, dtype=int)).size == 0


@pytest.mark.parametrize("seed", range(4))
def test_background_texts_give_the_whole_documents_scores(seed):
    """Scoring some texts of each side with the rest as background gives the whole index's scores for them."""
    rng = random.Random(200 + seed)
    reference, input = random_clauses(rng, rng.randint(3, 30)), random_clauses(rng, rng.randint(3, 30))
    whole = bm25_matrix(reference, input)
    rows = sorted(rng.sample(range(len(reference)), rng.randint(1, len(reference))))
    cols = sorted(rng.sample(range(len(input)), rng.randint(1, len(input))))
    rest = ([t for i, t in enumerate(reference) if i not in rows], [t for j, t in enumerate(input) if j not in cols])
    index = BM25Index([reference[i] for i in rows], [input[j] for j in cols], background=rest)
    assert np.allclose(index.rows(0, index.n), whole[np.ix_(rows, cols)], atol=1e-12)
