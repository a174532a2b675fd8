"""Governing law, venue, jurisdiction, territory and forum (courts vs arbitration).

Each place is normalized ("the State of New York" == "New York"; "U.K." == "United Kingdom")
and given a role from the words around it in its sentence: ``law`` ("laws of", "governed by",
"Delaware law"), ``forum`` ("courts of", "venue", "jurisdiction", "arbitration seated in") or
``territory`` (anywhere else: "in the United States", "worldwide"). A place is compared only
with places of the same role, so moving the venue is a jurisdiction change and moving the
governing law is a governing-law change.
"""

from __future__ import annotations

import re

from conflictkit.judges.atoms.text import Atom, Mask
from conflictkit.judges.atoms.trie import alternation
from conflictkit.lexicon import LanguagePack
from conflictkit.lexicon.regex import compile_pattern


class Gazetteer:
    """The places of one pack (``places.yaml``) and the patterns that read them, compiled once per pack."""

    def __init__(self, lex: LanguagePack) -> None:
        places = lex.data.places
        states, self.aliases = list(places.us_states), dict(places.aliases)
        self.institutions, self.demonyms = dict(places.institutions), dict(places.demonyms)
        self.parent = dict(places.parents) | {state: places.united_states for state in states}
        names = sorted(set(states + places.countries + places.cities + list(self.aliases)), key=len, reverse=True)
        self.place = compile_pattern(
            rf"(?<![\w.]){places.place_before}(?P<p>" + alternation(names) + rf"){places.place_after}(?![\w])")
        # "Swiss law", "English courts": a demonym names a place only before law / courts / jurisdiction.
        self.demonym = compile_pattern(r"\b(?P<d>" + alternation(self.demonyms) + rf")(?={places.demonym_after})")
        self.institution = re.compile(r"\b(?:" + alternation(self.institutions) + r")\b")
        self.case_sensitive = frozenset(places.case_sensitive)
        self.currency_places, self.upper_demonyms = frozenset(places.currency_places), frozenset(places.upper_case_demonyms)
        self.world, self.territory = compile_pattern(places.worldwide), compile_pattern(places.defined_territory)
        self.law, self.forum = compile_pattern(places.law_cues), compile_pattern(places.forum_cues)
        self.law_after = compile_pattern(places.law_after)
        self.forum_types = [(kind, compile_pattern(p)) for kind, p in places.forum_types.items()]
        self.cued, self.not_places = compile_pattern(places.cued_place), frozenset(places.not_places)


def gazetteer(lex: LanguagePack) -> Gazetteer:
    return lex.memo("places.gazetteer", lambda: Gazetteer(lex))


def _role(g: Gazetteer, low: str, start: int, end: int) -> str:
    """law, forum or territory, from the nearest cue word in the same sentence."""
    left_edge = max(low.rfind(c, 0, start) for c in ".;") + 1
    left = low[left_edge:start]
    right_edge = min([i for i in (low.find(c, end) for c in ".;") if i >= 0] or [len(low)])
    right = low[end:min(right_edge, end + 12)]
    if g.law_after.match(right):
        return "law"
    cues = [(m.end(), "law") for m in g.law.finditer(left)] + [(m.end(), "forum") for m in g.forum.finditer(left)]
    if not cues:
        return "territory"
    return max(cues)[1]


def _take(mask: Mask, start: int, end: int) -> bool:
    if not mask.free(start, end):
        return False
    mask.take(start, end)
    return True


def _cued_places(g: Gazetteer, text: str, low: str, mask: Mask) -> list[Atom]:
    """A place the gazetteer does not know, named after a cue: "the courts of Rotterdam", "seated in Geneva"."""
    atoms = []
    for m in g.cued.finditer(text):
        start, end = m.start("p"), m.end("p")
        name = low[start:end]
        if name.split()[0] not in g.not_places and _take(mask, start, end):
            atoms.append(Atom("place", _role(g, low, start, end), name, text[start:end], start, end))
    return atoms


def _gazetteer_places(g: Gazetteer, text: str, low: str, mask: Mask) -> list[Atom]:
    """Places of the gazetteer ("the State of New York" == "New York"; "U.K." == "United Kingdom")."""
    atoms = []
    for m in g.place.finditer(low):
        name = m.group("p")
        if (name in g.case_sensitive and not text[m.start("p")].isupper()) or not mask.free(m.start(), m.end()):
            continue
        if name in g.currency_places and re.match(r"\s?\$", low[m.end():]):
            continue  # "US$": a currency
        county = m.group("county")
        key = g.aliases.get(name, name) + (" " + county.strip() if county else "")
        start = m.start("p")
        mask.take(m.start(), m.end())
        atoms.append(Atom("place", _role(g, low, start, m.end()), key, text[start:m.end()], start, m.end()))
    for m in g.demonym.finditer(low):
        upper_only = m.group("d") in g.upper_demonyms and text[m.start():m.end()] != m.group("d").upper()
        if not upper_only and _take(mask, m.start(), m.end()):
            atoms.append(Atom("place", _role(g, low, m.start(), m.end()), g.demonyms[m.group("d")], text[m.start():m.end()],
                              m.start(), m.end()))
    return atoms


def extract_places(text: str, low: str, mask: Mask, lex: LanguagePack) -> list[Atom]:
    """Places with their role, arbitral institutions, "worldwide", and the forum type."""
    g = gazetteer(lex)
    atoms = _gazetteer_places(g, text, low, mask) + _cued_places(g, text, low, mask)
    for m in g.territory.finditer(text):
        if _take(mask, m.start(), m.end()):
            atoms.append(Atom("place", "territory", "the territory", m.group(), m.start(), m.end()))
    for m in g.world.finditer(low):
        if _take(mask, m.start(), m.end()):
            atoms.append(Atom("place", "territory", "worldwide", text[m.start():m.end()], m.start(), m.end()))
    for m in g.institution.finditer(low):
        if mask.free(m.start(), m.end()) and (len(m.group()) > 5 or text[m.start():m.end()].isupper()):
            mask.take(m.start(), m.end())
            atoms.append(Atom("place", "institution", g.institutions[m.group()], text[m.start():m.end()], m.start(), m.end()))
    for kind, pattern in g.forum_types:
        m = pattern.search(low)
        if m:
            atoms.append(Atom("place", "forum_type", kind, text[m.start():m.end()], m.start(), m.end()))
    return atoms
