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
from conflictkit.lexicon import Lexicon



class Gazetteer:
    """The places of one lexicon (``places.yaml``), compiled once per lexicon."""

    def __init__(self, lex: Lexicon) -> None:
        places = lex.section("places")
        states, self.aliases = list(places["us_states"]), dict(places["aliases"])
        self.institutions, self.demonyms = dict(places["institutions"]), dict(places["demonyms"])
        self.parent = dict(places["parents"]) | {state: "united states" for state in states}
        names = sorted(set(states + places["countries"] + places["cities"] + list(self.aliases)), key=len, reverse=True)
        self.place = re.compile(
            r"(?<![\w.])(?:the\s+(?:state|commonwealth|province|county|city|courts?)\s+of\s+)?(?P<p>"
            + alternation(names) + r")(?P<county>\s+county)?(?![\w])")
        # "Swiss law", "English courts": a demonym names a place only before law / courts / jurisdiction.
        self.demonym = re.compile(
            r"\b(?P<d>" + alternation(self.demonyms) + r")"
            r"(?=\s+(?:substantive\s+)?(?:law|laws|courts?|jurisdiction|statutes?|legislation)\b)")
        self.institution = re.compile(
            r"\b(?:" + alternation(self.institutions) + r")\b")
        self.case_sensitive = frozenset(places["case_sensitive"])


def gazetteer(lex: Lexicon) -> Gazetteer:
    return lex.memo("places.gazetteer", lambda: Gazetteer(lex))


_WORLD = re.compile(r"\b(?:world[\s-]?wide|throughout\s+the\s+world|anywhere(?:\s+in\s+the\s+world)?|global(?:ly)?|"
                    r"in\s+any\s+(?:country|jurisdiction)\s+(?:of|in)\s+the\s+world|"
                    r"in\s+any\s+(?:country|jurisdiction|territory|region|location)(?=\s+(?:where|in\s+which|that)\b|[,.;]|$))")
_LAW = re.compile(r"\b(?:laws?|governed|governing|construed|interpreted|statutes?|legislation)\b")
_DEFINED_TERRITORY = re.compile(r"\bTerritory\b")  # a defined term: the area a grant is limited to
_FORUM = re.compile(r"\b(?:courts?|venue|jurisdiction|forum|arbitra\w*|tribunal|seat(?:ed)?|litigat\w*|"
                    r"proceedings?|disputes?|judicial)\b")
_FORUM_TYPES = [("arbitration", re.compile(r"\barbitra(?:tion|tor|tors|l|ted|te)\b")),
                ("courts", re.compile(r"\bcourts?\b|\blitigation\b|\bjudicial\b"))]


def _role(low: str, start: int, end: int) -> str:
    """law, forum or territory, from the nearest cue word in the same sentence."""
    left_edge = max(low.rfind(c, 0, start) for c in ".;") + 1
    left = low[left_edge:start]
    right_edge = min([i for i in (low.find(c, end) for c in ".;") if i >= 0] or [len(low)])
    right = low[end:min(right_edge, end + 12)]
    if re.match(r"\s*(?:law|laws|state\s+law|statutes?)\b", right):
        return "law"
    cues = [(m.end(), "law") for m in _LAW.finditer(left)] + [(m.end(), "forum") for m in _FORUM.finditer(left)]
    if not cues:
        return "territory"
    return max(cues)[1]


# A place the gazetteer does not know, named after a cue: "the courts of Rotterdam", "seated in Geneva".
_CUED = re.compile(
    r"\b(?:(?:courts?|laws?|seat|venue|tribunals?|located|situated|held|seated|sitting|domiciled)\s+(?:of|in|at)"
    r"|(?:venue|seat|place\s+of\s+arbitration)\s+(?:shall|will|is)\s+be(?:\s+in)?)\s+"
    r"(?:the\s+)?(?P<p>[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2})"
)
_NOT_PLACES = {"the", "this", "such", "any", "each", "either", "competent", "applicable", "agreement", "party",
               "parties", "territory", "state", "country", "united"}


def _cued_places(text: str, low: str, mask: Mask) -> list[Atom]:
    atoms = []
    for m in _CUED.finditer(text):
        start, end = m.start("p"), m.end("p")
        name = low[start:end]
        if name.split()[0] in _NOT_PLACES or not mask.free(start, end):
            continue
        mask.take(start, end)
        atoms.append(Atom("place", _role(low, start, end), name, text[start:end], start, end))
    return atoms


def extract_places(text: str, low: str, mask: Mask, lex: Lexicon) -> list[Atom]:
    """Places with their role, arbitral institutions, "worldwide", and the forum type."""
    g = gazetteer(lex)
    atoms: list[Atom] = []
    for m in g.place.finditer(low):
        name = m.group("p")
        if (name in g.case_sensitive and not text[m.start("p")].isupper()) or not mask.free(m.start(), m.end()):
            continue
        if name in ("us", "u.s.") and re.match(r"\s?\$", low[m.end():]):
            continue  # "US$": a currency
        key = g.aliases.get(name, name) + (" county" if m.group("county") else "")
        start = m.start("p")
        group = _role(low, start, m.end())
        mask.take(m.start(), m.end())
        atoms.append(Atom("place", group, key, text[start:m.end()], start, m.end()))
    for m in g.demonym.finditer(low):
        if mask.free(m.start(), m.end()) and not (m.group("d") == "us" and text[m.start():m.end()] != "US"):
            mask.take(m.start(), m.end())
            atoms.append(Atom("place", _role(low, m.start(), m.end()), g.demonyms[m.group("d")], text[m.start():m.end()],
                              m.start(), m.end()))
    atoms += _cued_places(text, low, mask)
    for m in _DEFINED_TERRITORY.finditer(text):
        if mask.free(m.start(), m.end()):
            mask.take(m.start(), m.end())
            atoms.append(Atom("place", "territory", "the territory", m.group(), m.start(), m.end()))
    for m in _WORLD.finditer(low):
        if mask.free(m.start(), m.end()):
            mask.take(m.start(), m.end())
            atoms.append(Atom("place", "territory", "worldwide", text[m.start():m.end()], m.start(), m.end()))
    for m in g.institution.finditer(low):
        if mask.free(m.start(), m.end()) and (len(m.group()) > 5 or text[m.start():m.end()].isupper()):
            mask.take(m.start(), m.end())
            atoms.append(Atom("place", "institution", g.institutions[m.group()], text[m.start():m.end()], m.start(), m.end()))
    for kind, pattern in _FORUM_TYPES:
        m = pattern.search(low)
        if m:
            atoms.append(Atom("place", "forum_type", kind, text[m.start():m.end()], m.start(), m.end()))
    return atoms
