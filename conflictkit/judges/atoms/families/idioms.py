"""Idioms: phrases that hold a negator but negate nothing ("including but not limited to", "not to be
unreasonably withheld", "without undue delay", "non-exclusive").

They claim their words before modality and negation read the clause, so their "not" / "without"
is never counted as a negation. Their atoms are qualifiers and scope words, compared by those
families; this family reports no difference of its own.
"""

from __future__ import annotations

from conflictkit.judges.atoms.compare import Difference
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family
from conflictkit.judges.atoms.phrases import extract_idioms
from conflictkit.judges.atoms.text import Atom, Mask, lowered
from conflictkit.lexicon import Lexicon


def extract(text: str, lexicon: Lexicon, mask: Mask) -> list[Atom]:
    return extract_idioms(text, lowered(text), mask, lexicon)


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    return []


FAMILY = Family(name="idioms", claims=30, compares=99, extract=extract, compare=compare)
