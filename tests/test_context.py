"""Facts read once from both whole documents (conflictkit.context) and what they change in a comparison:
a rename made throughout is no finding, the same substitution made once is; aliases; moved passages;
navigation and version stamps."""

from __future__ import annotations

import pytest

from conflictkit.context import DocumentContext, build_context, words_of
from conflictkit.engine import Engine
from conflictkit.model import CandidatePair
from conflictkit.testing.clauses import indexed_document


def context_of(reference: list[str], input: list[str]) -> DocumentContext:
    ref, inp = indexed_document(reference, "r"), indexed_document(input, "i")
    pairs = [CandidatePair(reference_id=f"r{k + 1}", input_id=f"i{k + 1}", relevance=1.0)
             for k in range(min(len(reference), len(input)))]
    return build_context(ref, inp, pairs)


def renamed(reference: list[str], input: list[str]) -> set[tuple[str, str]]:
    return {(" ".join(r.old), " ".join(r.new)) for r in context_of(reference, input).renames.values()}


REFERENCE = [
    "Northwind Traders may suspend an account that breaches the acceptable use rules.",
    "Northwind Traders keeps invoices for seven years after the end of the financial year.",
    "Customers may contact Northwind Traders by e-mail with any question about billing.",
]


def test_a_name_replaced_throughout_is_a_rename():
    input = [t.replace("Northwind Traders", "Contoso Retail") for t in REFERENCE]
    assert ("northwind traders", "contoso retail") in renamed(REFERENCE, input)


def test_a_substitution_made_once_is_not_a_rename():
    input = [REFERENCE[0].replace("Northwind Traders", "Contoso Retail"), *REFERENCE[1:]]
    assert not renamed(REFERENCE, input)


def test_both_wordings_side_by_side_are_two_things_not_one_renamed():
    reference = ["The Seller ships the goods.", "The Seller invoices the Buyer.", "The Agent helps the Seller.",
                 "The Agent reports to the Buyer."]
    input = ["The Agent ships the goods.", "The Agent invoices the Buyer.", "The Agent helps the Seller.",
             "The Agent reports to the Buyer."]
    assert ("seller", "agent") not in renamed(reference, input)


@pytest.mark.parametrize("old, new", [
    ("seven years", "ten years"),               # a number and its unit
    ("exclusive", "non-exclusive"),             # an opposite by prefix
    ("Delaware", "New York"),                   # a place
    ("shall", "may"),                           # a modal
    ("reasonable", "sole"),                     # a qualifier
])
def test_a_sweep_of_a_word_that_carries_meaning_is_never_a_rename(old, new):
    reference = [f"Clause {k}: the {old} term applies to the {noun}." for k, noun in enumerate(("fees", "data", "staff"))]
    input = [t.replace(old, new) for t in reference]
    assert not renamed(reference, input)


def test_a_common_word_needs_three_replacements_a_name_two():
    reference = ["We share your data with processors.", "We share logs with auditors.", "Support staff answer tickets."]
    twice = ["We disclose your data with processors.", "We disclose logs with auditors.", "Support staff answer tickets."]
    assert not renamed(reference, twice)
    reference.append("We share invoices with tax advisers.")
    thrice = [*twice, "We disclose invoices with tax advisers."]
    assert ("share", "disclose") in renamed(reference, thrice)


def test_a_shortened_name_is_a_rename_only_for_a_name():
    reference = ["These Terms of Service govern the account.", "Breach of the Terms of Service ends the licence.",
                 "The Terms of Service bind each user."]
    input = [t.replace("Terms of Service", "Terms") for t in reference]
    assert ("terms of service", "terms") in renamed(reference, input)
    reference = ["Personal data is kept for a year.", "Personal data is encrypted.", "Personal data is never sold."]
    input = [t.replace("Personal data", "Data") for t in reference]
    assert not renamed(reference, input)  # "personal" narrowed, not a name shortened


def test_aliases_and_a_renamed_referent():
    reference = ['When we say "Provider", "we", "our" or "us", we mean Fabrikam, Inc.', "We host the service."]
    input = ['When we say "Provider", "we", "our" or "us", we mean Litware, Inc.', "We host the service."]
    context = context_of(reference, input)
    assert any({"provider", "we", "our", "us"} <= group for group in context.aliases)
    assert context.rename(["fabrikam"], ["litware"]) is not None


def test_a_passage_moved_to_the_next_paragraph():
    moved = "Backups are encrypted with keys held in a separate account and rotated every quarter"
    reference = [f"Data at rest is encrypted. {moved}. We test restores yearly.", "Access is logged."]
    input = ["Data at rest is encrypted. We test restores yearly.", f"Access is logged. {moved}."]
    ctx = context_of(reference, input)
    assert [(m.reference, m.input) for m in ctx.moved] == [("r1", "i2")]
    assert words_of(ctx.moved[0].old)[:3] == ["backups", "are", "encrypted"]


# -- in a comparison --------------------------------------------------------------------------------

DOC = """# Service terms

Northwind Traders provides the Service to Customer on the terms below.

Northwind Traders may suspend the Service if Customer fails to pay an invoice within thirty (30) days.

Customer shall notify Northwind Traders in writing of any defect in the Service.

Northwind Traders shall keep Customer Data confidential.
"""


def test_a_company_renamed_throughout_gives_no_finding_and_a_real_change_still_does(fast_config):
    renamed_doc = DOC.replace("Northwind Traders", "Contoso Retail").replace("thirty (30)", "sixty (60)")
    report = Engine(fast_config).compare_texts(DOC, renamed_doc).report
    deviations = [f for f in report["findings"] if f["kind"] == "deviation"]
    assert len(deviations) == 1 and "sixty" in deviations[0]["input"]["text"]
    kinds = {(e["verdict"], e["kind"]) for e in deviations[0]["edits"]}
    assert ("editorial", "rename") in kinds and any(v == "substantive" for v, _ in kinds)


def test_a_table_of_contents_of_anchor_links_is_navigation(fast_config):
    toc = "The sections are as follows:\n\n- [Fees](#fees)\n- [Term](#term)\n- [Liability](#liability)\n\n"
    report = Engine(fast_config).compare_texts(DOC, DOC.replace("# Service terms\n\n", "# Service terms\n\n" + toc)).report
    assert report["findings"] == []


def test_a_version_stamp_is_compared_not_filtered(fast_config):
    reference = "Last updated: 4 May 2024\n\n" + DOC
    input = "Last updated: 9 September 2024\n\n" + DOC
    (finding,) = Engine(fast_config).compare_texts(reference, input).report["findings"]
    assert finding["kind"] == "deviation" and finding["reasons"][0]["type"] == "version_date"
