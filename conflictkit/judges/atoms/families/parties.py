"""Party mentions: a side of the deal named on one side only, or a role filled by the other side."""

from __future__ import annotations

import re
from collections import Counter

from conflictkit.judges.atoms.compare import Difference
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family
from conflictkit.judges.atoms.text import STOPWORDS, Atom, Mask
from conflictkit.judges.atoms.modal import extract_party_mentions
from conflictkit.judges.atoms.text import lowered
from conflictkit.lexicon import Lexicon


def _compare_parties(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference], actor_changed: bool) -> None:
    """A side of the deal named on one side only: replaced by the other side (the risk of loss
    moves from Seller to Buyer, IP vests in the Contractor instead of the Client) or just gone."""
    if actor_changed:
        return  # who acts already changed: the mentions say the same thing again
    r = [a for a in ref.of("party") if a.group == "mention"]
    i = [b for b in inp.of("party") if b.group == "mention"]
    if _compare_party_roles(ref, inp, diffs):
        return
    gone = [a for a in r if a.key not in {b.key for b in i}]
    new = [b for b in i if b.key not in {a.key for a in r}]
    # "his or her business time" for "the Employee's business time": a party the other clause
    # names no more, where that clause has as many more pronouns, was said with a pronoun
    if gone and pronoun_count(inp) - pronoun_count(ref) >= len({a.key for a in gone}):
        gone = []
    if new and pronoun_count(ref) - pronoun_count(inp) >= len({b.key for b in new}):
        new = []
    if not gone and not new:
        return
    if gone and len(r) == len(i):
        replaced = next((b for b in i if sum(x.key == b.key for x in i) > sum(x.key == b.key for x in r)), None)
        if replaced is not None:
            diffs.append(Difference("party", "party", gone[0].text, replaced.text, f"'{gone[0].text}' -> '{replaced.text}'"))
            return
    if gone and new:
        diffs.append(Difference("party", "party", gone[0].text, new[0].text, f"'{gone[0].text}' -> '{new[0].text}'"))
    elif gone:
        diffs.append(Difference("party", "party_presence", gone[0].text, None, f"'{gone[0].text}' named only in the reference"))
    else:
        diffs.append(Difference("party", "party_presence", None, new[0].text, f"'{new[0].text}' named only in the input"))


_ROLE_BEFORE = re.compile(r"([a-z]{3,})\s+(?:(by|to|from|for|against|with|of)\s+)?(?:the\s+)?$")
# Verbs whose direct object is the party that benefits: "notify the Licensor", "indemnify Customer".


_OBJECT_VERBS = {"notify", "inform", "pay", "reimburse", "indemnify", "compensate", "invoice", "charge", "defend",
                 "assist", "consult", "remit", "refund", "credit", "warn", "advise", "supply", "provide", "give",
                 "grant", "grants", "notifies", "informs", "pays", "reimburses", "indemnifies", "compensates",
                 "provides", "gives", "supplies", "refunds", "owe", "owes", "hold", "holds"}


_POSSESSIVE_AFTER = re.compile(r"'s?\s+(?:own\s+|sole\s+)?([a-z]{3,})")


def _party_roles(clause: ClauseAtoms) -> dict[tuple[str, str], list[Atom]]:
    """Party mentions keyed by the word and preposition before them: "created by Contractor" ->
    ("create", "by"). Mentions with no such context are left out. Read once per clause (read-only)."""
    return clause.derived("parties.roles", _read_party_roles)


def _read_party_roles(clause: ClauseAtoms) -> dict[tuple[str, str], list[Atom]]:
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


_PERSONAL_PRONOUN = re.compile(r"\b(?:he|she|they|him|her|them|his|hers|its|their|theirs|himself|herself|themselves)\b")


def pronoun_count(clause: ClauseAtoms) -> int:
    """Personal and possessive pronouns ("his or her" counts one: it stands for one party)."""
    low = clause.text.lower()
    return len(_PERSONAL_PRONOUN.findall(low)) - len(re.findall(r"\b(?:his|he|him)\s+or\s+(?:her|she|hers)\b", low))


