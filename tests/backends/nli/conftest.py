"""Tiny NLI models built once per test session (the builders live in conflictkit_nli.testing)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def tiny_deberta(tmp_path_factory):
    pytest.importorskip("torch")
    from conflictkit_nli.testing import build_nli_model

    return build_nli_model(tmp_path_factory.mktemp("tiny-deberta"), arch="deberta")


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory):
    pytest.importorskip("torch")
    from conflictkit_nli.testing import build_nli_model

    return build_nli_model(tmp_path_factory.mktemp("tiny-bert"), arch="bert")


@pytest.fixture(scope="session")
def quantized_deberta(tiny_deberta, tmp_path_factory):
    """``conflictkit models quantize`` run on the tiny DeBERTa: fp32 and int8 ONNX files."""
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnxscript")
    from click.testing import CliRunner

    from conflictkit_nli.cli import models

    out = tmp_path_factory.mktemp("quantized") / "tiny-deberta-onnx"
    result = CliRunner().invoke(models, ["quantize", str(tiny_deberta), "--out", str(out)])
    assert result.exit_code == 0, result.output + repr(result.exception)
    return out
