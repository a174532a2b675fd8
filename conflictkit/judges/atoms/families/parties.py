"""Party mentions: a side of the deal named on one side only, or a role filled by the other side."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from conflictkit.judges.atoms.compare import Difference
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family
from conflictkit.judges.atoms.modal import extract_party_mentions
from conflictkit.judges.atoms.text import Atom, Mask, lowered, words_of
from conflictkit.lexicon import LanguagePack
from conflictkit.lexicon.regex import compile_pattern


@dataclass(frozen=True)
class _Roles:
    """The words of roles and pronouns (``parties.yaml``), compiled once per pack."""

    role_before: re.Pattern[str]
    role_article: str
    object_verbs: frozenset[str]
    possessive: str
    possessive_after: re.Pattern[str]
    stopwords: frozenset[str]
    pronouns: re.Pattern[str]
    pronoun_pairs: re.Pattern[str]
    pronoun_possessive: re.Pattern[str]


def _roles(lex: LanguagePack) -> _Roles:
    def build() -> _Roles:
        p = lex.data.parties
        return _Roles(
            role_before=compile_pattern(rf"(\p{{L}}{{3,}})\s+(?:({'|'.join(p.role_prepositions)})\s+)?{p.role_article}$"),
            role_article=p.role_article, object_verbs=frozenset(p.object_verbs), possessive=p.possessive,
            possessive_after=compile_pattern(rf"{p.possessive}(\p{{L}}{{3,}})"), stopwords=words_of(lex).stopwords,
            pronouns=compile_pattern(p.personal_pronouns), pronoun_pairs=compile_pattern(p.pronoun_pairs),
            pronoun_possessive=compile_pattern(p.pronoun_possessive))
    return lex.memo("parties.roles", build)


def _compare_parties(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference], actor_changed: bool,
                     lex: LanguagePack) -> None:
    """A side of the deal named on one side only: replaced by the other side (the risk of loss
    moves from Seller to Buyer, IP vests in the Contractor instead of the Client) or just gone."""
    if actor_changed:
        return  # who acts already changed: the mentions say the same thing again
    if _compare_party_roles(ref, inp, diffs, _roles(lex)):
        return
    r = [a for a in ref.of("party") if a.group == "mention"]
    i = [b for b in inp.of("party") if b.group == "mention"]
    gone, new = _unnamed(r, i, ref, inp, lex)
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


def _unnamed(r: list[Atom], i: list[Atom], ref: ClauseAtoms, inp: ClauseAtoms,
             lex: LanguagePack) -> tuple[list[Atom], list[Atom]]:
    """The mentions of a side only one clause names, unless the other says it with a pronoun: "his or
    her business time" for "the Employee's business time" (that clause has as many more pronouns)."""
    gone = [a for a in r if a.key not in {b.key for b in i}]
    new = [b for b in i if b.key not in {a.key for a in r}]
    if gone and pronoun_count(inp, lex) - pronoun_count(ref, lex) >= len({a.key for a in gone}):
        gone = []
    if new and pronoun_count(ref, lex) - pronoun_count(inp, lex) >= len({b.key for b in new}):
        new = []
    return gone, new


def _party_roles(clause: ClauseAtoms, roles: _Roles) -> dict[tuple[str, str], list[Atom]]:
    """Party mentions keyed by the word and preposition before them: "created by Contractor" ->
    ("create", "by"). Mentions with no such context are left out. Read once per clause (read-only)."""
    return clause.derived("parties.roles", lambda c: _read_party_roles(c, roles))


def _read_party_roles(clause: ClauseAtoms, roles: _Roles) -> dict[tuple[str, str], list[Atom]]:
    found: dict[tuple[str, str], list[Atom]] = {}
    low = clause.text.lower()
    for a in clause.of("party"):
        m = roles.role_before.search(low, max(0, a.start - 40), a.start)
        if m and (m.group(2) or m.group(1) in roles.object_verbs):
            found.setdefault((m.group(1)[:6], m.group(2) or ""), []).append(a)
        p = roles.possessive_after.match(low, a.end)
        if p and p.group(1) not in roles.stopwords:  # "at the Supplier's expense", "the Owner's employees"
            found.setdefault((p.group(1)[:6], "'s"), []).append(a)
    return found


