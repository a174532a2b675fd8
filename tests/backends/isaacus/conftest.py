"""Fixtures: the fake Isaacus API in-process (httpx.MockTransport) or on loopback, and backends wired to it.

The SDK runs with strict response validation, so a fake response that drifts from the SDK's
models fails the test instead of being accepted loosely.
"""

from __future__ import annotations

from pathlib import Path

import pytest

isaacus = pytest.importorskip("isaacus")
pytest.importorskip("conflictkit_isaacus")

from conflictkit.store import Store  # noqa: E402
from conflictkit.testing.isaacus import FakeIsaacus  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "samples"
REFERENCE = SAMPLES / "reference-saas-agreement.md"
INPUT = SAMPLES / "input-vendor-draft.md"
KEY = "test-key"


@pytest.fixture(autouse=True)
def _no_real_credentials(monkeypatch):
    """A developer's own key or URL must never reach these tests."""
    monkeypatch.delenv("ISAACUS_API_KEY", raising=False)
    monkeypatch.delenv("ISAACUS_BASE_URL", raising=False)


@pytest.fixture
def fake() -> FakeIsaacus:
    return FakeIsaacus(api_key=KEY)


@pytest.fixture
def served(fake, monkeypatch):
    """The fake on loopback, with the environment pointing the backends at it."""
    with fake.serve() as server:
        monkeypatch.setenv("ISAACUS_API_KEY", KEY)
        monkeypatch.setenv("ISAACUS_BASE_URL", server.base_url)
        yield server


@pytest.fixture
def store(tmp_path) -> Store:
    s = Store(tmp_path / "cache.sqlite")
    yield s
    s.close()


@pytest.fixture
def make(fake, store):
    """Build and warm up a backend against the in-process fake: ``make(IsaacusEmbedder, dimensions=256)``."""

    def build(cls, *, cache: Store | None | bool = True, **options):
        opts = {"api_key": KEY, "base_url": "http://fake.isaacus.test", "max_retries": 0, "strict_responses": True, **options}
        component = cls(opts, http_client=isaacus.DefaultHttpxClient(transport=fake.transport()))
        component.use_store(store if cache is True else (None if cache is False else cache))
        component.warm_up()
        return component

    return build

