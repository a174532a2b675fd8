"""Red lines stated as rules: checked on what an input clause says, read by the legal-atoms extractor.

A rule reads the clause as the judge does (numbers with their units, governing laws and venues as
named places) and each hit quotes the words that break it, located in the original file:

- ``below: "12 months"`` / ``above: "$5,000,000"``: any number of that kind (a duration, an
  amount in that currency, a percentage, a multiple, a count) below / above the quantity;
  ``near: "fees"`` narrows it to numbers within a few words of those words. Durations in other
  units are converted (a month is 365.25/12 days, a business day 7/5 days) and compared with a 1%
  tolerance, so "52 weeks" is not below "12 months"; an amount in another currency cannot be
  compared and is a hit, saying so.
- ``governing_law_other_than`` / ``venue_other_than``: a governing law (venue) named in the clause
  that is none of these places.
- ``contains``: any of these words in the clause (whole words, case and typography ignored);
  ``lacks``: any of them missing from it.

A rule that cannot be read (a quantity without a number, a place name the extractor does not read
as one place) is an error in the playbook, reported when it is loaded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from conflictkit.judges.atoms.extract import ClauseAtoms, extract
from conflictkit.judges.atoms.text import Atom
from conflictkit.normalize import normalize
from conflictkit.playbook.model import Rule

NEAR_WORDS = 12
"""How many words apart a number and a rule's ``near`` words may be."""
TOLERANCE = 0.01
"""Relative difference below which two quantities in different units count as equal."""
DAYS = {"day": 1.0, "business day": 7 / 5, "month": 365.25 / 12, "hour": 1 / 24}
"""Each duration unit the extractor reports, in days (years are months, weeks are days already)."""
_PLACE_PROBES = {"law": "This Agreement is governed by the laws of {}.", "forum": "The courts located in {} have jurisdiction."}


class RuleError(ValueError):
    """A rule that cannot be read; the message says what to write instead."""


@dataclass(frozen=True)
class Quantity:
    """A number read from text: its kind (duration, money...), value and unit (currency, per period)."""

    group: str
    value: float
    unit: str
    text: str

    @classmethod
    def of(cls, atom: Atom) -> Quantity:
        group, value, unit = (atom.key.split(":", 2) + ["", ""])[:3]
        return cls(group, float(value), unit, atom.text)

    def compare(self, other: Quantity) -> float | None:
        """The signed difference self - other in common units, or None when they cannot be compared."""
        if self.group != other.group:
            return None
        if self.unit == other.unit:
            return self.value - other.value
        if self.group == "duration" and self.unit in DAYS and other.unit in DAYS:
            mine, theirs = self.value * DAYS[self.unit], other.value * DAYS[other.unit]
            if abs(mine - theirs) <= TOLERANCE * max(abs(mine), abs(theirs)):
                return 0.0
            return mine - theirs
        return None


@dataclass(frozen=True)
class Reading:
    """One input clause as rules read it: flat, markup-free text, its atoms, and a map back to the file."""

    text: str
    atoms: ClauseAtoms
    offsets: np.ndarray  # offsets[i]: where text[i] is in the original file; offsets[len(text)]: the end

    @classmethod
    def of(cls, original: str, start: int, end: int, language: str = "en") -> Reading:
        """The clause ``original[start:end]`` read as the judge reads clause text (typography, markup, line breaks)."""
        from conflictkit.segmenters.markup import markup_free

        clean, to_span = markup_free(original[start:end])
        flat = normalize(clean, flatten=True)
        offsets = to_span[flat.offsets] + start
        text = flat.text
        lead = len(text) - len(text.lstrip())
        text = text.strip()
        offsets = offsets[lead : lead + len(text) + 1]
        return cls(text=text, atoms=extract(text, language), offsets=offsets)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original file's span of ``text[start:end]`` (from its first character to just after its last)."""
        first = int(self.offsets[start])
        return first, (int(self.offsets[end - 1]) + 1 if end > start else first)


@dataclass(frozen=True)
class Hit:
    """A rule broken by a clause: what breaks it, and where (None when the breach is an absence)."""

    detail: str
    words: str | None = None
    start: int | None = None  # original file offsets
    end: int | None = None


