"""The rules filter: each non-operative reason, definitions never flagged, operative text untouched."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from conflictkit.filters.rules import RulesFilter, blank_form_field
from conflictkit.loaders import document_from_text
from conflictkit.model import Clause, Span
from conflictkit.registry import get_registry
from conflictkit.segmenters.rules import RulesSegmenter


def clause(text: str, kind: str = "clause", i: int = 1) -> Clause:
    return Clause(id=f"c{i:04d}", text=text, span=Span(start=0, end=len(text)), kind=kind, order=i)


def flags(*texts: str) -> list[str | None]:
    return RulesFilter().flag([clause(t, i=i) for i, t in enumerate(texts, 1)])


def segmented_flags(text: str) -> list[tuple[str, str | None]]:
    clauses = RulesSegmenter().segment(document_from_text(text))
    return list(zip([c.text for c in clauses], RulesFilter().flag(clauses), strict=True))


def test_registered_as_rules():
    assert get_registry().get("filter", "rules").cls is RulesFilter


def test_segmenter_kinds_are_reasons_and_definitions_are_never_flagged():
    reasons = RulesFilter().flag([
        clause("Payment Terms", "heading"),
        clause("By: ________", "signature", 2),
        clause('"Fees" means [insert amount]', "definition", 3),
        clause("Name: ______", "definition", 4),
    ])
    assert reasons == ["heading", "signature", None, None]


@pytest.mark.parametrize("text", [
    "Name: ______", "Effective Date:", "Effective Date: ____________", "[insert date]", "[●]", "[ ]",
    "Governing Law: [Fill in state]", "Employer: {employer_name}", "[Today's date]", "Amount: $[____]",
    "Term: [●] months", "Address: <<Customer Address>>",
])
def test_blank_form_fields(text):
    assert blank_form_field(text)
    assert flags(text) == ["blank form field"]


@pytest.mark.parametrize("text", [
    "Customer shall pay all fees within thirty (30) days.",
    "Payment: Customer shall pay within 30 days.",
    "Governing Law: Delaware",
    "[x] Expires [1 year(s)] from Effective Date.",
    "[ ] Continues until terminated in accordance with the terms of the MNDA.",
    "The following terms apply:",
    "Customer will not, and will not allow anyone else to:",
    "[Evaluating whether to enter into a business relationship with the other party.]",
    "The fee is $100, payable on the date of the invoice.",
])
def test_operative_text_is_not_flagged(text):
    assert flags(text) == [None]


def test_page_artefacts_and_running_headers():
    header = "Acme Corp. Confidential"
    texts = ["Page 3 of 10", "12", "- 4 -", "iv", header, "The Supplier shall deliver the goods.", header,
             "Reserved.", "Reserved.", "Reserved.", header]
    assert flags(*texts) == ["page artefact"] * 5 + [None, "page artefact", None, None, None, "page artefact"]


def test_running_header_options():
    texts = ["DRAFT", "Clause text one shall apply.", "DRAFT"]
    assert flags(*texts) == [None, None, None]  # two times is not yet a pattern
    assert RulesFilter({"repeated_min": 2}).flag([clause(t, i=i) for i, t in enumerate(texts, 1)]) == [
        "page artefact", None, "page artefact"]
    with pytest.raises(ValidationError):
        RulesFilter({"repeated_min": 1})
    with pytest.raises(ValidationError):
        RulesFilter({"unknown": True})


def test_table_of_contents():
    reasons = flags("Table of Contents", "Definitions .......... 1", "Payment Terms 4", "Termination 9",
                    "The Customer shall pay the fees in full.", "Schedules ..... 12")
    assert reasons == ["table of contents"] * 4 + [None, "table of contents"]


def test_cover_page_identity_fields():
    assert flags("Name: Jane Smith", "Notice Address: 1 Main St, Springfield",
                 "Title: Chief Executive Officer") == ["cover page field"] * 3
    assert flags("Name: the Customer shall name a representative.") == [None]


@pytest.mark.parametrize("stamp", ["Last updated: January 6, 2023", "These Terms were last updated on March 14, 2024.",
                                   "Version 2.1", "Acme Master Services Agreement, Version 3.0"])
def test_a_version_stamp_is_compared_like_a_clause(stamp):
    """A new date or version is reported (reason version_date), so its stamp is never filtered out."""
    assert flags(stamp) == [None]


@pytest.mark.parametrize("text", ["The Effective Date is January 15, 2025.", "Last updated by the Customer's counsel.",
                                  "Version control: the Supplier shall keep every version for 6 years."])
def test_dates_and_versions_in_terms_are_not_stamps(text):
    from conflictkit.filters.rules import version_stamp

    assert not version_stamp(text)


def test_boilerplate_kind():
    assert RulesFilter().flag([clause("[Signature page follows]", "boilerplate")]) == ["boilerplate"]


def test_on_a_segmented_cover_page():
    text = (
        "# Order Form\n\nEffective Date: ____________\n\nCustomer: Acme Corp.\n\n"
        "Governing Law: [Fill in state]\n\n"
        "1. Fees. Customer shall pay $100 per month.\n\n"
        '"Affiliate" means [insert definition].\n\n'
        "IN WITNESS WHEREOF, the parties sign below.\n\nBy: ________\nName:\nTitle:\n\n3\n"
    )
    assert segmented_flags(text) == [
        ("Order Form", "heading"),
        ("Effective Date: ____________", "blank form field"),
        ("Customer: Acme Corp.", None),
        ("Governing Law: [Fill in state]", "blank form field"),
        ("Fees. Customer shall pay $100 per month.", None),
        ('"Affiliate" means [insert definition].', None),
        ("IN WITNESS WHEREOF, the parties sign below.", "signature"),
        ("By: ________", "signature"),
        ("Name:", "signature"),
        ("Title:", "signature"),
        ("3", "page artefact"),
    ]


@pytest.mark.parametrize("text", ["Ladies and Gentlemen:", "If to the Company:", "Dear Sirs:"])
def test_salutations_and_lead_ins_are_not_blank_fields(text):
    assert not blank_form_field(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["Name: ", "____", "[insert date]", "Page 2 of 9", "\n\n", "\n", "1. ", "(a) ",
                                 '"Fee" means ', "shall pay", "Table of Contents", " .... 4", "By:", "{x}", "# "])
                | st.text(max_size=10), max_size=40))
def test_any_clauses_get_one_reason_each_and_definitions_none(pieces):
    clauses = RulesSegmenter().segment(document_from_text("".join(pieces)))
    reasons = RulesFilter().flag(clauses)
    assert len(reasons) == len(clauses)
    for c, reason in zip(clauses, reasons, strict=True):
        assert reason is None or isinstance(reason, str) and reason
        if c.kind == "definition":
            assert reason is None
        if c.kind in ("heading", "signature"):
            assert reason == c.kind


def test_drafting_notes_and_footnotes():
    assert flags("[Drafting Note: delete this clause if no data is processed.]", "Note to draft: confirm the cap.",
                 "[^1]: The cap excludes indemnities.", "Notes on payment are set out below.") == [
        "drafting note", "drafting note", "footnote", None]


@pytest.mark.parametrize(
    ("text", "heading", "reason"),
    [
        ("In short: you can cancel whenever you like and we will refund the unused part of your plan.", None,
         "non-binding summary"),
        ("Short version - we keep your files for 30 days after you close your account.", None, "non-binding summary"),
        ("| TL;DR: we may end your account if you break these rules. |", None, "non-binding summary"),
        ("You own what you upload; we only use it to run the service.", "Plain English", "non-binding summary"),
        ("We will not sell your data.", "Summary (not legally binding)", "non-binding summary"),
        ("This summary is provided for information only and does not form part of the Terms.", None, "non-binding summary"),
        ("v2.3 (2024-02-01): Updated the section on refunds.", None, "change log"),
        ("March 3, 2025 - Clarified how we handle account deletion.", None, "change log"),
        ("Section 7 now explains data retention in more detail.", "Revision history", "change log"),
        ("We've updated our Terms of Service. The new version takes effect on 1 June 2025.", None, "update banner"),
        ("Editorial note: clause numbering follows the 2019 edition.", None, "editor's note"),
        ("[Note: the figures below are illustrative.]", None, "editor's note"),
    ],
)
def test_non_binding_text_is_flagged_with_its_reason(text, heading, reason):
    c = clause(text).model_copy(update={"heading": heading})
    assert RulesFilter().flag([c]) == [reason]


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("We may change these Terms by giving you 30 days' notice; the updated Terms take effect on the date in that notice.",
         "Changes to these Terms"),
        ("If we have changed these Terms, we will tell you by email before 1 June 2025.", None),
        ("The Customer shall pay the Fees set out in the Summary of Key Terms.", "Fees"),
        ("Provider shall summarise each incident in a short report within five days.", "Incidents"),
        ("Version 2 of the Software shall be delivered by 1 March 2025.", "Delivery"),
        ("Headings are for convenience only and do not affect the interpretation of this Agreement.", "Interpretation"),
    ],
)
def test_operative_text_that_talks_about_summaries_or_changes_is_not_flagged(text, heading):
    c = clause(text).model_copy(update={"heading": heading})
    assert RulesFilter().flag([c]) == [None]


def test_a_segmented_document_flags_its_summary_column_change_log_and_banner():
    text = ("# Terms of Service\n\nWe've updated these Terms. The new version takes effect on 1 July 2025.\n\n"
            "## 1. Your account\n\nYou must keep your password secret and tell us promptly of any misuse.\n\n"
            "In short: keep your password safe.\n\n"
            "## Change log\n\n- 2025-05-01: Added the section on passwords.\n")
    flagged = dict(segmented_flags(text))
    assert flagged["You must keep your password secret and tell us promptly of any misuse."] is None
    assert flagged["In short: keep your password safe."] == "non-binding summary"
    assert flagged["We've updated these Terms. The new version takes effect on 1 July 2025."] == "update banner"
    assert [r for t, r in flagged.items() if "2025-05-01" in t] == ["change log"]
