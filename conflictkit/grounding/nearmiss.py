"""Explain a quote that is not in the document: a near miss on a reversing word, or why not.

A quote that matches a passage except for a negator, modal, exception, condition, quantifier or
number ("shall pay" against "shall not pay", "30 days" against "60 days") is the most dangerous
kind of wrong extraction: the detail names the passage and the changed words.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from conflictkit.grounding.material import Change, material_difference
from conflictkit.normalize import map_span

if TYPE_CHECKING:
    from conflictkit.grounding.verify import Verifier

MAX_NEAR_CHANGES = 4  # more changed words than this is a different passage, not a near miss
_HAS_WORD = re.compile(r"\w")


class NearMiss(BaseModel):
    """A passage (original offsets and text) that differs from the quote only in ``changes``."""

    model_config = ConfigDict(frozen=True)

    start: int
    end: int
    text: str
    changes: list[Change]


def explain_not_found(verifier: Verifier, q: str, quote: str) -> tuple[NearMiss | None, str]:
    """The near miss (if any) and a one-line detail for a quote that is not in the document."""
    closest = None
    for ns, ne in verifier.index.candidates(q):
        start, end = map_span(verifier.offsets, ns, ne)
        passage = verifier.original[start:end]
        words = [c for c in material_difference(passage, quote).changes if _HAS_WORD.search(c.a_text + c.b_text)]
        if words and len(words) <= MAX_NEAR_CHANGES and all(c.material for c in words):
            near = NearMiss(start=start, end=end, text=passage, changes=[c.shifted(a_by=start) for c in words])
            said = "; ".join(c.describe("the document", "the quote") for c in near.changes)
            return near, (f"not in the document; the passage at {start}-{end} "
                          f"({verifier.show(start, end)}) differs only in meaning-bearing words: {said}")
        if closest is None:
            closest = (start, end, len(words))
    inside = _inside_words(verifier, q)
    if inside:
        return None, (f"not in the document as whole words; it occurs only inside longer words, "
                      f"e.g. at {inside[0]}-{inside[1]} ({verifier.show(*inside)})")
    if closest:
        start, end, n = closest
        how = f"in {n} words" if n else "only in punctuation"
        return None, f"not in the document; the closest passage, at {start}-{end}, differs {how}"
    return None, "not in the document"


def _inside_words(verifier: Verifier, q: str) -> tuple[int, int] | None:
    """The original span of the word-containing text around a match that cuts into words."""
    p = verifier.text.find(q)
    if p < 0:
        return None
    s, e = p, p + len(q)
    while s > 0 and _HAS_WORD.match(verifier.text[s - 1]):
        s -= 1
    while e < len(verifier.text) and _HAS_WORD.match(verifier.text[e]):
        e += 1
    return map_span(verifier.offsets, s, e)
