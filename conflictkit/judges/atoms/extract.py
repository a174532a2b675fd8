"""Extract every atom of a clause, each family claiming its words before the next reads them.

The order is each family's ``claims`` (see :mod:`conflictkit.judges.atoms.family`) and is
deliberate: dates, then numbers (whose comparators claim the "not" of "not less than"), then
idioms that hold a negator but negate nothing, then places, then modality (which absorbs "shall
not", "Neither party shall"), then the free negations left, then qualifiers, exceptions and scope
words. Two rewrites then read across families: "ensure that no X" is a prohibition, and "shall
not X except Y" is read as "may X only Y".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import TypeVar

from conflictkit.judges.atoms.text import Atom, Mask, content_stems, lowered
from conflictkit.lexicon import DEFAULT_LANGUAGE, LanguagePack, load
from conflictkit.lexicon.regex import compile_pattern

_WORD_TOKENS = compile_pattern(r"[\p{L}0-9]+")
T = TypeVar("T")


@dataclass(frozen=True)
class ClauseAtoms:
    """A clause's atoms (in text order) and its topic words outside the atoms (for P(same matter))."""

    text: str
    atoms: tuple[Atom, ...]
    stems: frozenset[str]

    def derived(self, name: str, build: Callable[[ClauseAtoms], T]) -> T:
        """``build(self)``, computed once per clause however many pairs ask (a family's reading of
        one clause: its party roles, its word stems). ``name`` must say what ``build`` computes."""
        memo = self.__dict__.setdefault("_derived", {})  # beside the cached properties: frozen fields stay untouched
        if name not in memo:
            memo[name] = build(self)
        return memo[name]

    def of(self, family: str) -> list[Atom]:
        """The atoms of one family, in text order (a fresh list: callers consume it)."""
        return list(self._families.get(family, ()))

    @cached_property
    def _families(self) -> dict[str, tuple[Atom, ...]]:
        groups: dict[str, list[Atom]] = {}
        for a in self.atoms:
            groups.setdefault(a.family, []).append(a)
        return {k: tuple(v) for k, v in groups.items()}

    @cached_property
    def words(self) -> tuple[tuple[str, int, int], ...]:
        """Lower-cased words and numbers with their spans, read once per clause (content edits diff them)."""
        return tuple((m.group(), *m.span()) for m in _WORD_TOKENS.finditer(self.text.lower()))

    @cached_property
    def word_set(self) -> frozenset[str]:
        """The clause's distinct words."""
        return frozenset(w for w, _, _ in self.words)

    @cached_property
    def in_atom(self) -> bytearray:
        """1 for each character an atom covers ("thirty (30)", "EUR", "per cent"): compared as atoms."""
        covered = bytearray(len(self.text) + 1)
        for atom in self.atoms:
            # a negation spans the verb it negates ("not to submit"): the verb is still a word of the clause
            start = min(atom.start, int(atom.attr("cmp_start", str(atom.start))))  # "no later than 30 days after"
            end = max(atom.end, int(atom.attr("dir_end", "0")))
            if atom.family == "negation" and atom.attr("negator"):
                end = atom.start + len(atom.attr("negator"))
            covered[start:end] = b"\x01" * (end - start)
        return covered


def extract(text: str, language: str = DEFAULT_LANGUAGE) -> ClauseAtoms:
    """All atoms of one clause text (normalized, flattened). Cached: clauses recur across pairs."""
    from conflictkit.registry import get_registry

    return _extract(text, language, get_registry().generation)


@lru_cache(maxsize=65536)
def _extract(text: str, language: str, families_of: int) -> ClauseAtoms:
    """One cache key per (text, language, registry), however called: plugins add families."""
    from conflictkit.judges.atoms.family import families

    lexicon = load(language)
    low = lowered(text)
    mask = Mask(len(text))
    atoms: list[Atom] = []
    for family in families():
        atoms += family.extract(text, lexicon, mask)
    atoms.sort(key=lambda a: (a.start, a.end))
    atoms = _ensure_not(atoms, low, lexicon)
    return ClauseAtoms(text, tuple(_restrictive_exceptions(atoms, low, lexicon)),
                       frozenset(content_stems(_blank(low, atoms), language)))


