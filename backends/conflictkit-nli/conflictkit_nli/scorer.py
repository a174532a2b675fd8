"""The ``cross-encoder`` scorer: a reranker's relevance of (reference, input) pairs, as sigmoid(logit) in [0, 1].

Rerankers are trained on query/passage pairs truncated to their window, so long pairs are truncated
(longest side first) rather than windowed: relevance of the first 512 tokens is what the model was
trained to judge. Only single-logit rerankers are accepted (bge-reranker, ms-marco cross-encoders).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from pydantic import Field

from conflictkit.errors import BackendError
from conflictkit.stages import Options, Scorer
from conflictkit_nli.hub import resolve_model, weight_patterns
from conflictkit_nli.runtime import PairClassifier, sigmoid


class CrossEncoderOptions(Options):
    model: str = Field("BAAI/bge-reranker-v2-m3", description="hub id or local model directory of a reranker")
    backend: Literal["torch", "onnx"] = Field("torch", description="run the model with PyTorch or ONNX Runtime")
    file_name: str | None = Field(None, description="ONNX file inside the model directory (default onnx/model.onnx)")
    batch_size: int = Field(32, ge=1, le=1024)
    max_length: int | None = Field(None, ge=16, le=512, description="model window in tokens (default: the tokenizer's)")
    threads: int = Field(0, ge=0, le=256, description="CPU threads (0: the runtime's default)")


class CrossEncoderScorer(Scorer):
    """Relevance of each pair from a cross-encoder reranker, torch or ONNX."""

    name: ClassVar[str] = "cross-encoder"
    Options: ClassVar[type[Options]] = CrossEncoderOptions

    def __init__(self, options: Options | dict | None = None) -> None:
        super().__init__(options)
        self.classifier: PairClassifier | None = None
        self.scored = 0

    def unavailable(self) -> str | None:
        from conflictkit_nli.hub import local_model_problem

        return local_model_problem(self.options.model)

    def warm_up(self) -> None:
        if self._warm:
            return
        o = self.options
        path = resolve_model(o.model, weight_patterns(o.backend, o.file_name))
        self.classifier = PairClassifier(path, o.backend, o.file_name, o.batch_size, o.max_length, o.threads)
        if self.classifier.num_labels != 1:
            raise BackendError(
                f"model {o.model} has {self.classifier.num_labels} outputs; the cross-encoder scorer needs a "
                "single-logit reranker (for an NLI model use the nli judge)"
            )
        super().warm_up()

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        self.warm_up()
        self.scored += len(pairs)
        return [float(x) for x in sigmoid(self.classifier.logits(list(pairs))[:, 0])]

    def usage(self) -> dict:
        return {"pairs": self.scored}
