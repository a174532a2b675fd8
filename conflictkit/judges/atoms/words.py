"""Qualifiers, exceptions and scope words compared: shared by the three families that read them from the phrase table.

The words that decide how (what a minor group is, where an exception's words end, who pays "at the
Buyer's expense") are the pack's ``phrases.yaml``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from conflictkit.judges.atoms.compare import Difference, _absent, _take
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.parties import sides
from conflictkit.judges.atoms.text import Atom, Mask, Words, content_stems, words_of
from conflictkit.lexicon import LanguagePack
from conflictkit.lexicon.regex import compile_pattern

_TAILED = {"exception", "condition", "only"}  # groups of the phrase table whose words are compared
_TAIL_START = re.compile(r".*[,;:(]", re.DOTALL)
_SENTENCE_START = re.compile(r"[.;:]")


@dataclass(frozen=True)
class _Vocabulary:
    """The words this module reads (``phrases.yaml``), compiled once per pack."""

    language: str
    words: Words
    minor: dict[str, frozenset[str]]
    minor_changes: frozenset[str]
    payer: re.Pattern[str]
    payer_pronouns: frozenset[str]
    said_otherwise: dict[str, re.Pattern[str]]
    tail_end: re.Pattern[str]
    generic: frozenset[str]
    postposed: frozenset[str]
    same_stems: tuple[str, ...]
    except_words: re.Pattern[str]
    negated_before: re.Pattern[str]
    except_after: re.Pattern[str]
    not_a_scope_after: tuple[str, ...]
    generic_nouns: frozenset[str]
    word: re.Pattern[str]
    noun: re.Pattern[str]


def _vocabulary(lex: LanguagePack) -> _Vocabulary:
    def build() -> _Vocabulary:
        p = lex.data.phrases
        return _Vocabulary(
            language=lex.language, words=words_of(lex), minor={k: frozenset(v) for k, v in p.minor_groups.items()},
            minor_changes=frozenset(p.minor_changes), payer=compile_pattern(p.expense_payer),
            payer_pronouns=frozenset(p.payer_pronouns),
            said_otherwise={k: compile_pattern(v, re.IGNORECASE) for k, v in p.said_otherwise.items()},
            tail_end=compile_pattern(p.tail_end), generic=frozenset(p.tail_generic), postposed=frozenset(p.postposed_exceptions),
            same_stems=tuple(p.same_stems), except_words=compile_pattern(p.except_words, re.IGNORECASE),
            negated_before=compile_pattern(p.negated_before), except_after=compile_pattern(p.except_after),
            not_a_scope_after=tuple(" " + w for w in p.not_a_scope_after), generic_nouns=frozenset(p.generic_nouns),
            word=compile_pattern(r"\p{L}[\w'-]*"), noun=compile_pattern(r"\p{L}[\p{L}-]+"))
    return lex.memo("words.vocabulary", build)


def _payer(clause: ClauseAtoms, atom: Atom, side_of: dict[str, str], v: _Vocabulary) -> str:
    """Who bears a cost: "at the Buyer's expense" -> receiver; "at its own cost" -> the party that acts."""
    m = v.payer.match(atom.text + " ")
    if m and m.group(1).lower() not in v.payer_pronouns:
        name = m.group(1).lower()
        return side_of.get(name, "name:" + v.words.singular(name, exceptions=False))
    modals = [a for a in clause.of("modality") if a.attr("actor")]
    before = [a for a in modals if a.start < atom.start]
    return (before[-1] if before else modals[0]).attr("actor") if modals else ""


def expense_payers(ref: ClauseAtoms, inp: ClauseAtoms, lex: LanguagePack) -> tuple[ClauseAtoms, ClauseAtoms]:
    """The two clauses with "at X's expense" keyed by who pays, when both sides say who."""
    r = [a for a in ref.of("qualifier") if a.group == "expense" and a.key == "own expense"]
    i = [b for b in inp.of("qualifier") if b.group == "expense" and b.key == "own expense"]
    if not r or not i:
        return ref, inp
    side_of, v = sides(lex), _vocabulary(lex)
    pr, pi = {id(a): _payer(ref, a, side_of, v) for a in r}, {id(b): _payer(inp, b, side_of, v) for b in i}
    if not all(pr.values()) or not all(pi.values()):
        return ref, inp

    def rekey(clause: ClauseAtoms, payers: dict[int, str]) -> ClauseAtoms:
        atoms = tuple(replace(a, key=f"expense of {payers[id(a)]}") if id(a) in payers else a for a in clause.atoms)
        return ClauseAtoms(clause.text, atoms, clause.stems)

    return rekey(ref, pr), rekey(inp, pi)


def compare_words(ref: ClauseAtoms, inp: ClauseAtoms, family: str, diffs: list[Difference], lex: LanguagePack) -> None:
    """Qualifiers, exceptions and scope words: changes within a group, then one-sided atoms."""
    v = _vocabulary(lex)
    r, i = ref.of(family), inp.of(family)
    if family == "exception":
        _compare_exceptions(ref, inp, r, i, diffs, v)
    else:
        _take(r, i, lambda a, b: a.key == b.key and a.group == b.group)
    if family == "scope":
        _compare_quantifiers(ref, inp, r, i, diffs, v)
    for a, b in _take(r, i, lambda a, b: a.group == b.group):
        weight = "quantity" if a.group == "quantity" else ("qualifier" if family == "qualifier" else family)
        if family == "qualifier" and a.group in v.minor.get(family, ()) and a.group in v.minor_changes:
            weight = "qualifier_minor"  # how soon an act is due changed ("promptly" -> "as soon as practicable") is not minor
        diffs.append(Difference(family, weight, a.text, b.text, f"'{a.text}' -> '{b.text}'"))
    for atoms, side in ((_absent(r, inp, family), "reference"), (_absent(i, ref, family), "input")):
        for a in atoms:
            found = _one_sided(a, ref if side == "reference" else inp, inp if side == "reference" else ref, family, side, v)
            if found is not None:
                diffs.append(found)


def _compare_exceptions(ref: ClauseAtoms, inp: ClauseAtoms, r: list[Atom], i: list[Atom], diffs: list[Difference],
                        v: _Vocabulary) -> None:
    """Exceptions of one kind on both sides: moved past each other, they pair by their words; paired,
    they differ when their words do ("except in an emergency" -> "except where convenient")."""
    if len(r) > 1 and len(i) > 1:
        _take(r, i, lambda a, b: a.key == b.key and a.group == b.group and a.group in _TAILED
              and _tails_match(ref.text, a, inp.text, b, v) and not _tail_widened(ref.text, a, inp.text, b, v))
    for a, b in _take(r, i, lambda a, b: a.key == b.key and a.group == b.group):
        if a.group in _TAILED and (_tails_differ(ref.text, a, inp.text, b, v) or _tail_widened(ref.text, a, inp.text, b, v)):
            x, y = _tail(ref.text, a, v), _tail(inp.text, b, v)
            diffs.append(Difference("exception", "exception", x, y, f"'{x}' -> '{y}': a different exception or condition"))


def _one_sided(a: Atom, here: ClauseAtoms, other: ClauseAtoms, family: str, side: str, v: _Vocabulary) -> Difference | None:
    """The difference of an atom one side has and the other does not say at all, or None."""
    weight = _presence_weight(family, a.group, v)
    said = v.said_otherwise.get(a.key)
    if said is not None and said.search(other.text):
        return None  # "refundable" / "will refund": the same thing said another way
    if a.key == "including" and _illustration_kept(here.text, a, other.text, v):
        return None  # "the Premises, including the windows" / "the Premises and their windows"
    if a.key == "excluding":  # a carve-out ("but excludes its Affiliates"), not an illustration
        weight = "scope_presence"
    if a.group == "partial" and _alls(other) > _alls(here):
        weight = "scope_minor"  # "any part of the Services" / "any subcontracting of the Services"
    if weight is None:
        return None
    quote, other_quote = _with_head(here.text, a, other.text, v)
    ref_q, inp_q = (quote, other_quote) if side == "reference" else (other_quote, quote)
    return Difference(family, weight, ref_q, inp_q, f"'{quote}' only in the {side}")


def _illustration_kept(text: str, atom: Atom, other: str, v: _Vocabulary) -> bool:
    """Whether every word an "including" introduces is in the other clause: the example is named
    there in another construction, so only the word "including" went."""
    words = _tail_stems(text, atom, v)
    return bool(words) and words <= content_stems(other.lower(), v.language)


def _alls(clause: ClauseAtoms) -> int:
    return sum(x.group == "quantity" and x.key == "all" for x in clause.of("scope"))


def _presence_weight(family: str, group: str, v: _Vocabulary) -> str | None:
    minor = group in v.minor.get(family, ())
    if family == "qualifier":
        return "qualifier_minor" if minor else "qualifier"
    if family == "exception":
        return "exception"
    if group == "quantity":
        return None
    return "scope_minor" if minor else "scope_presence"


def _with_head(text: str, atom: Atom, other: str, v: _Vocabulary) -> tuple[str, str | None]:
    """Quote a one-sided word with the word it qualifies ("written approval"), and that word on the
    other side with the word before it ("prior approval"), when the other side has it."""
    nxt = v.word.search(text, atom.end)
    if nxt is None or nxt.start() - atom.end > 2 or nxt.group().lower() in v.words.stopwords:
        return atom.text, None
    quote = text[atom.start:nxt.end()]
    found = re.search(rf"\b{re.escape(nxt.group())}\b", other)
    if not found:
        return quote, None
    before = list(v.word.finditer(other, max(0, found.start() - 30), found.start()))
    start = before[-1].start() if before and found.start() - before[-1].end() <= 2 else found.start()
    return quote, other[start:found.end()]


def _tail(text: str, atom: Atom, v: _Vocabulary) -> str:
    """The words an exception or condition introduces: up to the next punctuation or conjunction;
    a postposed one ("..., fair wear and tear excepted") is the words before it, from the last comma."""
    if atom.text.lower() in v.postposed:
        lead = _TAIL_START.match(text, max(0, atom.start - 120), atom.start)
        return text[lead.end() if lead else max(0, atom.start - 120):atom.end].strip()
    stop = v.tail_end.search(text.lower(), atom.end + 1, atom.end + 120)
    end = stop.start() if stop else min(len(text), atom.end + 120)
    return text[atom.start:end].rstrip()


def _tail_stems(text: str, atom: Atom, v: _Vocabulary) -> set[str]:
    tail = _tail(text, atom, v)
    words = tail[:-len(atom.text)] if atom.text.lower() in v.postposed else tail[len(atom.text):]
    stems = content_stems(words.lower(), v.language) - v.generic
    return {next((s for s in v.same_stems if w.startswith(s)), w) for w in stems}  # "in writing" == "written"


def _tails_differ(ref_text: str, a: Atom, inp_text: str, b: Atom, v: _Vocabulary) -> bool:
    """Same kind of exception, disjoint words: "except in an emergency" -> "except where convenient"."""
    x, y = _tail_stems(ref_text, a, v), _tail_stems(inp_text, b, v)
    return bool(x) and bool(y) and len(x & y) < 0.4 * min(len(x), len(y))


def _tail_widened(ref_text: str, a: Atom, inp_text: str, b: Atom, v: _Vocabulary) -> bool:
    """An exception that keeps the other's words and adds some: "except for routine maintenance" ->
    "routine maintenance and emergencies excepted", "save for minor defects" -> "save for defects"."""
    if not (v.except_words.match(a.text) and v.except_words.match(b.text)):
        return False  # "only" / "limited to" tails are phrased too freely to compare word by word
    x, y = _tail_stems(ref_text, a, v), _tail_stems(inp_text, b, v)
    return bool(x) and bool(y) and x != y and (x < y or y < x)


def _tails_match(ref_text: str, a: Atom, inp_text: str, b: Atom, v: _Vocabulary) -> bool:
    """Same kind of exception with mostly the same words: "fair wear excepted" / "except for fair wear"."""
    x, y = _tail_stems(ref_text, a, v), _tail_stems(inp_text, b, v)
    return bool(x) and bool(y) and len(x & y) >= 0.4 * min(len(x), len(y))


def _compare_quantifiers(ref: ClauseAtoms, inp: ClauseAtoms, r: list[Atom], i: list[Atom], diffs: list[Difference],
                         v: _Vocabulary) -> None:
    """An "all" / "any" left unpaired whose noun the other clause does not name: the other clause
    speaks of something narrower ("all intellectual property rights" -> "the copyright",
    "any customer" -> "retail customers"). Under a negation ("not ... any") or before an
    exception ("any purpose other than") the quantifier restricts nothing of its own."""
    for here, other, left, side in ((ref, inp, r, "reference"), (inp, ref, i, "input")):
        others = content_stems(other.text.lower(), v.language)
        for a in left:
            if a.group != "quantity" or a.key != "all":
                continue
            quote = _narrowed(here.text.lower(), here.text, a, others, v)
            if quote is not None:
                ref_q, inp_q = (quote, None) if side == "reference" else (None, quote)
                diffs.append(Difference("scope", "scope", ref_q, inp_q,
                                        f"'{quote}' only in the {side}: the other clause names something narrower"))


def _narrowed(low: str, text: str, a: Atom, others: frozenset[str], v: _Vocabulary) -> str | None:
    """The quote of an "all" / "any" that scopes a noun the other clause does not name, or None."""
    starts = [m.end() for m in _SENTENCE_START.finditer(low, 0, a.start)]
    if not low[starts[-1] if starts else 0:a.start].strip(" ("):
        return None  # "Any variation requires...", "All notices shall...": the subject, not a scope
    if v.negated_before.search(low, starts[-1] if starts else 0, a.start) or v.except_after.search(low, a.end, a.end + 50):
        return None
    nouns = [v.words.stem(w) for w in v.noun.findall(low[a.end:a.end + 60]) if len(w) > 2 and w not in v.words.stopwords][:2]
    if low.startswith(v.not_a_scope_after, a.end):
        return None  # "at all times": always, not a scope
    if not nouns or nouns[0][:4] in {w[:4] for w in others} or nouns[0] in v.generic_nouns:  # "any unsold Products" -> "damaged Products"
        return None
    return text[a.start:a.end + len(" ".join(nouns)) + 20].split(",")[0].strip()


def phrase_family(name: str, atoms: str, claims: int, compares: int, weights: dict[str, tuple[float, str]],
                  topic_groups: frozenset[tuple[str, str]] = frozenset(), prepare=None):
    """A family whose atoms are the phrase table's rows of one atom family (``atoms``), compared by
    :func:`compare_words`; ``prepare(ref, inp, lexicon)`` may rekey the two clauses first."""
    from conflictkit.judges.atoms.family import ComparisonContext, Family
    from conflictkit.judges.atoms.phrases import extract_phrases
    from conflictkit.judges.atoms.text import lowered

    rows = frozenset({atoms})

    def extract(text: str, lexicon: LanguagePack, mask: Mask) -> list[Atom]:
        return extract_phrases(text, lowered(text), mask, lexicon, rows)

    def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
        diffs: list[Difference] = []
        if prepare is not None:
            ref, inp = prepare(ref, inp, context.lexicon)
        compare_words(ref, inp, atoms, diffs, context.lexicon)
        return diffs

    return Family(name=name, claims=claims, compares=compares, extract=extract, compare=compare, weights=weights,
                  topic_groups=topic_groups)
