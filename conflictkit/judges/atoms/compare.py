"""Compare the atoms of two clauses and list their typed differences.

Within each family, atoms that mean the same thing on both sides (same key, same alignment)
cancel out first, whatever their wording or order. What is left is paired by group (a duration
with a duration, a governing law with a governing law, an exclusivity word with an exclusivity
word) into *changes* ("thirty (30) days" -> "sixty (60) days"); an atom left unpaired is a
*presence* difference (present on one side only, such as a dropped "written"). Every difference
names the weight (an option of the judge) that turns it into evidence of a changed meaning.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from difflib import SequenceMatcher
from dataclasses import dataclass, replace

from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.parties import SIDE_OF
from conflictkit.judges.atoms.places import PARENT
from conflictkit.judges.atoms.text import STOPWORDS, Atom, content_stems, stem


@dataclass(frozen=True)
class Difference:
    """One typed difference between two clauses, with the surface text of each side (or None)."""

    type: str
    weight: str
    reference: str | None
    input: str | None
    detail: str


_NEGATIVE = {"prohibition", "no_obligation", "discouraged"}
_POLARITY_FLIPS = {frozenset(p) for p in (("obligation", "prohibition"), ("permission", "prohibition"),
                                          ("obligation", "no_obligation"), ("recommendation", "discouraged"))}
_MINOR_QUALIFIERS = {"timing", "good faith", "mutual"}
_MINOR_SCOPE = {"inclusion", "binding"}
_PLACE_TYPES = {"law": "governing_law", "forum": "jurisdiction", "institution": "jurisdiction", "territory": "scope"}


def _take(left: list[Atom], right: list[Atom], same: Callable[[Atom, Atom], bool]) -> list[tuple[Atom, Atom]]:
    """Remove and return the pairs (a, b) with ``same(a, b)``, greedily in text order."""
    pairs = []
    for a in list(left):
        b = next((b for b in right if same(a, b)), None)
        if b is not None:
            left.remove(a)
            right.remove(b)
            pairs.append((a, b))
    return pairs


def _both(a: str, b: str) -> bool:
    return bool(a) and bool(b) and a != b


def compare(ref: ClauseAtoms, inp: ClauseAtoms) -> list[Difference]:
    """Every typed difference between the atoms of a reference clause and an input clause."""
    diffs: list[Difference] = []
    negative_left = _compare_modality(ref, inp, diffs)
    _compare_negation(ref, inp, diffs, negative_left)
    _compare_parties(ref, inp, diffs)
    _compare_numbers(ref, inp, diffs)
    _compare_dates(ref, inp, diffs)
    _compare_places(ref, inp, diffs)
    _compare_edit(ref, inp, diffs)
    ref_q, inp_q = _expense_payers(ref, inp)
    for family in ("qualifier", "exception", "scope"):
        _compare_words(ref_q if family == "qualifier" else ref, inp_q if family == "qualifier" else inp, family, diffs)
    return diffs


_POSSESSOR = re.compile(r"\bat\s+(?:the\s+)?([\w-]+?)(?:'s?)\s")


def _payer(clause: ClauseAtoms, atom: Atom) -> str:
    """Who bears a cost: "at the Buyer's expense" -> receiver; "at its own cost" -> the party that acts."""
    m = _POSSESSOR.match(atom.text + " ")
    if m and m.group(1).lower() not in ("its", "their", "his", "her", "our"):
        name = m.group(1).lower()
        return SIDE_OF.get(name, "name:" + (name[:-1] if len(name) > 4 and name.endswith("s") else name))
    modals = [a for a in clause.of("modality") if a.attr("actor")]
    before = [a for a in modals if a.start < atom.start]
    return (before[-1] if before else modals[0]).attr("actor") if modals else ""


def _expense_payers(ref: ClauseAtoms, inp: ClauseAtoms) -> tuple[ClauseAtoms, ClauseAtoms]:
    """The two clauses with "at X's expense" keyed by who pays, when both sides say who."""
    r = [a for a in ref.of("qualifier") if a.group == "expense" and a.key == "own expense"]
    i = [b for b in inp.of("qualifier") if b.group == "expense" and b.key == "own expense"]
    if not r or not i:
        return ref, inp
    pr, pi = {id(a): _payer(ref, a) for a in r}, {id(b): _payer(inp, b) for b in i}
    if not all(pr.values()) or not all(pi.values()):
        return ref, inp

    def rekey(clause: ClauseAtoms, payers: dict[int, str]) -> ClauseAtoms:
        atoms = tuple(replace(a, key=f"expense of {payers[id(a)]}") if id(a) in payers else a for a in clause.atoms)
        return ClauseAtoms(clause.text, atoms, clause.stems)

    return rekey(ref, pr), rekey(inp, pi)


def _actor_quote(clause: ClauseAtoms, atom: Atom) -> str:
    start = int(atom.attr("actor_start", "-1"))
    end = int(atom.attr("verb_end", str(atom.end)))
    if 0 <= start < atom.start:
        return clause.text[start:max(end, atom.end)]
    return clause.text[atom.start:max(end, atom.end)]


_OPPOSITES = [
    ({"keep", "treat", "hold", "protec", "safegu", "mainta", "preser"}, {"disclo", "reveal", "divulg", "publis", "releas"}),
    ({"comply", "observ", "obey", "abide", "adhere", "follow", "honour", "honor"},
     {"violat", "breach", "contra", "infrin", "disreg", "ignore"}),
    ({"retain", "keep", "preser", "store", "hold"}, {"destro", "delete", "dispos", "discar", "erase", "part", "surren",
                                                     "relinq"}),
    ({"accept"}, {"reject", "refuse", "declin"}),
    ({"pay", "remit", "releas"}, {"withho", "retain", "set"}),
    ({"contin", "remain"}, {"cease", "stop", "discon", "termin", "end"}),
    ({"contin", "remain", "surviv", "persis"}, {"affect", "prejud", "impair", "dimini", "reduce", "releas", "reliev",
                                                 "discha", "exempt", "exoner"}),
    ({"permit", "allow", "enable"}, {"preven", "prohib", "forbid", "block", "restri"}),
    ({"includ"}, {"omit", "exclud"}),
]
_OPPOSITE = {frozenset((x, y)) for pos, neg in _OPPOSITES for x in pos for y in neg}


def _antonyms(a: Atom, b: Atom) -> bool:
    """An obligation to do X and a prohibition of X's opposite ("keep confidential" / "not disclose")."""
    if {a.key, b.key} != {"obligation", "prohibition"}:
        return False
    return frozenset((a.anchor, b.anchor)) in _OPPOSITE


