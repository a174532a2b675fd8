"""`conflictkit models list | pull` without a network (quantize is exercised by the model tests' fixture)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from conflictkit.errors import UserError
from conflictkit_nli.cli import models


@pytest.fixture
def offline_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def test_list_shows_presets_and_where_they_are(tmp_path, offline_cache):
    copied = tmp_path / "models" / "bge-reranker-v2-m3"
    copied.mkdir(parents=True)
    (copied / "config.json").write_text("{}")
    result = CliRunner().invoke(models, ["list", "--dir", str(tmp_path / "models")])
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.output.splitlines()[1:]}
    assert lines["bge-reranker-v2-m3"].rstrip().endswith(f"yes ({copied})")
    assert lines["nli-deberta-v3-base"].rstrip().endswith("no")
    assert "cross-encoder/nli-deberta-v3-base" in lines["nli-deberta-v3-base"]


def test_pull_offline_says_how_to_copy_a_model_instead(offline_cache):
    result = CliRunner().invoke(models, ["pull", "nli-deberta-v3-base"])
    assert isinstance(result.exception, UserError)
    message = str(result.exception)
    assert "cross-encoder/nli-deberta-v3-base" in message and "copy the model directory" in message and "\n" not in message


def test_quantize_refuses_a_non_empty_output_directory(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    result = CliRunner().invoke(models, ["quantize", "some/model", "--out", str(tmp_path / "out")])
    assert isinstance(result.exception, UserError) and "not empty" in str(result.exception)
    assert (tmp_path / "out" / "keep.txt").read_text() == "mine"


def test_models_command_is_added_through_the_plugin_hook():
    import click

    from conflictkit_nli import plugin

    group = click.Group("conflictkit")
    plugin.register_commands(cli=group)
    assert "models" in group.commands and set(group.commands["models"].commands) == {"list", "pull", "quantize"}
