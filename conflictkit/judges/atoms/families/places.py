"""Governing law, venue, jurisdiction, arbitral institution, territory and forum type."""

from __future__ import annotations


from conflictkit.judges.atoms.compare import Difference, _absent, _take
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family
from conflictkit.judges.atoms.text import Atom, Mask
from conflictkit.judges.atoms.places import extract_places, gazetteer
from conflictkit.judges.atoms.text import lowered
from conflictkit.lexicon import Lexicon


_PLACE_TYPES = {"law": "governing_law", "forum": "jurisdiction", "institution": "jurisdiction", "territory": "scope"}


def _compare_places(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference], parents: dict[str, str]) -> None:
    r = [a for a in ref.of("place") if a.group != "forum_type"]
    i = [b for b in inp.of("place") if b.group != "forum_type"]
    _take(r, i, lambda a, b: a.key == b.key and a.group == b.group)
    for a, b in _take(r, i, lambda a, b: a.group == b.group):
        kind = _PLACE_TYPES[a.group]
        diffs.append(Difference(kind, kind if kind != "scope" else "scope", a.text, b.text, f"'{a.text}' -> '{b.text}'"))
    _take(r, i, lambda a, b: a.key == b.key)  # same place, role read differently: wording, not meaning
    diffs += [Difference(_PLACE_TYPES[a.group], "place_presence", a.text, None, f"'{a.text}' only in the reference")
              for a in _absent(r, inp, "place") if not _encloses(a.key, ref, inp, parents)]
    diffs += [Difference(_PLACE_TYPES[b.group], "place_presence", None, b.text, f"'{b.text}' only in the input")
              for b in _absent(i, ref, "place") if not _encloses(b.key, inp, ref, parents)]
    rf = {a.key: a for a in ref.of("place") if a.group == "forum_type"}
    inf = {b.key: b for b in inp.of("place") if b.group == "forum_type"}
    gone, new = set(rf) - set(inf), set(inf) - set(rf)
    if gone and new:
        a, b = rf[sorted(gone)[0]], inf[sorted(new)[0]]
        diffs.append(Difference("forum", "forum", a.text, b.text, f"'{a.text}' -> '{b.text}'"))


def _encloses(key: str, here: ClauseAtoms, other: ClauseAtoms, parents: dict[str, str]) -> bool:
    """Whether place ``key`` only locates a place both clauses name ("England" in "London, England")."""
    shared = {a.key for a in here.of("place")} & {b.key for b in other.of("place")}
    for place in shared:
        parent = parents.get(place)
        while parent is not None:
            if parent == key:
                return True
            parent = parents.get(parent)
    return False


def extract(text: str, lexicon: Lexicon, mask: Mask) -> list[Atom]:
    return extract_places(text, lowered(text), mask, lexicon)


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    diffs: list[Difference] = []
    _compare_places(ref, inp, diffs, gazetteer(context.lexicon).parent)
    return diffs


FAMILY = Family(
    name="places", claims=40, compares=60, extract=extract, compare=compare,
    weights={
        "governing_law": (0.93, "the governing law changed"),
        "jurisdiction": (0.9, "the venue, courts or arbitral institution changed"),
        "forum": (0.85, "arbitration <-> courts"),
        "place_presence": (0.7, "a place on one side only"),
    },
    topic_groups=frozenset({("place", "law"), ("place", "forum"), ("place", "institution"), ("place", "forum_type")}),
)
