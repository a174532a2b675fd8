"""Exceptions and conditions: unless / except / other than / subject to / provided that / only."""

from __future__ import annotations

from conflictkit.judges.atoms.compare import Difference
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family
from conflictkit.judges.atoms.phrases import extract_phrases
from conflictkit.judges.atoms.text import Atom, Mask, lowered
from conflictkit.judges.atoms.words import compare_words
from conflictkit.lexicon import Lexicon


def extract(text: str, lexicon: Lexicon, mask: Mask) -> list[Atom]:
    return extract_phrases(text, lowered(text), mask, lexicon, frozenset({"exception"}))


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    diffs: list[Difference] = []
    compare_words(ref, inp, "exception", diffs)
    return diffs


FAMILY = Family(
    name="exceptions", claims=71, compares=81, extract=extract, compare=compare,
    weights={"exception": (0.78, "unless / except / subject to / provided that / only on one side")},
)
