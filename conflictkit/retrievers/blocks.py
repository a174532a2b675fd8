"""Top-k selection over a score matrix that is never held whole.

Retrievers score every reference clause against every input clause, but only keep each clause's
few best counterparts. Holding the dense n x m matrix costs O(n * m) memory (3 GB at 16k clauses a
side); here rows arrive in blocks of a bounded number of cells, each block is reduced to its
rows' top k at once, and only O((n + m) * k) numbers are kept. Columns' top k come from the
same routine run over the transposed scores (blocks of columns), so nothing waits for a whole
column either.

Selection is exact and deterministic: a row's k best are its k highest scores, ties going to the
lower column index, ranked as a stable descending sort would rank them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

RowBlocks = Callable[[int, int], np.ndarray]
"""``scores(start, stop)``: the dense scores of rows ``start:stop`` against every column."""

CELLS_PER_BLOCK = 2_000_000  # ~16 MB of float64 scores per block, plus a few masks of the same shape


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


def _block_top_k(block: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(row, column) of the ``k`` best cells of each row of ``block``, row-major, best first per row."""
    width = block.shape[1]
    kth = np.partition(block, width - k, axis=1)[:, width - k][:, None]
    above = block > kth
    ties = block == kth
    needed = k - above.sum(axis=1, keepdims=True)
    chosen = above | (ties & (np.cumsum(ties, axis=1) <= needed))  # ties: lowest column indices first
    rows, cols = np.nonzero(chosen)
    order = np.lexsort((cols, -block[rows, cols], rows))
    return rows[order], cols[order]


def top_k_per_row(scores: RowBlocks, n_rows: int, n_cols: int, k: int, cells: int | None = None) -> TopK:
    """The ``k`` best columns of every row (all of them when there are fewer than ``k``)."""
    k = min(k, n_cols)
    if n_rows == 0 or k <= 0:
        empty = np.zeros(0, dtype=np.int64)
        return TopK(empty, empty, np.zeros(0), empty)
    step = rows_per_block(n_cols, cells)
    rows, cols, values = [], [], []
    for start in range(0, n_rows, step):
        block = np.asarray(scores(start, min(start + step, n_rows)))
        block_rows, block_cols = _block_top_k(block, k)
        rows.append(block_rows + start)
        cols.append(block_cols)
        values.append(block[block_rows, block_cols])
    all_rows = np.concatenate(rows).astype(np.int64)
    ranks = np.tile(np.arange(1, k + 1, dtype=np.int64), n_rows)
    return TopK(all_rows, np.concatenate(cols).astype(np.int64), np.concatenate(values).astype(np.float64), ranks)


def mutual_top_k(
    forward: RowBlocks, backward: RowBlocks, n: int, m: int, top_k: int, min_relevance: float,
    cells: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cells in the top k of their row or of their column, scoring at least ``min_relevance``.

    ``forward`` gives rows of the (n x m) scores, ``backward`` rows of its transpose. Returns
    (rows, columns, scores) sorted by row, then column.
    """
    if n == 0 or m == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    by_row = top_k_per_row(forward, n, m, top_k, cells)
    by_col = top_k_per_row(backward, m, n, top_k, cells)
    keys = np.concatenate([by_row.rows * m + by_row.cols, by_col.cols * m + by_col.rows])
    values = np.concatenate([by_row.scores, by_col.scores])
    unique, first = np.unique(keys, return_index=True)  # a cell found both ways keeps its row-side score
    kept = values[first] >= min_relevance
    unique, scores = unique[kept], values[first][kept]
    return unique // m, unique % m, scores


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
