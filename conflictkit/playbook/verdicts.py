"""From the judge's verdicts on an input clause against each text of a position to a verdict with probabilities.

The judge gives, for the input clause against each text, P(same matter) and P(differs in effect).
``p_match = P(same) * (1 - P(differs))`` is the probability that the input says what that text
says. The texts of a position say different things (validated when the playbook is loaded), so
the input matches at most one of them: the hypotheses "it matches text h and no other" have
weights ``p_match[h] * prod(1 - p_match[j], j != h)``, "it matches none" ``prod(1 - p_match[j])``,
normalized to a distribution. A red-line rule the clause breaks makes every accepted text
impossible; so does matching a red-line text.

    P(standard)       = the preferred text's share
    P(fallback N)     = fallback N's share
    P(not acceptable) = the red-line texts' shares + "none" + what a broken rule takes

All of these are conditional on the passage being about the position: with P(same matter) below 1,
the rest is P(missing) (the nearest clause is another matter). The verdict is the most probable
(ties go to the more preferred), so a benign rewording, which leaves p_match of the text it rewords
high, keeps its verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from conflictkit.model import Judgement

EPSILON = 1e-6
STANDARD, FALLBACK, NOT_ACCEPTABLE, MISSING, ABSENT = "standard", "fallback", "not-acceptable", "missing", "absent"
VERDICTS = (STANDARD, FALLBACK, NOT_ACCEPTABLE, MISSING, ABSENT)
"""Every verdict a position can get (``absent``: an optional position with no clause in the input)."""
NOT_ACCEPTABLE_LABEL = "not acceptable"


def p_match(judgement: Judgement) -> float:
    """The probability that the input says what the text says: the same matter, and no difference in effect."""
    return judgement.p_same * (1.0 - judgement.p_differs)


@dataclass(frozen=True)
class Distribution:
    """Verdict probabilities of one position: ``accepted[k]`` for the accepted text of rank ``ranks[k]``
    (0 preferred, N fallback N), not acceptable, and not there at all.

    ``red[k]`` is the share of red-line text k, ``none`` the share of matching no text; ``broken``
    is the probability a red-line rule takes away from the accepted texts (1 when one is broken);
    ``gap`` is the probability that the passage is not about the position at all (1 - P(same matter)).
    """

    accepted: tuple[float, ...]
    red: tuple[float, ...]
    none: float
    broken: float
    gap: float = 0.0
    ranks: tuple[int, ...] = ()

    @property
    def not_acceptable(self) -> float:
        return 1.0 - sum(self.accepted) - self.gap

    def labelled(self, gap_label: str = MISSING) -> dict[str, float]:
        """``{"standard": p, "fallback 1": p, ..., "not acceptable": p, "missing": p}``, rounded for reports."""
        out = {accepted_label(rank): round(p, 4) for rank, p in zip(self.ranks, self.accepted)}
        out[NOT_ACCEPTABLE_LABEL] = round(self.not_acceptable, 4)
        out[gap_label] = round(self.gap, 4)
        return out

    def verdict(self) -> tuple[str, int | None, float]:
        """(verdict, fallback number or None, its probability): the most probable; ties to the more preferred.

        ``missing`` when the passage more likely deals with another matter than with any verdict on this one.
        """
        best = max(range(len(self.accepted)), key=lambda k: (self.accepted[k], -self.ranks[k]), default=None)
        top = max(self.accepted[best] if best is not None else 0.0, self.not_acceptable)
        if self.gap > top:
            return MISSING, None, self.gap
        if best is None or self.not_acceptable > self.accepted[best]:
            return NOT_ACCEPTABLE, None, self.not_acceptable
        rank = self.ranks[best]
        return (STANDARD, None, self.accepted[best]) if rank == 0 else (FALLBACK, rank, self.accepted[best])


def accepted_label(rank: int) -> str:
    return STANDARD if rank == 0 else f"fallback {rank}"


def distribution(accepted: list[float], red: list[float], broken: bool, present: float = 1.0,
                 ranks: list[int] | None = None) -> Distribution:
    """The verdict distribution from p_match of accepted texts (of ``ranks``, by default 0, 1, 2...) and red-line texts.

    ``present`` is P(the passage deals with the position's matter): the rest is the position missing.
    Texts left out are texts the passage is known not to say (it is another of them word for word).
    """
    matches = [min(1.0 - EPSILON, max(EPSILON, p)) for p in [*accepted, *red]]
    misses = [1.0 - p for p in matches]
    weights = []
    for h, p in enumerate(matches):
        others = 1.0
        for j, miss in enumerate(misses):
            if j != h:
                others *= miss
        weights.append(p * others)
    none = 1.0
    for miss in misses:
        none *= miss
    total = sum(weights) + none
    share = [present * w / total for w in weights]
    keep = 0.0 if broken else 1.0
    n = len(accepted)
    return Distribution(accepted=tuple(keep * s for s in share[:n]), red=tuple(share[n:]), none=present * none / total,
                        broken=(1.0 - keep) * sum(share[:n]), gap=1.0 - present,
                        ranks=tuple(ranks if ranks is not None else range(n)))
