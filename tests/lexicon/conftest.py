"""A language code per test (the folder for its packs is ``pack_root`` in tests/conftest.py)."""

from __future__ import annotations

import itertools

import pytest

_CODES = itertools.count(1)


@pytest.fixture
def code():
    """A language code no other test uses (caches keyed by code never mix two tests' packs)."""
    return f"zz{next(_CODES)}"
