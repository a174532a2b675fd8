"""Word tokens of typographically normalized text, with offsets back to the original.

Tokens are what redlines and material differences compare: words (with inner hyphens and
apostrophes), numbers and amounts as one token ("$10,000", "1.5", "30%"), contractions split so
the negator stands alone ("won't" -> "wo" + "n't", as in the English pack's negators),
and each punctuation mark on its own. Whitespace is never a token, so spacing is not a change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from conflictkit import lexicon
from conflictkit.lexicon import LanguagePack
from conflictkit.normalize import map_span, normalize

_NUMBER = r"[$\u20ac\u00a3\u00a5]?\d+(?:[.,]\d+)*%?"
TOKEN_RE = re.compile(
    _NUMBER + r"(?!\w)"
    r"|\w+(?:[-']\w+)*"
    r"|[^\w\s]"
)
NUMBER_RE = re.compile(_NUMBER)
_WORD_CHARS = re.compile(r"\w+")

TOKEN_CLASSES = ("negator", "modal", "exception", "condition", "quantifier", "number")
"""Every class :func:`token_class` can return."""


def _classes(pack: LanguagePack) -> tuple[frozenset[str], tuple[tuple[str, frozenset[str]], ...]]:
    """A pack's number words and its word lists by class; order decides the class of a token that is in
    two lists ("only" is an exception, "sole" a quantifier)."""
    return pack.memo("tokens.classes", lambda: (pack.words("numbers.number_tokens"), (
        ("negator", pack.words("words.negators")), ("modal", pack.words("words.modals")),
        ("exception", pack.words("words.exceptions")), ("condition", pack.words("words.conditions")),
        ("quantifier", pack.words("words.quantifiers")))))


def token_class(token: str, pack: LanguagePack | None = None) -> str | None:
    """The meaning class of a token (``negator``, ``modal``, ``number``...) in the pack's language (the
    default pack's when none is given), or ``None``."""
    if NUMBER_RE.fullmatch(token):
        return "number"
    numbers, classes = _classes(pack or lexicon.load())
    low = token.lower()
    if low in numbers or ("-" in low and all(p in numbers for p in low.split("-"))):
        return "number"
    for name, words in classes:
        if low in words:
            return name
    return None


@dataclass(frozen=True)
class Tokens:
    """The tokens of one text: normalized strings, their normalized spans and the offset map."""

    original: str
    normalized: str
    words: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]  # half-open spans in ``normalized``
    offsets: np.ndarray

    def original_span(self, i: int, j: int) -> tuple[int, int]:
        """Original span of tokens ``i..j-1``; for ``i == j`` the point where token ``i`` would go."""
        if i < j:
            return map_span(self.offsets, self.spans[i][0], self.spans[j - 1][1])
        if i > 0:  # an empty run sits right after the previous token
            end = map_span(self.offsets, self.spans[i - 1][0], self.spans[i - 1][1])[1]
            return end, end
        start = map_span(self.offsets, self.spans[0][0], self.spans[0][1])[0] if self.spans else 0
        return start, start

    def text(self, i: int, j: int) -> str:
        """Normalized text of tokens ``i..j-1``, with the spacing they have in the text."""
        if i >= j:
            return ""
        return self.normalized[self.spans[i][0] : self.spans[j - 1][1]]

    def spaced_before(self, i: int) -> bool:
        """Whether whitespace precedes token ``i`` in the text."""
        start = self.spans[i][0]
        return start > 0 and self.normalized[start - 1] == " "


def tokenize(text: str, pack: LanguagePack | None = None) -> Tokens:
    """Tokenize the flattened, typographically normalized form of ``text``; a word that ends with the
    pack's negative clitic ("n't" in English: "won't" -> "wo" + "n't") is two tokens."""
    norm = normalize(text, flatten=True)
    clitic = (pack or lexicon.load()).data.tokens.negative_clitic
    n = len(clitic)
    words, spans = [], []
    for m in TOKEN_RE.finditer(norm.text):
        word, start, end = m.group(), m.start(), m.end()
        if clitic and word.endswith(clitic) and len(word) > n and _WORD_CHARS.fullmatch(word, 0, len(word) - n):
            words += [word[:-n], clitic]
            spans += [(start, end - n), (end - n, end)]
        else:
            words.append(word)
            spans.append((start, end))
    return Tokens(original=text, normalized=norm.text, words=tuple(words), spans=tuple(spans), offsets=norm.offsets)
