"""The sparse heaviest-chain DP: monotone, and as heavy as the quadratic DP it replaces."""

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from conflictkit.align.chain import heaviest_chain

pairs_strategy = st.lists(
    st.tuples(st.integers(0, 12), st.integers(0, 12), st.floats(0.01, 1.0, allow_nan=False)),
    max_size=40, unique_by=lambda p: (p[0], p[1]),
)


def quadratic_best(pairs, gap_cost=0.0):
    """The textbook O(P^2) chain DP, as the oracle."""
    ordered = sorted(pairs)
    best = []
    for k, (i, j, w) in enumerate(ordered):
        weight = w + 2 * gap_cost
        prior = max((best[q] for q in range(k) if ordered[q][0] < i and ordered[q][1] < j), default=0.0)
        best.append(prior + weight if weight > 0 else float("-inf"))
    return max([0.0, *best])


@settings(max_examples=300, deadline=None)
@given(pairs_strategy)
def test_chain_is_strictly_increasing_on_both_sides(pairs):
    chain = [pairs[k] for k in heaviest_chain(pairs)]
    for (i1, j1, _), (i2, j2, _) in pairwise(chain):
        assert i1 < i2 and j1 < j2


@settings(max_examples=300, deadline=None)
@given(pairs_strategy, st.sampled_from([0.0, 0.1, 0.5]))
def test_chain_is_as_heavy_as_the_quadratic_dp(pairs, gap_cost):
    chain = heaviest_chain(pairs, gap_cost)
    weight = sum(pairs[k][2] + 2 * gap_cost for k in chain)
    assert abs(weight - quadratic_best(pairs, gap_cost)) < 1e-9


def test_one_reference_clause_is_used_once():
    # two input clauses both match reference clause 0: only one can be in the chain
    assert len(heaviest_chain([(0, 0, 0.9), (0, 1, 0.8)])) == 1


def test_crossing_pairs_keep_the_heavier_order():
    # (0,1) and (1,0) cross; the chain keeps the in-order majority
    pairs = [(0, 1, 0.9), (1, 0, 0.9), (2, 2, 0.9), (3, 3, 0.9)]
    chosen = {pairs[k][:2] for k in heaviest_chain(pairs)}
    assert {(2, 2), (3, 3)} <= chosen and len(chosen) == 3


def test_empty():
    assert heaviest_chain([]) == []
