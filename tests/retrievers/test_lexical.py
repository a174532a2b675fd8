"""The lexical pass: clear BM25 matches are paired without vectors; missing or ambiguous ones stay open."""

from __future__ import annotations

from conflictkit.retrievers.cosine import CosineRetriever
from conflictkit.retrievers.lexical import LexicalOptions, lexical_pass
from conflictkit.testing.clauses import indexed_document

REFERENCE = [
    "The Supplier shall deliver the Goods to the Customer's warehouse within thirty (30) days of the Purchase Order, "
    "packed and labelled as the Customer reasonably directs.",
    "This Agreement and any dispute arising out of it are governed by the laws of the State of New York, without "
    "regard to its conflict of laws rules.",
    "The Customer shall pay each invoice within 45 days of receipt.",
    "Either party may terminate this Agreement for convenience on ninety (90) days' written notice.",
]
INPUT = [  # edits of r1 and r2 (clear), rewordings of r3 and r4 (no clear match)
    "The Supplier shall deliver the Goods to the Customer's warehouse within sixty (60) days of the Purchase Order, "
    "packed and labelled as the Customer reasonably directs.",
    "This Agreement and any dispute arising out of it are governed by the laws of the State of Delaware, without "
    "regard to its conflict of laws rules.",
    "Invoices are payable by the Customer ninety days after they are received.",
    "Neither party can end the contract for convenience; termination is allowed only for cause.",
]


def settle(reference, input, **options):
    ref, inp = indexed_document(reference, "r"), indexed_document(input, "i")
    return lexical_pass(ref, inp, LexicalOptions(**options), 3, (list(range(len(reference))), list(range(len(input)))))


def test_clear_edits_are_settled_and_rewordings_stay_open():
    settlement = settle(REFERENCE, INPUT)
    assert settlement.open_reference == [2, 3] and settlement.open_input == [2, 3]
    pairs = {(p.reference_id, p.input_id) for p in settlement.candidates}
    assert {("r1", "i1"), ("r2", "i2")} <= pairs
    # every pair it keeps has a settled clause on one side at least; the open ones are left to the vectors
    assert all(p.reference_id in {"r1", "r2"} or p.input_id in {"i1", "i2"} for p in settlement.candidates)
    # a clear pair is full evidence of one matter (relevance 1.0); the others keep their BM25 relevance
    for p in settlement.candidates:
        clear = (p.reference_id, p.input_id) in {("r1", "i1"), ("r2", "i2")}
        assert p.similarity is None and p.relevance == (1.0 if clear else p.signals["bm25"])
        assert ("lexical_match" in p.signals) == clear


def test_near_duplicates_are_ambiguous_and_stay_open():
    twice = ["The Customer shall pay each invoice within 45 days of receipt.",
             "The Customer shall pay each invoice within 45 days of receipt by wire."]
    settlement = settle(["The Customer shall pay each invoice within 30 days of receipt."], twice)
    assert settlement.open_reference == [0] and settlement.open_input == [0, 1]
    # with no margin asked for, the better copy is a clear match
    assert settle(["The Customer shall pay each invoice within 30 days of receipt."], twice, clear=0.3, margin=0.0).open_reference == []


def test_a_higher_bar_settles_less():
    assert len(settle(REFERENCE, INPUT, clear=0.99).open_reference) == len(REFERENCE)
    # with no bar at all every mutual best is settled; r3's best (i1) prefers r1, so r3 stays open
    assert settle(REFERENCE, INPUT, clear=0.0, margin=0.0).open_reference == [2]


def test_the_cosine_retriever_settles_only_when_asked():
    ref, inp = indexed_document(REFERENCE, "r"), indexed_document(INPUT, "i")
    everything = ([0, 1, 2, 3], [0, 1, 2, 3])
    assert CosineRetriever({"lexical": None}).settle(ref, inp, everything) is None
    settlement = CosineRetriever().settle(ref, inp, everything)
    assert settlement is not None and settlement.open_reference == [2, 3]


def test_the_rest_of_each_document_sets_the_word_statistics():
    """One changed clause a side: against two one-clause corpora every shared word would be common and
    the changed number rare, so no edit would look clear; the unchanged clauses around it say otherwise."""
    unchanged = REFERENCE[1:]
    ref = indexed_document([REFERENCE[0], *unchanged], "r")
    inp = indexed_document([INPUT[0], *unchanged], "i")
    settlement = lexical_pass(ref, inp, LexicalOptions(), 3, ([0], [0]))
    assert settlement.open_reference == [] and settlement.open_input == []
    assert [(p.reference_id, p.input_id) for p in settlement.candidates] == [("r1", "i1")]
    alone = lexical_pass(indexed_document(REFERENCE[:1], "r"), indexed_document(INPUT[:1], "i"), LexicalOptions(), 3, ([0], [0]))
    assert alone.open_reference == [0]
