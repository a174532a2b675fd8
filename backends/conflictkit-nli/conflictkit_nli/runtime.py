"""Run a sequence-pair classifier (cross-encoder) with PyTorch or ONNX Runtime.

Both runtimes share the tokenizer and the batching: pairs are sorted by token length, cut into
batches of ``batch_size`` and padded only to the longest pair of each batch (dynamic padding),
then put back in their original order. ONNX Runtime is fed exactly the inputs the graph declares.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

import numpy as np

from conflictkit.errors import BackendError, MissingDependencyError
from conflictkit_nli.hub import INSTALL, ModelNotAvailableError

Backend = Literal["torch", "onnx"]
DEFAULT_ONNX_FILE = "onnx/model.onnx"
MAX_WINDOW = 512  # DeBERTa-v3 and BERT-style encoders are trained on at most 512 positions


def _require(module: str, extra: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(f"{extra} needs {module}: {INSTALL} (or pip install {module})") from exc


class PairClassifier:
    """A loaded cross-encoder: ``logits(pairs)`` -> (len(pairs), num_labels) array."""

    def __init__(self, path: Path, backend: Backend = "torch", file_name: str | None = None,
                 batch_size: int = 32, max_length: int | None = None, threads: int = 0) -> None:
        self.path = Path(path)
        self.backend = backend
        self.file_name = file_name
        self.batch_size = batch_size
        self.threads = threads
        transformers = _require("transformers", "the nli judge and the cross-encoder scorer")
        try:
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(str(self.path))
            self.config = transformers.AutoConfig.from_pretrained(str(self.path))
        except (OSError, ValueError) as exc:
            raise ModelNotAvailableError(f"cannot load the tokenizer or config of {self.path}: {exc}") from None
        self.max_length = min(max_length or self.tokenizer.model_max_length or MAX_WINDOW, MAX_WINDOW,
                              getattr(self.config, "max_position_embeddings", MAX_WINDOW) or MAX_WINDOW)
        self.id2label = {int(k): str(v) for k, v in self.config.id2label.items()}
        self._run = self._load_torch() if backend == "torch" else self._load_onnx()

    @property
    def num_labels(self) -> int:
        return len(self.id2label)

    def _load_torch(self):
        torch = _require("torch", "backend: torch")
        transformers = _require("transformers", "backend: torch")
        if self.threads:
            torch.set_num_threads(self.threads)
        try:
            model = transformers.AutoModelForSequenceClassification.from_pretrained(str(self.path)).eval()
        except (OSError, ValueError) as exc:
            raise ModelNotAvailableError(f"cannot load the model weights in {self.path}: {exc}") from None

        def run(batch: dict[str, np.ndarray]) -> np.ndarray:
            with torch.inference_mode():
                return model(**{k: torch.from_numpy(v) for k, v in batch.items()}).logits.float().numpy()

        return run

    def _load_onnx(self):
        ort = _require("onnxruntime", "backend: onnx")
        file = self.path / (self.file_name or DEFAULT_ONNX_FILE)
        if not file.is_file():
            raise ModelNotAvailableError(
                f"ONNX file {file} does not exist; set file_name to an ONNX file inside the model directory "
                f"or make one with `conflictkit models quantize {self.path} --out DIR`"
            )
        options = ort.SessionOptions()
        if self.threads:
            options.intra_op_num_threads = self.threads
        try:
            session = ort.InferenceSession(str(file), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own untyped errors
            raise BackendError(f"onnxruntime cannot load {file}: {exc}") from None
        names = [i.name for i in session.get_inputs()]

        def run(batch: dict[str, np.ndarray]) -> np.ndarray:
            missing = [n for n in names if n not in batch]
            if missing:
                raise BackendError(f"{file} expects inputs {names}; the tokenizer gives {sorted(batch)}")
            return session.run(None, {n: batch[n] for n in names})[0]

        return run

    def lengths(self, pairs: Sequence[tuple[str, str]]) -> list[int]:
        """Token count of each pair, special tokens included."""
        firsts, seconds = [a for a, _ in pairs], [b for _, b in pairs]
        return [len(ids) for ids in self.tokenizer(firsts, seconds, add_special_tokens=True, verbose=False)["input_ids"]]

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Token count of each text alone, without special tokens."""
        return [len(ids) for ids in self.tokenizer(list(texts), add_special_tokens=False, verbose=False)["input_ids"]]

    def logits(self, pairs: Sequence[tuple[str, str]], progress: Callable[[int, int], None] | None = None) -> np.ndarray:
        """Logits of each (first, second) pair, in order; batches sorted by length, padded per batch.

        ``progress(done, total)`` is called after each batch.
        """
        out = np.zeros((len(pairs), self.num_labels), dtype=np.float32)
        if not pairs:
            return out
        order = np.argsort(self.lengths(pairs), kind="stable")
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            batch = self.tokenizer(
                [pairs[i][0] for i in idx], [pairs[i][1] for i in idx], padding="longest",
                truncation="longest_first", max_length=self.max_length, return_tensors="np",
            )
            out[idx] = self._run({k: np.asarray(v, dtype=np.int64) for k, v in batch.items()})
            if progress is not None:
                progress(min(start + self.batch_size, len(order)), len(order))
        return out


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=-1, keepdims=True)


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))