def _limit_verb(clause: ClauseAtoms) -> bool:
    return any(a.group == "only" and a.text.lower().startswith(("limit", "restrict", "confine"))
               and not a.text.lower().endswith("to") for a in clause.of("exception"))


def _has_only(clause: ClauseAtoms) -> bool:
    return any(a.group == "only" for a in clause.of("exception"))


def _actor(atom: Atom, other: ClauseAtoms) -> str:
    """The side that acts; a party known only by its name ("Acme") counts only where the other
    clause names it too (otherwise the template was renamed, and nothing says who is who)."""
    actor = atom.attr("actor")
    if actor.startswith("name:") and not names(other.text, actor[5:]):
        return ""
    return actor


def names(text: str, name: str) -> bool:
    """Whether ``text`` names the party ``name`` (lower-cased), capitalized as a name is."""
    return any(m.group()[0].isupper() for m in re.finditer(rf"(?i)\b{re.escape(name)}", text))


def _absent(left: list[Atom], other: ClauseAtoms, family: str) -> list[Atom]:
    """Unpaired atoms whose value the other clause does not state at all. A value said twice on one
    side and once on the other is the same term repeated, not a difference."""
    there = {a.key for a in other.of(family)}
    return [a for a in left if a.key not in there]


def _compare_modality(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference]) -> tuple[int, int]:
    """Modal classes and who acts; returns how many negative modals each side has left unpaired."""
    r, i = ref.of("modality"), inp.of("modality")
    actors = {id(a): _actor(a, inp) for a in r} | {id(b): _actor(b, ref) for b in i}

    def actor_ok(a: Atom, b: Atom) -> bool:
        return not _both(actors[id(a)], actors[id(b)])

    _take(r, i, lambda a, b: a.key == b.key and a.anchor == b.anchor and actor_ok(a, b))
    _take(r, i, lambda a, b: a.key == b.key and actor_ok(a, b))
    pairs = _take(r, i, lambda a, b: a.anchor == b.anchor and bool(a.anchor))
    pairs += _take(r, i, lambda a, b: a.key == b.key)
    n = min(len(r), len(i))
    pairs += list(zip(r[:n], i[:n]))
    left_r, left_i = r[n:], i[n:]
    restricted = _has_only(ref) and _has_only(inp)
    for a, b in pairs:
        # a restriction said two ways: "shall not use X other than for P" / "shall use X solely for P",
        # "shall limit disclosure to employees" / "may disclose only to employees"; a plain "shall only X" ->
        # "may only X" is still a change of modality
        restricted_here = restricted and (a.attr("restrictive") or b.attr("restrictive")
                                          or _limit_verb(ref) or _limit_verb(inp))
        if a.key != b.key and _antonyms(a, b):
            pass  # "shall keep X confidential" == "shall not disclose X": a duty restated as a ban on its opposite
        elif a.key != b.key and restricted_here and {a.key, b.key} == {"obligation", "permission"}:
            # "shall use it solely for P" == "may use it only for P": with "only" on both sides the modal adds little
            diffs.append(Difference("modality", "modality_presence", a.text, b.text, f"{a.key} -> {b.key} (restricted)"))
        elif a.key != b.key:
            flip = frozenset((a.key, b.key)) in _POLARITY_FLIPS
            diffs.append(Difference("negation" if flip else "modality", "negation" if flip else "modality",
                                    a.text, b.text, f"{a.key} -> {b.key}"))
        x, y = actors[id(a)], actors[id(b)]
        if _both(x, y):
            weight = "party_mutuality" if "both" in (x, y) else "party"
            diffs.append(Difference("party", weight, _actor_quote(ref, a), _actor_quote(inp, b), f"who acts: {x} -> {y}"))
    left_r, left_i = _absent(left_r, inp, "modality"), _absent(left_i, ref, "modality")
    for a in left_r:
        diffs.append(Difference("modality", "modality_presence", a.text, None, f"{a.key} only in the reference"))
    for b in left_i:
        diffs.append(Difference("modality", "modality_presence", None, b.text, f"{b.key} only in the input"))
    return sum(a.key in _NEGATIVE for a in left_r), sum(b.key in _NEGATIVE for b in left_i)


