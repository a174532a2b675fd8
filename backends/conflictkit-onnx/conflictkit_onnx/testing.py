"""A tiny ONNX "encoder" with known outputs, for tests of the embedder and of plugins built on it.

The graph maps each token id to a fixed random row (plus a row per token type when it takes
``token_type_ids``), so a text's expected sentence vector is computable by hand: the normalized
mean of its tokens' rows. Padding ids map to a large row, so pooling that forgot the attention
mask shows. Needs the ``onnx`` package (``pip install "conflictkit-onnx[test]"``).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

WORDS = ("the", "customer", "shall", "pay", "each", "invoice", "within", "thirty", "days", "provider", "may", "not",
         "terminate", "this", "agreement", "governed", "by", "laws", "of", "delaware")
PAD, UNK = "[PAD]", "[UNK]"
DIMENSIONS = 8


def vocabulary() -> dict[str, int]:
    """Token -> id of the tiny tokenizer ([PAD] is 0)."""
    return {token: i for i, token in enumerate((PAD, UNK, *WORDS))}


def token_table(seed: int = 7) -> np.ndarray:
    """The embedding row of each token id; the padding row is far from every other."""
    table = np.random.default_rng(seed).normal(size=(len(vocabulary()), DIMENSIONS)).astype(np.float32)
    table[0] = 100.0
    return table


def type_table() -> np.ndarray:
    """The row added for token type 0 and 1 when the graph takes ``token_type_ids``."""
    return np.stack([np.full(DIMENSIONS, 0.5, np.float32), np.full(DIMENSIONS, -3.0, np.float32)])


def expected_vector(text: str, max_length: int | None = None, token_types: bool = False) -> np.ndarray:
    """What a correct embedder returns for ``text`` on the tiny model (lower-cased words, unknowns as [UNK])."""
    vocab = vocabulary()
    ids = [vocab.get(word, vocab[UNK]) for word in text.lower().split()][:max_length]
    rows = token_table()[ids] + (type_table()[0] if token_types else 0.0)
    mean = rows.mean(axis=0)
    return (mean / np.linalg.norm(mean)).astype(np.float32)


def write_tiny_model(directory: Path, token_types: bool = False, config: dict | None = None,
                     file_name: str = "model.onnx") -> Path:
    """Write ``file_name`` and ``tokenizer.json`` (and ``config.json`` when given) into ``directory``."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    directory.mkdir(parents=True, exist_ok=True)
    tokenizer = Tokenizer(models.WordLevel(vocabulary(), unk_token=UNK))
    tokenizer.normalizer = normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer.save(str(directory / "tokenizer.json"))

    batch = ["batch", "sequence"]
    inputs = [helper.make_tensor_value_info(name, TensorProto.INT64, batch) for name in ("input_ids", "attention_mask")]
    initializers = [numpy_helper.from_array(token_table(), "tokens")]
    nodes = [helper.make_node("Gather", ["tokens", "input_ids"], ["token_rows" if token_types else "last_hidden_state"])]
    if token_types:
        inputs.append(helper.make_tensor_value_info("token_type_ids", TensorProto.INT64, batch))
        initializers.append(numpy_helper.from_array(type_table(), "types"))
        nodes += [helper.make_node("Gather", ["types", "token_type_ids"], ["type_rows"]),
                  helper.make_node("Add", ["token_rows", "type_rows"], ["last_hidden_state"])]
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [*batch, DIMENSIONS])
    graph = helper.make_graph(nodes, "tiny-encoder", inputs, [output], initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8  # readable by every onnxruntime this plugin accepts
    onnx.checker.check_model(model)
    path = directory / file_name
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    if config is not None:
        (directory / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return path
