"""Tokens, content words and the atom record shared by every extractor.

Extractors read the clause text lower-cased (``lower``, same length as the text, so offsets
stay valid) and mark the characters an atom used in a ``Mask``, so a word counted by one
family (the "not" of "not less than") is never counted again by another (negation).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from conflictkit.lexicon import load

_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+(?:[.,]\d+)*|[^\sa-z\d]")

# Contractions that hide a negator: the first part keeps the verb, the second is "not".
_CONTRACTIONS = {"won't": "will", "can't": "can", "cannot": "can", "shan't": "shall", "ain't": "is"}

STOPWORDS = load().words("words.stopwords")
"""Words that carry no topic: left out of the lexical overlap behind P(same matter)."""


def lowered(text: str) -> str:
    """``text`` lower-cased character by character, keeping its length (offsets stay valid)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


class Token(NamedTuple):
    """A lower-cased word, number or punctuation mark with its span in the clause text (a tuple:
    clauses are tokenized for every family, and a tuple is made several times faster than a frozen class)."""

    word: str
    start: int
    end: int


def tokenize(low: str) -> list[Token]:
    """Tokens of lower-cased text; contractions are split so "won't" gives "will" and "not"."""
    tokens: list[Token] = []
    for m in _TOKEN.finditer(low):
        word, start, end = m.group(), m.start(), m.end()
        if word in _CONTRACTIONS:
            tokens += [Token(_CONTRACTIONS[word], start, end), Token("not", start, end)]
        elif word.endswith("n't") and len(word) > 3:
            tokens += [Token(word[:-3], start, end), Token("not", start, end)]
        else:
            tokens.append(Token(word, start, end))
    return tokens


def stem(word: str) -> str:
    """A crude stem good enough for overlap: no possessive, no plural, at most six letters."""
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word[:6]


@lru_cache(maxsize=32768)
def content_stems(low: str) -> frozenset[str]:
    """The topic words of a lower-cased text, stemmed: what P(same matter) measures overlap on."""
    return frozenset(stem(t.word) for t in tokenize(low) if t.word.isalpha() and len(t.word) > 2 and t.word not in STOPWORDS)


class Mask:
    """Characters already claimed by an atom; a later extractor skips matches that touch them."""

    def __init__(self, length: int) -> None:
        self._used = bytearray(length)
        self.scratch: dict[str, object] = {}
        """Work one family does for others on the same clause (the modal scanner), dropped with the mask."""

    def free(self, start: int, end: int) -> bool:
        return not any(self._used[start:end])

    def take(self, start: int, end: int) -> None:
        self._used[start:end] = b"\x01" * (end - start)


@dataclass(frozen=True)
class Atom:
    """One typed unit of meaning found in a clause.

    ``family`` is what kind of atom it is (negation, modality, number, date, place, qualifier,
    exception, scope); ``group`` is what it is aligned on within its family (a duration is
    compared with durations, a governing law with governing laws); ``key`` is its normalized
    value (two atoms with the same key mean the same thing whatever their wording); ``text`` is
    its surface text, ``text == clause_text[start:end]``.
    """

    family: str
    group: str
    key: str
    text: str
    start: int
    end: int
    anchor: str = ""
    attrs: tuple[tuple[str, str], ...] = field(default=())

    def attr(self, name: str, default: str = "") -> str:
        for key, value in self.attrs:
            if key == name:
                return value
        return default
