"""A word index of a normalized document: where each word occurs, built once per document.

Finding a quote looks up the quote's rarest word and checks only the places it occurs, so a
document is scanned once to build the index, not once per quote. The same index gives the
candidate passages of a near-miss search (windows that share several words with the quote).
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

import numpy as np

WORD_RE = re.compile(r"\w+")
_MAX_ANCHORS = 8  # rarest quote words used to vote for candidate passages
_MAX_CANDIDATES = 3  # passages aligned word by word per near-miss search


class WordIndex:
    """Positions of every ``\\w+`` word of ``text`` (word ordinals and character spans)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.words: list[str] = WORD_RE.findall(text)
        spans = [m.span() for m in WORD_RE.finditer(text)]
        self.starts: list[int] = [s for s, _ in spans]
        self.ends: list[int] = [e for _, e in spans]
        self.where: dict[str, list[int]] = {}
        for n, word in enumerate(self.words):
            ordinals = self.where.get(word)
            if ordinals is None:
                self.where[word] = [n]
            else:
                ordinals.append(n)
        self._arrays: dict[str, np.ndarray] = {}

    def count(self, word: str) -> int:
        """How many times ``word`` occurs as a whole word."""
        return len(self.where.get(word, ()))

    def find(self, quote: str) -> list[int]:
        """Start positions of ``quote`` in the text where it begins and ends on word boundaries.

        Every word of such a match is a whole word of the text, so only the places where the
        quote's rarest word occurs need checking. A quote without words falls back to a scan.
        """
        words = [(m.group(), m.start()) for m in WORD_RE.finditer(quote)]
        if not words:
            return [p for p in _scan(self.text, quote) if bounded(self.text, p, p + len(quote))]
        word, at = min(words, key=lambda w: self.count(w[0]))
        found = []
        for n in self.where.get(word, ()):
            p = self.starts[n] - at
            if p >= 0 and self.text.startswith(quote, p) and bounded(self.text, p, p + len(quote)):
                found.append(p)
        return found

    def candidates(self, quote: str) -> list[tuple[int, int]]:
        """Character spans of the passages most like ``quote``, best first (bounded work).

        The rarest words of the quote vote for the passage start they imply; the best-voted
        windows are aligned word by word and trimmed to the part that corresponds to the quote.
        """
        qwords = WORD_RE.findall(quote)
        if not qwords:
            return []
        by_rarity = sorted({w for w in qwords if w in self.where}, key=self.count)[:_MAX_ANCHORS]
        if not by_rarity:
            return []
        # Each occurrence of an anchor votes for the ordinal where the quote would start.
        votes = np.concatenate([self._ordinals(w) - k for w in by_rarity for k, q in enumerate(qwords) if q == w])
        diagonals, counts = np.unique(votes, return_counts=True)
        need = max(1, len(by_rarity) // 2)
        spans = []
        for best in np.argsort(-counts, kind="stable")[:_MAX_CANDIDATES]:
            if counts[best] >= need:
                for span in self._align(qwords, int(diagonals[best])):
                    if span not in spans:
                        spans.append(span)
        return spans

    def _ordinals(self, word: str) -> np.ndarray:
        array = self._arrays.get(word)
        if array is None:
            array = self._arrays[word] = np.asarray(self.where[word], dtype=np.int64)
        return array

    def _align(self, qwords: list[str], diagonal: int) -> list[tuple[int, int]]:
        """The passage around ``diagonal`` that corresponds to the quote, as up to four spans.

        A quote word that also occurs just outside the passage (the "Customer" of a heading
        "Customer obligations" before "Customer, as Recipient") can be matched at either place;
        aligning forwards and backwards gives both readings and the caller keeps the closer one.
        Quote words before the first or after the last matched word are read first as changed
        words of the passage (it is extended over as many words), then as words the quote added
        (the passage ends at the matched words: "... the Cover Page cannot ." against "... the
        Cover Page ."), so an added word at either end is still found as the one difference.
        """
        n = len(qwords)
        lo, hi = max(0, diagonal - 3), min(len(self.words), diagonal + n + 3)
        window = self.words[lo:hi]
        extended, matched = [], []
        for reverse in (False, True):
            q, w = (qwords[::-1], window[::-1]) if reverse else (qwords, window)
            blocks = [b for b in SequenceMatcher(None, q, w, autojunk=False).get_matching_blocks() if b.size]
            if not blocks or sum(b.size for b in blocks) * 2 < n:
                continue
            core_first, core_last = blocks[0].b, blocks[-1].b + blocks[-1].size
            first = core_first - blocks[0].a  # extend to the quote's first and last word
            last = core_last + (n - blocks[-1].a - blocks[-1].size)
            for bounds, found in (((first, last), extended), ((core_first, core_last), matched)):
                a, b = (len(window) - bounds[1], len(window) - bounds[0]) if reverse else bounds
                found.append((self.starts[max(lo, lo + a)], self.ends[min(hi, lo + b) - 1]))
        return list(dict.fromkeys(extended + matched))


def bounded(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` neither begins nor ends inside a word of ``text``."""
    if start > 0 and _wordish(text[start - 1]) and _wordish(text[start]):
        return False
    return not (end < len(text) and _wordish(text[end - 1]) and _wordish(text[end]))


def _wordish(char: str) -> bool:
    return WORD_RE.match(char) is not None


def _scan(text: str, quote: str):
    p = text.find(quote)
    while p != -1:
        yield p
        p = text.find(quote, p + 1)
