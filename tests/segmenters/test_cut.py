"""Paragraphs too long to compare are cut into clauses: at sentence ends, else between words; no cut
moves when the text elsewhere is edited, and every piece still slices the original."""

from __future__ import annotations

from conflictkit.loaders import document_from_text
from conflictkit.segmenters.rules import RulesSegmenter
from conflictkit.testing.hostile import numbered_one_liners, one_line, one_paragraph


def segment(text: str, max_chars: int = 2_000):
    document = document_from_text(text)
    return document, RulesSegmenter({"max_chars": max_chars}).segment(document)


def test_a_paragraph_within_the_limit_is_one_clause():
    text = one_paragraph(1_500)
    _, clauses = segment(text)
    assert len(clauses) == 1 and clauses[0].text == " ".join(text.split())


def test_a_long_paragraph_is_cut_at_its_sentence_ends_and_each_piece_slices_the_original():
    text = one_paragraph(50_000)
    document, clauses = segment(text)
    assert len(clauses) > 100 and all(len(c.text) <= 2_000 for c in clauses)
    assert all(c.text.endswith(".") for c in clauses[:-1])  # whole sentences
    assert " ".join(c.text for c in clauses) == " ".join(text.split())  # nothing lost, nothing repeated
    for clause in clauses:
        assert " ".join(document.original[clause.span.start:clause.span.end].split()) == clause.text


def test_an_edit_moves_no_cut_but_its_own():
    text = one_paragraph(40_000)
    edited = text.replace("within 30 days", "within 45 days", 1)
    assert edited != text
    before, after = (segment(t)[1] for t in (text, edited))
    assert len(before) == len(after)
    assert sum(a.text != b.text for a, b in zip(before, after, strict=True)) == 1


def test_one_line_with_no_sentence_end_is_cut_between_words_within_the_limit():
    words = " ".join(f"word{k % 97}" for k in range(20_000))  # 140 KB, no full stop anywhere
    _, clauses = segment(words)
    assert all(len(c.text) <= 2_000 for c in clauses)
    assert " ".join(c.text for c in clauses) == words
    _, again = segment("lead " + words)  # a word added at the start: the later cuts fall where they fell
    assert {c.text for c in clauses[2:]} <= {c.text for c in again}


def test_a_word_longer_than_the_limit_is_cut_inside_it():
    _, clauses = segment("x" * 5_000 + " tail.")
    assert [len(c.text) for c in clauses] == [2_000, 2_000, 1_006]  # the rest, " tail." included, fits


def test_numbered_one_liners_past_999_are_clauses_of_their_own():
    # "1000." is no numbering label (years start lines too), so lines 1000 on run together into one
    # paragraph of a few MB; cut at its sentence ends, each line is a clause with its number
    _, clauses = segment(numbered_one_liners(3_000), max_chars=10_000)
    assert len(clauses) == 3_000
    assert clauses[999].text == "1000. The Supplier shall deliver item 1000 within 11 days."


def test_a_five_megabyte_line_is_cut_into_clauses_the_judge_can_read():
    document, clauses = segment(one_line(5_000_000), max_chars=10_000)
    assert len(clauses) > 50_000 and max(len(c.text) for c in clauses) <= 10_000
    assert clauses[-1].span.end <= len(document.original)
