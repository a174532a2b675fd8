"""Model resolution: local directories, the hub cache, and the error when a model cannot be had."""

from __future__ import annotations

import shutil

import pytest

from conflictkit_nli.hub import ModelNotAvailableError, resolve_model


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return tmp_path / "hub"


def test_missing_model_names_it_and_says_how_to_obtain_it(empty_cache):
    with pytest.raises(ModelNotAvailableError) as err:
        resolve_model("cross-encoder/nli-deberta-v3-base")
    message = str(err.value)
    assert "cross-encoder/nli-deberta-v3-base" in message and "HF_HUB_OFFLINE" in message
    assert "conflictkit models pull cross-encoder/nli-deberta-v3-base" in message and "model directory" in message
    assert "\n" not in message


def test_missing_directory_and_directory_without_config(tmp_path, empty_cache):
    with pytest.raises(ModelNotAvailableError, match="does not exist"):
        resolve_model(str(tmp_path / "no" / "such" / "model"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelNotAvailableError, match="no config.json"):
        resolve_model(str(tmp_path / "empty"))


def test_model_id_resolves_through_the_hub_cache(tmp_path, empty_cache):
    snapshot = empty_cache / "models--acme--tiny-nli" / "snapshots" / "0123456789abcdef0123456789abcdef01234567"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text("{}")
    (empty_cache / "models--acme--tiny-nli" / "refs").mkdir()
    (empty_cache / "models--acme--tiny-nli" / "refs" / "main").write_text(snapshot.name)
    assert resolve_model("acme/tiny-nli") == snapshot


def test_local_directory_is_used_as_it_is(tmp_path, empty_cache):
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "config.json").write_text("{}")
    assert resolve_model(str(tmp_path / "m")) == tmp_path / "m"
    shutil.rmtree(tmp_path / "m")
