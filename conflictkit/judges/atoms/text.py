"""Tokens, content words and the atom record shared by every extractor.

Words are the pack's (``tokens.yaml``: letters of any script, its rule for apostrophes, contractions
that hide a negator; ``morphology.yaml``: what a stem strips). Extractors read the clause text
lower-cased (``lower``, same length as the text, so offsets stay valid) and mark the characters an
atom used in a ``Mask``, so a word counted by one family (the "not" of "not less than") is never
counted again by another (negation).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from conflictkit.lexicon import DEFAULT_LANGUAGE, LanguagePack, load
from conflictkit.lexicon.regex import compile_pattern


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


class Words:
    """How one pack cuts text into words and stems them (``tokens.yaml``, ``morphology.yaml``)."""

    def __init__(self, lex: LanguagePack) -> None:
        t, m = lex.data.tokens, lex.data.morphology
        self.token = compile_pattern(rf"{t.word}|\d+(?:[.,]\d+)*|[^\s\p{{L}}\d]")
        self.contractions, self.clitic, self.negator = dict(t.contractions), t.negative_clitic, t.negator
        self.possessives, self.plurals = tuple(m.possessive_endings), tuple(m.plural_endings)
        self.not_plurals, self.length = tuple(m.plural_exceptions), m.stem_length
        self.stopwords = lex.words("words.stopwords")

    def tokenize(self, low: str) -> list[Token]:
        """Tokens of lower-cased text; contractions are split so "won't" gives "will" and "not"."""
        tokens: list[Token] = []
        clitic, n = self.clitic, len(self.clitic)
        for m in self.token.finditer(low):
            word, start, end = m.group(), m.start(), m.end()
            if word in self.contractions:
                tokens += [Token(self.contractions[word], start, end), Token(self.negator, start, end)]
            elif clitic and word.endswith(clitic) and len(word) > n:
                tokens += [Token(word[:-n], start, end), Token(self.negator, start, end)]
            else:
                tokens.append(Token(word, start, end))
        return tokens

    def singular(self, word: str, exceptions: bool = True) -> str:
        """The word without a plural ending (on words longer than four letters; ``exceptions``: unless it
        ends with one of ``plural_exceptions``, as "business" does)."""
        if len(word) > 4 and not (exceptions and word.endswith(self.not_plurals)):
            for ending in self.plurals:
                if word.endswith(ending):
                    return word[: -len(ending)]
        return word

    def stem(self, word: str) -> str:
        """A crude stem good enough for overlap: no possessive, no plural, at most ``stem_length`` letters."""
        for ending in self.possessives:
            if word.endswith(ending):
                word = word[: -len(ending)]
                break
        return self.singular(word)[: self.length]


def words_of(lex: LanguagePack | None = None) -> Words:
    """The tokenizer and stemmer of a pack (the default pack's when none is given), built once."""
    lex = lex or load()
    return lex.memo("text.words", lambda: Words(lex))


def tokenize(low: str, lex: LanguagePack | None = None) -> list[Token]:
    """Tokens of lower-cased text in the pack's language (:meth:`Words.tokenize`)."""
    return words_of(lex).tokenize(low)


def stem(word: str, lex: LanguagePack | None = None) -> str:
    """The stem of a lower-cased word in the pack's language (:meth:`Words.stem`)."""
    return words_of(lex).stem(word)


@lru_cache(maxsize=32768)
def content_stems(low: str, language: str = DEFAULT_LANGUAGE) -> frozenset[str]:
    """The topic words of a lower-cased text, stemmed: what P(same matter) measures overlap on."""
    w = words_of(load(language))
    stop = w.stopwords
    return frozenset(w.stem(t.word) for t in w.tokenize(low) if t.word.isalpha() and len(t.word) > 2 and t.word not in stop)


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

