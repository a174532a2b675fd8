"""Qualifiers, exceptions and scope words, from the phrase table of the lexicon (``phrases.yaml``).

Each row is ``(pattern, family, group, key)``: atoms of one group are compared with each other
(an "exclusive" licence becoming "non-exclusive" is a change within the group ``exclusivity``;
"prior written consent" becoming "prior consent" is a ``written`` atom present on one side
only). Synonyms share a key, so "written notice" == "notice in writing" and "unless" ==
"except as". ``IDIOMS`` are phrases holding a negator that negate nothing ("including but not
limited to", "not to be unreasonably withheld", "without undue delay"): they are claimed before
modality and negation are read, so their "not"/"without" is never counted as a negation.
"""

from __future__ import annotations

import re

from conflictkit.judges.atoms.screen import may_match, screen
from conflictkit.judges.atoms.text import Atom, Mask
from conflictkit.lexicon import Lexicon



def _compiled(lex: Lexicon, table: str, families: frozenset[str] | None = None) -> list[tuple[int, re.Pattern[str], str, str, str, tuple[str, ...] | None]]:
    """The rows of a phrase table (those of ``families``, or all), compiled once per lexicon, each
    with the words a match needs (a clause without them is not scanned for the row)."""
    def build() -> list[tuple[int, re.Pattern[str], str, str, str, tuple[str, ...] | None]]:
        rows = enumerate(lex.get(f"phrases.{table}"))
        compiled = [(n, re.compile(p), f, g, k) for n, (p, f, g, k) in rows if families is None or f in families]
        return [(*row, screen(row[1])) for row in compiled]
    return lex.memo(f"phrases.{table}.{','.join(sorted(families or ()))}", build)


def _scan(text: str, low: str, mask: Mask, rows) -> list[Atom]:
    """Every match of every row, longest first (then by row order, then leftmost), each taking its
    characters from the mask: overlaps resolve by a stated rule, not by the order rows are tried."""
    found = []
    for n, pattern, family, group, key, needs in rows:
        if not may_match(needs, low):
            continue
        for m in pattern.finditer(low):
            start, end = m.start(), m.start() + len(m.group().rstrip())
            if end > start:
                found.append((-(end - start), n, start, end, family, group, key))
    atoms: list[Atom] = []
    for _, _, start, end, family, group, key in sorted(found):
        if not mask.free(start, end):
            continue
        mask.take(start, end)
        if family != "ignore":
            atoms.append(Atom(family, group, key, text[start:end], start, end))
    return sorted(atoms, key=lambda a: a.start)


def extract_idioms(text: str, low: str, mask: Mask, lex: Lexicon) -> list[Atom]:
    """Phrases that hold a negator but negate nothing; run before modality and negation."""
    return _scan(text, low, mask, _compiled(lex, "idioms"))


def extract_phrases(text: str, low: str, mask: Mask, lex: Lexicon, families: frozenset[str] | None = None) -> list[Atom]:
    """Qualifiers, exceptions and scope words (those of ``families``, or all); run after the other
    families have claimed their words."""
    return _scan(text, low, mask, _compiled(lex, "phrases", families))
