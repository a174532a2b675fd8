"""Context for a judge: what text stands for a clause when its neighbours matter.

A clause such as "The foregoing shall not apply to Affiliates." means nothing alone. Modes:

- ``none``: the clause text;
- ``neighbours``: the clause with the sibling before and after it (same ``parent``, by ``order``);
- ``section``: the whole parent section: the parent's text followed by all its children in order
  (a clause without a parent stands for itself and its children).

Expand first, then deduplicate: pairs whose expanded texts are equal (in ``section`` mode, pairs
that point at the same parent sections on both sides) are judged once and share the verdict.
The price of context is that a conflict in one clause of a section is seen by every pair that
points into that section; the judge records the mode in its signals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from conflictkit.model import CandidatePair, Clause, IndexedDocument
from conflictkit.stages import Comparison

ContextMode = Literal["none", "neighbours", "section"]


def _siblings(document: IndexedDocument, clause: Clause) -> list[Clause]:
    return sorted((c for c in document.clauses if c.parent == clause.parent and c.operative), key=lambda c: c.order)


def neighbours_text(document: IndexedDocument, clause_id: str) -> str:
    """The clause with the operative sibling before and after it, in document order."""
    clause = document.clause(clause_id)
    siblings = _siblings(document, clause)
    ids = [c.id for c in siblings]
    if clause.id not in ids:
        return clause.text
    at = ids.index(clause.id)
    return " ".join(c.text for c in siblings[max(0, at - 1) : at + 2])


def section_text(document: IndexedDocument, clause_id: str) -> str:
    """The text of the section ``clause_id`` belongs to: its parent's text and the parent's children."""
    clause = document.clause(clause_id)
    head = document.clause(clause.parent) if clause.parent else clause
    children = sorted((c for c in document.clauses if c.parent == head.id), key=lambda c: c.order)
    return " ".join(t for t in [head.text, *(c.text for c in children)] if t.strip())


def expand(document: IndexedDocument, clause_id: str, mode: ContextMode) -> str:
    if mode == "neighbours":
        return neighbours_text(document, clause_id)
    if mode == "section":
        return section_text(document, clause_id)
    return document.clause(clause_id).text


def expand_pairs(pairs: Sequence[CandidatePair], comparison: Comparison, mode: ContextMode) -> tuple[list[tuple[str, str]], list[int]]:
    """The distinct (reference text, input text) pairs to judge, and for each pair the index of its texts."""
    unique: dict[tuple[str, str], int] = {}
    index = []
    for pair in pairs:
        texts = (expand(comparison.reference, pair.reference_id, mode), expand(comparison.input, pair.input_id, mode))
        index.append(unique.setdefault(texts, len(unique)))
    return list(unique), index
