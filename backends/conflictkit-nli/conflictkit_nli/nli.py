"""The ``nli`` judge: a cross-encoder NLI model reads each candidate pair both ways.

For every pair the model scores (reference as premise, input as hypothesis) and the reverse, over
sentence windows when the pair is longer than the model's window (see :mod:`conflictkit_nli.windows`).
The label order comes from the model's ``config.id2label``; a model whose labels are not
contradiction / entailment / neutral is refused at warm-up, never read by position.

From the two directions' probabilities (c, e, n) the judgement is:
- ``p_conflict`` = max(c_forward, c_backward): either side contradicting the other is a conflict;
- ``p_differs`` = 1 - min(e_forward, e_backward): clauses that do not entail each other both ways
  differ in effect (a contradiction is one way to differ; an added condition is another);
- ``p_same`` (same matter), by ``same_matter``: ``relevance`` is the retrieval relevance; ``nli`` is
  max over directions of c + e (a model that finds entailment or contradiction reads the clauses
  as being about the same thing; neutral means unrelated); ``max`` (default) takes the larger.
Signals hold the three probabilities of each direction (``nli.fwd.contradiction``...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Literal

import numpy as np
from pydantic import Field

from conflictkit.errors import BackendError
from conflictkit.model import CandidatePair, Judgement, Reason
from conflictkit.stages import Comparison, Judge, Options
from conflictkit_nli.context import ContextMode, expand_pairs
from conflictkit_nli.hub import resolve_model, weight_patterns
from conflictkit_nli.runtime import PairClassifier, softmax
from conflictkit_nli.windows import aggregate, window_pairs

NLI_LABELS = ("contradiction", "entailment", "neutral")


class NLIOptions(Options):
    model: str = Field("cross-encoder/nli-deberta-v3-base", description="hub id or local model directory")
    backend: Literal["torch", "onnx"] = Field("torch", description="run the model with PyTorch or ONNX Runtime")
    file_name: str | None = Field(None, description="ONNX file inside the model directory (default onnx/model.onnx)")
    batch_size: int = Field(32, ge=1, le=1024, description="pairs per forward pass (length-sorted, padded per batch)")
    max_length: int | None = Field(None, ge=16, le=512, description="model window in tokens (default: the tokenizer's)")
    threads: int = Field(0, ge=0, le=256, description="CPU threads (0: the runtime's default)")
    same_matter: Literal["relevance", "nli", "max"] = Field("max", description="how p_same is formed (see module doc)")
    context: Literal["none", "neighbours", "section"] = Field("none", description="text given for each clause")
    reason_at: float = Field(0.5, ge=0.0, le=1.0, description="add a 'contradiction' reason from this P(contradiction)")


def label_indices(id2label: dict[int, str], model: str) -> dict[str, int]:
    """Index of each NLI label in the model's output, by name (case-insensitive, prefix match)."""
    found: dict[str, int] = {}
    for index, label in id2label.items():
        name = label.strip().lower()
        for wanted in NLI_LABELS:
            if name.startswith(wanted[:7]):
                found[wanted] = index
    if set(found) != set(NLI_LABELS) or len(id2label) != 3:
        raise BackendError(
            f"model {model} has labels {[id2label[i] for i in sorted(id2label)]}; the nli judge needs exactly "
            "contradiction, entailment and neutral (set id2label in its config.json)"
        )
    return found


