"""The conforming redline: the draft with the nearest accepted text proposed for each not-acceptable position."""

from __future__ import annotations

import pytest

from conflictkit.playbook.conform import closest_accepted, conformed_text, proposals
from tests.playbook.conftest import TEMPLATE

DRAFT = (TEMPLATE.replace("Either party may terminate", "Provider may terminate")
         .replace("within sixty (60) days.", "within one hundred and twenty (120) days.")
         .replace("the State of Delaware", "England and Wales"))


def test_accepting_every_proposal_brings_the_draft_within_the_playbook(review_text):
    result = review_text(DRAFT)
    refused = {p["id"] for p in result.review["positions"] if p["verdict"] == "not-acceptable"}
    assert refused == {"cure", "deletion", "governing-law"}
    changes = proposals(result)
    assert [p.comment is not None for p in changes].count(True) == 3  # one comment per position, on its first change
    for p in changes:
        assert any(q["input"]["start"] <= p.start <= p.end <= q["input"]["end"]
                   for q in result.review["positions"] if q["id"] in refused)
    text = conformed_text(DRAFT, changes)
    assert "England and Wales" not in text and "Provider may terminate" not in text and "Either party may terminate" in text
    assert text.count("\n") == DRAFT.count("\n")  # no paragraph added or lost
    conformed = review_text(text)
    verdicts = {p["id"]: p["label"] for p in conformed.review["positions"]}
    assert all(verdicts[pid] in ("standard", "fallback 1") for pid in refused), verdicts
    assert {pid: v for pid, v in verdicts.items() if pid not in refused} == {
        p["id"]: p["label"] for p in result.review["positions"] if p["id"] not in refused}  # nothing else touched
    comment = next(p.comment for p in changes if p.comment and "Governing law" in p.comment)
    assert "not acceptable" in comment and "England and Wales is not Delaware or New York" in comment


def test_the_closest_accepted_text_is_the_one_with_the_fewest_changes(playbook):
    term = playbook.position("payment-term")
    draft = term.accepted[2].text.replace("sixty (60)", "seventy (70)")
    assert closest_accepted(term.accepted, draft).label == "fallback 2"
    assert closest_accepted(term.accepted, term.preferred.text).label == "preferred"


def test_the_word_file_rejects_to_the_draft_and_accepts_to_the_conformed_text(review_text, tmp_path):
    pytest.importorskip("conflictkit_docx", reason="the docx plugin is not installed")
    from conflictkit_docx.testing import document_tokens, round_trip

    from conflictkit.playbook.conform import conforming_docx

    result = review_text(DRAFT)
    data = conforming_docx(result)
    accepted, rejected = round_trip(data)
    assert rejected == document_tokens(DRAFT, "markdown")
    assert accepted == document_tokens(conformed_text(DRAFT, proposals(result)), "markdown")
    import docx

    path = tmp_path / "review.docx"
    path.write_bytes(data)
    assert len(list(docx.Document(str(path)).comments)) == 3


def test_a_word_draft_keeps_its_own_file(engine, playbook, tmp_path):
    pytest.importorskip("conflictkit_docx", reason="the docx plugin is not installed")
    from conflictkit_docx.testing import document_tokens, markdown_to_docx, round_trip

    from conflictkit.loaders import read_document
    from conflictkit.playbook.conform import conforming_docx
    from conflictkit.playbook.review import review

    path = tmp_path / "draft.docx"
    path.write_bytes(markdown_to_docx(DRAFT))
    result = review(engine, playbook, read_document(path))
    assert {p["id"] for p in result.review["positions"] if p["verdict"] == "not-acceptable"} == {"cure", "deletion", "governing-law"}
    draft = result.input.document
    accepted, rejected = round_trip(conforming_docx(result))
    assert rejected == document_tokens(draft.original, "docx", draft.source.blocks)
    assert "England" not in accepted and "Delaware" in accepted
