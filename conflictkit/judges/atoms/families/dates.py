"""Calendar dates, weekdays, quarters, ordinal days and anniversaries."""

from __future__ import annotations


from conflictkit.judges.atoms.compare import Difference, _absent, _take
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family
from conflictkit.judges.atoms.text import Atom, Mask
from conflictkit.judges.atoms.calendar import extract_calendar_words, extract_dates
from conflictkit.judges.atoms.text import lowered
from conflictkit.lexicon import Lexicon


def _compare_dates(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference]) -> None:
    r, i = ref.of("date"), inp.of("date")
    _take(r, i, lambda a, b: a.key == b.key)
    for a, b in _take(r, i, lambda a, b: True):
        diffs.append(Difference("date", "date", a.text, b.text, f"date changed: '{a.text}' -> '{b.text}'"))
    diffs += [Difference("date", "date_presence", a.text, None, f"'{a.text}' only in the reference") for a in _absent(r, inp, "date")]
    diffs += [Difference("date", "date_presence", None, b.text, f"'{b.text}' only in the input") for b in _absent(i, ref, "date")]


def extract(text: str, lexicon: Lexicon, mask: Mask) -> list[Atom]:
    low = lowered(text)
    return extract_dates(text, low, mask, lexicon) + extract_calendar_words(text, low, mask, lexicon)


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    diffs: list[Difference] = []
    _compare_dates(ref, inp, diffs)
    return diffs


FAMILY = Family(
    name="dates", claims=10, compares=50, extract=extract, compare=compare,
    weights={"date": (0.9, "a date changed"), "date_presence": (0.75, "a date on one side only")},
    topic_groups=frozenset({("date", "date")}),
)
