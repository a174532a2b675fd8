"""Invariants of align() on random documents and judgements: order kept, every clause accounted for."""

from collections import Counter
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from conflictkit.align import AlignOptions, align
from conflictkit.model import Judgement
from conflictkit.testing.clauses import indexed_document

WORDS = ["Fees are due.", "Term is one year.", "Fees are due in 30 days.", "Notices in writing.", "Law of Delaware."]


@st.composite
def documents_and_judgements(draw):
    ref_texts = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8))
    inp_texts = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8))
    cells = [(a, b) for a in range(len(ref_texts)) for b in range(len(inp_texts))]
    chosen = draw(st.lists(st.sampled_from(cells), unique=True, max_size=len(cells)))
    judgements = [Judgement(reference_id=f"r{a + 1}", input_id=f"i{b + 1}", p_same=draw(st.floats(0, 1)),
                            p_differs=0.5, p_conflict=draw(st.floats(0, 1))) for a, b in chosen]
    return indexed_document(ref_texts, prefix="r"), indexed_document(inp_texts, prefix="i"), judgements


def run_judge(runs):
    return [Judgement(reference_id="+".join(a), input_id="+".join(b), p_same=0.9, p_differs=0.5, p_conflict=0.2)
            for a, b in runs]


@settings(max_examples=300, deadline=None)
@given(documents_and_judgements())
def test_in_order_links_are_monotone_and_every_clause_is_accounted_for(case):
    ref, inp, judgements = case
    result = align(ref, inp, judgements, AlignOptions(), run_judge)
    links = result.deviations + result.covered
    uses = Counter(cid for link in links for cid in (*link.reference, *link.input))
    single = [x for x in links if not x.moved and all(uses[c] == 1 for c in (*x.reference, *x.input))]
    position = {c.id: k for doc in (ref, inp) for k, c in enumerate(doc.clauses)}
    single.sort(key=lambda x: position[x.reference[0]])
    for a, b in pairwise(single):
        assert position[a.reference[-1]] < position[b.reference[0]]
        assert position[a.input[-1]] < position[b.input[0]]
    for link in links:  # runs are consecutive clauses
        for side in (link.reference, link.input):
            assert [position[c] for c in side] == list(range(position[side[0]], position[side[0]] + len(side)))
    gaps = {g.clause_id for g in result.missing + result.added}
    assert not gaps & set(uses)
    assert {c.id for c in ref.clauses} | {c.id for c in inp.clauses} == gaps | set(uses)
    moved = [x for block in result.moves for x in block]
    assert all(x.moved for x in moved) and len(moved) == len({id(x) for x in moved})
