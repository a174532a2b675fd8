"""A folder for packs written by a test, put first on $CONFLICTKIT_LEXICON_PATH (caches cleared around it)."""

from __future__ import annotations

import itertools

import pytest

from conflictkit import lexicon

_CODES = itertools.count(1)


@pytest.fixture
def pack_root(tmp_path, monkeypatch):
    root = tmp_path / "packs"
    root.mkdir()
    monkeypatch.setenv(lexicon.LEXICON_PATH_ENV, str(root))
    lexicon.load.cache_clear()
    yield root
    lexicon.load.cache_clear()


@pytest.fixture
def code():
    """A language code no other test uses (caches keyed by code never mix two tests' packs)."""
    return f"zz{next(_CODES)}"
