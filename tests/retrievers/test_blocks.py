"""Blocked top-k equals a stable sort of the whole matrix, whatever the block size."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conflictkit.retrievers.blocks import mutual_top_k, top_k_of_groups, top_k_rows_and_columns


def dense_top_k(scores, k):
    order = np.argsort(-scores, axis=1, kind="stable")[:, : min(k, scores.shape[1])]
    return {(i, int(j), rank + 1) for i, row in enumerate(order) for rank, j in enumerate(row)}


def blocks_of(matrix):
    return lambda start, stop: matrix[start:stop]


matrices = st.tuples(st.integers(1, 9), st.integers(1, 9), st.integers(0, 2**32 - 1), st.booleans())


def make(n, m, seed, ties):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 4, size=(n, m)).astype(float) if ties else rng.random((n, m))
    return values


@settings(max_examples=200, deadline=None)
@given(matrices, st.integers(1, 5), st.integers(1, 30))
def test_top_k_of_rows_and_columns_is_a_stable_sort_of_each(shape, k, cells):
    scores = make(*shape)
    by_row, by_col = top_k_rows_and_columns(blocks_of(scores), scores.shape[0], scores.shape[1], k, cells=cells)
    assert set(zip(by_row.rows.tolist(), by_row.cols.tolist(), by_row.ranks.tolist())) == dense_top_k(scores, k)
    assert np.array_equal(by_row.scores, scores[by_row.rows, by_row.cols])
    assert set(zip(by_col.rows.tolist(), by_col.cols.tolist(), by_col.ranks.tolist())) == dense_top_k(scores.T, k)
    assert np.array_equal(by_col.scores, scores[by_col.cols, by_col.rows])


@settings(max_examples=200, deadline=None)
@given(matrices, st.integers(1, 4), st.integers(1, 30), st.floats(0.0, 3.0))
def test_mutual_top_k_is_the_union_of_row_and_column_winners(shape, k, cells, floor):
    scores = make(*shape)
    rows, cols, values = mutual_top_k(blocks_of(scores), *scores.shape, k, floor, cells=cells)
    by_row = {(i, j) for i, j, _ in dense_top_k(scores, k)}
    by_col = {(i, j) for j, i, _ in dense_top_k(scores.T, k)}
    expected = sorted((i, j) for i, j in by_row | by_col if scores[i, j] >= floor)
    assert list(zip(rows.tolist(), cols.tolist())) == expected
    assert np.array_equal(values, scores[rows, cols])


def test_memory_is_bounded_by_the_block_not_the_matrix():
    seen = []

    def scores(start, stop):
        seen.append(stop - start)
        return np.ones((stop - start, 1000))

    top_k_rows_and_columns(scores, 10_000, 1000, 3, cells=50_000)
    assert max(seen) == 50 and sum(seen) == 10_000


def test_top_k_of_groups_keeps_the_best_of_each_group():
    groups = np.array([0, 0, 0, 1, 1, 2])
    others = np.array([5, 3, 4, 1, 2, 0])
    scores = np.array([0.9, 0.9, 0.1, 0.2, 0.8, 0.5])
    mask = top_k_of_groups(groups, others, scores, 2)
    assert mask.tolist() == [True, True, False, True, True, True]
    assert top_k_of_groups(groups, others, scores, 1).tolist() == [False, True, False, False, True, True]


@pytest.mark.parametrize("n,m", [(0, 3), (3, 0)])
def test_empty_sides_give_no_pairs(n, m):
    scores = np.zeros((n, m))
    rows, cols, values = mutual_top_k(blocks_of(scores), n, m, 3, 0.0)
    assert rows.size == cols.size == values.size == 0
