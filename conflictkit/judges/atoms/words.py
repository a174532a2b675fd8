"""Qualifiers, exceptions and scope words compared: shared by the three families that read them from the phrase table."""

from __future__ import annotations

import re
from dataclasses import replace

from conflictkit.judges.atoms.compare import Difference, _absent, _take
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.text import STOPWORDS, Atom, Mask, content_stems, stem
from conflictkit.judges.atoms.parties import sides
from conflictkit.lexicon import Lexicon


_MINOR_QUALIFIERS = {"timing", "good faith", "mutual"}


_MINOR_SCOPE = {"inclusion", "binding"}


_POSSESSOR = re.compile(r"\bat\s+(?:the\s+)?([\w-]+?)(?:'s?)\s")


def _payer(clause: ClauseAtoms, atom: Atom, side_of: dict[str, str]) -> str:
    """Who bears a cost: "at the Buyer's expense" -> receiver; "at its own cost" -> the party that acts."""
    m = _POSSESSOR.match(atom.text + " ")
    if m and m.group(1).lower() not in ("its", "their", "his", "her", "our"):
        name = m.group(1).lower()
        return side_of.get(name, "name:" + (name[:-1] if len(name) > 4 and name.endswith("s") else name))
    modals = [a for a in clause.of("modality") if a.attr("actor")]
    before = [a for a in modals if a.start < atom.start]
    return (before[-1] if before else modals[0]).attr("actor") if modals else ""


def expense_payers(ref: ClauseAtoms, inp: ClauseAtoms, lex: Lexicon) -> tuple[ClauseAtoms, ClauseAtoms]:
    """The two clauses with "at X's expense" keyed by who pays, when both sides say who."""
    r = [a for a in ref.of("qualifier") if a.group == "expense" and a.key == "own expense"]
    i = [b for b in inp.of("qualifier") if b.group == "expense" and b.key == "own expense"]
    if not r or not i:
        return ref, inp
    side_of = sides(lex)
    pr, pi = {id(a): _payer(ref, a, side_of) for a in r}, {id(b): _payer(inp, b, side_of) for b in i}
    if not all(pr.values()) or not all(pi.values()):
        return ref, inp

    def rekey(clause: ClauseAtoms, payers: dict[int, str]) -> ClauseAtoms:
        atoms = tuple(replace(a, key=f"expense of {payers[id(a)]}") if id(a) in payers else a for a in clause.atoms)
        return ClauseAtoms(clause.text, atoms, clause.stems)

    return rekey(ref, pr), rekey(inp, pi)


def compare_words(ref: ClauseAtoms, inp: ClauseAtoms, family: str, diffs: list[Difference]) -> None:
    """Qualifiers, exceptions and scope words: changes within a group, then one-sided atoms."""
    r, i = ref.of(family), inp.of(family)
    if family == "exception" and len(r) > 1 and len(i) > 1:  # exceptions moved past each other pair by their words
        _take(r, i, lambda a, b: a.key == b.key and a.group == b.group and a.group in _TAILED
              and _tails_match(ref.text, a, inp.text, b) and not _tail_widened(ref.text, a, inp.text, b))
    for a, b in _take(r, i, lambda a, b: a.key == b.key and a.group == b.group):
        if family == "exception" and a.group in _TAILED and (_tails_differ(ref.text, a, inp.text, b)
                                                             or _tail_widened(ref.text, a, inp.text, b)):
            diffs.append(Difference("exception", "exception", _tail(ref.text, a), _tail(inp.text, b),
                                    f"'{_tail(ref.text, a)}' -> '{_tail(inp.text, b)}': a different exception or condition"))
    if family == "scope":
        _compare_quantifiers(ref, inp, r, i, diffs)
    for a, b in _take(r, i, lambda a, b: a.group == b.group):
        weight = "quantity" if a.group == "quantity" else ("qualifier" if family == "qualifier" else family)
        if family == "qualifier" and a.group in _MINOR_QUALIFIERS and a.group != "timing":
            weight = "qualifier_minor"  # how soon an act is due changed ("promptly" -> "as soon as practicable") is not minor
        diffs.append(Difference(family, weight, a.text, b.text, f"'{a.text}' -> '{b.text}'"))
    for atoms, side in ((_absent(r, inp, family), "reference"), (_absent(i, ref, family), "input")):
        for a in atoms:
            weight = _presence_weight(family, a.group)
            other = inp if side == "reference" else ref
            here = ref if side == "reference" else inp
            if a.key in _ABLE and re.search(_ABLE[a.key], other.text, re.I):
                continue  # "refundable" / "will refund": the same thing said another way
            if a.key == "including" and _illustration_kept(here.text, a, other.text):
                continue  # "the Premises, including the windows" / "the Premises and their windows"
            if a.key == "excluding":  # a carve-out ("but excludes its Affiliates"), not an illustration
                weight = "scope_presence"
            if a.group == "partial" and _alls(other) > _alls(here):
                weight = "scope_minor"  # "any part of the Services" / "any subcontracting of the Services"
            if weight is None:
                continue
            quote, other_quote = _with_head(here.text, a, other.text)
            ref_q, inp_q = (quote, other_quote) if side == "reference" else (other_quote, quote)
            diffs.append(Difference(family, weight, ref_q, inp_q, f"'{quote}' only in the {side}"))