def pronoun_count(clause: ClauseAtoms, lex: LanguagePack) -> int:
    """Personal and possessive pronouns ("his or her" counts one: it stands for one party)."""
    low, roles = clause.text.lower(), _roles(lex)
    return len(roles.pronouns.findall(low)) - len(roles.pronoun_pairs.findall(low))


def _pronoun_stands_in(key: tuple[str, str], more: ClauseAtoms, fewer: ClauseAtoms,
                       named: list[Atom], kept: list[Atom], roles: _Roles) -> bool:
    """One clause says "his or her business time" where the other names the party ("the
    Employee's business time"): the parties of the shorter list are all in the longer one, and
    the shorter clause has a possessive pronoun before the same word for each party it leaves out."""
    left = Counter(x.key for x in named)
    left.subtract(Counter(x.key for x in kept))
    if any(n < 0 for n in left.values()):
        return False  # a party the other clause does not name: another party's, not a pronoun's
    pronouns = sum(m.group(1)[:6] == key[0] for m in roles.pronoun_possessive.finditer(fewer.text.lower()))
    theirs = sum(m.group(1)[:6] == key[0] for m in roles.pronoun_possessive.finditer(more.text.lower()))
    return pronouns - theirs >= sum(left.values())


def _compare_party_roles(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference], roles: _Roles) -> bool:
    """The same role ("created by", "owned by", "paid to") filled by a party of the other side."""
    r, i = _party_roles(ref, roles), _party_roles(inp, roles)
    # a set's order changes with the hash seed: ties (one mention in two roles) go to the possessive,
    # which quotes the words next to the party ("the Borrower's legal advisers"), then by key
    for key in sorted(r.keys() & i.keys(), key=lambda k: (r[k][0].start, k[1] != "'s", k)):
        if sorted(x.key for x in r[key]) == sorted(x.key for x in i[key]):
            continue
        if key[1] == "'s" and (_pronoun_stands_in(key, ref, inp, r[key], i[key], roles)
                               or _pronoun_stands_in(key, inp, ref, i[key], r[key], roles)):
            continue
        diffs.append(_role_filled(ref, r[key][0], inp, i[key][0], key, roles))
        return True
    return False


def _role_filled(ref: ClauseAtoms, a: Atom, inp: ClauseAtoms, b: Atom, key: tuple[str, str], roles: _Roles) -> Difference:
    """The difference of one role filled by another party, quoting each party with its role's words."""
    if key[1] == "'s":
        quote_r, quote_i = ref.text[a.start:a.end + 20], inp.text[b.start:b.end + 20]
        mr = compile_pattern(f"^{re.escape(a.text)}{roles.possessive}{key[0]}\\w*", re.I).search(quote_r)
        mi = compile_pattern(f"^{re.escape(b.text)}{roles.possessive}{key[0]}\\w*", re.I).search(quote_i)
        x, y = mr.group() if mr else a.text, mi.group() if mi else b.text
        return Difference("party", "party", x, y, f"'{x}' -> '{y}': another party's")
    quote_r = ref.text[max(0, a.start - 40):a.end]
    quote_i = inp.text[max(0, b.start - 40):b.end]
    prep = f"\\s+{key[1]}" if key[1] else ""
    ctx = f"{key[0]}\\w*{prep}\\s+{roles.role_article}"
    mr = compile_pattern(ctx + re.escape(a.text) + "$", re.I).search(quote_r)
    mi = compile_pattern(ctx + re.escape(b.text) + "$", re.I).search(quote_i)
    x, y = mr.group() if mr else a.text, mi.group() if mi else b.text
    return Difference("party", "party", x, y, f"'{x}' -> '{y}': another party in the same role")


def extract(text: str, lexicon: LanguagePack, mask: Mask) -> list[Atom]:
    return extract_party_mentions(text, lowered(text), mask, lexicon)


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    diffs: list[Difference] = []
    _compare_parties(ref, inp, diffs, context.fact("modality.actor_changed"), context.lexicon)
    return diffs


FAMILY = Family(
    name="parties", claims=56, compares=30, extract=extract, compare=compare,
    weights={"party_presence": (0.35, "a party named on one side only")},
)
