from conflictkit.model import Judgement
from conflictkit.partition import partition
from conflictkit.testing.clauses import indexed_document


def j(r, i, same, conflict):
    return Judgement(reference_id=r, input_id=i, p_same=same, p_differs=conflict, p_conflict=conflict)


def docs():
    ref = indexed_document(["Fees are due in 30 days.", "Term is one year.", "Gone clause.", '"Fees" means charges.'], prefix="r",
                           kinds=["clause", "clause", "clause", "definition"])
    inp = indexed_document(["Fees are due in 60 days.", "The term is one year.", "New clause.", "Heading"], prefix="i")
    inp.clauses[3] = inp.clauses[3].model_copy(update={"filtered": "heading"})
    return ref, inp


def test_four_outcomes():
    ref, inp = docs()
    result = partition(ref, inp, [j("r1", "i1", 0.9, 0.9), j("r2", "i2", 0.95, 0.05), j("r3", "i3", 0.1, 0.5)], 0.3, 0.7)
    assert [(d.reference_id, d.input_id) for d in result.deviations] == [("r1", "i1")]
    assert [(c.reference_id, c.input_id) for c in result.covered] == [("r2", "i2")]
    assert [cid for cid, _ in result.missing] == ["r3"]  # r4 is a definition: never missing
    assert result.missing[0][1] == 0.1
    assert [cid for cid, _ in result.added] == ["i3"]  # i4 is filtered: never added


def test_each_side_picks_its_best_counterpart():
    ref, inp = docs()
    # r1 matches i1 best; i2's best is r2; the weaker r1-i2 pair is not picked by anyone
    js = [j("r1", "i1", 0.9, 0.1), j("r1", "i2", 0.5, 0.9), j("r2", "i2", 0.8, 0.1)]
    result = partition(ref, inp, js, 0.3, 0.7)
    assert result.deviations == []
    assert ("r1", "i2") not in result.picked


def test_pick_from_the_input_side_counts_too():
    ref, inp = docs()
    # i3 is best matched by r1, though r1 prefers i1: both picked; i3-r1 conflicts
    js = [j("r1", "i1", 0.9, 0.1), j("r1", "i3", 0.6, 0.8)]
    result = partition(ref, inp, js, 0.3, 0.7)
    assert {(d.reference_id, d.input_id) for d in result.deviations} == {("r1", "i3")}
    assert "i3" not in [cid for cid, _ in result.added]


def test_threshold_moves_the_line():
    ref, inp = docs()
    js = [j("r1", "i1", 0.9, 0.75)]
    assert len(partition(ref, inp, js, 0.3, 0.7).deviations) == 1
    assert len(partition(ref, inp, js, 0.3, 0.8).deviations) == 0
    assert "r1" in [c for c, _ in partition(ref, inp, js, 0.95, 0.7).missing]


def test_a_deleted_clause_does_not_borrow_its_neighbours_counterpart():
    ref, inp = docs()
    # r1 and i1 are each other's best (0.95); r3 (deleted in the input) is closest to i1 but far behind
    js = [j("r1", "i1", 0.95, 0.1), j("r3", "i1", 0.6, 0.9)]
    result = partition(ref, inp, js, 0.3, 0.7, shared_margin=0.2)
    assert result.deviations == []
    assert "r3" in [c for c, _ in result.missing]
    # a clause merged into i1 (close to r1's P(same)) still shares it
    js = [j("r1", "i1", 0.9, 0.1), j("r3", "i1", 0.8, 0.9)]
    result = partition(ref, inp, js, 0.3, 0.7, shared_margin=0.2)
    assert [(d.reference_id, d.input_id) for d in result.deviations] == [("r3", "i1")]
