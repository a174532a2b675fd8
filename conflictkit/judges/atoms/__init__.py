"""The legal-atoms judge: typed atoms of two clauses (negation, modality, parties, numbers, dates,
places, qualifiers, exceptions, scope) extracted and compared without any model.

Registered (by :mod:`conflictkit.plugins`) as the judge backend ``legal-atoms``. :func:`extract` and
:func:`compare` are usable on their own (``compare(extract(a), extract(b))`` lists the typed differences of two clause texts).
"""

from __future__ import annotations

from conflictkit.judges.atoms.compare import Difference, compare
from conflictkit.judges.atoms.extract import ClauseAtoms, extract
from conflictkit.judges.atoms.judge import DifferenceWeights, LegalAtomsJudge, LegalAtomsOptions

__all__ = ["ClauseAtoms", "Difference", "DifferenceWeights", "LegalAtomsJudge", "LegalAtomsOptions", "compare",
           "extract"]

