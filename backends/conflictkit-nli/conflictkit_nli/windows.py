"""Sentence windows: a clause longer than the model's window is split, never silently truncated.

A pair that fits is scored as it is. Otherwise each side gets a token budget (a short side keeps
its whole text, the long side gets the rest; two long sides share the window evenly) and is cut at
sentence ends (then at semicolons, then between words) into windows that fill the budget greedily.
Every window of one side is paired with every window of the other.

Aggregation over the window pairs, per direction (premise -> hypothesis):
- P(contradiction) is the maximum: one contradicting pair of windows is a contradiction;
- P(entailment) is the minimum over hypothesis windows of the best premise window: every part of
  the hypothesis must be entailed by some part of the premise;
- P(neutral) is what remains, ``max(0, 1 - c - e)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[“‘A-Z0-9])")
_SEMICOLON = re.compile(r"(?<=;)\s+")
SPECIAL_TOKENS = 4  # [CLS] a [SEP] b [SEP], plus one for tokenizers that join windows differently


def _units(text: str) -> list[str]:
    """Sentences, with sentences split again at semicolons: the pieces windows are built from."""
    units = []
    for sentence in _SENTENCE_END.split(text.strip()):
        units.extend(part for part in _SEMICOLON.split(sentence) if part.strip())
    return units


def windows(text: str, budget: int, count: Callable[[Sequence[str]], list[int]]) -> list[str]:
    """Consecutive pieces of ``text`` of at most ``budget`` tokens each, cut at sentence boundaries."""
    pieces: list[str] = []
    units = _units(text)
    sizes = count(units) if units else []
    for unit, size in zip(units, sizes):
        if size > budget:  # one sentence longer than the window: cut it between words
            pieces.extend(_split_words(unit, budget, count))
        else:
            pieces.append(unit)
    return _pack(pieces, budget, count)


def _split_words(sentence: str, budget: int, count: Callable[[Sequence[str]], list[int]]) -> list[str]:
    words = sentence.split()
    sizes = count(words)
    chunks, current, used = [], [], 0
    for word, size in zip(words, sizes):
        if current and used + size > budget:
            chunks.append(" ".join(current))
            current, used = [], 0
        current.append(word)
        used += size
    if current:
        chunks.append(" ".join(current))
    return chunks


def _pack(pieces: list[str], budget: int, count: Callable[[Sequence[str]], list[int]]) -> list[str]:
    sizes = count(pieces) if pieces else []
    packed, current, used = [], [], 0
    for piece, size in zip(pieces, sizes):
        if current and used + size > budget:
            packed.append(" ".join(current))
            current, used = [], 0
        current.append(piece)
        used += size
    if current:
        packed.append(" ".join(current))
    return packed or [""]


def budgets(len_a: int, len_b: int, window: int) -> tuple[int, int]:
    """Token budgets of two sides that do not fit ``window`` together."""
    room = window - SPECIAL_TOKENS
    half = room // 2
    if len_a <= half:
        return len_a, room - len_a
    if len_b <= half:
        return room - len_b, len_b
    return half, room - half


def window_pairs(a: str, b: str, window: int, count: Callable[[Sequence[str]], list[int]]) -> tuple[list[str], list[str]]:
    """The windows of each side of the pair (one each when the pair fits ``window``)."""
    len_a, len_b = count([a, b])
    if len_a + len_b + SPECIAL_TOKENS <= window:
        return [a], [b]
    budget_a, budget_b = budgets(len_a, len_b, window)
    wa = [a] if len_a <= budget_a else windows(a, budget_a, count)
    wb = [b] if len_b <= budget_b else windows(b, budget_b, count)
    return wa, wb


def aggregate(contradiction: np.ndarray, entailment: np.ndarray) -> tuple[float, float, float]:
    """(c, e, n) of one direction from (premise windows x hypothesis windows) probability grids."""
    c = float(contradiction.max())
    e = float(entailment.max(axis=0).min())
    return c, e, max(0.0, 1.0 - c - e)