def _compare_negation(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference], negative_left: tuple[int, int]) -> None:
    """Free negations: a net difference in their count is a reversed meaning, unless a negative
    modal on the other side says the same thing ("is not liable" == "shall not be liable")."""
    r, i = ref.of("negation"), inp.of("negation")
    _take(r, i, lambda a, b: a.anchor == b.anchor)
    _take(r, i, lambda a, b: True)
    r = r[negative_left[1]:]
    i = i[negative_left[0]:]
    r = [a for a in r if not _said_positively(a.anchor, inp) and not _prefixed_there(ref, a, inp)]
    i = [b for b in i if not _said_positively(b.anchor, ref) and not _prefixed_there(inp, b, ref)]
    for a in r:
        diffs.append(Difference("negation", "negation", a.text, _find_anchor(inp.text, a.anchor), "negation only in the reference"))
    for b in i:
        diffs.append(Difference("negation", "negation", _find_anchor(ref.text, b.anchor), b.text, "negation only in the input"))


_NEG_PREFIX = re.compile(r"\b(?:un|in|im|il|ir|non-?|dis)([a-z]+)")


def _said_positively(anchor: str, other: ClauseAtoms) -> bool:
    """A negation the other clause states with the opposite word ("does not affect" / "survives") or
    with a negative prefix ("not valid" / "invalid")."""
    if not anchor:
        return False
    low = other.text.lower()
    words = {stem(w) for w in re.findall(r"[a-z]+", low)}
    if any(frozenset((anchor, w)) in _OPPOSITE for w in words):
        return True
    return any(stem(m.group(1)) == anchor for m in _NEG_PREFIX.finditer(low))


