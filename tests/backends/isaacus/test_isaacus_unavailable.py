"""The review app asks each backend whether it can run here: Isaacus needs a key, and says so."""

from conflictkit_isaacus.embedder import IsaacusEmbedder


def test_no_key_is_reported_without_any_request(monkeypatch):
    monkeypatch.delenv("ISAACUS_API_KEY", raising=False)
    assert "ISAACUS_API_KEY" in IsaacusEmbedder().unavailable()
    monkeypatch.setenv("ISAACUS_API_KEY", "k")
    assert IsaacusEmbedder().unavailable() is None
