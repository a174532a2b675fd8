"""The shape every atom family has, the comparison context they share, and their discovery.

A family is one module of :mod:`conflictkit.judges.atoms.families` that defines ``FAMILY``:

- ``extract(text, lexicon, mask) -> list[Atom]``: its atoms of one clause. Families extract in
  ``claims`` order and mark the characters they use in the mask, so a word counted by one family
  (the "not" of "not less than") is never counted again by another (negation);
- ``compare(ref, inp, context) -> list[Difference]``: its typed differences between two clauses;
- ``weights``: the noisy-OR weight of each kind of difference it reports (``name: (default,
  what it means)``), options of the judge under ``weights:``;
- ``topic_groups``: atom groups that say what a clause is about (a governing law, a duration),
  evidence of the same matter when both clauses have one;
- ``corrections`` (optional): fixes of the reference's text that are no change of meaning (a typo
  fixed): the families compare the fixed text, and each fix is one reason of its own;
- ``facts``: what it knows that another family needs (``name: function(context)``), computed on
  first request through :meth:`ComparisonContext.fact`, never by relying on call order.

Adding a family is adding a module there (and its words to ``lang/<code>/``).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from conflictkit.judges.atoms.text import Atom, Mask
from conflictkit.lexicon import Lexicon

if TYPE_CHECKING:
    from conflictkit.judges.atoms.compare import Correction, Difference
    from conflictkit.judges.atoms.extract import ClauseAtoms


@dataclass(frozen=True)
class Family:
    """One family of atoms: how it reads a clause, how it compares two, and what it weighs."""

    name: str
    claims: int
    """Extraction order: lower claims its words first."""
    extract: Callable[[str, Lexicon, Mask], list[Atom]]
    compare: Callable[[ClauseAtoms, ClauseAtoms, ComparisonContext], list[Difference]]
    weights: dict[str, tuple[float, str]] = field(default_factory=dict)
    topic_groups: frozenset[tuple[str, str]] = frozenset()
    facts: dict[str, Callable[[ComparisonContext], Any]] = field(default_factory=dict)
    compares: int = 50
    """Order of its reasons among equal weights (reasons are ranked by weight, then by this)."""
    corrections: Callable[[ClauseAtoms, ClauseAtoms, ComparisonContext], list[Correction]] | None = None
    """Fixes of the reference's text (typos) the other families then compare without."""


def no_atoms(text: str, lexicon: Lexicon, mask: Mask) -> list[Atom]:
    """The ``extract`` of a family that only compares atoms other families read (or whole texts)."""
    return []


class ComparisonContext:
    """What the families comparing one pair of clauses share: the lexicon and the facts one
    family derives for others (who acts changed, negative modals left unpaired...), each computed
    once, on first request, by the family that owns it."""

    def __init__(self, ref: ClauseAtoms, inp: ClauseAtoms, lexicon: Lexicon) -> None:
        self.ref, self.inp, self.lexicon = ref, inp, lexicon
        self._facts: dict[str, Any] = {}
        self._providers = fact_providers()

    def fact(self, name: str) -> Any:
        """The value of a fact (``"modality.negative_left"``), computed by its family on first use."""
        if name not in self._facts:
            try:
                provider = self._providers[name]
            except KeyError:
                raise KeyError(f"no family provides the fact {name!r} (known: {', '.join(sorted(self._providers))})") from None
            self._facts[name] = provider(self)
        return self._facts[name]


@lru_cache(maxsize=1)
def families() -> tuple[Family, ...]:
    """Every family module under :mod:`conflictkit.judges.atoms.families`, in extraction order."""
    from conflictkit.judges.atoms import families as package

    found = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        family = getattr(module, "FAMILY", None)
        if not isinstance(family, Family):
            raise TypeError(f"{module.__name__} defines no FAMILY = Family(...)")
        found.append(family)
    names = [f.name for f in found]
    if len(set(names)) != len(names):
        raise TypeError(f"two atom families share a name: {sorted(names)}")
    return tuple(sorted(found, key=lambda f: (f.claims, f.name)))


@lru_cache(maxsize=1)
def fact_providers() -> dict[str, Callable[[ComparisonContext], Any]]:
    providers: dict[str, Callable[[ComparisonContext], Any]] = {}
    for family in families():
        for name, provider in family.facts.items():
            if name in providers:
                raise TypeError(f"two atom families provide the fact {name!r}")
            providers[name] = provider
    return providers
