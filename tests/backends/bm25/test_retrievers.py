"""BM25 and hybrid retrieval: tokenizer, normalization, recall on clauses rewritten in other words."""

from __future__ import annotations

import pytest

from conflictkit.embedders.hashing import HashingEmbedder
from conflictkit.errors import ConfigError
from conflictkit.retrievers.cosine import CosineRetriever
from conflictkit.testing.clauses import indexed_document
from conflictkit_bm25.bm25 import BM25Params, BM25Retriever, bm25_matrix
from conflictkit_bm25.hybrid import HybridRetriever, rrf_fuse
from conflictkit_bm25.tokenize import tokenize

# Each input clause contradicts or changes the reference clause at the same position, in other words.
REFERENCE = [
    "The Supplier shall deliver the Goods within thirty (30) days of the Purchase Order.",
    "Either party may terminate this Agreement for convenience on ninety (90) days' written notice.",
    "This Agreement is governed by the laws of the State of New York.",
    "The Customer shall pay each invoice within 45 days of receipt.",
    "The Receiving Party shall not disclose Confidential Information to any third party.",
    "The Supplier's total liability under this Agreement shall not exceed the fees paid in the prior 12 months.",
    "The Licensee may not sublicense the rights granted under Section 4.2(a).",
    "Each party shall maintain commercial general liability insurance of at least $1,000,000.",
    "The Supplier warrants that the Services will be performed in a professional manner.",
    "Any dispute shall be resolved by binding arbitration in London.",
]
INPUT = [
    "Goods must reach the Buyer no later than sixty (60) days after the order is placed by the Purchase Order.",
    "Neither party can end the contract for convenience; termination is only allowed for cause with 90 days notice.",
    "Delaware law governs this contract and its interpretation, without regard to conflict of laws.",
    "Invoices are payable by the Customer ninety days after they are received.",
    "Confidential Information may be shared by the recipient with its affiliates and any third party advisers.",
    "There is no cap on the amount the Supplier owes under this contract.",
    "Rights under Section 4.2(a) may be sublicensed by the Licensee freely.",
    "Insurance: each party keeps general liability cover of $500,000 or more.",
    "The Supplier gives no warranty as to the manner in which Services are performed.",
    "Disputes go to the courts of Paris, not arbitration.",
]
EXPECTED = {(f"r{i + 1}", f"i{i + 1}") for i in range(len(REFERENCE))}


def docs(embed=True):
    embedder = HashingEmbedder().embed if embed else None
    return indexed_document(REFERENCE, "r", embed=embedder), indexed_document(INPUT, "i", embed=embedder)


def recall(pairs):
    found = {(p.reference_id, p.input_id) for p in pairs}
    return len(found & EXPECTED) / len(EXPECTED)


def test_tokenizer_keeps_sections_numbers_negators_and_modals():
    tokens = tokenize("Subject to Section 4.2(a), the Supplier shall not pay $1,000 or 10% and cannot refuse; won't.")
    for kept in ["4.2(a)", "$1000", "10%", "shall", "not", "can", "will", "subject"]:
        assert kept in tokens
    assert "the" not in tokens and tokens == [t.lower() for t in tokens]
    assert tokenize("It may not") == ["may", "not"] and tokenize("It may") == ["may"]


def test_bm25_relevance_is_one_for_identical_clauses_and_zero_for_disjoint():
    rel = bm25_matrix(["payment within thirty days", "governing law of New York"],
                      ["payment within thirty days", "confidential information"], BM25Params())
    assert rel[0, 0] == pytest.approx(1.0)
    assert rel[1, 1] == 0.0 and 0.0 <= rel.min() and rel.max() <= 1.0


def test_bm25_recall_on_rewritten_contradictions_without_vectors():
    ref, inp = docs(embed=False)
    pairs = BM25Retriever({"top_k": 2}).retrieve(ref, inp)
    assert recall(pairs) >= 0.9
    assert len(pairs) <= 2 * (len(REFERENCE) + len(INPUT))
    assert all(0.0 <= p.relevance <= 1.0 and "bm25" in p.signals for p in pairs)


def test_hybrid_recall_is_at_least_each_ranker_alone():
    ref, inp = docs()
    cosine = recall(CosineRetriever({"top_k": 2, "min_relevance": 0.0}).retrieve(ref, inp))
    lexical = recall(BM25Retriever({"top_k": 2}).retrieve(ref, inp))
    hybrid_pairs = HybridRetriever({"top_k": 2, "min_cosine": 0.1}).retrieve(ref, inp)  # hashing cosines run low
    assert recall(hybrid_pairs) >= max(cosine, lexical)
    assert recall(hybrid_pairs) == 1.0
    assert all({"cosine", "bm25", "rrf"} <= set(p.signals) for p in hybrid_pairs)


def test_hybrid_keeps_nothing_implausible():
    ref = indexed_document(["The term of this Agreement is one year."], "r", embed=HashingEmbedder().embed)
    inp = indexed_document(["Pizza toppings include basil."], "i", embed=HashingEmbedder().embed)
    assert HybridRetriever().retrieve(ref, inp) == []


def test_hybrid_without_vectors_says_to_configure_an_embedder():
    ref, inp = docs(embed=False)
    with pytest.raises(ConfigError, match="pipeline.embedder"):
        HybridRetriever().retrieve(ref, inp)


def test_filtered_clauses_are_not_paired():
    ref = indexed_document(["Payment terms", "The Customer shall pay within 30 days."], "r", kinds=["heading", "clause"])
    ref.clauses[0].filtered = "heading"
    inp = indexed_document(["Payment terms", "The Customer pays within 30 days."], "i")
    inp.clauses[0].filtered = "heading"
    pairs = BM25Retriever().retrieve(ref, inp)
    assert {(p.reference_id, p.input_id) for p in pairs} == {("r2", "i2")}


def test_rrf_fusion_is_one_for_a_pair_first_everywhere():
    import numpy as np

    a = np.array([[0.9, 0.1], [0.2, 0.8]])
    fused = rrf_fuse({"bm25": a, "cosine": a}, {"bm25": 1.0, "cosine": 1.0}, depth=10, rrf_k=10)
    assert fused[0, 0] == pytest.approx(1.0) and fused[1, 1] == pytest.approx(1.0)
    assert fused[0, 1] < 1.0
    with pytest.raises(ConfigError):
        rrf_fuse({"bm25": a}, {"bm25": 0.0}, depth=10, rrf_k=10)


def test_backends_are_registered_through_the_entry_point():
    from conflictkit.registry import build_plugin_manager, build_registry

    registry = build_registry(build_plugin_manager(load_entry_points=True))
    assert registry.get("retriever", "bm25").cls is BM25Retriever
    assert registry.get("retriever", "hybrid").package == "conflictkit-bm25"
