"""The portfolio fixture of the batch tests; Ray kept away from the machine's shared settings."""

import pytest

from tests.batch.conftest import portfolio  # noqa: F401


@pytest.fixture(autouse=True)
def own_ray(monkeypatch):
    """Token authentication off: an auth token another program left in ~/.ray would switch it on for the
    Ray these tests start (and the drivers they run), and is none of their business."""
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
