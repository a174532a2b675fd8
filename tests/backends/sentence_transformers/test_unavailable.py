"""The embedder says, without loading a model, whether it can run here (the review app's preset list asks)."""

import pytest

pytest.importorskip("conflictkit_sentence_transformers")

from conflictkit_sentence_transformers import SentenceTransformersEmbedder  # noqa: E402


def test_bundled_and_local_models_are_available_offline(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert SentenceTransformersEmbedder({"model": "all-MiniLM-L6-v2"}).unavailable() is None
    assert SentenceTransformersEmbedder({"model": str(tmp_path)}).unavailable() is None


def test_an_uncached_hub_model_is_not_available_offline(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hub"))
    problem = SentenceTransformersEmbedder({"model": "someone/unlikely-model"}).unavailable()
    assert problem is not None and "HF_HUB_OFFLINE" in problem