def _prefixed_there(here: ClauseAtoms, atom: Atom, other: ClauseAtoms) -> bool:
    """"does not wish to renew" / "notice of non-renewal": the other clause negates one of the next
    words with a prefix."""
    near = {w[:4] for w in re.findall(r"[a-z]{4,}", here.text.lower()[atom.start:atom.end + 40])[:5]}
    return any(m.group(1)[:4] in near for m in _NEG_PREFIX.finditer(other.text.lower()) if len(m.group(1)) >= 4
               and m.group().startswith(("non", "un")))


def _find_anchor(text: str, anchor: str) -> str | None:
    """The word the other side negates, quoted from this side when it is there."""
    if not anchor:
        return None
    m = re.search(rf"(?i)\b{re.escape(anchor)}\w*", text)
    return m.group() if m else None


def _compare_parties(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference]) -> None:
    """A side of the deal named on one side only: replaced by the other side (the risk of loss
    moves from Seller to Buyer, IP vests in the Contractor instead of the Client) or just gone."""
    if any(d.type == "party" for d in diffs):
        return  # who acts already changed: the mentions say the same thing again
    r = [a for a in ref.of("party") if a.group == "mention"]
    i = [b for b in inp.of("party") if b.group == "mention"]
    if _compare_party_roles(ref, inp, diffs):
        return
    gone = [a for a in r if a.key not in {b.key for b in i}]
    new = [b for b in i if b.key not in {a.key for a in r}]
    if not gone and not new:
        return
    if gone and len(r) == len(i):
        replaced = next((b for b in i if sum(x.key == b.key for x in i) > sum(x.key == b.key for x in r)), None)
        if replaced is not None:
            diffs.append(Difference("party", "party", gone[0].text, replaced.text, f"{gone[0].key} -> {replaced.key}"))
            return
    if gone and new:
        diffs.append(Difference("party", "party", gone[0].text, new[0].text, f"{gone[0].key} -> {new[0].key}"))
    elif gone:
        diffs.append(Difference("party", "party_presence", gone[0].text, None, f"{gone[0].key} only in the reference"))
    else:
        diffs.append(Difference("party", "party_presence", None, new[0].text, f"{new[0].key} only in the input"))


_ROLE_BEFORE = re.compile(r"([a-z]{3,})\s+(?:(by|to|from|for|against|with|of)\s+)?(?:the\s+)?$")
# Verbs whose direct object is the party that benefits: "notify the Licensor", "indemnify Customer".
_OBJECT_VERBS = {"notify", "inform", "pay", "reimburse", "indemnify", "compensate", "invoice", "charge", "defend",
                 "assist", "consult", "remit", "refund", "credit", "warn", "advise", "supply", "provide", "give",
                 "grant", "grants", "notifies", "informs", "pays", "reimburses", "indemnifies", "compensates",
                 "provides", "gives", "supplies", "refunds", "owe", "owes", "hold", "holds"}
_POSSESSIVE_AFTER = re.compile(r"'s?\s+(?:own\s+|sole\s+)?([a-z]{3,})")


def _party_roles(clause: ClauseAtoms) -> dict[tuple[str, str], list[Atom]]:
    """Party mentions keyed by the word and preposition before them: "created by Contractor" ->
    ("create", "by"). Mentions with no such context are left out."""
    roles: dict[tuple[str, str], list[Atom]] = {}
    low = clause.text.lower()
    for a in clause.of("party"):
        m = _ROLE_BEFORE.search(low, max(0, a.start - 40), a.start)
        if m and (m.group(2) or m.group(1) in _OBJECT_VERBS):
            roles.setdefault((m.group(1)[:6], m.group(2) or ""), []).append(a)
        p = _POSSESSIVE_AFTER.match(low, a.end)
        if p and p.group(1) not in STOPWORDS:  # "at the Supplier's expense", "the Owner's employees"
            roles.setdefault((p.group(1)[:6], "'s"), []).append(a)
    return roles


