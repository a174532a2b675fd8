"""The heaviest monotone chain of sparse pairs: sequence alignment without an n x m table.

Pairs are (reference position, input position, weight). A chain is a set of pairs strictly
increasing in both positions, which is what a monotone (order-preserving) alignment is. The
heaviest chain is found like a longest increasing subsequence, with a Fenwick tree of prefix
maxima over input positions: O(P log P) for P pairs, whatever the document lengths.

A linear gap cost needs no extra term: an alignment of k pairs leaves n + m - 2k clauses
unaligned, so a cost g per unaligned clause adds 2g to every pair's weight and a constant.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby


class _PrefixMax:
    """Fenwick tree: best (score, pair index) over input positions below a bound."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.tree: list[tuple[float, int]] = [(0.0, -1)] * (size + 1)

    def update(self, position: int, value: tuple[float, int]) -> None:
        k = position + 1
        while k <= self.size:
            if value[0] > self.tree[k][0]:
                self.tree[k] = value
            k += k & -k

    def best_below(self, position: int) -> tuple[float, int]:
        best = (0.0, -1)
        k = position  # positions 0 .. position-1
        while k > 0:
            if self.tree[k][0] > best[0]:
                best = self.tree[k]
            k -= k & -k
        return best


def heaviest_chain(pairs: Sequence[tuple[int, int, float]], gap_cost: float = 0.0) -> list[int]:
    """Indices into ``pairs`` of the heaviest chain, in increasing order of position.

    Pairs with a non-positive weight (after the gap bonus) are never chosen.
    """
    if not pairs:
        return []
    size = max(j for _, j, _ in pairs) + 1
    tree = _PrefixMax(size)
    score = [0.0] * len(pairs)
    back = [-1] * len(pairs)
    order = sorted(range(len(pairs)), key=lambda k: pairs[k][0])
    for _, group in groupby(order, key=lambda k: pairs[k][0]):
        group = list(group)
        for k in group:  # all of one reference position first: it may be used only once
            weight = pairs[k][2] + 2.0 * gap_cost
            if weight <= 0:
                score[k] = float("-inf")
                continue
            prior, back[k] = tree.best_below(pairs[k][1])
            score[k] = prior + weight
        for k in group:
            if score[k] > 0:
                tree.update(pairs[k][1], (score[k], k))
    end = max(range(len(pairs)), key=lambda k: score[k])
    chain = []
    while end >= 0 and score[end] > 0:
        chain.append(end)
        end = back[end]
    return chain[::-1]
