"""Amounts, percentages, durations, counts, frequencies and currencies, with their comparators."""

from __future__ import annotations


from conflictkit.judges.atoms.compare import Difference, _absent, _take
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family
from conflictkit.judges.atoms.text import Atom, Mask
from conflictkit.judges.atoms.numbers import extract_currencies, extract_frequencies, extract_numbers
from conflictkit.judges.atoms.text import lowered
from conflictkit.lexicon import Lexicon


_WHAT = {"money": "amount", "percent": "percentage", "duration": "period", "count": "number",
         "multiple": "multiple", "frequency": "frequency", "currency": "currency", "time": "time of day"}


def _cmp_quote(clause: ClauseAtoms, atom: Atom) -> str:
    """The number with its comparator and direction: "within 14 days after"."""
    end = max(atom.end, int(atom.attr("dir_end", "0")))
    return clause.text[int(atom.attr("cmp_start", str(atom.start))):end]


def _edges_differ(a: Atom, b: Atom) -> bool:
    """"the first year of the Term" / "the final twelve months of the Term": the same length at the
    other end of the span (a period that names no end matches either)."""
    x, y = a.attr("edge"), b.attr("edge")
    return bool(x) and bool(y) and x != y


def _edge_quote(clause: ClauseAtoms, atom: Atom) -> str:
    return clause.text[int(atom.attr("edge_start", str(atom.start))):atom.end]


_COMPLEMENTS = {frozenset((">", "<=")), frozenset(("<", ">="))}


def bound_flips(context: ComparisonContext) -> bool:
    """Whether a number's comparator is the complement of the other clause's for the same value
    ("more than two" / "no more than two", "up to two" / "more than two"): with the modal's
    polarity flipped as well, "shall not keep more than two" == "may keep no more than two"."""
    r, i = context.ref.of("number"), context.inp.of("number")
    return any(a.key == b.key and frozenset((a.attr("cmp"), b.attr("cmp"))) in _COMPLEMENTS for a in r for b in i)


def _compare_numbers(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference], negated_both: bool = False) -> None:
    r, i = ref.of("number"), inp.of("number")
    _take(r, i, lambda a, b: a.key == b.key and a.attr("cmp") == b.attr("cmp") and a.attr("dir") == b.attr("dir")
          and not _edges_differ(a, b))
    for a, b in _take(r, i, lambda a, b: a.key == b.key):
        diffs += _bound_changes(ref, a, inp, b, negated_both)
    _take(r, i, lambda a, b: _yearly(a.key) == _yearly(b.key))  # "2%" == "2% per annum": a rate is yearly unless said
    # "99.9% of the time in each calendar month" == "99.9% per calendar month": the period said apart
    for a, b in _take(r, i, lambda a, b: a.group == b.group == "percent" and _per(a.key, ref, b.key, inp)):
        for left in (r, i):
            left[:] = [x for x in left if not (x.group == "frequency" and x.key == _FREQ_OF.get(_unit(a.key) or _unit(b.key)))]
    for a, b in _take(r, i, lambda a, b: a.group == b.group):
        diffs.append(Difference("number", "number", a.text, b.text, f"{_WHAT.get(a.group, a.group)} changed: '{a.text}' -> '{b.text}'"))
    if r or i:
        diffs += _one_sided(r, ref, inp, "reference") + _one_sided(i, inp, ref, "input")


def _one_sided(left: list[Atom], here: ClauseAtoms, other: ClauseAtoms, side: str) -> list[Difference]:
    """A number one clause states and the other does not, when it counts against the other clause."""
    out = []
    for a in _absent([a for a in left if _counts_against(a, other)], other, "number"):
        ref_q, inp_q = (a.text, None) if side == "reference" else (None, a.text)
        out.append(Difference("number", _number_presence(a), ref_q, inp_q, f"{_WHAT.get(a.group, a.group)} '{a.text}' only in the {side}"))
    return out


def _bound_changes(ref: ClauseAtoms, a: Atom, inp: ClauseAtoms, b: Atom, negated_both: bool) -> list[Difference]:
    """The same value on both sides with another edge of its span, comparator or direction."""
    diffs = []
    if _edges_differ(a, b):
        x, y = _edge_quote(ref, a), _edge_quote(inp, b)
        diffs.append(Difference("number", "number", x, y, f"period moved: '{x}' -> '{y}'"))
    for attr, what in (("cmp", "comparator"), ("dir", "direction")):
        x, y = a.attr(attr), b.attr(attr)
        if attr == "cmp" and negated_both and frozenset((x, y)) in _COMPLEMENTS:
            continue  # the negation moved between the modal and the bound: the same limit
        if x != y:
            weight = "comparator" if x and y else "comparator_presence"
            diffs.append(Difference("number", weight, _cmp_quote(ref, a), _cmp_quote(inp, b),
                                    f"{what} changed: '{_cmp_quote(ref, a)}' -> '{_cmp_quote(inp, b)}'"))
    return diffs


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


def _counts_against(atom: Atom, other: ClauseAtoms) -> bool:
    """Whether a number on one side only is a difference. A bare "one" is ("one copy" against
    "copies") only where the other clause counts the thing in the plural: against "a single
    instrument" or "the instrument" it says nothing new."""
    counted = atom.attr("counted", "")
    if not counted:
        return True
    words = {w for w, _, _ in other.words}
    return counted not in words and any(w != counted and w.startswith(counted[:-1]) and w.endswith("s") for w in words)


def _number_presence(atom: Atom) -> str:
    """A how-often or a currency said on one side only is often said another way on the other ("each holiday year")."""
    return "frequency_presence" if atom.group in ("frequency", "currency") else "number_presence"


def extract(text: str, lexicon: Lexicon, mask: Mask) -> list[Atom]:
    low = lowered(text)
    return (extract_numbers(text, low, mask, lexicon) + extract_frequencies(text, low, mask, lexicon)
            + extract_currencies(text, low, mask, lexicon))


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    diffs: list[Difference] = []
    _compare_numbers(ref, inp, diffs, context.fact("modality.pairing")[2])
    return diffs


FAMILY = Family(
    name="numbers", claims=20, compares=40, extract=extract, compare=compare,
    weights={
        "number": (0.93, "an amount, percentage, duration or count changed"),
        "number_presence": (0.75, "a number on one side only"),
        "frequency_presence": (0.6, "a frequency or a currency on one side only"),
        "comparator": (0.85, "at least <-> at most, within <-> after, prior to <-> after"),
        "comparator_presence": (0.25, "a comparator or direction on one side only"),
    },
    topic_groups=frozenset({("number", "money"), ("number", "percent"), ("number", "duration"), ("number", "multiple")}),
    facts={"numbers.bound_flips": bound_flips},
)
