"""The verdict distribution: a probability per verdict, the most probable one wins, ties go to the more preferred."""

from __future__ import annotations

import itertools

import pytest

from conflictkit.model import Judgement
from conflictkit.playbook.verdicts import distribution, p_match


def test_probabilities_sum_to_one_and_stay_in_bounds():
    grid = [0.0, 0.05, 0.5, 0.95, 1.0]
    for a, b, r in itertools.product(grid, grid, grid):
        for broken in (False, True):
            for present in (1.0, 0.6, 0.2):
                d = distribution([a, b], [r], broken, present)
                total = sum(d.accepted) + d.not_acceptable + d.gap
                assert total == pytest.approx(1.0)
                assert all(-1e-9 <= p <= 1.0 for p in (*d.accepted, *d.red, d.none, d.not_acceptable, d.gap))
                assert sum(d.red) + d.none + d.broken == pytest.approx(d.not_acceptable)


@pytest.mark.parametrize("accepted, red, broken, verdict", [
    ([1.0, 0.05], [], False, ("standard", None)),
    ([0.05, 1.0], [], False, ("fallback", 1)),
    ([0.5, 0.95], [], False, ("fallback", 1)),  # the better match wins, not the earlier one
    ([0.05, 0.05, 0.8], [], False, ("fallback", 2)),
    ([0.05, 0.1], [], False, ("not-acceptable", None)),
    ([0.05, 0.05], [0.99], False, ("not-acceptable", None)),  # says what a red-line text says
    ([1.0, 0.05], [], True, ("not-acceptable", None)),  # a broken rule: nothing is acceptable
    ([0.9, 0.9], [], False, ("standard", None)),  # a tie goes to the preferred text
])
def test_verdicts(accepted, red, broken, verdict):
    assert distribution(accepted, red, broken).verdict()[:2] == verdict


def test_labels():
    d = distribution([0.1, 0.9], [0.05], False)
    assert list(d.labelled()) == ["standard", "fallback 1", "not acceptable", "missing"]
    assert list(d.labelled("absent"))[-1] == "absent"


@pytest.mark.parametrize("present, verdict", [(1.0, "not-acceptable"), (0.7, "not-acceptable"), (0.4, "missing"),
                                               (0.3, "missing")])
def test_a_passage_about_another_matter_leaves_the_position_missing(present, verdict):
    """A weakly related clause is no evidence that the position is there and deviates."""
    assert distribution([0.02, 0.02], [], False, present).verdict()[0] == verdict
    assert distribution([0.98, 0.02], [], False, 0.7).verdict()[0] == "standard"


def test_p_match_needs_the_same_matter_and_no_difference():
    def j(same, differs):
        return Judgement(reference_id="r", input_id="i", p_same=same, p_differs=differs, p_conflict=same * differs)

    assert p_match(j(1.0, 0.0)) == 1.0
    assert p_match(j(0.2, 0.0)) == pytest.approx(0.2)  # another matter is no match however alike
    assert p_match(j(1.0, 0.9)) == pytest.approx(0.1)


def test_texts_left_out_keep_their_ranks():
    """A passage that is fallback 2 word for word is judged against nothing else: its verdict still names fallback 2."""
    d = distribution([1.0], [], False, ranks=[2])
    assert d.verdict()[:2] == ("fallback", 2) and list(d.labelled()) == ["fallback 2", "not acceptable", "missing"]
    assert distribution([], [1.0], False).verdict()[0] == "not-acceptable"
