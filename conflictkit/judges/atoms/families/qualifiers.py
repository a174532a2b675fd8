"""Qualifiers: prior, written, reasonable, material, sole discretion, gross negligence, efforts
standards, who bears a cost ("at the Buyer's expense"), damages heads."""

from __future__ import annotations

from conflictkit.judges.atoms.compare import Difference
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family
from conflictkit.judges.atoms.phrases import extract_phrases
from conflictkit.judges.atoms.text import Atom, Mask, lowered
from conflictkit.judges.atoms.words import compare_words, expense_payers
from conflictkit.lexicon import Lexicon


def extract(text: str, lexicon: Lexicon, mask: Mask) -> list[Atom]:
    return extract_phrases(text, lowered(text), mask, lexicon, frozenset({"qualifier"}))


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    diffs: list[Difference] = []
    compare_words(*expense_payers(ref, inp, context.lexicon), "qualifier", diffs)
    return diffs


FAMILY = Family(
    name="qualifiers", claims=70, compares=80, extract=extract, compare=compare,
    weights={
        "qualifier": (0.8, "prior, written, reasonable, material, sole discretion, gross negligence..."),
        "qualifier_minor": (0.35, "promptly, immediately, good faith, mutual"),
    },
    topic_groups=frozenset({("qualifier", "fault"), ("qualifier", "damages"), ("qualifier", "efforts"),
                            ("qualifier", "discretion"), ("qualifier", "consent_standard")}),
)
