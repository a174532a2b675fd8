"""Word tokens of typographically normalized text, with offsets back to the original.

Tokens are what redlines and material differences compare: words (with inner hyphens and
apostrophes), numbers and amounts as one token ("$10,000", "1.5", "30%"), contractions split so
the negator stands alone ("won't" -> "wo" + "n't", as in :data:`conflictkit.lexicon.NEGATORS`),
and each punctuation mark on its own. Whitespace is never a token, so spacing is not a change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from conflictkit import lexicon
from conflictkit.normalize import map_span, normalize

_NUMBER = r"[$\u20ac\u00a3\u00a5]?\d+(?:[.,]\d+)*%?"
TOKEN_RE = re.compile(
    _NUMBER + r"(?!\w)"
    r"|\w+(?:[-']\w+)*"
    r"|[^\w\s]"
)
_CONTRACTION = re.compile(r"\w+n't")  # "won't" -> "wo" + "n't": split after matching (a lazy pattern is slow)
NUMBER_RE = re.compile(_NUMBER)

# Spelled-out numbers: "thirty (30) days" -> "sixty (60) days" changes both forms. Kept here rather
# than in the lexicon because only grounding needs them as single tokens.
NUMBER_WORDS = frozenset({
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
    "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "million",
    "billion", "trillion", "half", "double", "twice", "triple", "dozen",
})

# Order decides the class of a token that is in two lists ("only" is an exception, "sole" a quantifier).
_CLASSES: tuple[tuple[str, frozenset[str]], ...] = (
    ("negator", lexicon.NEGATORS),
    ("modal", lexicon.MODALS),
    ("exception", lexicon.EXCEPTIONS),
    ("condition", lexicon.CONDITIONS),
    ("quantifier", lexicon.QUANTIFIERS),
)
TOKEN_CLASSES = ("negator", "modal", "exception", "condition", "quantifier", "number")
"""Every class :func:`token_class` can return."""


def token_class(token: str) -> str | None:
    """The meaning class of a token (``negator``, ``modal``, ``number``...), or ``None``."""
    if NUMBER_RE.fullmatch(token):
        return "number"
    low = token.lower()
    if low in NUMBER_WORDS or ("-" in low and all(p in NUMBER_WORDS for p in low.split("-"))):
        return "number"
    for name, words in _CLASSES:
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


def tokenize(text: str) -> Tokens:
    """Tokenize the flattened, typographically normalized form of ``text``."""
    norm = normalize(text, flatten=True)
    words, spans = [], []
    for m in TOKEN_RE.finditer(norm.text):
        word, start, end = m.group(), m.start(), m.end()
        if word.endswith("n't") and len(word) > 3 and _CONTRACTION.fullmatch(word):
            words += [word[:-3], "n't"]
            spans += [(start, end - 3), (end - 3, end)]
        else:
            words.append(word)
            spans.append((start, end))
    return Tokens(original=text, normalized=norm.text, words=tuple(words), spans=tuple(spans), offsets=norm.offsets)
