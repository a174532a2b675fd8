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

Families register through the plugin hook ``register_families`` like any stage: the built-in ones
(the modules of :mod:`conflictkit.judges.atoms.families`) from :mod:`conflictkit.judges.atoms`, a
third-party one from its plugin module. A family's words are its pack's: a section of the pack
for the built-in ones, an extra table (``tables/<name>.yaml``, ``Family.table``) for others.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from conflictkit.judges.atoms.text import Atom, Mask
from conflictkit.lexicon import Lexicon

T = TypeVar("T")

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
    table: str | None = None
    """The extra table of the language pack that holds this family's words (``tables/<table>.yaml``): a
    family another package adds reads its words there (``lexicon.table(family.table, family.words)``)."""
    words: type[BaseModel] | None = None
    """The pydantic model the table must fit; a pack whose table is missing or does not fit is refused
    when the judge is handed it, with one line naming the table."""

    def check_pack(self, lexicon: Lexicon) -> None:
        """Raise :class:`conflictkit.lexicon.LexiconError` when the pack lacks this family's table or it is malformed."""
        if self.table is not None:
            lexicon.table(self.table, self.words)


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


def families() -> tuple[Family, ...]:
    """Every registered family (:func:`register_builtin_families` and the ``register_families`` hooks of
    installed plugins), in extraction order."""
    from conflictkit.registry import get_registry

    return get_registry().families()


def derived(name: str, build: Callable[[tuple[Family, ...]], T]) -> T:
    """``build(families())``, once per registry: the facts' providers, the comparing order, the weights."""
    from conflictkit.registry import get_registry

    registry = get_registry()
    key = (registry.generation, name)
    if key not in _DERIVED:
        if len(_DERIVED) > 64:
            _DERIVED.clear()
        _DERIVED[key] = build(registry.families())
    return _DERIVED[key]


_DERIVED: dict[tuple[int, str], Any] = {}


def fact_providers() -> dict[str, Callable[[ComparisonContext], Any]]:
    """The family function behind each fact name (the registry refuses two families providing one fact)."""
    return derived("facts", lambda found: {name: provider for family in found for name, provider in family.facts.items()})


def builtin_families() -> list[Family]:
    """The families of :mod:`conflictkit.judges.atoms.families`: one module each, each defining ``FAMILY``."""
    from conflictkit.judges.atoms import families as package

    found = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        family = getattr(module, "FAMILY", None)
        if not isinstance(family, Family):
            raise TypeError(f"{module.__name__} defines no FAMILY = Family(...)")
        found.append(family)
    return found
