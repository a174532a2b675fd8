"""Reviewing drafts against the test playbook: each verdict, its quotes, probabilities and reasons."""

from __future__ import annotations

import pytest

from conflictkit.testing.schemas import assert_valid
from tests.playbook.conftest import TEMPLATE

SOLICIT = "\n\n5.1 Non-solicitation. For twelve (12) months, neither party shall solicit the other party's employees.\n"


def verdicts(result) -> dict[str, str]:
    return {p["id"]: p["label"] for p in result.review["positions"]}


def position(result, pid: str) -> dict:
    return next(p for p in result.review["positions"] if p["id"] == pid)


def test_the_template_itself_is_standard_and_an_optional_position_absent(review_text):
    result = review_text(TEMPLATE)
    assert verdicts(result) == {"payment-term": "standard", "cure": "standard", "deletion": "standard",
                                "provider-indemnity": "standard", "governing-law": "standard", "non-solicitation": "absent"}
    review = result.review
    assert_valid(review)
    assert review["summary"]["standard"] == 5 and review["summary"]["absent"] == 1
    # the template's clauses without a position are matched, not counted as new matter
    assert review["summary"]["uncovered_not_in_template"] == 0
    assert {u["template"] for u in review["uncovered"]} == {"1.2", "3.2", "4.2"}
    for p in review["positions"]:
        if p["input"]:
            assert TEMPLATE[p["input"]["start"]:p["input"]["end"]] == p["input"]["text"] and p["grounded"]
            assert result.rendered.text[p["reference"]["start"]:p["reference"]["end"]] == p["reference"]["text"]


def test_fallbacks_red_lines_rules_and_missing(review_text):
    draft = (TEMPLATE.replace("within thirty (30) days after the invoice date", "within sixty (60) days after the invoice date")
             .replace("Either party may terminate", "Provider may terminate")
             .replace("within sixty (60) days.", "within one hundred and twenty (120) days.")
             .replace("the State of Delaware", "England and Wales")
             .replace("3.1 By Provider. Provider shall indemnify, defend and hold harmless Customer against any third-party "
                      "claim that the Services infringe its intellectual property.\n\n", "")) + SOLICIT
    result = review_text(draft)
    assert verdicts(result) == {"payment-term": "fallback 2", "cure": "not acceptable", "deletion": "not acceptable",
                                "provider-indemnity": "missing", "governing-law": "not acceptable",
                                "non-solicitation": "standard"}
    assert_valid(result.review)
    cure = position(result, "cure")
    assert cure["red_lines"][0]["red_line"] == "red line 1" and cure["red_lines"][0]["rule"] is None
    assert cure["reasons"][0]["type"] == "red-line" and any(r["type"] == "party" for r in cure["reasons"])
    assert cure["probabilities"]["not acceptable"] == cure["p_verdict"] > 0.9
    deletion = position(result, "deletion")
    (hit,) = deletion["red_lines"]
    assert hit["rule"] == "any duration above 90 days" and hit["p"] == 1.0
    assert draft[hit["input"]["start"]:hit["input"]["end"]] == "one hundred and twenty (120) days"
    assert deletion["nearest"] in ("preferred", "fallback 1") and deletion["redline"]["ops"]
    law = position(result, "governing-law")
    assert "England and Wales is not Delaware or New York" in law["reasons"][0]["detail"]
    missing = position(result, "provider-indemnity")
    assert missing["input"] is None and missing["verdict"] == "missing" and missing["reference"]["section"] == "preferred"
    # the customer's indemnity next to it is the template's own clause 3.2, not ours changed
    assert any(u["template"] == "3.2" for u in result.review["uncovered"])
    term = position(result, "payment-term")
    assert term["fallback"] == 2 and term["nearest"] == "fallback 2" and term["guidance"] == "Cash flow matters. Never shorter than 30 days."


def test_a_benign_rewording_keeps_every_verdict(review_text):
    plain = TEMPLATE.replace("thirty (30) days after the invoice date", "forty-five (45) days after the invoice date")
    reworded = (plain.replace("forty-five (45) days after the invoice date", "45 days after the invoice date")
                .replace("Provider shall delete", "the Provider will delete").replace("Either party may", "Each party may")
                .replace("is governed by the laws of", "shall be governed by the laws of"))
    assert verdicts(review_text(plain)) == verdicts(review_text(reworded))
    assert verdicts(review_text(reworded))["payment-term"] == "fallback 1"


def test_a_position_written_as_one_paragraph_matches_a_draft_that_splits_it(review_text):
    split = TEMPLATE.replace("Customer shall pay each undisputed invoice within thirty (30) days after the invoice date.",
                             "Customer shall pay each undisputed invoice.\n\n(a) Payment is due within thirty (30) days after the invoice date.")
    result = review_text(split)
    term = position(result, "payment-term")
    assert term["input"]["spans"] is None or len(term["input"]["spans"]) >= 1
    assert term["label"] in ("standard", "not acceptable")  # the split reworded it; never missing
    assert term["verdict"] != "missing"


