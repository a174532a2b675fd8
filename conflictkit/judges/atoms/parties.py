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
from conflictkit.lexicon import Lexicon, load

def sides(lex: Lexicon) -> dict[str, str]:
    """Party name -> side of the deal (``parties.yaml``): supplier, receiver, both, or a role of its own."""
    def build() -> dict[str, str]:
        table = lex.section("parties")
        own = {n: n for n in table["own_roles"]}  # no fixed side in a supply deal: each is its own role
        return {name: side for side, names in table["sides"].items() for name in names} | own
    return lex.memo("parties.sides", build)


def _pattern(lex: Lexicon) -> re.Pattern[str]:
    return lex.memo("parties.pattern", lambda: re.compile(
        r"\b(?:" + alternation(sides(lex)) + r")\b(?!-)"))


@dataclass(frozen=True)
class PartyMention:
    """A party named in a clause: its side of the deal and where it is."""

    name: str
    side: str
    start: int
    end: int


def find_parties(text: str, low: str, lex: Lexicon | None = None) -> list[PartyMention]:
    """Every party mention, in order (English names unless ``lex`` says). "US" in capitals is a country, not "us"."""
    lex = lex or load()
    side_of = sides(lex)
    mentions = []
    for m in _pattern(lex).finditer(low):
        name = m.group()
        if name == "us" and text[m.start():m.end()] == "US":
            continue
        mentions.append(PartyMention(name, side_of[name], m.start(), m.end()))
    return mentions


# Parties a clause names that the table above does not know ("Acme", "the Site", "the Guarantor
# Bank"): a capitalized name that is the subject of a modal or the agent of a passive. Such a name
# has no side of its own: it is keyed by itself ("name:Acme"), and a change of who acts between two
# such names counts only where the other clause names the party too (a swap, not a renamed template).
_NAME = r"(?:[A-Z][A-Za-z0-9&'.-]*[A-Za-z0-9])(?:\s+[A-Z][A-Za-z0-9&'.-]*[A-Za-z0-9]){0,2}"
_SUBJECT_NAME = re.compile(
    rf"(?<![\w'])(?P<the>(?:[Tt]he|[Ee]ach|[Aa]ny)\s+)?(?P<n>{_NAME})"
    r"(?=\s+(?:shall|will|must|may|can|cannot|should|agrees|undertakes|covenants|warrants|represents|bears|"
    r"is\s+(?:required|obliged|obligated|entitled|permitted|responsible|liable)|are\s+(?:required|entitled|responsible)|"
    r"has\s+(?:the\s+right|no\s+obligation)|need\s+not)\b)"
)
_AGENT_NAME = re.compile(rf"\bby\s+(?P<the>the\s+)?(?P<n>{_NAME})")
_FUNCTION_WORDS = frozenset(
    """the this that these those any each every all no neither either if such its it upon in on at for to from by
    with where when unless except subject notwithstanding during after before under nothing none both a an and or
    nor but provided save once while until whether following pursuant as only within without in accordance""".split()
)
_COMMON_NOUNS = frozenset(
    """agreement contract information data fee goods service software product payment invoice notice order term
    territory deliverable documentation equipment premise property material work price rent delivery title risk
    licence license confidentiality liability warranty termination assignment amount charge tax interest insurance
    record report access use dispute claim schedule exhibit annex appendix section clause article policy plan
    specification purpose project system platform content account loan facility share security note
    intellectual personal confidential effective commencement closing""".split()
)
_ENTITIES = frozenset(
    """site hospital university bank trust fund council authority school college agency firm institute club
    association society foundation partnership board government department ministry municipality charity
    committee company corporation group parent subsidiary affiliate lab laboratory""".split()
)
_AGENTIVE = re.compile(r"(?:[a-z]{2,}(?:or|er|ee|ant|ent|ist|ary|ier))$")
_NOT_AGENTIVE = frozenset(
    """order number letter matter chapter paper register center centre water other master server computer container
    transfer offer power cover disclaimer answer quarter error floor door factor sector indicator mirror major minor
    color colour honor labor labour favor vapor motor monitor guarantee fee committee degree event intent consent
    extent content patent percent component present incident accident summary salary boundary library glossary
    anniversary commentary itinerary dictionary calendar parameter filter header footer tier barrier""".split()
)


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 4 and word.endswith("s") and not word.endswith("ss") else word


def _is_name(words: list[str], determined: bool, side_of: dict[str, str]) -> bool:
    last = _singular(words[-1].lower().rstrip(".'"))
    if last in _ENTITIES:
        return True
    if last in _COMMON_NOUNS or last in side_of or last.endswith(("ment", "tion", "ity", "ance", "ence", "ness", "ing")):
        return False
    if determined:  # "the Site", "the Guarantor": an agent or an organisation, not a defined thing ("the Goods")
        return bool(_AGENTIVE.search(last)) and last not in _NOT_AGENTIVE
    return last not in _NOT_AGENTIVE


def find_named_parties(text: str, known: list[PartyMention], lex: Lexicon | None = None) -> list[PartyMention]:
    """Capitalized names acting as parties (subjects of a modal, agents of a passive) that the
    fixed table does not know; keyed ``name:<Name>``."""
    side_of = sides(lex or load())
    out = []
    for pattern in (_SUBJECT_NAME, _AGENT_NAME):
        for m in pattern.finditer(text):
            words = m.group("n").split()
            start = m.start("n")
            while words and words[0].lower() in _FUNCTION_WORDS:  # "If Acme", "Upon the Site": drop the lead
                start = text.index(words[1], start + len(words[0])) if len(words) > 1 else m.end("n")
                words = words[1:]
            if not words:
                continue
            end = m.end("n")
            if any(p.start < end and start < p.end for p in known):
                continue
            determined = bool(m.group("the")) or text[max(0, start - 4):start].lower() == "the "
            if not _is_name(words, determined, side_of):
                continue
            out.append(PartyMention(" ".join(words), "name:" + _singular(" ".join(words)).lower(), start, end))
    return out
