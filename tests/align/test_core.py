"""align(): exact text first, order over similarity, moves, deletions, definitions, duplicates."""

from conflictkit.align import AlignOptions, align
from conflictkit.align.text import text_key
from conflictkit.model import Judgement
from conflictkit.testing.clauses import indexed_document

OPTIONS = AlignOptions(same_matter=0.3, conflict=0.7, moved=0.6)


def j(r, i, same, conflict):
    return Judgement(reference_id=r, input_id=i, p_same=same, p_differs=conflict, p_conflict=conflict)


def linked(links):
    return sorted((link.reference, link.input) for link in links)


COUNTRIES = [f"Customers resident in {c} may cancel an order within fourteen (14) days." for c in ("France", "Germany", "Spain")]


def test_near_duplicates_pair_with_their_own_counterparts_not_the_conflicting_ones():
    # regression: P(same) saturates for every pair of country variants; the old tie-break on
    # (p_same, p_conflict) paired each clause with a *conflicting* variant
    ref = indexed_document(COUNTRIES, prefix="r")
    inp = indexed_document(COUNTRIES, prefix="i")
    judgements = [j(f"r{a}", f"i{b}", 0.99, 0.05 if a == b else 0.95) for a in (1, 2, 3) for b in (1, 2, 3)]
    result = align(ref, inp, judgements, OPTIONS)
    assert result.deviations == [] and result.missing == [] and result.added == []
    assert linked(result.covered) == [(("r1",), ("i1",)), (("r2",), ("i2",)), (("r3",), ("i3",))]


def test_a_changed_variant_deviates_from_its_own_counterpart_only():
    changed = [*COUNTRIES]
    changed[1] = changed[1].replace("fourteen (14)", "seven (7)")
    ref, inp = indexed_document(COUNTRIES, prefix="r"), indexed_document(changed, prefix="i")
    judgements = [j(f"r{a}", f"i{b}", 0.99, 0.05 if (a, b) in ((1, 1), (3, 3)) else 0.95) for a in (1, 2, 3) for b in (1, 2, 3)]
    result = align(ref, inp, judgements, OPTIONS)
    assert linked(result.deviations) == [(("r2",), ("i2",))]


def test_repeated_dates_pair_in_order():
    lines = ["This version is dated 1 March 2024.", "Fees are due monthly.", "This version is dated 1 March 2024."]
    ref, inp = indexed_document(lines, prefix="r"), indexed_document(lines, prefix="i")
    result = align(ref, inp, [j("r1", "i3", 0.99, 0.0), j("r3", "i1", 0.99, 0.0)], OPTIONS)
    assert linked(result.covered) == [(("r1",), ("i1",)), (("r2",), ("i2",)), (("r3",), ("i3",))]
    assert result.moves == []


def test_order_decides_among_similar_clauses():
    ref = indexed_document(["Either party may end it on notice.", "Customer may end it for breach.", "Provider may end it for non-payment."], prefix="r")
    inp = indexed_document(["A party may end it on notice.", "The customer may end it for breach.", "The provider may end it for non-payment."], prefix="i")
    # i2 looks a bit more like r1 than i1 does, but only the in-order alignment explains all three
    judgements = [j("r1", "i1", 0.75, 0.1), j("r1", "i2", 0.8, 0.9), j("r2", "i2", 0.78, 0.1), j("r3", "i3", 0.9, 0.1)]
    result = align(ref, inp, judgements, OPTIONS)
    assert result.deviations == []
    assert linked(result.covered) == [(("r1",), ("i1",)), (("r2",), ("i2",)), (("r3",), ("i3",))]


def test_a_deleted_clause_is_missing_not_a_deviation_of_its_neighbour():
    ref = indexed_document(["Fees are due in 30 days.", "Provider stores data in the US.", "The term is one year."], prefix="r")
    inp = indexed_document(["Fees are payable in 30 days.", "The term is one year."], prefix="i")
    judgements = [j("r1", "i1", 0.95, 0.1), j("r2", "i1", 0.6, 0.9), j("r3", "i2", 1.0, 0.0)]
    result = align(ref, inp, judgements, OPTIONS)
    assert result.deviations == []
    assert [g.clause_id for g in result.missing] == ["r2"]


def test_a_moved_section_is_one_move():
    clauses = ["Alpha applies.", "Bravo applies.", "Charlie applies.", "Delta applies.", "Echo applies.", "Foxtrot applies."]
    ref = indexed_document(clauses, prefix="r")
    inp = indexed_document(clauses[2:] + clauses[:2], prefix="i")  # the first two moved to the end
    result = align(ref, inp, [], OPTIONS)
    assert result.missing == [] and result.added == [] and result.deviations == []
    assert [linked(block) for block in result.moves] == [[(("r1",), ("i5",)), (("r2",), ("i6",))]]


def test_a_moved_clause_that_changed_is_a_deviation_that_says_it_moved():
    ref = indexed_document(["Alpha applies.", "Bravo applies.", "Insurance of one million dollars.", "Delta applies."], prefix="r")
    inp = indexed_document(["Alpha applies.", "Bravo applies.", "Delta applies.", "Insurance of two million dollars."], prefix="i")
    result = align(ref, inp, [j("r3", "i4", 0.9, 0.93)], OPTIONS)
    assert linked(result.deviations) == [(("r3",), ("i4",))]
    assert result.deviations[0].moved
    assert result.moves == [] and result.missing == [] and result.added == []


