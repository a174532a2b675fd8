"""Scope words: exclusive, worldwide, perpetual, irrevocable, transferable, including / excluding, all / some."""

from __future__ import annotations

from conflictkit.judges.atoms.compare import Difference
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family
from conflictkit.judges.atoms.phrases import extract_phrases
from conflictkit.judges.atoms.text import Atom, Mask, lowered
from conflictkit.judges.atoms.words import compare_words
from conflictkit.lexicon import Lexicon


def extract(text: str, lexicon: Lexicon, mask: Mask) -> list[Atom]:
    return extract_phrases(text, lowered(text), mask, lexicon, frozenset({"scope"}))


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    diffs: list[Difference] = []
    compare_words(ref, inp, "scope", diffs)
    return diffs


FAMILY = Family(
    name="scope", claims=72, compares=82, extract=extract, compare=compare,
    weights={
        "scope": (0.9, "exclusive <-> non-exclusive, worldwide <-> a country, revocable <-> irrevocable..."),
        "scope_presence": (0.85, "a scope word (perpetual, irrevocable, exclusive...) on one side only"),
        "scope_minor": (0.3, "including / excluding on one side only"),
        "quantity": (0.8, "all <-> some"),
    },
    topic_groups=frozenset({("scope", "exclusivity"), ("scope", "transfer"), ("scope", "sublicense"),
                            ("scope", "revocability"), ("scope", "royalty"), ("scope", "refund")}),
)