_PRONOUN_POSSESSIVE = re.compile(r"\b(?:his|her|its|their|our|your)\s+(?:own\s+|sole\s+)?([a-z]{3,})")


def _pronoun_stands_in(key: tuple[str, str], more: ClauseAtoms, fewer: ClauseAtoms,
                       named: list[Atom], kept: list[Atom]) -> bool:
    """One clause says "his or her business time" where the other names the party ("the
    Employee's business time"): the parties of the shorter list are all in the longer one, and
    the shorter clause has a possessive pronoun before the same word for each party it leaves out."""
    left = Counter(x.key for x in named)
    left.subtract(Counter(x.key for x in kept))
    if any(n < 0 for n in left.values()):
        return False  # a party the other clause does not name: another party's, not a pronoun's
    pronouns = sum(m.group(1)[:6] == key[0] for m in _PRONOUN_POSSESSIVE.finditer(fewer.text.lower()))
    theirs = sum(m.group(1)[:6] == key[0] for m in _PRONOUN_POSSESSIVE.finditer(more.text.lower()))
    return pronouns - theirs >= sum(left.values())


def _compare_party_roles(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference]) -> bool:
    """The same role ("created by", "owned by", "paid to") filled by a party of the other side."""
    r, i = _party_roles(ref), _party_roles(inp)
    # a set's order changes with the hash seed: ties (one mention in two roles) go to the possessive,
    # which quotes the words next to the party ("the Borrower's legal advisers"), then by key
    for key in sorted(r.keys() & i.keys(), key=lambda k: (r[k][0].start, k[1] != "'s", k)):
        a, b = r[key][0], i[key][0]
        if sorted(x.key for x in r[key]) != sorted(x.key for x in i[key]):
            if key[1] == "'s" and (_pronoun_stands_in(key, ref, inp, r[key], i[key])
                                   or _pronoun_stands_in(key, inp, ref, i[key], r[key])):
                continue
            quote_r = ref.text[max(0, a.start - 40):a.end]
            quote_i = inp.text[max(0, b.start - 40):b.end]
            if key[1] == "'s":
                quote_r, quote_i = ref.text[a.start:a.end + 20], inp.text[b.start:b.end + 20]
                ctx = f"^{re.escape(a.text)}'s?\\s+(?:own\\s+|sole\\s+)?{key[0]}\\w*"
                mr = re.search(ctx, quote_r, re.I)
                mi = re.search(f"^{re.escape(b.text)}'s?\\s+(?:own\\s+|sole\\s+)?{key[0]}\\w*", quote_i, re.I)
                x, y = mr.group() if mr else a.text, mi.group() if mi else b.text
                diffs.append(Difference("party", "party", x, y, f"'{x}' -> '{y}': another party's"))
                return True
            prep = f"\\s+{key[1]}" if key[1] else ""
            ctx = f"{key[0]}\\w*{prep}\\s+(?:the\\s+)?"
            mr = re.search(ctx + re.escape(a.text) + "$", quote_r, re.I)
            mi = re.search(ctx + re.escape(b.text) + "$", quote_i, re.I)
            x, y = mr.group() if mr else a.text, mi.group() if mi else b.text
            diffs.append(Difference("party", "party", x, y, f"'{x}' -> '{y}': another party in the same role"))
            return True
    return False


def extract(text: str, lexicon: Lexicon, mask: Mask) -> list[Atom]:
    return extract_party_mentions(text, lowered(text), mask, lexicon)


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    diffs: list[Difference] = []
    _compare_parties(ref, inp, diffs, context.fact("modality.actor_changed"))
    return diffs


FAMILY = Family(
    name="parties", claims=56, compares=30, extract=extract, compare=compare,
    weights={"party_presence": (0.35, "a party named on one side only")},
)
