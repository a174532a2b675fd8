"""Free negations ("is not liable", "without cause", "no refund") and their count on each side."""

from __future__ import annotations

import re

from conflictkit.judges.atoms.compare import Difference, _take
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family
from conflictkit.judges.atoms.families.modality import opposites
from conflictkit.judges.atoms.modal import extract_negations
from conflictkit.judges.atoms.text import Atom, Mask, lowered, words_of
from conflictkit.lexicon import LanguagePack
from conflictkit.lexicon.regex import compile_pattern


def _compare_negation(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference], negative_left: tuple[int, int],
                      lex: LanguagePack) -> None:
    """Free negations: a net difference in their count is a reversed meaning, unless a negative
    modal on the other side says the same thing ("is not liable" == "shall not be liable")."""
    r, i = ref.of("negation"), inp.of("negation")
    _take(r, i, lambda a, b: a.anchor == b.anchor)
    _take(r, i, lambda a, b: True)
    r = r[negative_left[1]:]
    i = i[negative_left[0]:]
    r = [a for a in r if not _said_positively(a.anchor, inp, lex) and not _prefixed_there(ref, a, inp, lex)]
    i = [b for b in i if not _said_positively(b.anchor, ref, lex) and not _prefixed_there(inp, b, ref, lex)]
    for a in r:
        diffs.append(Difference("negation", "negation", a.text, _find_anchor(inp.text, a.anchor), "negation only in the reference"))
    for b in i:
        diffs.append(Difference("negation", "negation", _find_anchor(ref.text, b.anchor), b.text, "negation only in the input"))


def _patterns(lex: LanguagePack) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], tuple[str, ...]]:
    """A word with a negative prefix (group 1 the word it negates), a word, a word of four letters or
    more, and the prefixes that always negate (``morphology.yaml``)."""
    m = lex.data.morphology
    return lex.memo("negation.patterns", lambda: (
        compile_pattern(r"\b(?:" + "|".join(map(re.escape, m.negative_prefixes)) + r")(\p{L}+)"),
        compile_pattern(r"\p{L}+"), compile_pattern(r"\p{L}{4,}"), tuple(m.clear_negative_prefixes)))


def _said_positively(anchor: str, other: ClauseAtoms, lex: LanguagePack) -> bool:
    """A negation the other clause states with the opposite word ("does not affect" / "survives") or
    with a negative prefix ("not valid" / "invalid")."""
    if not anchor:
        return False
    low, w = other.text.lower(), words_of(lex)
    prefixed, word, _, _ = _patterns(lex)
    words = {w.stem(x) for x in word.findall(low)}
    if any(frozenset((anchor, x)) in opposites(lex) for x in words):
        return True
    return any(w.stem(m.group(1)) == anchor for m in prefixed.finditer(low))


def _prefixed_there(here: ClauseAtoms, atom: Atom, other: ClauseAtoms, lex: LanguagePack) -> bool:
    """"does not wish to renew" / "notice of non-renewal": the other clause negates one of the next
    words with a prefix."""
    prefixed, _, long_word, clear = _patterns(lex)
    near = {w[:4] for w in long_word.findall(here.text.lower()[atom.start:atom.end + 40])[:5]}
    return any(m.group(1)[:4] in near for m in prefixed.finditer(other.text.lower()) if len(m.group(1)) >= 4
               and m.group().startswith(clear))


def _find_anchor(text: str, anchor: str) -> str | None:
    """The word the other side negates, quoted from this side when it is there."""
    if not anchor:
        return None
    m = re.search(rf"(?i)\b{re.escape(anchor)}\w*", text)
    return m.group() if m else None


def extract(text: str, lexicon: LanguagePack, mask: Mask) -> list[Atom]:
    return extract_negations(text, lowered(text), mask, lexicon)


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    diffs: list[Difference] = []
    _compare_negation(ref, inp, diffs, context.fact("modality.negative_left"), context.lexicon)
    return diffs


FAMILY = Family(
    name="negation", claims=55, compares=20, extract=extract, compare=compare,
    weights={"negation": (0.93, "a negation added or dropped; shall <-> shall not; may <-> may not")},
)
