"""Deterministic fake judges for tests of composition, partitioning and reports.

They are not built-in backends: register them for the length of a test with :func:`registered`::

    with registered():
        cascade = CascadeJudge({"judges": [{"use": "fixed"}, {"use": "recording"}]})

``FixedJudge`` returns set probabilities (optionally per input clause id) and optional typed
reasons; ``RecordingJudge`` does the same and keeps every pair it was given, so a test can see
which pairs a composition passed on.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence
from typing import ClassVar

from pydantic import Field

from conflictkit import hookimpl
from conflictkit.model import CandidatePair, Judgement, Reason
from conflictkit.stages import Comparison, Judge, Options


class FixedOptions(Options):
    p_same: float = Field(0.9, ge=0.0, le=1.0)
    p_differs: float = Field(0.5, ge=0.0, le=1.0)
    p_conflict: float = Field(0.5, ge=0.0, le=1.0)
    reasons: list[str] = Field(default_factory=list, description="reason types to attach to every judgement")
    by_input: dict[str, float] = Field(default_factory=dict, description="P(conflict) for given input clause ids")
    label: str = Field("", description="tag written into signals, to tell two fakes apart")
    quote_reference: str | None = Field(None, description="words each reason quotes from the reference clause")
    quote_input: str | None = Field(None, description="words each reason quotes from the input clause")


class FixedJudge(Judge):
    """Returns the configured probabilities for every pair; ``by_input`` overrides P(conflict)."""

    name: ClassVar[str] = "fixed"
    Options: ClassVar[type[Options]] = FixedOptions

    def __init__(self, options: Options | dict | None = None) -> None:
        super().__init__(options)
        self.warm_ups = 0
        self.stores: list[object] = []

    def warm_up(self) -> None:
        self.warm_ups += 1
        super().warm_up()

    def use_store(self, store) -> None:
        self.stores.append(store)
        super().use_store(store)

    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]:
        o = self.options
        return [
            Judgement(
                reference_id=p.reference_id,
                input_id=p.input_id,
                p_same=o.p_same,
                p_differs=o.p_differs,
                p_conflict=o.by_input.get(p.input_id, o.p_conflict),
                reasons=[Reason(type=t, reference=o.quote_reference, input=o.quote_input, detail=o.label or None)
                         for t in o.reasons],
                judge=self.name,
                signals={"fixed": 1.0},
            )
            for p in pairs
        ]

    def usage(self) -> dict:
        return {"warm_ups": self.warm_ups}


class RecordingJudge(FixedJudge):
    """A :class:`FixedJudge` that records the pairs of every call in ``calls``."""

    name: ClassVar[str] = "recording"

    def __init__(self, options: Options | dict | None = None) -> None:
        super().__init__(options)
        self.calls: list[list[CandidatePair]] = []

    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]:
        self.calls.append(list(pairs))
        return super().judge(pairs, comparison)


@hookimpl
def register_judges(register):
    register(FixedJudge)
    register(RecordingJudge)


@contextlib.contextmanager
def registered() -> Iterator[None]:
    """Register the fake judges (and the fake embedder of :mod:`conflictkit.testing.embedders`) in a
    fresh process-wide registry; forget them afterwards."""
    from conflictkit import registry
    from conflictkit.testing import embedders

    registry.reset()
    registry.get_plugin_manager().register(sys.modules[__name__], name=__name__)
    registry.get_plugin_manager().register(embedders, name=embedders.__name__)
    try:
        yield
    finally:
        registry.reset()