def _compare_party_roles(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference]) -> bool:
    """The same role ("created by", "owned by", "paid to") filled by a party of the other side."""
    r, i = _party_roles(ref), _party_roles(inp)
    for key in sorted(r.keys() & i.keys(), key=lambda k: r[k][0].start):
        a, b = r[key][0], i[key][0]
        if sorted(x.key for x in r[key]) != sorted(x.key for x in i[key]):
            quote_r = ref.text[max(0, a.start - 40):a.end]
            quote_i = inp.text[max(0, b.start - 40):b.end]
            if key[1] == "'s":
                quote_r, quote_i = ref.text[a.start:a.end + 20], inp.text[b.start:b.end + 20]
                ctx = f"^{re.escape(a.text)}'s?\\s+(?:own\\s+|sole\\s+)?{key[0]}\\w*"
                mr = re.search(ctx, quote_r, re.I)
                mi = re.search(f"^{re.escape(b.text)}'s?\\s+(?:own\\s+|sole\\s+)?{key[0]}\\w*", quote_i, re.I)
                diffs.append(Difference("party", "party", mr.group() if mr else a.text, mi.group() if mi else b.text,
                                        f"whose {key[0]}: {a.key} -> {b.key}"))
                return True
            prep = f"\\s+{key[1]}" if key[1] else ""
            ctx = f"{key[0]}\\w*{prep}\\s+(?:the\\s+)?"
            mr = re.search(ctx + re.escape(a.text) + "$", quote_r, re.I)
            mi = re.search(ctx + re.escape(b.text) + "$", quote_i, re.I)
            diffs.append(Difference("party", "party", mr.group() if mr else a.text, mi.group() if mi else b.text,
                                    f"{key[0]} {key[1]}: {a.key} -> {b.key}"))
            return True
    return False


def _cmp_quote(clause: ClauseAtoms, atom: Atom) -> str:
    return clause.text[int(atom.attr("cmp_start", str(atom.start))):atom.end]


def _compare_numbers(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference]) -> None:
    r, i = ref.of("number"), inp.of("number")
    _take(r, i, lambda a, b: a.key == b.key and a.attr("cmp") == b.attr("cmp") and a.attr("dir") == b.attr("dir"))
    for a, b in _take(r, i, lambda a, b: a.key == b.key):
        for attr, what in (("cmp", "comparator"), ("dir", "direction")):
            x, y = a.attr(attr), b.attr(attr)
            if x != y:
                weight = "comparator" if x and y else "comparator_presence"
                diffs.append(Difference("number", weight, _cmp_quote(ref, a), _cmp_quote(inp, b),
                                        f"{what} changed: {x or 'none'} -> {y or 'none'}"))
    _take(r, i, lambda a, b: _yearly(a.key) == _yearly(b.key))  # "2%" == "2% per annum": a rate is yearly unless said
    # "99.9% of the time in each calendar month" == "99.9% per calendar month": the period said apart
    for a, b in _take(r, i, lambda a, b: a.group == b.group == "percent" and _per(a.key, ref, b.key, inp)):
        for clause, left in ((ref, r), (inp, i)):
            left[:] = [x for x in left if not (x.group == "frequency" and x.key == _FREQ_OF.get(_unit(a.key) or _unit(b.key)))]
    for a, b in _take(r, i, lambda a, b: a.group == b.group):
        diffs.append(Difference("number", "number", a.text, b.text, f"{a.group} changed"))
    for a in _absent(r, inp, "number"):
        diffs.append(Difference("number", _number_presence(a), a.text, None, f"{a.group} only in the reference"))
    for b in _absent(i, ref, "number"):
        diffs.append(Difference("number", _number_presence(b), None, b.text, f"{b.group} only in the input"))


_FREQ_OF = {"/month": "frequency:12/year", "/year": "frequency:1/year", "/quarter": "frequency:4/year",
            "/week": "frequency:52/year", "/day": "frequency:365/year"}


def _unit(key: str) -> str:
    return key.rsplit(":", 1)[-1]


def _per(x: str, ref: ClauseAtoms, y: str, inp: ClauseAtoms) -> bool:
    """Same percentage; one says its period, the other says the same period as a frequency."""
    if x.rsplit(":", 1)[0] != y.rsplit(":", 1)[0] or (_unit(x) and _unit(y)):
        return False
    freq = _FREQ_OF.get(_unit(x) or _unit(y))
    side = ref if not _unit(x) else inp
    return freq is not None and any(a.key == freq for a in side.of("number"))


def _yearly(key: str) -> str:
    return key[:-5] if key.endswith("/year") and key.startswith("percent:") else key


def _number_presence(atom: Atom) -> str:
    """A how-often or a currency said on one side only is often said another way on the other ("each holiday year")."""
    return "frequency_presence" if atom.group in ("frequency", "currency") else "number_presence"


