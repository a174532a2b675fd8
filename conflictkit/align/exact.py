"""Exact text pairs first: clauses equal after normalization pair with each other, in order."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

_FULL_DP_LIMIT = 20_000  # groups above this many position pairs pair in order (e.g. hundreds of "[Reserved]")


def exact_anchors(reference: Sequence[str], input: Sequence[str]) -> list[tuple[int, int]]:
    """(reference position, input position) of clauses with equal text keys (see ``text_key``), one-to-one.

    Within a group of equal texts, the i-th copy on one side pairs with the copy at the nearest
    relative position on the other, keeping their order: repeated lines (dates, list items,
    country variants) pair with their own counterparts, never across.
    """
    groups_ref = _groups(reference)
    groups_inp = _groups(input)
    anchors: list[tuple[int, int]] = []
    for key, ref_positions in groups_ref.items():
        inp_positions = groups_inp.get(key)
        if inp_positions:
            anchors += _pair_in_order(ref_positions, inp_positions, len(reference), len(input))
    return sorted(anchors)


def _groups(keys: Sequence[str]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = defaultdict(list)
    for position, key in enumerate(keys):
        if key:
            groups[key].append(position)
    return groups


def _pair_in_order(a: list[int], b: list[int], n: int, m: int) -> list[tuple[int, int]]:
    if len(a) == len(b) or len(a) * len(b) > _FULL_DP_LIMIT:
        return list(zip(a, b))
    if len(a) > len(b):
        return [(x, y) for y, x in _pair_in_order(b, a, m, n)]
    # len(a) < len(b): choose which of b the a's pair with, in order, nearest in relative position
    cost = [[abs(x / max(n, 1) - y / max(m, 1)) for y in b] for x in a]
    inf = float("inf")
    best = [[inf] * (len(b) + 1) for _ in range(len(a) + 1)]
    best[0] = [0.0] * (len(b) + 1)
    for i in range(1, len(a) + 1):
        for j in range(i, len(b) + 1):
            best[i][j] = min(best[i][j - 1], best[i - 1][j - 1] + cost[i - 1][j - 1])
    pairs, i, j = [], len(a), len(b)
    while i > 0:
        if j > i and best[i][j] == best[i][j - 1]:
            j -= 1
            continue
        pairs.append((a[i - 1], b[j - 1]))
        i, j = i - 1, j - 1
    return pairs[::-1]
