"""What the alignment step produces: links between clause runs, and the clauses left over."""

from __future__ import annotations

from dataclasses import dataclass, field

from conflictkit.model import Judgement


@dataclass(frozen=True)
class Link:
    """Consecutive reference clauses aligned with consecutive input clauses.

    Most links are one clause to one clause; a split, a merge or a re-wrapped paragraph links a
    run. ``judgement`` is the judge's verdict on the two runs (``None`` when their texts are
    equal: nothing to judge). ``moved`` marks a link that breaks the documents' order.
    """

    reference: tuple[str, ...]
    input: tuple[str, ...]
    judgement: Judgement | None = None
    moved: bool = False

    @property
    def exact(self) -> bool:
        return self.judgement is None

    @property
    def p_same(self) -> float:
        return 1.0 if self.judgement is None else self.judgement.p_same

    @property
    def p_conflict(self) -> float:
        return 0.0 if self.judgement is None else self.judgement.p_conflict

    def pairs(self) -> set[tuple[str, str]]:
        """Every (reference clause, input clause) combination the link covers."""
        return {(r, i) for r in self.reference for i in self.input}


@dataclass(frozen=True)
class Gap:
    """A clause with no counterpart: missing from the input, or added in it."""

    clause_id: str
    best_p_same: float
    definition: bool = False


@dataclass
class Alignment:
    """The outcome of aligning two documents, as clause ids and judgements (no text, no offsets yet).

    ``deviations`` and ``covered`` are links in reference order; ``moves`` groups moved links
    that do not conflict into blocks of consecutive clauses, one finding each.
    """

    deviations: list[Link] = field(default_factory=list)
    covered: list[Link] = field(default_factory=list)
    moves: list[list[Link]] = field(default_factory=list)
    missing: list[Gap] = field(default_factory=list)
    added: list[Gap] = field(default_factory=list)
    judged_runs: int = 0  # runs judged again on their concatenated text

    @property
    def picked(self) -> set[tuple[str, str]]:
        """Clause pairs inside an aligned link: the pairs file marks them covered or deviation."""
        out: set[tuple[str, str]] = set()
        for link in [*self.deviations, *self.covered]:
            out |= link.pairs()
        return out

    @property
    def deviating(self) -> set[tuple[str, str]]:
        out: set[tuple[str, str]] = set()
        for link in self.deviations:
            out |= link.pairs()
        return out
