"""Clause text as alignment compares it: a key for exact matching and topic words for runs."""

from __future__ import annotations

import re

from conflictkit.judges.atoms.text import content_stems, lowered
from conflictkit.segmenters.labels import parse_label

_SPACE = re.compile(r"\s+")
_NUMBER = re.compile(r"\d+(?:[.,/-]\d+)*")
_EMPHASIS = re.compile(r"\*\*|__|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")


def text_key(text: str) -> str:
    """Text equal up to whitespace, Markdown emphasis and leading list/number labels.

    Clause texts are already typographically normalized; this key also drops what renumbering,
    re-bulleting and re-wrapping change, so two clauses with one key say the same words.
    """
    key = _SPACE.sub(" ", _EMPHASIS.sub("", text)).strip()
    for _ in range(3):  # "1.", then "(a)", then a bullet
        label = parse_label(key)
        if label is None or label.end >= len(key):
            break
        key = key[label.end :].lstrip()
    return key


def joined_key(texts: list[str]) -> str:
    """The key of several clauses read as one text."""
    return text_key(" ".join(text_key(t) for t in texts))


def topic_words(text: str) -> frozenset[str]:
    """Stemmed content words and numbers: what containment of one clause in another is measured on."""
    low = lowered(text)
    return content_stems(low) | frozenset(_NUMBER.findall(low))


def containment(part: str, whole: str) -> float:
    """Share of ``part``'s topic words that occur in ``whole`` (0 when ``part`` has none)."""
    words = topic_words(part)
    if not words:
        return 0.0
    return len(words & topic_words(whole)) / len(words)
