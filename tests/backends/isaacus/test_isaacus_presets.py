"""The two Isaacus presets: the published pipeline's settings, and the mixed preset calling only the embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from conflictkit.config import load_config
from conflictkit.engine import Engine
from conflictkit.store import Store

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "samples"


def test_the_published_pipeline_preset():
    config = load_config("isaacus")
    specs = config.specs()
    assert {s: (v.use if v else None) for s, v in specs.items()} == {
        "segmenter": "isaacus", "filter": "isaacus", "embedder": "isaacus", "retriever": "cosine", "scorer": None, "judge": "isaacus",
        "explainer": None}
    assert specs["retriever"].options["top_k"] == 3 and specs["retriever"].options["min_relevance"] == 0.5
    assert specs["filter"].options["threshold"] == 0.5
    assert (config.thresholds.same_matter, config.thresholds.conflict) == (0.3, 0.728)


@pytest.mark.slow
def test_the_mixed_preset_sends_only_embedding_requests(fake, monkeypatch, tmp_path):
    config = load_config("isaacus-mixed")
    assert config.pipeline.judge.use == "legal-atoms" and config.pipeline.segmenter.use == "rules"
    with fake.serve() as server:
        monkeypatch.setenv("ISAACUS_API_KEY", "test-key")
        monkeypatch.setenv("ISAACUS_BASE_URL", server.base_url)
        result = Engine(config, store=Store(tmp_path / "c.sqlite")).compare(
            str(SAMPLES / "reference-saas-agreement.md"), str(SAMPLES / "input-vendor-draft.md"))
    assert fake.count("/embeddings") >= 1  # both documents' unsettled clauses, one batch of requests
    assert {r.path for r in fake.requests} == {"/embeddings"}
    assert set(result.params["usage"]) == {"embedder"}
    assert result.report["summary"]["candidate_pairs"] > 0
