"""Reading an NLI label, and its probability, from what a chat model answered.

A model writes a label as a sequence of its own tokens, and the sequence differs by tokenizer:
``NEUTRAL`` may be ``NE`` + ``UT`` + ``RAL``, ``CONTRADICTION`` ``CON`` + ``TR`` + ``ADICTION``, with
or without a leading space or a quote mark. The server reports, for every answer token, its
log-probability and the top alternatives at that position. A label's probability is read as:

- the answer's own path: the first token that holds a letter (tokens of blanks and punctuation
  before it are shared by every label and skipped), times each following token's probability
  while the path still spells that label: the label's whole token sequence;
- every other alternative at that first position that begins exactly one label (any length: ``N``,
  ``NE``, `` Neut``) adds its probability to that label; its continuation is not observed and
  the instruction asks for one word, so it is taken as spelled out.

The three masses are renormalised. An answer with no log-probabilities falls back to the label
its text names (:func:`label_of`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

LABELS = ("CONTRADICTION", "ENTAILMENT", "NEUTRAL")
_LETTERS = re.compile(r"[A-Za-z]+")

Position = tuple[str, float, Sequence[tuple[str, float]]]


def _letters(token: str) -> str:
    """The letters a token starts with, upper-cased, after any blanks and punctuation ('' when none)."""
    match = _LETTERS.search(token)
    if match is None or token[: match.start()].strip(" \t\n\"'`*_:([{-") != "":
        return ""
    return match.group().upper()


def labels_begun_by(piece: str) -> list[str]:
    """The labels a piece of text begins (or, for a longer word, that begin it): ``NE`` -> [NEUTRAL]."""
    if not piece:
        return []
    return [label for label in LABELS if label.startswith(piece) or piece.startswith(label)]


def label_of(answer: str) -> str | None:
    """The label an answer names: its first word when that begins exactly one label, else the one label it names in full."""
    words = [w.upper() for w in _LETTERS.findall(answer)]
    if not words:
        return None
    first = labels_begun_by(words[0])
    if len(first) == 1:
        return first[0]
    named = {w for w in words if w in LABELS}
    return named.pop() if len(named) == 1 else None


def label_probabilities(positions: Sequence[Position]) -> dict[str, float] | None:
    """(c, e, n) from the answer's token log-probabilities, or None when no label can be read from them."""
    start = next((k for k, (token, _, _) in enumerate(positions) if _LETTERS.search(token)), None)
    if start is None:
        return None
    token, logprob, top = positions[start]
    alternatives = dict(top)
    alternatives.setdefault(token, logprob)
    path_label, continuation = _path(positions, start)
    mass = dict.fromkeys(LABELS, 0.0)
    for alternative, alt_logprob in alternatives.items():
        labels = labels_begun_by(_letters(alternative))
        if len(labels) != 1:
            continue
        p = math.exp(alt_logprob)
        if alternative == token and labels[0] == path_label:
            p *= continuation
        mass[labels[0]] += p
    total = sum(mass.values())
    if total <= 0:
        return None
    return {label: p / total for label, p in mass.items()}


def _path(positions: Sequence[Position], start: int) -> tuple[str | None, float]:
    """The label the answer's own tokens spell from ``start``, and the probability of its tokens after the first."""
    spelled = _letters(positions[start][0])
    labels = labels_begun_by(spelled)
    if len(labels) != 1:
        return None, 1.0
    label, probability = labels[0], 1.0
    for token, logprob, _ in positions[start + 1 :]:
        if len(spelled) >= len(label):
            break
        piece = token.upper()
        if not piece or not label.startswith(spelled + piece):
            break  # the answer left the label's spelling: what it wrote next is not the label's
        spelled += piece
        probability *= math.exp(logprob)
    return label, probability
