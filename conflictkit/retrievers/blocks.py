"""Top-k selection over a score matrix that is never held whole.

Retrievers score every reference clause against every input clause, but only keep each clause's
few best counterparts. Holding the dense n x m matrix costs O(n * m) memory (3 GB at 16k clauses a
side); here rows arrive in blocks of a bounded number of cells, each block is reduced to its
rows' top k at once, and only O((n + m) * k) numbers are kept. Columns' top k come from the
same blocks, merged block by block, so each score is computed once.

Selection is exact and deterministic: a row's k best are its k highest scores, ties going to the
lower column index, ranked as a stable descending sort would rank them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

RowBlocks = Callable[[int, int], np.ndarray]
"""``scores(start, stop)``: the dense scores of rows ``start:stop`` against every column."""

CELLS_PER_BLOCK = 8_000_000  # 32-64 MB of scores per block (float32 or float64), and masks of the same shape


@dataclass(frozen=True)
class TopK:
    """Each row's best columns as parallel arrays, grouped by row, best first within a row."""

    rows: np.ndarray
    cols: np.ndarray
    scores: np.ndarray
    ranks: np.ndarray  # 1 = the row's best


def rows_per_block(columns: int, cells: int | None = None) -> int:
    """How many rows of ``columns`` scores make one block of about ``cells`` (default :data:`CELLS_PER_BLOCK`)."""
    return max(1, (cells or CELLS_PER_BLOCK) // max(columns, 1))


def _block_top_k(block: np.ndarray, k: int, axis: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` best cells of each row (``axis=1``) or column (``axis=0``) of ``block``.

    Returns (line, position) index arrays grouped by line (row or column), best first within a
    line; ties go to the lower position. Works along either axis in place: no transposed copy.
    """
    length = block.shape[axis]
    kth = np.take(np.partition(block, length - k, axis=axis), [length - k], axis=axis)
    chosen = block >= kth
    excess = np.flatnonzero(chosen.sum(axis=axis) > k)  # lines where cells tie with the k-th best: rare but real
    if excess.size:
        sub, sub_kth = np.take(block, excess, axis=1 - axis), np.take(kth, excess, axis=1 - axis)
        ties = sub == sub_kth
        needed = k - (sub > sub_kth).sum(axis=axis, keepdims=True)
        fixed = (sub > sub_kth) | (ties & (np.cumsum(ties, axis=axis) <= needed))  # lowest positions first
        if axis == 1:
            chosen[excess] = fixed
        else:
            chosen[:, excess] = fixed
    rows, cols = np.nonzero(chosen)
    lines, positions = (rows, cols) if axis == 1 else (cols, rows)
    order = np.lexsort((positions, -block[rows, cols], lines))
    return lines[order], positions[order]


def _empty() -> TopK:
    empty = np.zeros(0, dtype=np.int64)
    return TopK(empty, empty, np.zeros(0), empty)


def _merge_columns(best: tuple[np.ndarray, np.ndarray] | None, rows: np.ndarray, values: np.ndarray, k: int):
    """Keep each column's ``k`` best (value, row) of the running best and a new block's candidates.

    ``rows`` and ``values`` are (columns x k) arrays; the running best holds only lower rows, so
    ties still go to the lower row index.
    """
    if best is not None:
        rows, values = np.concatenate([best[0], rows], axis=1), np.concatenate([best[1], values], axis=1)
    width = rows.shape[1]
    columns = np.repeat(np.arange(rows.shape[0]), width)
    order = np.lexsort((rows.ravel(), -values.ravel(), columns)).reshape(rows.shape)[:, :k]
    order -= (np.arange(rows.shape[0]) * width)[:, None]
    return np.take_along_axis(rows, order, axis=1), np.take_along_axis(values, order, axis=1)


def top_k_rows_and_columns(scores: RowBlocks, n_rows: int, n_cols: int, k: int, cells: int | None = None) -> tuple[TopK, TopK]:
    """The ``k`` best columns of every row, and the ``k`` best rows of every column, in one pass.

    Each block of rows is scored once; a column's best are merged block by block. The column
    result is expressed like a row result of the transposed scores: its ``rows`` are columns.
    """
    k_row, k_col = min(k, n_cols), min(k, n_rows)
    if n_rows == 0 or n_cols == 0 or k <= 0:
        return _empty(), _empty()
    step = rows_per_block(n_cols, cells)
    rows, cols, values = [], [], []
    best_of_columns = None
    for start in range(0, n_rows, step):
        block = np.asarray(scores(start, min(start + step, n_rows)))
        block_rows, block_cols = _block_top_k(block, k_row)
        rows.append(block_rows + start)
        cols.append(block_cols)
        values.append(block[block_rows, block_cols])
        k_block = min(k_col, block.shape[0])
        col_ids, row_ids = _block_top_k(block, k_block, axis=0)
        best_of_columns = _merge_columns(
            best_of_columns, (row_ids + start).reshape(n_cols, k_block), block[row_ids, col_ids].reshape(n_cols, k_block), k_col,
        )
    by_row = TopK(
        np.concatenate(rows).astype(np.int64), np.concatenate(cols).astype(np.int64),
        np.concatenate(values).astype(np.float64), np.tile(np.arange(1, k_row + 1, dtype=np.int64), n_rows),
    )
    col_rows, col_values = best_of_columns
    by_col = TopK(
        np.repeat(np.arange(n_cols, dtype=np.int64), k_col), col_rows.ravel().astype(np.int64),
        col_values.ravel().astype(np.float64), np.tile(np.arange(1, k_col + 1, dtype=np.int64), n_cols),
    )
    return by_row, by_col


def mutual_top_k(
    scores: RowBlocks, n: int, m: int, top_k: int, min_relevance: float, cells: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cells in the top k of their row or of their column, scoring at least ``min_relevance``.

    ``scores`` gives blocks of rows of the (n x m) scores. Returns (rows, columns, scores)
    sorted by row, then column.
    """
    if n == 0 or m == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    by_row, by_col = top_k_rows_and_columns(scores, n, m, top_k, cells)
    keys = np.concatenate([by_row.rows * m + by_row.cols, by_col.cols * m + by_col.rows])
    values = np.concatenate([by_row.scores, by_col.scores])
    unique, first = np.unique(keys, return_index=True)
    kept = values[first] >= min_relevance
    return unique[kept] // m, unique[kept] % m, values[first][kept]


def top_k_of_groups(groups: np.ndarray, others: np.ndarray, scores: np.ndarray, k: int) -> np.ndarray:
    """Mask of the entries that are among the ``k`` best of their group (ties: lower ``others`` first).

    For sparse candidates (parallel arrays), e.g. the k best fused pairs of each clause.
    """
    if groups.size == 0:
        return np.zeros(0, dtype=bool)
    order = np.lexsort((others, -scores, groups))
    sorted_groups = groups[order]
    starts = np.flatnonzero(np.r_[True, sorted_groups[1:] != sorted_groups[:-1]])
    position = np.arange(groups.size) - np.repeat(starts, np.diff(np.r_[starts, groups.size]))
    mask = np.zeros(groups.size, dtype=bool)
    mask[order[position < k]] = True
    return mask