class CompiledRule:
    """A rule made ready to check clauses: its quantity parsed, its places and phrases canonical."""

    def __init__(self, rule: Rule, language: str = "en") -> None:
        self.rule, self.kind = rule, rule.kind
        self.quantity: Quantity | None = None
        self.places: dict[str, str] = {}
        self.phrases: list[tuple[str, re.Pattern[str]]] = []
        self.near: re.Pattern[str] | None = _phrase_pattern(rule.near) if rule.near else None
        if self.kind in ("below", "above"):
            self.quantity = _quantity(getattr(rule, self.kind), language)
        elif self.kind in ("governing_law_other_than", "venue_other_than"):
            group = "law" if self.kind == "governing_law_other_than" else "forum"
            self.places = {_place(name, group, language): name for name in getattr(rule, self.kind)}
        else:
            self.phrases = [(phrase, _phrase_pattern(phrase)) for phrase in getattr(rule, self.kind)]

    def describe(self) -> str:
        """The rule in words: ``any duration below 12 months (near 'fees')``."""
        if self.quantity is not None:
            what = {"money": "amount", "count": "number"}.get(self.quantity.group, self.quantity.group)
            near = f" (near '{self.rule.near}')" if self.rule.near else ""
            return f"any {what} {self.kind} {self.quantity.text}{near}"
        if self.places:
            what = "governing law" if self.kind == "governing_law_other_than" else "venue"
            return f"a {what} other than {_listed(list(self.places.values()))}"
        words = _listed([f"'{p}'" for p, _ in self.phrases])
        return f"the words {words}" if self.kind == "contains" else f"missing the words {words}"

    def check(self, reading: Reading) -> list[Hit]:
        """Every breach of the rule in one clause."""
        if self.quantity is not None:
            return self._numbers(reading)
        if self.places:
            group = "law" if self.kind == "governing_law_other_than" else "forum"
            return [self._hit(reading, a, f"{a.text} is not {_listed(list(self.places.values()), 'or')}")
                    for a in reading.atoms.of("place") if a.group == group and a.key not in self.places]
        hits = []
        for phrase, pattern in self.phrases:
            found = pattern.search(reading.text.lower())
            if self.kind == "contains" and found:
                start, end = reading.span(found.start(), found.end())
                hits.append(Hit(f"'{reading.text[found.start():found.end()]}' is in the clause",
                                reading.text[found.start():found.end()], start, end))
            elif self.kind == "lacks" and not found:
                hits.append(Hit(f"'{phrase}' is not in the clause"))
        return hits

    def _numbers(self, reading: Reading) -> list[Hit]:
        assert self.quantity is not None
        near = [m.start() for m in self.near.finditer(reading.text.lower())] if self.near else None
        hits = []
        for atom in reading.atoms.of("number"):
            found = Quantity.of(atom)
            if found.group != self.quantity.group or (near is not None and not _close(reading.text, atom, near)):
                continue
            difference = found.compare(self.quantity)
            if difference is None:
                hits.append(self._hit(reading, atom, f"{atom.text} cannot be compared with {self.quantity.text}"))
            elif (difference < 0) if self.kind == "below" else (difference > 0):
                hits.append(self._hit(reading, atom, f"{atom.text} is {self.kind} {self.quantity.text}"))
        return hits

    @staticmethod
    def _hit(reading: Reading, atom: Atom, detail: str) -> Hit:
        start, end = reading.span(atom.start, atom.end)
        return Hit(detail, atom.text, start, end)


def _quantity(text: str, language: str) -> Quantity:
    numbers = [a for a in extract(text, language).atoms if a.family == "number"]
    if len(numbers) != 1:
        raise RuleError(f"'{text}' must name one quantity, e.g. '12 months', '$1,000,000' or '10%'")
    return Quantity.of(numbers[0])


def _place(name: str, group: str, language: str) -> str:
    """The key the extractor gives ``name`` as a governing law (or venue), or RuleError when it names no place."""
    found = [a for a in extract(_PLACE_PROBES[group].format(name), language).atoms if a.family == "place" and a.group == group]
    if len(found) != 1:
        raise RuleError(f"'{name}' is not read as one place; name one per entry (e.g. 'Delaware', 'England and Wales')")
    return found[0].key


def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    words = normalize(phrase, flatten=True).text.strip().lower().split()
    if not words:
        raise RuleError("an empty phrase matches everywhere; give the words")
    return re.compile(r"(?<!\w)" + r"\s+".join(map(re.escape, words)) + r"(?!\w)")


def _close(text: str, atom: Atom, near: list[int]) -> bool:
    """Whether a ``near`` phrase starts within :data:`NEAR_WORDS` words of the atom."""
    for at in near:
        lo, hi = sorted((at, atom.start))
        if len(text[lo:hi].split()) <= NEAR_WORDS:
            return True
    return False


def _listed(items: list[str], conjunction: str = "and") -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {conjunction} {items[-1]}"
