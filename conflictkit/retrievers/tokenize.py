"""A legal-aware tokenizer for lexical retrieval.

Lower-casing is the only normalization: no stemming, no folding of "may not" into "may". It keeps
what generic tokenizers throw away and what decides whether two clauses deal with the same matter:
section references (``4.2(a)``, ``12(b)(ii)``), numbers with their currency and percent signs
(``$1,000``, ``10%``), negators ("not", "no", and the "not" inside "cannot" and "won't") and
modals. Only a short list of function words that carry no meaning in a clause is dropped.
"""

from __future__ import annotations

import re

from conflictkit.lexicon import REVERSING

_TOKEN = re.compile(
    r"""
    (?P<section>\d+(?:\.\d+)*(?:\([a-z0-9]{1,5}\))+ | \d+(?:\.\d+)+)      # 4.2(a), 12(b)(ii), 4.2.1
    | (?P<number>[$€£]?\d+(?:,\d{3})*(?:\.\d+)?%?)                          # 30, $1,000, 2.5%, €10
    | (?P<word>[a-z]+(?:['’][a-z]+)*)                                       # words, won't, party's
    """,
    re.VERBOSE,
)

# Words that carry no meaning for pairing clauses. Never a negator, modal, quantifier or exception word.
_STOPWORDS = frozenset(
    """a an the of to in on at by for from with as and or is are be been being was were this that these
    those it its which who whom such any its their there here thereof hereof herein hereby thereto
    into onto than then so s""".split()
) - REVERSING

_CONTRACTED_NOT = {"cannot": ("can", "not"), "won't": ("will", "not"), "shan't": ("shall", "not"), "can't": ("can", "not")}


def _word_tokens(word: str) -> tuple[str, ...]:
    word = word.replace("’", "'")
    if word in _CONTRACTED_NOT:
        return _CONTRACTED_NOT[word]
    if word.endswith("n't"):
        return (word[:-3], "not")
    if word.endswith("'s"):
        return (word[:-2],)
    return (word,)


def tokenize(text: str) -> list[str]:
    """Lower-cased tokens of ``text`` for BM25: sections, numbers, words, negators kept."""
    tokens: list[str] = []
    for match in _TOKEN.finditer(text.lower()):
        kind = match.lastgroup
        value = match.group(kind)
        if kind == "word":
            tokens.extend(t for t in _word_tokens(value) if t and t not in _STOPWORDS)
        elif kind == "number":
            tokens.append(value.replace(",", ""))
        else:
            tokens.append(value)
    return tokens