def test_a_weak_out_of_order_match_is_not_a_move():
    ref = indexed_document(["Alpha applies.", "Gone clause.", "Bravo applies."], prefix="r")
    inp = indexed_document(["New clause.", "Alpha applies.", "Bravo applies."], prefix="i")
    result = align(ref, inp, [j("r2", "i1", 0.4, 0.9)], OPTIONS)
    assert result.moves == [] and result.deviations == []
    assert [g.clause_id for g in result.missing] == ["r2"] and [g.clause_id for g in result.added] == ["i1"]


def test_definitions_are_marked_and_can_be_left_out():
    ref = indexed_document(['"Fees" means the charges.', "Fees are due monthly."], prefix="r", kinds=["definition", "clause"])
    inp = indexed_document(["Fees are due monthly.", '"Term" means one year.'], prefix="i", kinds=["clause", "definition"])
    result = align(ref, inp, [], OPTIONS)
    assert [(g.clause_id, g.definition) for g in result.missing] == [("r1", True)]
    assert [(g.clause_id, g.definition) for g in result.added] == [("i2", True)]
    quiet = align(ref, inp, [], AlignOptions(definition_gaps=False))
    assert quiet.missing == [] and quiet.added == []


def test_a_changed_definition_is_a_deviation():
    ref = indexed_document(['"Fees" means the charges in the Order Form.'], prefix="r", kinds=["definition"])
    inp = indexed_document(['"Fees" means the charges in the invoice.'], prefix="i", kinds=["definition"])
    result = align(ref, inp, [j("r1", "i1", 0.9, 0.8)], OPTIONS)
    assert linked(result.deviations) == [(("r1",), ("i1",))]


def test_a_repeated_clause_is_not_added():
    ref = indexed_document(["Alpha applies.", "Bravo applies."], prefix="r")
    inp = indexed_document(["Alpha applies.", "Alpha  applies.", "Bravo applies."], prefix="i")
    result = align(ref, inp, [], OPTIONS)
    assert result.added == [] and result.missing == []
    assert (("r1",), ("i2",)) in linked(result.covered)


def test_filtered_clauses_are_never_gaps():
    ref = indexed_document(["Heading", "Alpha applies."], prefix="r")
    ref.clauses[0] = ref.clauses[0].model_copy(update={"filtered": "heading", "kind": "heading"})
    inp = indexed_document(["Alpha applies."], prefix="i")
    result = align(ref, inp, [], OPTIONS)
    assert result.missing == [] and linked(result.covered) == [(("r2",), ("i1",))]


def test_a_paragraph_cut_elsewhere_is_one_exact_run():
    ref = indexed_document(["Alpha applies. Bravo applies.", "Charlie applies.", "Delta applies."], prefix="r")
    inp = indexed_document(["Alpha applies.", "Bravo applies. Charlie applies.", "Delta applies."], prefix="i")
    result = align(ref, inp, [j("r1", "i1", 0.7, 0.8), j("r2", "i2", 0.6, 0.8)], OPTIONS)
    assert result.deviations == [] and result.missing == [] and result.added == []
    assert (("r1", "r2"), ("i1", "i2")) in linked(result.covered)


def test_text_key_ignores_labels_emphasis_and_whitespace():
    assert text_key("(a) **Fees.**  Customer pays.") == text_key("1.\tFees. Customer pays.") == "Fees. Customer pays."
    assert text_key("Customer pays.") != text_key("Customer does not pay.")


def test_two_definitions_of_one_term_are_a_changed_definition_however_different():
    ref = indexed_document(['"Agreement" means the Cover Page and these Standard Terms.', "Fees are due."], prefix="r",
                           kinds=["definition", "clause"])
    inp = indexed_document(["Fees are due.", '"Agreement" means the Order Form between Provider and Customer.'], prefix="i",
                           kinds=["clause", "definition"])

    def judge_runs(runs):  # the judge sees little in common between the two texts
        return [j("+".join(a), "+".join(b), 0.1, 0.05) for a, b in runs]

    result = align(ref, inp, [], OPTIONS, judge_runs)
    assert result.missing == [] and result.added == []
    assert linked(result.deviations) == [(("r1",), ("i2",))]
    assert result.deviations[0].judgement.reasons[-1].type == "definition"


def test_a_title_cut_off_as_a_filtered_heading_is_still_the_same_text():
    ref = indexed_document(["Disclaimer. Goods are provided as is.", "Fees are due."], prefix="r")
    inp = indexed_document(["Disclaimer.", "Goods are provided as is.", "Fees are due."], prefix="i")
    inp.clauses[0] = inp.clauses[0].model_copy(update={"filtered": "heading", "kind": "heading"})
    result = align(ref, inp, [j("r1", "i2", 0.9, 0.76)], OPTIONS)
    assert result.deviations == []
    assert (("r1",), ("i1", "i2")) in linked(result.covered)
