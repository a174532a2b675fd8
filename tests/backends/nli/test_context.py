"""Neighbouring-clause context and the merging of pairs that point at the same sections."""

from __future__ import annotations

from conflictkit.model import CandidatePair
from conflictkit.stages import Comparison
from conflictkit.testing.clauses import indexed_document
from conflictkit_nli.context import expand_pairs, neighbours_text, section_text

REF = ["1. Confidentiality", "The Recipient shall keep Information secret.", "The foregoing shall not apply to Affiliates.",
       "The Recipient shall return Information on request.", "2. Term", "This Agreement lasts one year."]
PARENTS = [None, "r1", "r1", "r1", None, "r5"]


def doc(prefix="r"):
    parents = [p.replace("r", prefix) if p else None for p in PARENTS]
    return indexed_document(REF, prefix, parents=parents, kinds=["heading", "clause", "clause", "clause", "heading", "clause"])


def test_neighbours_are_the_siblings_before_and_after():
    d = doc()
    assert neighbours_text(d, "r3") == " ".join(REF[1:4])
    assert neighbours_text(d, "r2") == " ".join(REF[1:3])
    assert neighbours_text(d, "r6") == REF[5]


def test_section_is_the_parent_with_all_its_children():
    d = doc()
    assert section_text(d, "r3") == " ".join(REF[0:4])
    assert section_text(d, "r1") == " ".join(REF[0:4])
    assert section_text(d, "r6") == " ".join(REF[4:6])


def test_pairs_into_the_same_sections_are_judged_once_in_section_mode():
    comparison = Comparison(reference=doc("r"), input=doc("i"))
    pairs = [CandidatePair(reference_id=f"r{a}", input_id=f"i{b}") for a, b in [(2, 2), (3, 3), (3, 4), (6, 6)]]
    texts, index = expand_pairs(pairs, comparison, "section")
    assert len(texts) == 2 and index == [0, 0, 0, 1]
    texts, index = expand_pairs(pairs, comparison, "none")
    assert len(texts) == 4 and texts[1] == (REF[2], REF[2])
    texts, index = expand_pairs(pairs, comparison, "neighbours")
    assert texts[index[1]] == (" ".join(REF[1:4]), " ".join(REF[1:4]))
