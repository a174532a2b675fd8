"""Typographic normalization with an exact map back to the original offsets.

Only typography is normalized: curly quotes, dashes, ligatures, soft hyphens, NBSP and other
spaces, zero-width and control characters, line endings and whitespace runs. Breaks that stay
inside a paragraph (U+2028, VT, NEL, FF) become spaces; U+2029 becomes a blank line. Nothing that carries
meaning is touched: no case folding, no stemming, no stop words, and "may not" stays "may not".

``normalize(text)`` keeps line breaks (segmenters need them); ``normalize(text, flatten=True)``
also folds line breaks into single spaces (matching quotes and comparing clause texts).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

_REPLACEMENTS: dict[str, str] = {
    # quotes and primes
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u02bc": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
    # dashes and minus signs
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
    "\ufe58": "-", "\ufe63": "-", "\uff0d": "-",
    # ligatures
    "\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\ufb05": "st", "\ufb06": "st",
    # ellipsis
    "\u2026": "...",
    # spaces other than the plain one
    "\t": " ", "\u00a0": " ", "\u1680": " ", "\u202f": " ", "\u205f": " ", "\u3000": " ",
    **{chr(c): " " for c in range(0x2000, 0x200B)},
    # Breaks inside a paragraph: a line separator, Word's manual line break (VT), NEL, a page break
    # (FF, which falls mid-sentence in text taken from a PDF). None of them ends a clause.
    "\u2028": " ", "\x0b": " ", "\x85": " ", "\x0c": " ",
    "\u2029": "\n\n",  # a paragraph separator is a paragraph break
}
# Removed outright: soft hyphen, zero-width characters, BOM, bidi marks, C0/C1 controls.
_REMOVED = (
    "\u00ad\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\x00-\x08\x0e-\x1f\x7f\x80-\x84\x86-\x9f"
)
_CHARS = re.compile(
    "\r\n|\r|[" + _REMOVED + "]|[" + "".join(re.escape(c) for c in _REPLACEMENTS) + "]"
)
_SPACE_RUNS = re.compile(r" {2,}")
_LINE_SPACE = re.compile(r" +\n *| *\n +")
# Earlier steps leave no space runs and no spaces beside line breaks: only line breaks remain to fold.
_FLAT_RUNS = re.compile(r"\n+")
_NEWLINE_RUNS = re.compile(r"\n{3,}")


@dataclass(frozen=True)
class NormalizedText:
    """Normalized text plus ``offsets``: ``offsets[i]`` is the original index of ``text[i]``."""

    text: str
    offsets: np.ndarray  # int64, len(text) + 1; the last entry is len(original)

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """The half-open original span that produced ``text[start:end]``."""
        return map_span(self.offsets, start, end)


def map_span(offsets: np.ndarray, start: int, end: int) -> tuple[int, int]:
    """Map a half-open span of normalized text to the original through an offset map."""
    if not 0 <= start <= end <= len(offsets) - 1:
        raise ValueError(f"span [{start}, {end}) outside the normalized text (length {len(offsets) - 1})")
    if start == end:
        pos = int(offsets[start])
        return pos, pos
    return int(offsets[start]), int(offsets[end - 1]) + 1


def rewrite(text: str, pattern: re.Pattern[str], replace) -> tuple[str, np.ndarray]:
    """Apply ``replace(match) -> (new_text, source)`` to every match of ``pattern``.

    ``source`` is the index in ``text`` every new character comes from, or an array with one index
    per new character (a kept group keeps its own positions). Returns the new text and, for each of
    its characters (plus one past the end), the index in ``text`` it came from.
    """
    pieces: list[str] = []
    index_parts: list[np.ndarray] = []
    pos = 0
    for m in pattern.finditer(text):
        if m.start() > pos:
            pieces.append(text[pos : m.start()])
            index_parts.append(np.arange(pos, m.start(), dtype=np.int64))
        new, source = replace(m)
        if new:
            pieces.append(new)
            index_parts.append(np.full(len(new), source, dtype=np.int64) if isinstance(source, int) else source)
        pos = m.end()
    if pos < len(text):
        pieces.append(text[pos:])
        index_parts.append(np.arange(pos, len(text), dtype=np.int64))
    index_parts.append(np.array([len(text)], dtype=np.int64))
    return "".join(pieces), np.concatenate(index_parts)


def _replace_char(m: re.Match[str]) -> tuple[str, int]:
    s = m.group()
    if s[0] == "\r":
        return "\n", m.end() - 1
    return _REPLACEMENTS.get(s, ""), m.start()


def _single_space(m: re.Match[str]) -> tuple[str, int]:
    return " ", m.start()


def _newline_only(m: re.Match[str]) -> tuple[str, int]:
    return "\n", m.start() + m.group().index("\n")


def _double_newline(m: re.Match[str]) -> tuple[str, int]:
    return "\n\n", m.start()


def normalize(text: str, *, flatten: bool = False) -> NormalizedText:
    """Normalize typography; ``flatten`` also folds every whitespace run (line breaks too) to one space."""
    steps: list[tuple[re.Pattern[str], object]] = [
        (_CHARS, _replace_char),
        (_SPACE_RUNS, _single_space),
        (_LINE_SPACE, _newline_only),
        (_NEWLINE_RUNS, _double_newline),
    ]
    if flatten:
        steps.append((_FLAT_RUNS, _single_space))
    offsets = np.arange(len(text) + 1, dtype=np.int64)
    current = text
    for pattern, replace in steps:
        if pattern.search(current) is None:
            continue
        current, index = rewrite(current, pattern, replace)
        offsets = offsets[index]
    return NormalizedText(current, offsets)


def flat(text: str) -> str:
    """The flattened normalized form of ``text``: what clause texts and quotes are compared in."""
    return normalize(text, flatten=True).text.strip()


def _flat_table() -> dict[int, str | None]:
    table: dict[int, str | None] = {ord(c): r for c, r in _REPLACEMENTS.items()}
    for part in re.findall(r".-.|.", _REMOVED, re.DOTALL):
        first, last = (part[0], part[2]) if len(part) == 3 else (part, part)
        table.update({code: None for code in range(ord(first), ord(last) + 1)})
    return table


_FLAT_TABLE = _flat_table()


def flat_key(text: str) -> str:
    """``flat(text)`` without the offset map, in one translation and a split: for keys that only compare.

    The same string as :func:`flat` (a property test holds them equal), some tens of times faster.
    """
    return " ".join(text.translate(_FLAT_TABLE).split())