def _compare_dates(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference]) -> None:
    r, i = ref.of("date"), inp.of("date")
    _take(r, i, lambda a, b: a.key == b.key)
    for a, b in _take(r, i, lambda a, b: True):
        diffs.append(Difference("date", "date", a.text, b.text, f"{a.key} -> {b.key}"))
    diffs += [Difference("date", "date_presence", a.text, None, "date only in the reference") for a in _absent(r, inp, "date")]
    diffs += [Difference("date", "date_presence", None, b.text, "date only in the input") for b in _absent(i, ref, "date")]


def _compare_places(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference]) -> None:
    r = [a for a in ref.of("place") if a.group != "forum_type"]
    i = [b for b in inp.of("place") if b.group != "forum_type"]
    _take(r, i, lambda a, b: a.key == b.key and a.group == b.group)
    for a, b in _take(r, i, lambda a, b: a.group == b.group):
        kind = _PLACE_TYPES[a.group]
        diffs.append(Difference(kind, kind if kind != "scope" else "scope", a.text, b.text, f"{a.key} -> {b.key}"))
    _take(r, i, lambda a, b: a.key == b.key)  # same place, role read differently: wording, not meaning
    diffs += [Difference(_PLACE_TYPES[a.group], "place_presence", a.text, None, f"{a.key} only in the reference")
              for a in _absent(r, inp, "place") if not _encloses(a.key, ref, inp)]
    diffs += [Difference(_PLACE_TYPES[b.group], "place_presence", None, b.text, f"{b.key} only in the input")
              for b in _absent(i, ref, "place") if not _encloses(b.key, inp, ref)]
    rf = {a.key: a for a in ref.of("place") if a.group == "forum_type"}
    inf = {b.key: b for b in inp.of("place") if b.group == "forum_type"}
    gone, new = set(rf) - set(inf), set(inf) - set(rf)
    if gone and new:
        a, b = rf[sorted(gone)[0]], inf[sorted(new)[0]]
        diffs.append(Difference("forum", "forum", a.text, b.text, f"{a.key} -> {b.key}"))


def _encloses(key: str, here: ClauseAtoms, other: ClauseAtoms) -> bool:
    """Whether place ``key`` only locates a place both clauses name ("England" in "London, England")."""
    shared = {a.key for a in here.of("place")} & {b.key for b in other.of("place")}
    for place in shared:
        parent = PARENT.get(place)
        while parent is not None:
            if parent == key:
                return True
            parent = PARENT.get(parent)
    return False


def _compare_words(ref: ClauseAtoms, inp: ClauseAtoms, family: str, diffs: list[Difference]) -> None:
    """Qualifiers, exceptions and scope words: changes within a group, then one-sided atoms."""
    r, i = ref.of(family), inp.of(family)
    for a, b in _take(r, i, lambda a, b: a.key == b.key and a.group == b.group):
        if family == "exception" and a.group in _TAILED and _tails_differ(ref.text, a, inp.text, b):
            diffs.append(Difference("exception", "exception", _tail(ref.text, a), _tail(inp.text, b),
                                    f"{a.key}: a different exception or condition"))
    if family == "scope":
        _compare_quantifiers(ref, inp, r, i, diffs)
    for a, b in _take(r, i, lambda a, b: a.group == b.group):
        weight = "quantity" if a.group == "quantity" else ("qualifier" if family == "qualifier" else family)
        if family == "qualifier" and a.group in _MINOR_QUALIFIERS:
            weight = "qualifier_minor"
        diffs.append(Difference(family, weight, a.text, b.text, f"{a.group}: {a.key} -> {b.key}"))
    for atoms, side in ((_absent(r, inp, family), "reference"), (_absent(i, ref, family), "input")):
        for a in atoms:
            weight = _presence_weight(family, a.group)
            other = inp if side == "reference" else ref
            here = ref if side == "reference" else inp
            if a.key in _ABLE and re.search(_ABLE[a.key], other.text, re.I):
                continue  # "refundable" / "will refund": the same thing said another way
            if a.key == "excluding":  # a carve-out ("but excludes its Affiliates"), not an illustration
                weight = "scope_presence"
            if a.group == "partial" and _alls(other) > _alls(here):
                weight = "scope_minor"  # "any part of the Services" / "any subcontracting of the Services"
            if weight is None:
                continue
            quote, other_quote = _with_head(here.text, a, other.text)
            ref_q, inp_q = (quote, other_quote) if side == "reference" else (other_quote, quote)
            diffs.append(Difference(family, weight, ref_q, inp_q, f"{a.key!r} only in the {side}"))