class NLIJudge(Judge):
    """P(contradiction / entailment / neutral) of each pair, both ways, mapped to a Judgement."""

    name: ClassVar[str] = "nli"
    Options: ClassVar[type[Options]] = NLIOptions

    def __init__(self, options: Options | dict | None = None) -> None:
        super().__init__(options)
        self.classifier: PairClassifier | None = None
        self.labels: dict[str, int] = {}
        self.counts = {"pairs": 0, "model_inputs": 0, "windowed_pairs": 0}

    def unavailable(self) -> str | None:
        from conflictkit_nli.hub import local_model_problem

        return local_model_problem(self.options.model)

    def warm_up(self) -> None:
        if self._warm:
            return
        o = self.options
        path = resolve_model(o.model, weight_patterns(o.backend, o.file_name))
        self.classifier = PairClassifier(path, o.backend, o.file_name, o.batch_size, o.max_length, o.threads)
        self.labels = label_indices(self.classifier.id2label, o.model)
        super().warm_up()

    def probabilities(self, texts: Sequence[tuple[str, str]],
                      progress: Callable[[int, int], None] | None = None) -> list[dict[str, float]]:
        """For each (reference, input) text pair: c/e/n of both directions, window-aggregated; ``progress(done,
        total)`` after each batch of the model, counted in pairs."""
        self.warm_up()
        classifier = self.classifier
        plans, inputs = [], []
        for a, b in texts:
            wa, wb = window_pairs(a, b, classifier.max_length, classifier.count_tokens)
            start = len(inputs)
            inputs += [(x, y) for x in wa for y in wb] + [(y, x) for x in wa for y in wb]
            plans.append((start, len(wa), len(wb)))
            self.counts["windowed_pairs"] += int(len(wa) * len(wb) > 1)
        self.counts["model_inputs"] += len(inputs)
        report = None if progress is None else (lambda done, total: progress(len(texts) * done // max(1, total), len(texts)))
        probs = softmax(classifier.logits(inputs, report))
        return [self._directions(probs, *plan) for plan in plans]

    def _directions(self, probs: np.ndarray, start: int, na: int, nb: int) -> dict[str, float]:
        c, e = self.labels["contradiction"], self.labels["entailment"]
        n = na * nb
        fwd = probs[start : start + n].reshape(na, nb, -1)  # premise = reference windows (rows)
        bwd = probs[start + n : start + 2 * n].reshape(na, nb, -1).transpose(1, 0, 2)  # premise = input windows
        out = {"nli.windows": float(n)}
        for tag, grid in (("fwd", fwd), ("bwd", bwd)):
            cv, ev, nv = aggregate(grid[..., c], grid[..., e])
            out.update({f"nli.{tag}.contradiction": cv, f"nli.{tag}.entailment": ev, f"nli.{tag}.neutral": nv})
        return out

    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]:
        mode: ContextMode = self.options.context
        texts, index = expand_pairs(pairs, comparison, mode)
        results = self.probabilities(texts, comparison.advance if len(texts) == len(pairs) else None)
        self.counts["pairs"] += len(pairs)
        return [self._judgement(pair, results[i]) for pair, i in zip(pairs, index)]

    def _judgement(self, pair: CandidatePair, s: dict[str, float]) -> Judgement:
        c = max(s["nli.fwd.contradiction"], s["nli.bwd.contradiction"])
        e = min(s["nli.fwd.entailment"], s["nli.bwd.entailment"])
        related = max(s["nli.fwd.contradiction"] + s["nli.fwd.entailment"], s["nli.bwd.contradiction"] + s["nli.bwd.entailment"])
        p_same = {"relevance": pair.relevance, "nli": related, "max": max(pair.relevance, related)}[self.options.same_matter]
        reasons = []
        if c >= self.options.reason_at:
            reasons.append(Reason(type="contradiction", detail=f"the NLI model reads the clauses as contradictory (P={c:.2f})"))
        return Judgement(
            reference_id=pair.reference_id,
            input_id=pair.input_id,
            p_same=float(np.clip(p_same, 0.0, 1.0)),
            p_differs=float(np.clip(1.0 - e, 0.0, 1.0)),
            p_conflict=float(np.clip(c, 0.0, 1.0)),
            reasons=reasons,
            judge=self.name,
            signals=s,
        )

    def describe(self) -> dict:
        info = super().describe()
        if self.classifier is not None:
            info["model_path"] = str(self.classifier.path)
            info["labels"] = self.classifier.id2label
        return info

    def usage(self) -> dict:
        return dict(self.counts)
