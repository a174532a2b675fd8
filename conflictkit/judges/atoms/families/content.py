"""Content edits: words cut from or added to a clause that no atom accounts for."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from conflictkit.judges.atoms.compare import Difference
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family, no_atoms
from conflictkit.judges.atoms.text import STOPWORDS


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


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    diffs: list[Difference] = []
    _compare_edit(ref, inp, diffs)
    return diffs


FAMILY = Family(
    name="content", claims=90, compares=70, extract=no_atoms, compare=compare,
    weights={"content": (0.75, "words cut from (or added to) a clause that is otherwise the same, no atom changed")},
)