_ABLE = {"prior": r"\b(?:earlier|previous|preceding)\b",  # "prior agreements" / "earlier agreements"
         "refundable": r"\brefund(?:s|ed)?\b", "cancellable": r"\bcancel(?:s|led)?\b",
         "transferable": r"\btransfer(?:s|red)?\b", "sublicensable": r"\bsub-?licen[cs]e(?:s|d)?\b",
         "revocable": r"\brevoke[sd]?\b"}


def _alls(clause: ClauseAtoms) -> int:
    return sum(x.group == "quantity" and x.key == "all" for x in clause.of("scope"))


def _presence_weight(family: str, group: str) -> str | None:
    if family == "qualifier":
        return "qualifier_minor" if group in _MINOR_QUALIFIERS else "qualifier"
    if family == "exception":
        return "exception"
    if group == "quantity":
        return None
    return "scope_minor" if group in _MINOR_SCOPE else "scope_presence"


_WORD = re.compile(r"[A-Za-z][\w'-]*")


def _with_head(text: str, atom: Atom, other: str) -> tuple[str, str | None]:
    """Quote a one-sided word with the word it qualifies ("written approval"), and that word on the
    other side with the word before it ("prior approval"), when the other side has it."""
    nxt = _WORD.search(text, atom.end)
    if nxt is None or nxt.start() - atom.end > 2 or nxt.group().lower() in STOPWORDS:
        return atom.text, None
    quote = text[atom.start:nxt.end()]
    found = re.search(rf"\b{re.escape(nxt.group())}\b", other)
    if not found:
        return quote, None
    before = list(_WORD.finditer(other, max(0, found.start() - 30), found.start()))
    start = before[-1].start() if before and found.start() - before[-1].end() <= 2 else found.start()
    return quote, other[start:found.end()]


_TAILED = {"exception", "condition", "only"}
_TAIL_END = re.compile(r"[,;.:]|\b(?:but|provided|unless|except|whereupon|in\s+which\s+case)\b")
_GENERIC = {"otherwise", "expressly", "provid", "set", "stated", "specif", "permit", "describ", "agreed", "extent",
            "require", "applic", "herein", "hereof", "reason", "law"}


def _tail(text: str, atom: Atom) -> str:
    """The words an exception or condition introduces: up to the next punctuation or conjunction."""
    stop = _TAIL_END.search(text.lower(), atom.end + 1, atom.end + 120)
    end = stop.start() if stop else min(len(text), atom.end + 120)
    return text[atom.start:end].rstrip()


def _tail_stems(text: str, atom: Atom) -> set[str]:
    stems = content_stems(_tail(text, atom)[len(atom.text):].lower()) - _GENERIC
    return {"writ" if w.startswith("writ") else w for w in stems}  # "in writing" == "written"


def _tails_differ(ref_text: str, a: Atom, inp_text: str, b: Atom) -> bool:
    """Same kind of exception, disjoint words: "except in an emergency" -> "except where convenient"."""
    x, y = _tail_stems(ref_text, a), _tail_stems(inp_text, b)
    return bool(x) and bool(y) and len(x & y) < 0.4 * min(len(x), len(y))


_GENERIC_NOUNS = {"event", "case", "circum", "respec", "matter", "reason"}
_NEGATED_BEFORE = re.compile(r"\b(?:not|no|never|neither|nor|without|cannot)\b|n't\b")
_EXCEPT_AFTER = re.compile(r"\b(?:other\s+than|except|unless|save|apart\s+from|besides)\b")
_SENTENCE_START = re.compile(r"[.;:]")


