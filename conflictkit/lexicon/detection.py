"""``language: auto``: which installed pack the documents are written in.

Each pack lists about 30 of its language's most frequent function words (``pack.yaml``
``detection_words``: "the", "of", "and" in English; "der", "die", "und" in German). Legal text is
full of them whatever its subject, so the share of a text's words that are one of them is a plain,
deterministic signal: the pack with the largest share wins. Only the first
:data:`SAMPLE_CHARS` characters of each text are read (a document's language does not change
halfway through), so detection costs the same for a page or a thousand.
"""

from __future__ import annotations

import re

SAMPLE_CHARS = 200_000
_WORD = re.compile(r"[^\W\d_]+")


def shares(texts: list[str], candidates: list[str]) -> dict[str, float]:
    """For each candidate pack, the share of the texts' words that are its detection words."""
    from conflictkit.lexicon import load

    words: list[str] = []
    for text in texts:
        words += _WORD.findall(text[:SAMPLE_CHARS].lower())
    if not words:
        return {code: 0.0 for code in candidates}
    counts: dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    out = {}
    for code in candidates:
        markers = frozenset(load(code).data.pack.detection_words)
        out[code] = sum(n for w, n in counts.items() if w in markers) / len(words)
    return out


def best_language(texts: list[str], candidates: list[str], default: str) -> str:
    """The candidate with the largest share; ties go to ``default``, then alphabetically."""
    if not candidates:
        return default
    found = shares(texts, candidates)
    order = sorted(candidates, key=lambda code: (-found[code], code != default, code))
    return order[0] if found[order[0]] > 0 else (default if default in candidates else order[0])
