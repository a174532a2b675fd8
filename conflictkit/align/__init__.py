"""The align stage: judged pairs and clause order -> deviations, covered, moves, missing, added."""

from conflictkit.align.core import AlignOptions, RunJudge, align, can_pair
from conflictkit.align.model import Alignment, Gap, Link

__all__ = ["AlignOptions", "Alignment", "Gap", "Link", "RunJudge", "align", "can_pair"]