def _ensure_not(atoms: list[Atom], low: str, lex: LanguagePack) -> list[Atom]:
    """"shall ensure that no third party accesses X" == "shall not allow any third party to access X":
    a duty to ensure a negative is a prohibition."""
    out = list(atoms)
    ensure = lex.data.modality.ensure_verbs
    for n, a in enumerate(atoms):
        if a.family != "modality" or a.key != "obligation" or a.anchor not in ensure:
            continue
        end = min([k for k in (low.find(c, a.end) for c in ".;") if k >= 0] or [len(low)])
        neg = next((b for b in out if b.family == "negation" and a.end < b.start < end), None)
        if neg is not None:
            out[n] = replace(a, key="prohibition")
            out.remove(neg)
    return out


_VALUES = {"number", "date", "place", "party"}  # modal and negation atoms span the verb: keep their words


def _blank(low: str, atoms: list[Atom]) -> str:
    """The text without its atoms: what a clause is about, apart from the terms P(differs) compares
    (so "payable in euros" and "payable in US dollars" are as much about the same matter as can be)."""
    chars = list(low)
    for a in atoms:
        if a.family in _VALUES:
            chars[a.start:a.end] = " " * (a.end - a.start)
    return "".join(chars)


def _restrictive_exceptions(atoms: list[Atom], low: str, lex: LanguagePack) -> list[Atom]:
    """Rewrite "shall not X except Y" / "no X unless Y" to their positive form "may X only Y".

    Both drafting styles are common and say the same thing; read in one canonical form, a
    clause and its paraphrase in the other style compare equal, while dropping the exception
    (or the negation) still changes the atoms. Only a sentence with exactly one negative and
    one exception is rewritten: with more, which negation the exception limits is ambiguous.
    "shall not assign without consent" is read as "may assign only with consent" likewise.
    """
    out: list[Atom | None] = list(atoms)
    m = lex.data.modality
    limiting, subordinate = frozenset(m.limiting_negators), lex.pattern("modality.subordinate")
    for sentence in _SENTENCE.finditer(low):
        _rewrite_sentence(out, sentence.start(), sentence.end(), low, limiting, subordinate)
    return [a for a in out if a is not None]


_SENTENCE = re.compile(r"(?:[^.;]|\.(?=[\w$]))+")  # "1.5%" and "U.S." do not end a sentence


def _rewrite_sentence(out: list[Atom | None], start: int, end: int, low: str, limiting: frozenset[str],
                      subordinate: re.Pattern[str]) -> None:
    """In one sentence with exactly one negative and one exception ("except", "unless", "other
    than", or a "without" limiting the negative), make the negative positive and the exception "only"."""
    here = [n for n, a in enumerate(out) if a is not None and start <= a.start < end]
    limits = [n for n in here if (out[n].family == "exception" and out[n].group == "exception")
              or (out[n].family == "negation" and out[n].attr("negator") in limiting)]
    negatives = [n for n in here if n not in limits and _negative(out[n], low, subordinate)]
    if len(negatives) != 1 or len(limits) != 1:
        return
    neg, limit = out[negatives[0]], out[limits[0]]
    out[negatives[0]] = (replace(neg, key="permission", attrs=neg.attrs + (("restrictive", "1"),))
                         if neg.family == "modality" else None)
    out[limits[0]] = replace(limit, family="exception", group="only", key="only")


def _negative(atom: Atom | None, low: str, subordinate: re.Pattern[str]) -> bool:
    """A prohibition, or a negation of the main clause (not of a relative clause: "Goods that do not conform")."""
    if atom is None:
        return False
    if atom.family == "modality":
        return atom.key == "prohibition"
    return atom.family == "negation" and not subordinate.search(low, max(0, atom.start - 30), atom.start)


extract.cache_clear = _extract.cache_clear  # type: ignore[attr-defined]
extract.cache_info = _extract.cache_info  # type: ignore[attr-defined]
