"""Shared fixtures: installed plugins never leak into core tests unless a test asks for them,
and every test gets its own cache directory."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
REFERENCE = SAMPLES / "reference-saas-agreement.md"
INPUT = SAMPLES / "input-vendor-draft.md"
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("CONFLICTKIT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


FAST_CONFIG = {
    "pipeline": {
        "segmenter": {"use": "rules"},
        "filter": {"use": "rules"},
        "embedder": {"use": "hashing"},
        "retriever": {"use": "cosine", "options": {"top_k": 3, "min_relevance": 0.2, "lexical": None}},
        "judge": {"use": "legal-atoms"},
    }
}


@pytest.fixture
def fast_config():
    """The model-free pipeline (hashing embedder): what most engine tests run."""
    from conflictkit.config import resolve

    return resolve(FAST_CONFIG)


@pytest.fixture
def pack_root(tmp_path, monkeypatch):
    """A folder for packs written by a test, put first on $CONFLICTKIT_LEXICON_PATH (caches cleared around it)."""
    from conflictkit import lexicon

    root = tmp_path / "packs"
    root.mkdir()
    monkeypatch.setenv(lexicon.LEXICON_PATH_ENV, str(root))
    lexicon.load.cache_clear()
    yield root
    lexicon.load.cache_clear()