def _compare_quantifiers(ref: ClauseAtoms, inp: ClauseAtoms, r: list[Atom], i: list[Atom], diffs: list[Difference]) -> None:
    """An "all" / "any" left unpaired whose noun the other clause does not name: the other clause
    speaks of something narrower ("all intellectual property rights" -> "the copyright",
    "any customer" -> "retail customers"). Under a negation ("not ... any") or before an
    exception ("any purpose other than") the quantifier restricts nothing of its own."""
    for here, other, left, side in ((ref, inp, r, "reference"), (inp, ref, i, "input")):
        others = content_stems(other.text.lower())
        for a in left:
            if a.group != "quantity" or a.key != "all":
                continue
            low = here.text.lower()
            starts = [m.end() for m in _SENTENCE_START.finditer(low, 0, a.start)]
            if not low[starts[-1] if starts else 0:a.start].strip(" ("):
                continue  # "Any variation requires...", "All notices shall...": the subject, not a scope
            if _NEGATED_BEFORE.search(low, starts[-1] if starts else 0, a.start):
                continue
            if _EXCEPT_AFTER.search(low, a.end, a.end + 50):
                continue
            nouns = [stem(w) for w in re.findall(r"[a-z][a-z-]+", low[a.end:a.end + 60])
                     if len(w) > 2 and w not in STOPWORDS][:2]
            if low.startswith(" times", a.end):
                continue  # "at all times": always, not a scope
            if not nouns or nouns[0][:4] in {w[:4] for w in others} or nouns[0] in _GENERIC_NOUNS:  # "any unsold Products" -> "damaged Products"
                continue
            quote = here.text[a.start:a.end + len(" ".join(nouns)) + 20].split(",")[0].strip()
            ref_q, inp_q = (quote, None) if side == "reference" else (None, quote)
            diffs.append(Difference("scope", "scope", ref_q, inp_q, f"{a.text!r} {' '.join(nouns)} only in the {side}"))


_WORDS = re.compile(r"[a-z0-9]+")
_FILLER = {"hereby", "herein", "hereunder", "hereof", "thereof", "therein", "expressly", "respectively", "applicable",
           "relevant", "said", "also", "duly", "validly", "properly", "terms", "provisions", "conditions", "own",
           "accordance", "pursuant", "set", "forth", "stated", "described", "specified", "above", "below",
           "clause", "section", "schedule", "agreement", "contract", "strictly", "fully", "completely", "entirely",
           "absolutely", "whatsoever", "kind", "nature", "together"}


def _compare_edit(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference]) -> None:
    """One clause is the other with words cut out (or added) and nothing reworded: "make, use, sell
    and import" -> "use", "in good condition and free from defects" -> "in good condition". A pure
    cut or addition of content words narrows or widens what the clause covers, even when no atom
    changes; a paraphrase rewords, a format change touches no word."""
    low_r, low_i = ref.text.lower(), inp.text.lower()
    a = [(m.group(), m.start(), m.end()) for m in _WORDS.finditer(low_r)]
    b = [(m.group(), m.start(), m.end()) for m in _WORDS.finditer(low_i)]
    ops = [op for op in SequenceMatcher(None, [w for w, _, _ in a], [w for w, _, _ in b], autojunk=False).get_opcodes()
           if op[0] != "equal"]
    if not ops or len({op[0] for op in ops}) != 1 or ops[0][0] == "replace":
        return
    deleted = ops[0][0] == "delete"
    words, clause = (a, ref) if deleted else (b, inp)
    text = clause.text
    spans = [(op[1], op[2]) if deleted else (op[3], op[4]) for op in ops]
    in_atom = bytearray(len(text) + 1)  # words of an atom ("thirty (30)", "EUR", "per cent") are compared as atoms
    for atom in clause.atoms:
        in_atom[atom.start:atom.end] = b"\x01" * (atom.end - atom.start)
    content = [w for lo, hi in spans for w, start, _ in words[lo:hi]
               if w.isalpha() and len(w) > 2 and w not in STOPWORDS and w not in _FILLER and not in_atom[start]]
    if len(content) < (1 if deleted else 2):
        return  # one added word mostly makes explicit what was meant ("upon the Discloser's earlier request")
    lo, hi = spans[0]
    quote = text[words[lo][1]:words[hi - 1][2]]
    ref_q, inp_q = (quote, None) if deleted else (None, quote)
    side = "reference" if deleted else "input"
    diffs.append(Difference("scope", "content", ref_q, inp_q, f"words only in the {side}: {' '.join(content[:6])}"))
