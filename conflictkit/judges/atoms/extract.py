"""Extract every atom of a clause, each family claiming its words before the next reads them.

Order matters and is deliberate: dates, then numbers (whose comparators claim the "not" of "not
less than"), then idioms that hold a negator but negate nothing, then places, then modality
(which absorbs "shall not", "Neither party shall"), then the free negations left, then
qualifiers, exceptions and scope words.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from conflictkit.judges.atoms.modal import extract_modal_and_negation
from conflictkit.judges.atoms.numbers import extract_dates, extract_numbers
from conflictkit.judges.atoms.phrases import extract_idioms, extract_phrases
from conflictkit.judges.atoms.places import extract_places
from conflictkit.judges.atoms.text import Atom, Mask, content_stems, lowered


@dataclass(frozen=True)
class ClauseAtoms:
    """A clause's atoms (in text order) and its topic words (for P(same matter))."""

    text: str
    atoms: tuple[Atom, ...]
    stems: frozenset[str]

    def of(self, family: str) -> list[Atom]:
        return [a for a in self.atoms if a.family == family]


@lru_cache(maxsize=16384)
def extract(text: str) -> ClauseAtoms:
    """All atoms of one clause text (normalized, flattened). Cached: clauses recur across pairs."""
    low = lowered(text)
    mask = Mask(len(text))
    atoms: list[Atom] = []
    atoms += extract_dates(text, low, mask)
    atoms += extract_numbers(text, low, mask)
    atoms += extract_idioms(text, low, mask)
    atoms += extract_places(text, low, mask)
    atoms += extract_modal_and_negation(text, low, mask)
    atoms += extract_phrases(text, low, mask)
    atoms.sort(key=lambda a: (a.start, a.end))
    return ClauseAtoms(text, tuple(atoms), frozenset(content_stems(low)))
