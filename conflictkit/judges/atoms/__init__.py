"""The legal-atoms judge: typed atoms of two clauses (negation, modality, parties, numbers, dates,
places, qualifiers, exceptions, scope) extracted and compared without any model.

Registered (by :mod:`conflictkit.plugins`) as the judge backend ``legal-atoms``. :func:`extract` and
:func:`compare` are usable on their own (``compare(extract(a), extract(b))`` lists the typed differences of two clause texts).
"""

from __future__ import annotations

from conflictkit.judges.atoms.compare import Difference, compare
from conflictkit.judges.atoms.extract import ClauseAtoms, extract
from conflictkit.judges.atoms.family import Family
from conflictkit.judges.atoms.judge import LegalAtomsJudge


def __getattr__(name: str):
    if name in ("DifferenceWeights", "LegalAtomsOptions"):  # built from the registered families, when asked for
        from conflictkit.judges.atoms import judge

        return getattr(judge, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ClauseAtoms", "Difference", "DifferenceWeights", "Family", "LegalAtomsJudge", "LegalAtomsOptions", "compare",
           "extract"]
