"""The blocked, sparse BM25 and hybrid retrievers give what the dense definitions give."""

from __future__ import annotations

import random

import numpy as np
import pytest

from conflictkit.retrievers import blocks
from conflictkit.testing.clauses import indexed_document
from conflictkit_bm25.bm25 import BM25Params, BM25Retriever, bm25_matrix
from conflictkit_bm25.hybrid import HybridRetriever, rrf_fuse

WORDS = ("supplier customer shall not may deliver pay goods services within days notice written law "
         "delaware england confidential information terminate agreement liability cap fees 30 60 $1,000 10% "
         "section 4.2(a) warranty audit insurance").split()


def random_clauses(rng: random.Random, count: int) -> list[str]:
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 14))) for _ in range(count)]


def random_unit_vectors(seed: int):
    """Vectors without ties: equal float32 cosines may round apart depending on how the product is
    blocked, and a tie may then rank either way (the dense code had the same freedom)."""
    generator = np.random.default_rng(seed)

    def embed(texts):
        vectors = generator.normal(size=(len(texts), 16)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    return embed


def dense_mutual(scores, k, floor):
    n, m = scores.shape
    rows = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    cols = np.argsort(-scores, axis=0, kind="stable")[:k, :]
    cells = {(i, int(j)) for i in range(n) for j in rows[i]} | {(int(i), j) for j in range(m) for i in cols[:, j]}
    return sorted((i, j) for i, j in cells if scores[i, j] >= floor)


@pytest.mark.parametrize("seed", range(6))
def test_blocked_retrievers_equal_their_dense_definitions(seed, monkeypatch):
    monkeypatch.setattr(blocks, "CELLS_PER_BLOCK", 7)  # many blocks, rows split across them
    rng = random.Random(100 + seed)
    ref_texts, inp_texts = random_clauses(rng, rng.randint(2, 30)), random_clauses(rng, rng.randint(2, 30))
    embed = random_unit_vectors(seed)
    ref, inp = indexed_document(ref_texts, "r", embed=embed), indexed_document(inp_texts, "i", embed=embed)
    ids = lambda pairs: sorted((int(p.reference_id[1:]) - 1, int(p.input_id[1:]) - 1) for p in pairs)  # noqa: E731

    lexical = bm25_matrix(ref_texts, inp_texts, BM25Params())
    assert ids(BM25Retriever({"top_k": 2}).retrieve(ref, inp)) == dense_mutual(lexical, 2, 0.1)

    options = HybridRetriever.Options(top_k=2, k=4, min_cosine=0.3)
    cosine = ref.vectors @ inp.vectors.T
    fused = rrf_fuse({"bm25": lexical, "cosine": cosine}, options.weights.model_dump(), options.k, options.rrf_k)
    plausible = (cosine >= options.min_cosine) | (lexical >= options.min_bm25)
    expected = dense_mutual(np.where(plausible, fused, -1.0), options.top_k, 1e-12)
    pairs = HybridRetriever(options).retrieve(ref, inp)
    assert ids(pairs) == expected
    for p in pairs:
        i, j = int(p.reference_id[1:]) - 1, int(p.input_id[1:]) - 1
        assert p.signals["rrf"] == pytest.approx(fused[i, j]) and p.signals["bm25"] == pytest.approx(lexical[i, j])
        assert p.signals["cosine"] == pytest.approx(float(cosine[i, j]), abs=1e-6)
