"""The published recipe's arithmetic: parity with the article, and the match matrix against a direct computation."""

from __future__ import annotations

import numpy as np
import pytest

from conflictkit_isaacus import recipe


def test_parity_with_the_published_example():
    assert round(recipe.p_conflict_from(0.68, 0.99), 2) == 0.81


def test_conflict_from_match_and_materiality_equals_the_probability_form():
    for match, material in [(-0.4, 30.0), (0.0, 10.0), (-3.0, 25.0)]:
        same, differs = recipe.p_same(match), recipe.p_differs(material)
        assert recipe.p_conflict(match, material) == pytest.approx(recipe.p_conflict_from(same, differs), abs=1e-9)


def test_published_constants():
    assert recipe.p_same(0.0) == pytest.approx(1 / (1 + np.exp(-3.058)))
    assert recipe.p_differs(12.312 / 0.526) == pytest.approx(0.5)
    assert recipe.TEMPERATURE == 0.06


def test_materiality_formula():
    empty, care, agree, money = 0.1, 0.2, 0.7, 0.9
    lg = lambda p: np.log(p / (1 - p))  # noqa: E731
    expected = -4 * lg(empty) - lg(care) - lg(agree) + lg(money)
    assert recipe.materiality(empty, care, agree, money) == pytest.approx(expected)
    assert np.isfinite(recipe.materiality(0.0, 1.0, 0.0, 1.0))  # saturated scores stay finite


def _log_softmax(x: np.ndarray) -> np.ndarray:
    return x - np.log(np.sum(np.exp(x)))


def test_mutual_match_is_the_mean_of_row_and_column_log_softmax():
    rng = np.random.default_rng(7)
    sim = rng.uniform(-0.2, 0.9, size=(5, 4))
    pairs = [(0, 0), (2, 3), (4, 1)]
    got = recipe.mutual_match(sim, pairs, range(5), range(4))
    z = sim / 0.06
    for (i, j), value in zip(pairs, got):
        expected = (_log_softmax(z[i, :])[j] + _log_softmax(z[:, j])[i]) / 2
        assert value == pytest.approx(expected)


def test_mutual_match_softmax_runs_over_kept_clauses_plus_the_pair_itself():
    rng = np.random.default_rng(3)
    sim = rng.uniform(0, 1, size=(4, 4))
    rows_kept, cols_kept = [0, 1, 2], [1, 2, 3]  # row 3 and column 0 were filtered
    (value,) = recipe.mutual_match(sim, [(3, 0)], rows_kept, cols_kept)
    z = sim / 0.06
    row = _log_softmax(z[3, [0, 1, 2, 3]])[0]  # column 0 joins its own row's softmax
    col = _log_softmax(z[[0, 1, 2, 3], 0])[3]
    assert value == pytest.approx((row + col) / 2)


def test_a_clear_mutual_best_match_is_same_matter():
    sim = np.array([[0.95, 0.30], [0.25, 0.90]])
    (m,) = recipe.mutual_match(sim, [(0, 0)], [0, 1], [0, 1])
    assert recipe.p_same(m) > 0.9
    (m2,) = recipe.mutual_match(sim, [(0, 1)], [0, 1], [0, 1])
    assert recipe.p_same(m2) < 0.3
