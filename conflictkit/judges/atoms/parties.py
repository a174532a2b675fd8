"""Party mentions and the side of the deal each party is on.

A role swap ("Provider shall indemnify Customer" -> "Customer shall indemnify Provider") is a
change of the *side* that acts, so names are mapped to sides: the party that supplies (provider,
supplier, vendor, licensor, discloser, landlord...) and the party that receives (customer,
client, licensee, recipient, tenant...), or both ("each party", "either party", "neither party").
Names on the same side ("Provider" / "Supplier", "Customer" / "Client") count as one role, so a
template's party names can be renamed without every clause becoming a finding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from conflictkit.judges.atoms.trie import alternation
from conflictkit.judges.atoms.text import words_of
from conflictkit.lexicon import LanguagePack, load
from conflictkit.lexicon.regex import compile_pattern

def sides(lex: LanguagePack) -> dict[str, str]:
    """Party name -> side of the deal (``parties.yaml``): supplier, receiver, both, or a role of its own."""
    def build() -> dict[str, str]:
        table = lex.section("parties")
        own = {n: n for n in table["own_roles"]}  # no fixed side in a supply deal: each is its own role
        return {name: side for side, names in table["sides"].items() for name in names} | own
    return lex.memo("parties.sides", build)


def _pattern(lex: LanguagePack) -> re.Pattern[str]:
    return lex.memo("parties.pattern", lambda: re.compile(
        r"\b(?:" + alternation(sides(lex)) + r")\b(?!-)"))


@dataclass(frozen=True)
class PartyMention:
    """A party named in a clause: its side of the deal and where it is."""

    name: str
    side: str
    start: int
    end: int


def find_parties(text: str, low: str, lex: LanguagePack | None = None) -> list[PartyMention]:
    """Every party mention the pack names, in order (the default pack's when none is given). A name
    of ``capitalised_not_parties`` written in capitals ("US") is not one."""
    lex = lex or load()
    side_of = sides(lex)
    upper_only = frozenset(lex.data.parties.capitalised_not_parties)
    mentions = []
    for m in _pattern(lex).finditer(low):
        name = m.group()
        if name in upper_only and text[m.start():m.end()] == name.upper():
            continue
        mentions.append(PartyMention(name, side_of[name], m.start(), m.end()))
    return mentions


# Parties a clause names that the table does not know ("Acme", "the Site", "the Guarantor Bank"): a
# capitalised name that is the subject of a modal or the agent of a passive. Such a name has no side
# of its own: it is keyed by itself ("name:Acme"), and a change of who acts between two such names
# counts only where the other clause names the party too (a swap, not a renamed template).
_NAME = r"(?:\p{Lu}[\p{L}0-9&'.-]*[\p{L}0-9])(?:\s+\p{Lu}[\p{L}0-9&'.-]*[\p{L}0-9]){0,2}"


@dataclass(frozen=True)
class _Names:
    """What tells a capitalised name acting as a party from other capitalised words (``parties.yaml``)."""

    subject: re.Pattern[str]
    agent: re.Pattern[str]
    articles: tuple[str, ...]
    function_words: frozenset[str]
    common_nouns: frozenset[str]
    entities: frozenset[str]
    abstract_endings: tuple[str, ...]
    agentive: re.Pattern[str]
    not_agentive: frozenset[str]


def _names(lex: LanguagePack) -> _Names:
    def build() -> _Names:
        p = lex.data.parties
        return _Names(
            subject=compile_pattern(rf"(?<![\w'])(?P<the>{p.subject_name_before})?(?P<n>{_NAME})(?={p.subject_name_after})"),
            agent=compile_pattern(rf"{p.agent_name_before}(?P<n>{_NAME})"), articles=tuple(p.definite_articles),
            function_words=frozenset(p.function_words), common_nouns=frozenset(p.common_nouns),
            entities=frozenset(p.entities), abstract_endings=tuple(p.abstract_endings),
            agentive=compile_pattern(p.agentive), not_agentive=frozenset(p.not_agentive))
    return lex.memo("parties.names", build)


def _is_name(words: list[str], determined: bool, side_of: dict[str, str], names: _Names, lex: LanguagePack) -> bool:
    last = words_of(lex).singular(words[-1].lower().rstrip(".'"))
    if last in names.entities:
        return True
    if last in names.common_nouns or last in side_of or last.endswith(names.abstract_endings):
        return False
    if determined:  # "the Site", "the Guarantor": an agent or an organisation, not a defined thing ("the Goods")
        return bool(names.agentive.search(last)) and last not in names.not_agentive
    return last not in names.not_agentive


def find_named_parties(text: str, known: list[PartyMention], lex: LanguagePack | None = None) -> list[PartyMention]:
    """Capitalized names acting as parties (subjects of a modal, agents of a passive) that the
    fixed table does not know; keyed ``name:<Name>``."""
    lex = lex or load()
    side_of, names = sides(lex), _names(lex)
    out = []
    for pattern in (names.subject, names.agent):
        for m in pattern.finditer(text):
            found = _named_party(text, m, known, side_of, names, lex)
            if found is not None:
                out.append(found)
    return out


def _named_party(text: str, m: re.Match[str], known: list[PartyMention], side_of: dict[str, str], names: _Names,
                 lex: LanguagePack) -> PartyMention | None:
    words = m.group("n").split()
    start = m.start("n")
    while words and words[0].lower() in names.function_words:  # "If Acme", "Upon the Site": drop the lead
        start = text.index(words[1], start + len(words[0])) if len(words) > 1 else m.end("n")
        words = words[1:]
    end = m.end("n")
    if not words or any(p.start < end and start < p.end for p in known):
        return None
    determined = bool(m.group("the")) or any(text[max(0, start - len(a) - 1):start].lower() == a + " " for a in names.articles)
    if not _is_name(words, determined, side_of, names, lex):
        return None
    return PartyMention(" ".join(words), "name:" + words_of(lex).singular(" ".join(words)).lower(), start, end)
