"""The NLI judge and scorer say, without loading anything, when their model is not on this machine."""

from conflictkit_nli.hub import local_model_problem
from conflictkit_nli.nli import NLIJudge


def test_missing_local_and_uncached_models_are_named(tmp_path, monkeypatch):
    assert "does not exist" in local_model_problem(str(tmp_path / "nope"))
    assert "no config.json" in local_model_problem(str(tmp_path))
    (tmp_path / "config.json").write_text("{}")
    assert local_model_problem(str(tmp_path)) is None
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty-hub"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hub"))
    assert "not downloaded" in NLIJudge({"model": "someone/unlikely-model"}).unavailable()
