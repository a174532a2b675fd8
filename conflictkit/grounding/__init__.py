"""Grounding: check that quoted spans are in their source, and find meaning-reversing changes.

- :func:`verify_extraction` / :class:`Verifier`: is a quote in a document, at the offsets it cites?
- :func:`material_difference`: which tokens changed between two versions of a clause, by class.
- :func:`redline`: a word-level diff of two clauses with reversing runs marked.
"""

from conflictkit.grounding.material import (
    Change,
    MaterialDifference,
    material_difference,
)
from conflictkit.grounding.nearmiss import NearMiss
from conflictkit.grounding.redline import Op, Redline, redline
from conflictkit.grounding.tokens import TOKEN_CLASSES, token_class, tokenize
from conflictkit.grounding.verify import (
    STATUSES,
    Verification,
    Verifier,
    verify_extraction,
)

__all__ = [
    "STATUSES",
    "TOKEN_CLASSES",
    "Change",
    "MaterialDifference",
    "NearMiss",
    "Op",
    "Redline",
    "Verification",
    "Verifier",
    "material_difference",
    "redline",
    "token_class",
    "tokenize",
    "verify_extraction",
]
