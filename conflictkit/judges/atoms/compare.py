"""Compare the atoms of two clauses and list their typed differences.

Every family (:mod:`conflictkit.judges.atoms.families`) compares its own atoms; this module holds
what they share. Within a family, atoms that mean the same thing on both sides (same key, same
alignment) cancel out first, whatever their wording or order. What is left is paired by group (a
duration with a duration, a governing law with a governing law) into *changes* ("thirty (30)
days" -> "sixty (60) days"); an atom left unpaired is a *presence* difference (present on one
side only, such as a dropped "written"). Every difference names the weight (an option of the
judge) that turns it into evidence of a changed meaning.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, derived
from conflictkit.judges.atoms.text import Atom
from conflictkit.lexicon import Lexicon, load


@dataclass(frozen=True)
class Difference:
    """One typed difference between two clauses, with the surface text of each side (or None)."""

    type: str
    weight: str
    reference: str | None
    input: str | None
    detail: str


def _take(left: list[Atom], right: list[Atom], same: Callable[[Atom, Atom], bool]) -> list[tuple[Atom, Atom]]:
    """Remove and return the pairs (a, b) with ``same(a, b)``, greedily in text order."""
    pairs: list[tuple[Atom, Atom]] = []
    if not left or not right:
        return pairs  # the common case of a family absent from one side: nothing to pair
    for a in list(left):
        for b in right:  # a plain loop, not next() over a generator: this runs for every family of every pair
            if same(a, b):
                left.remove(a)
                right.remove(b)
                pairs.append((a, b))
                break
    return pairs


def _both(a: str, b: str) -> bool:
    return bool(a) and bool(b) and a != b


def _absent(left: list[Atom], other: ClauseAtoms, family: str) -> list[Atom]:
    """Unpaired atoms whose value the other clause does not state at all. A value said twice on one
    side and once on the other is the same term repeated, not a difference."""
    if not left:
        return []
    there = {a.key for a in other.of(family)}
    return [a for a in left if a.key not in there]


def names(text: str, name: str) -> bool:
    """Whether ``text`` names the party ``name`` (lower-cased), capitalized as a name is."""
    return any(m.group()[0].isupper() for m in re.finditer(rf"(?i)\b{re.escape(name)}", text))


def _comparing_order() -> tuple:
    return derived("comparing order", lambda found: tuple(sorted(found, key=lambda f: (f.compares, f.name))))


@dataclass(frozen=True)
class Correction:
    """A fix of the reference's text that changes no meaning (a typo): ``text`` replaces
    ``[start, end)`` before the families compare, and ``difference`` says what was fixed."""

    start: int
    end: int
    text: str
    difference: Difference


def compare(ref: ClauseAtoms, inp: ClauseAtoms, lexicon: Lexicon | None = None) -> list[Difference]:
    """Every typed difference between the atoms of a reference clause and an input clause."""
    lexicon = lexicon or load()
    context = ComparisonContext(ref, inp, lexicon)
    ordered = _comparing_order()
    fixes = [c for family in ordered if family.corrections for c in family.corrections(ref, inp, context)]
    if fixes:
        from conflictkit.judges.atoms.extract import extract

        text = ref.text
        for fix in sorted(fixes, key=lambda c: -c.start):
            text = text[:fix.start] + fix.text + text[fix.end:]
        ref = extract(text, lexicon.language)
        context = ComparisonContext(ref, inp, lexicon)
    diffs = [fix.difference for fix in fixes]
    for family in ordered:
        diffs += family.compare(ref, inp, context)
    return [_distinct(d, ref.text, inp.text) for d in diffs]


def same_words(reference: str | None, input: str | None) -> bool:
    """Whether a reason would quote the very same words on both sides (it says nothing: never emitted)."""
    return reference is not None and input is not None and reference.split() == input.split()


_TOKENS = re.compile(r"\S+")


def _distinct(d: Difference, ref_text: str, inp_text: str) -> Difference:
    """A difference whose two quotes read the same (the changed word lies outside both) quotes
    instead where the two clauses' words first differ, with a word of context on each side."""
    if not same_words(d.reference, d.input):
        return d
    a, b = list(_TOKENS.finditer(ref_text)), list(_TOKENS.finditer(inp_text))
    ops = [op for op in SequenceMatcher(None, [m.group() for m in a], [m.group() for m in b], autojunk=False)
           .get_opcodes() if op[0] != "equal"]
    if not ops:
        return replace(d, input=None)
    _, i1, i2, j1, j2 = ops[0]

    def window(tokens: list[re.Match[str]], text: str, lo: int, hi: int) -> str:
        lo, hi = max(0, lo - 1), min(len(tokens), hi + 1)
        return text[tokens[lo].start():tokens[hi - 1].end()] if hi > lo else ""

    return replace(d, reference=window(a, ref_text, i1, i2) or None, input=window(b, inp_text, j1, j2) or None)