_ABLE = {"prior": r"\b(?:earlier|previous|preceding)\b",  # "prior agreements" / "earlier agreements"
         "refundable": r"\brefund(?:s|ed)?\b", "cancellable": r"\bcancel(?:s|led)?\b",
         "transferable": r"\btransfer(?:s|red)?\b", "sublicensable": r"\bsub-?licen[cs]e(?:s|d)?\b",
         "revocable": r"\brevoke[sd]?\b"}


def _illustration_kept(text: str, atom: Atom, other: str) -> bool:
    """Whether every word an "including" introduces is in the other clause: the example is named
    there in another construction, so only the word "including" went."""
    words = _tail_stems(text, atom)
    return bool(words) and words <= content_stems(other.lower())


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


# the main clause's negative predicate ends an exception inside its subject: "use by anyone except
# the Licensee's employees falls outside the licence" (the outside verbs of modality.yaml)
_TAIL_END = re.compile(r"[,;.:]|\b(?:but|provided|unless|except|whereupon|in\s+which\s+case)\b"
                       r"|\b(?:fall|falls|fell|fallen|falling|lie|lies|lay|lying)\s+outside\b")


_GENERIC = {"otherwise", "expressly", "provid", "set", "stated", "specif", "permit", "describ", "agreed", "extent",
            "require", "applic", "herein", "hereof", "reason", "law",
            "regard", "respec"}  # "with regard to", "in respect of": a preposition, not what the tail names


_TAIL_START = re.compile(r".*[,;:(]", re.DOTALL)


def _tail(text: str, atom: Atom) -> str:
    """The words an exception or condition introduces: up to the next punctuation or conjunction;
    a postposed one ("..., fair wear and tear excepted") is the words before it, from the last comma."""
    if atom.text.lower() == "excepted":
        lead = _TAIL_START.match(text, max(0, atom.start - 120), atom.start)
        return text[lead.end() if lead else max(0, atom.start - 120):atom.end].strip()
    stop = _TAIL_END.search(text.lower(), atom.end + 1, atom.end + 120)
    end = stop.start() if stop else min(len(text), atom.end + 120)
    return text[atom.start:end].rstrip()


def _tail_stems(text: str, atom: Atom) -> set[str]:
    tail = _tail(text, atom)
    words = tail[:-len(atom.text)] if atom.text.lower() == "excepted" else tail[len(atom.text):]
    stems = content_stems(words.lower()) - _GENERIC
    return {"writ" if w.startswith("writ") else w for w in stems}  # "in writing" == "written"


def _tails_differ(ref_text: str, a: Atom, inp_text: str, b: Atom) -> bool:
    """Same kind of exception, disjoint words: "except in an emergency" -> "except where convenient"."""
    x, y = _tail_stems(ref_text, a), _tail_stems(inp_text, b)
    return bool(x) and bool(y) and len(x & y) < 0.4 * min(len(x), len(y))


def _tail_widened(ref_text: str, a: Atom, inp_text: str, b: Atom) -> bool:
    """An exception that keeps the other's words and adds some: "except for routine maintenance" ->
    "routine maintenance and emergencies excepted", "save for minor defects" -> "save for defects"."""
    if not (_EXCEPT_WORD.match(a.text) and _EXCEPT_WORD.match(b.text)):
        return False  # "only" / "limited to" tails are phrased too freely to compare word by word
    x, y = _tail_stems(ref_text, a), _tail_stems(inp_text, b)
    return bool(x) and bool(y) and x != y and (x < y or y < x)


_EXCEPT_WORD = re.compile(r"(?:except|save|unless|other\s+than)", re.IGNORECASE)


def _tails_match(ref_text: str, a: Atom, inp_text: str, b: Atom) -> bool:
    """Same kind of exception with mostly the same words: "fair wear excepted" / "except for fair wear"."""
    x, y = _tail_stems(ref_text, a), _tail_stems(inp_text, b)
    return bool(x) and bool(y) and len(x & y) >= 0.4 * min(len(x), len(y))


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
            diffs.append(Difference("scope", "scope", ref_q, inp_q, f"'{quote}' only in the {side}: the other clause names something narrower"))


def phrase_family(name: str, atoms: str, claims: int, compares: int, weights: dict[str, tuple[float, str]],
                  topic_groups: frozenset[tuple[str, str]] = frozenset(), prepare=None):
    """A family whose atoms are the phrase table's rows of one atom family (``atoms``), compared by
    :func:`compare_words`; ``prepare(ref, inp, lexicon)`` may rekey the two clauses first."""
    from conflictkit.judges.atoms.family import ComparisonContext, Family
    from conflictkit.judges.atoms.phrases import extract_phrases
    from conflictkit.judges.atoms.text import lowered

    rows = frozenset({atoms})

    def extract(text: str, lexicon: Lexicon, mask: Mask) -> list[Atom]:
        return extract_phrases(text, lowered(text), mask, lexicon, rows)

    def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
        diffs: list[Difference] = []
        if prepare is not None:
            ref, inp = prepare(ref, inp, context.lexicon)
        compare_words(ref, inp, atoms, diffs)
        return diffs

    return Family(name=name, claims=claims, compares=compares, extract=extract, compare=compare, weights=weights,
                  topic_groups=topic_groups)
