"""The published conflict-detector recipe as pure functions (constants exactly as published).

    match       = mean of the row-wise and column-wise log-softmax of cosine / 0.06
    materiality = -4 logit(empty) - logit(care) - logit(agree) + logit(money)
    P(same)     = sigmoid(2.049 match + 3.058)
    P(differs)  = sigmoid(0.526 materiality - 12.312)
    P(conflict) = sigmoid(0.576 logsigmoid(2.049 match + 3.058)
                          + 0.707 logsigmoid(0.526 materiality - 12.312) + 1.663)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

TEMPERATURE = 0.06
SAME_SLOPE, SAME_BIAS = 2.049, 3.058
DIFFERS_SLOPE, DIFFERS_BIAS = 0.526, -12.312
CONFLICT_SAME, CONFLICT_DIFFERS, CONFLICT_BIAS = 0.576, 0.707, 1.663
EPS = 1e-6  # scores of exactly 0 or 1 would give infinite logits


def sigmoid(x: float) -> float:
    return float(1.0 / (1.0 + np.exp(-x)))


def log_sigmoid(x: float) -> float:
    return float(-np.logaddexp(0.0, -x))


def logit(p: float) -> float:
    p = min(max(float(p), EPS), 1.0 - EPS)
    return float(np.log(p) - np.log1p(-p))


def materiality(empty: float, care: float, agree: float, money: float) -> float:
    return -4.0 * logit(empty) - logit(care) - logit(agree) + logit(money)


def same_logit(match: float) -> float:
    return SAME_SLOPE * match + SAME_BIAS


def differs_logit(material: float) -> float:
    return DIFFERS_SLOPE * material + DIFFERS_BIAS


def p_same(match: float) -> float:
    return sigmoid(same_logit(match))


def p_differs(material: float) -> float:
    return sigmoid(differs_logit(material))


def p_conflict(match: float, material: float) -> float:
    return sigmoid(CONFLICT_SAME * log_sigmoid(same_logit(match)) + CONFLICT_DIFFERS * log_sigmoid(differs_logit(material)) + CONFLICT_BIAS)


def p_conflict_from(same: float, differs: float) -> float:
    """The same combination written on probabilities (log P = logsigmoid of the logit)."""
    return sigmoid(CONFLICT_SAME * np.log(same) + CONFLICT_DIFFERS * np.log(differs) + CONFLICT_BIAS)


def _logsumexp(z: np.ndarray, axis: int) -> np.ndarray:
    if z.shape[axis] == 0:
        return np.full(z.shape[1 - axis], -np.inf)
    top = np.max(z, axis=axis, keepdims=True)
    return (np.log(np.sum(np.exp(z - top), axis=axis)) + np.squeeze(top, axis=axis)).astype(np.float64)


def mutual_match(
    similarity: np.ndarray,
    pairs: Sequence[tuple[int, int]],
    rows_kept: Sequence[int],
    cols_kept: Sequence[int],
    temperature: float = TEMPERATURE,
) -> list[float]:
    """``match`` of each (row, column) pair over the reference x input similarity matrix.

    The softmax of a row runs over the kept columns (the clauses the recipe keeps after
    filtering), plus the pair's own column when that one was not kept; columns likewise.
    """
    z = np.asarray(similarity, dtype=np.float64) / temperature
    rows_kept, cols_kept = list(rows_kept), list(cols_kept)
    row_lse = _logsumexp(z[:, cols_kept], axis=1)
    col_lse = _logsumexp(z[rows_kept, :], axis=0)
    kept_cols, kept_rows = set(cols_kept), set(rows_kept)
    out = []
    for i, j in pairs:
        r = row_lse[i] if j in kept_cols else np.logaddexp(row_lse[i], z[i, j])
        c = col_lse[j] if i in kept_rows else np.logaddexp(col_lse[j], z[i, j])
        out.append(float(((z[i, j] - r) + (z[i, j] - c)) / 2.0))
    return out