def test_new_matter_is_uncovered_and_not_in_the_template(review_text):
    result = review_text(TEMPLATE + "\n\n4.3 Audit. Provider may audit Customer's systems once a year at Customer's cost.\n")
    new = [u for u in result.review["uncovered"] if u["template"] is None]
    assert len(new) == 1 and new[0]["input"]["text"].startswith("Audit. Provider may audit") and result.review["summary"]["uncovered_not_in_template"] == 1


def test_without_template_context_the_siblings_clause_is_taken(review_text, playbook, engine):
    """An uploaded playbook has no template to match the rest with: the other party's indemnity is then the nearest."""
    import dataclasses

    from conflictkit.loaders import document_from_text
    from conflictkit.playbook.review import review

    bare = dataclasses.replace(playbook, template_document=None, template_clauses=())
    draft = TEMPLATE.replace("3.1 By Provider. Provider shall indemnify, defend and hold harmless Customer against any "
                             "third-party claim that the Services infringe its intellectual property.\n\n", "")
    with_context = verdicts(review_text(draft))["provider-indemnity"]
    without = review(engine, bare, document_from_text(draft, "d.md"))
    assert with_context == "missing"
    assert verdicts(without)["provider-indemnity"] == "not acceptable"
    assert without.review["summary"]["uncovered_not_in_template"] is None


def test_an_empty_draft_has_every_required_position_missing(review_text):
    result = review_text("# Nothing\n\nThis page is intentionally blank of terms.\n")
    assert set(verdicts(result).values()) <= {"missing", "absent"}
    assert all(p["p_verdict"] >= 0.5 for p in result.review["positions"])


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_renderings_name_every_position(review_text, fmt):
    from conflictkit.playbook.render import render_review_markdown, review_renderables
    from conflictkit.report.terminal import make_console

    result = review_text(TEMPLATE.replace("Either party may terminate", "Provider may terminate"))
    texts = {"reference": result.rendered.text, "input": result.input.document.original}
    if fmt == "md":
        out = render_review_markdown(result.review, texts)
        assert "| Cure period (cure) | Termination | not acceptable |" in out and "## Cure period: not acceptable" in out
    else:
        import io

        buffer = io.StringIO()
        console = make_console(buffer, width=120)
        for renderable in review_renderables(result.review, texts):
            console.print(renderable)
        out = buffer.getvalue()
        assert "NOT ACCEPTABLE  P 1.00  high    Cure period" in out and "[-Either party-] {+Provider+}" in out
        assert "red line 1: the clause says what red line 1 says (termination must stay mutual)" in out
        assert out.strip().endswith("spans grounded")


def test_one_change_is_no_rename_however_many_texts_a_position_has(review_text):
    """The position has three accepted texts with the same words: the change is seen three times, once in the draft."""
    result = review_text(TEMPLATE.replace("after the invoice date", "after the delivery date"))
    term = position(result, "payment-term")
    assert term["label"] == "not acceptable", term["probabilities"]


def test_language_auto_reviews_a_german_draft_with_the_german_pack(fast_config):
    from conflictkit.engine import Engine
    from conflictkit.loaders import document_from_text
    from conflictkit.playbook.load import playbook_from_bytes
    from conflictkit.playbook.review import review

    playbook = playbook_from_bytes(GERMAN_PLAYBOOK.encode(), "de.yaml", None, None)
    engine = Engine(fast_config.model_copy(update={"language": "auto"}))
    result = review(engine, playbook, document_from_text(GERMAN_DRAFT, "entwurf.md"))
    assert result.params["language"] == "de"
    assert {p["id"]: p["label"] for p in result.review["positions"]} == {"zahlung": "fallback 1", "recht": "not acceptable"}


GERMAN_PLAYBOOK = """\
version: 1
title: Dienstleistungsvertrag
subjects:
  - subject: Zahlung
    positions:
      - id: zahlung
        title: Zahlungsfrist
        preferred: "Zahlung. Der Kunde zahlt jede unbestrittene Rechnung innerhalb von dreißig (30) Tagen nach dem Rechnungsdatum."
        fallbacks:
          - "Zahlung. Der Kunde zahlt jede unbestrittene Rechnung innerhalb von sechzig (60) Tagen nach dem Rechnungsdatum."
  - subject: Recht
    positions:
      - id: recht
        title: Anwendbares Recht
        preferred: "Anwendbares Recht. Dieser Vertrag unterliegt dem Recht der Bundesrepublik Deutschland."
"""

GERMAN_DRAFT = """# Vertrag

1. Zahlung. Der Kunde zahlt jede unbestrittene Rechnung innerhalb von sechzig (60) Tagen nach dem Rechnungsdatum.

2. Anwendbares Recht. Dieser Vertrag unterliegt dem Recht der Schweiz und die Parteien sind damit einverstanden.

3. Kündigung. Jede Partei darf den Vertrag mit einer Frist von drei Monaten kündigen.
"""
