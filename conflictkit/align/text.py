"""Clause text as alignment compares it: a key for exact matching and topic words for runs."""

from __future__ import annotations

import re

import numpy as np

from conflictkit.judges.atoms.text import content_stems, lowered
from conflictkit.model import Clause, Document
from conflictkit.segmenters.labels import parse_label

_SPACE = re.compile(r"\s+")
_NUMBER = re.compile(r"\d+(?:[.,/-]\d+)*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")  # single-star emphasis; "**" and "__" go first
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")


def text_key(text: str) -> str:
    """Text equal up to whitespace, Markdown emphasis, HTML tags and list/number labels at the start of a line.

    Clause texts are already typographically normalized; this key also drops what renumbering,
    re-bulleting and re-wrapping change, so two clauses with one key say the same words.
    """
    if "<" in text:
        text = _TAG.sub("", text)
    text = text.replace("**", "").replace("__", "")
    if "*" in text:
        text = _EMPHASIS.sub("", text)
    lines = [_without_labels(" ".join(line.split())) for line in text.splitlines()]
    return " ".join(line for line in lines if line)


def _without_labels(line: str) -> str:
    """A line without its leading labels: "1.", then "(a)", then a bullet (a clause may hold several lines)."""
    for _ in range(3):
        label = parse_label(line)
        if label is None or label.end >= len(line):
            break
        line = line[label.end :].lstrip()
    return line


def joined_key(keys: list[str]) -> str:
    """The key of several clauses read as one text, from their keys (already free of labels and markup)."""
    return " ".join(key for key in keys if key)


def clause_source(document: Document, clause: Clause) -> str:
    """The clause as written (normalized typography, line breaks and labels kept): what its key is made from.

    The clause's model text may have lost its line structure, and with it where a label starts.
    """
    start = int(np.searchsorted(document.offsets, clause.span.start, side="left"))
    end = int(np.searchsorted(document.offsets, clause.span.end, side="left"))
    return document.normalized[start:end] or clause.text


_QUOTED_TERM = re.compile(r"^\W{0,3}[\"'](?P<t>[^\"']{1,80})[\"']")
_BARE_TERM = re.compile(r"^(?P<t>[A-Z][\w'/-]*(?:\s+[\w'/-]+){0,5}?),?\s+(?:shall\s+)?(?:means|has\s+the\s+meaning|refers\s+to)\b")


def defined_term(text: str) -> str | None:
    """The term a definition defines ('"Fees" means ...' -> "fees"), case-folded; None if none is found."""
    m = _QUOTED_TERM.match(text) or _BARE_TERM.match(text)
    return _SPACE.sub(" ", m.group("t")).strip().casefold() if m else None


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
