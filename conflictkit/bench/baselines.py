"""Baseline judges, registered like any backend so they sit in the same benchmark table.

- ``cosine-only``: "flag when similar": P(conflict) is the cosine similarity of the two clauses'
  vectors from the configured embedder. It shows what an embedding alone can tell (that two
  clauses are about the same thing), and what it cannot (whether they agree).
- ``line-diff``: any textual change is flagged, as a redline tool would; P(conflict) grows with
  the share of changed characters (``difflib``), so paraphrases and typography are flagged too.

Neither is meant for use: they are the floor a real judge must clear.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from pydantic import Field

from conflictkit.errors import ConfigError
from conflictkit.model import CandidatePair, Judgement
from conflictkit.stages import Comparison, Judge, Options


def _clip(value: float) -> float:
    return float(min(1.0, max(0.0, value)))


class CosineOnlyOptions(Options):
    floor: float = Field(0.0, ge=-1.0, lt=1.0, description="cosine mapped to P(conflict) 0; 1.0 maps to 1")


class CosineOnlyJudge(Judge):
    """P(same) = P(conflict) = rescaled cosine similarity of the clause vectors."""

    name: ClassVar[str] = "cosine-only"
    Options: ClassVar[type[Options]] = CosineOnlyOptions
    needs_vectors: ClassVar[bool] = True

    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]:
        ref, inp = comparison.reference, comparison.input
        if ref.vectors is None or inp.vectors is None:
            raise ConfigError("judge 'cosine-only' needs clause vectors: configure pipeline.embedder")
        floor = self.options.floor
        out = []
        for pair in pairs:
            cosine = float(np.dot(ref.vectors[ref.position(pair.reference_id)], inp.vectors[inp.position(pair.input_id)]))
            p = _clip((cosine - floor) / (1.0 - floor))
            out.append(Judgement(
                reference_id=pair.reference_id, input_id=pair.input_id, p_same=p, p_differs=p, p_conflict=p,
                judge=self.name, signals={"cosine": cosine},
            ))
        return out


class LineDiffOptions(Options):
    changed_floor: float = Field(
        0.7, ge=0.0, le=1.0, description="P(conflict) of the smallest change; the default threshold flags any change"
    )


def _words(text: str) -> str:
    return " ".join(text.split())  # a line diff ignores reflowed whitespace, nothing else


class LineDiffJudge(Judge):
    """Flags any textual change: P(conflict) = floor + (1 - floor) * (1 - difflib ratio), 0 when equal.

    P(same matter) is the retrieval relevance of the pair (the diff tool trusts the alignment it
    is given), or the diff ratio when there is none.
    """

    name: ClassVar[str] = "line-diff"
    Options: ClassVar[type[Options]] = LineDiffOptions

    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]:
        ref, inp = comparison.reference, comparison.input
        floor = self.options.changed_floor
        out = []
        for pair in pairs:
            a, b = _words(ref.clause(pair.reference_id).text), _words(inp.clause(pair.input_id).text)
            ratio = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
            p_conflict = 0.0 if a == b else _clip(floor + (1.0 - floor) * (1.0 - ratio))
            p_same = pair.relevance if pair.similarity is not None else ratio
            out.append(Judgement(
                reference_id=pair.reference_id, input_id=pair.input_id, p_same=_clip(p_same),
                p_differs=0.0 if a == b else 1.0, p_conflict=p_conflict, judge=self.name,
                signals={"diff_ratio": ratio},
            ))
        return out
