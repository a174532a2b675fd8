"""Embedder, filter and scorer against the in-process fake, and the plugin's registration and provenance."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from conflictkit.model import Clause, Span
from conflictkit.registry import build_plugin_manager, build_registry
from conflictkit_isaacus.embedder import IsaacusEmbedder
from conflictkit_isaacus.filter import PUBLISHED_FILTER_QUERY, IsaacusFilter
from conflictkit_isaacus.scorer import IsaacusScorer


def _clause(i, text, kind="clause", filtered=None):
    return Clause(id=f"c{i}", text=text, span=Span(start=0, end=len(text)), kind=kind, filtered=filtered)


# ---- embedder ---------------------------------------------------------------------------

def test_embedder_returns_unit_rows_and_sends_task_and_dimensions(make, fake):
    vectors = make(IsaacusEmbedder, dimensions=256).embed(["Customer shall pay.", "Provider shall deliver."])
    assert vectors.shape == (2, 256) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    body = fake.requests[-1].body
    assert (body["model"], body["task"], body["dimensions"]) == ("kanon-2-embedder", "retrieval/document", 256)


def test_embedder_sends_each_distinct_text_once_and_caches_it(make, fake, store):
    first = make(IsaacusEmbedder).embed(["alpha beta", "gamma", "alpha beta"])
    assert fake.requests[-1].body["texts"] == ["alpha beta", "gamma"]
    assert np.allclose(first[0], first[2])
    again = make(IsaacusEmbedder).embed(["gamma", "alpha beta"])  # a fresh backend, the same store
    assert fake.count("/embeddings") == 1
    assert np.allclose(again, first[[1, 0]], atol=1e-6)


def test_other_dimensions_are_another_cache_entry(make, fake):
    make(IsaacusEmbedder).embed(["alpha"])
    make(IsaacusEmbedder, dimensions=512).embed(["alpha"])
    assert fake.count("/embeddings") == 2


def test_blank_texts_get_zero_rows_without_a_request(make, fake):
    vectors = make(IsaacusEmbedder).embed(["  ", "text"])
    assert not vectors[0].any() and fake.requests[-1].body["texts"] == ["text"]


# ---- filter -----------------------------------------------------------------------------

def test_filter_uses_the_published_statement_and_never_filters_definitions(make, fake):
    clauses = [
        _clause(0, "Fees and Payment"),
        _clause(1, "Customer shall pay all fees within thirty (30) days of the invoice."),
        _clause(2, '"Fees" means the amounts stated in an Order Form.', kind="definition"),
        _clause(3, "Front matter text", filtered="enricher: front_matter"),
    ]
    flags = make(IsaacusFilter).flag(clauses)
    assert flags[0].startswith("isaacus classifier: non-operative")
    assert flags[1] is None and flags[2] is None and flags[3] == "enricher: front_matter"
    (request,) = [r for r in fake.requests if r.path == "/classifications/universal"]
    assert request.body["query"] == PUBLISHED_FILTER_QUERY and request.body["is_iql"] is True
    assert request.body["texts"] == [clauses[0].text, clauses[1].text]  # neither the definition nor the flagged one


def test_filter_threshold_is_an_option(make):
    clauses = [_clause(0, "Fees and Payment")]  # the fake scores it 0.93
    assert make(IsaacusFilter, threshold=0.95).flag(clauses) == [None]


# ---- scorer -----------------------------------------------------------------------------

def test_scorer_groups_pairs_by_query_and_keeps_their_order(make, fake):
    pairs = [("pay fees", "Customer shall pay fees."), ("governing law", "New York law governs."),
             ("pay fees", "Provider may suspend."), ("pay fees", "Customer shall pay fees.")]
    scores = make(IsaacusScorer, batch_size=1).score(pairs)
    assert len(scores) == 4 and scores[0] == scores[3] and scores[0] > scores[2]
    queries = [r.body["query"] for r in fake.requests]
    assert sorted(queries) == ["governing law", "pay fees", "pay fees"]  # 3 distinct pairs, batch_size 1
    assert all(0.0 <= s <= 1.0 for s in scores)


def test_scorer_scores_are_cached_by_model_query_and_text(make, fake):
    make(IsaacusScorer).score([("q one", "text a"), ("q one", "text b")])
    make(IsaacusScorer).score([("q one", "text b")])
    assert fake.count("/rerankings") == 1


# ---- plugin, provenance -----------------------------------------------------------------

def test_plugin_registers_one_isaacus_backend_per_stage():
    registry = build_registry(build_plugin_manager())
    for stage in ("segmenter", "filter", "embedder", "scorer", "judge"):
        info = registry.get(stage, "isaacus")
        assert info.package == "conflictkit-isaacus"


def test_describe_never_writes_the_key_and_fingerprints_ignore_transport(make):
    embedder = make(IsaacusEmbedder)
    described = json.dumps(embedder.describe())
    assert "test-key" not in described and "kanon-2-embedder" in described
    same = IsaacusEmbedder({"api_key": "other", "max_concurrency": 2, "timeout": 5})
    assert same.fingerprint == embedder.fingerprint
    assert IsaacusEmbedder({"dimensions": 256}).fingerprint != embedder.fingerprint


def test_the_core_and_the_plugin_module_do_not_import_the_sdk():
    code = ("import sys, conflictkit, conflictkit.engine, conflictkit.cli, conflictkit.testing.isaacus, "
            "conflictkit_isaacus.plugin; print('isaacus' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_config_validation_refuses_unknown_isaacus_options():
    from conflictkit.config import resolve
    from conflictkit.errors import ConfigError

    with pytest.raises(ConfigError, match=r"pipeline.embedder.options.dimension: unknown key"):
        resolve({"pipeline": {"segmenter": {"use": "isaacus"}, "filter": None, "embedder": {"use": "isaacus", "options": {"dimension": 256}},
                              "judge": {"use": "isaacus"}}})
