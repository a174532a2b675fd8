"""The edit-level judge: every edit of a pair gets a verdict, and a clause's findings come from its
substantive edits. Each editorial class and each new kind of change has cases that must not be flagged
and near misses of the same shape that must be (none taken from a development set)."""

from __future__ import annotations

import pytest

from conflictkit.judges.atoms.edits import assemble, clause_tokens, split_edits, text_of, view_of
from conflictkit.lexicon import load
from conflictkit.normalize import flat
from tests.judges.test_atoms_cases import judged

FLAG = 0.7


def verdicts(reference: str, input: str) -> list[tuple[str, str]]:
    return [(e.verdict, e.kind) for e in judged(reference, input).edits]


# -- the edit script ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "The **Supplier** shall pay [the fees](https://example.com/fees) within thirty (30) days.",
    "Customer's data - including backups - is deleted on 1 May 2026; see Section 4.2(b).",
    "<span class=\"x\">Purpose</span>: to evaluate a business relationship ( the \"Purpose\" ) .",
])
def test_the_tokens_of_a_clause_read_back_as_its_flattened_text(text):
    from conflictkit.segmenters.markup import clause_text

    assert text_of(clause_tokens(text)) == clause_text(text)


@pytest.mark.parametrize("a, b", [
    ("Customer shall pay within thirty (30) days of the invoice.", "The Customer shall pay within sixty (60) days of an invoice."),
    ("A, B and C apply.", "A; B, C and D apply, in full."),
    ("Notice (in writing) is required.", "Notice is required (by e-mail)."),
])
def test_applying_every_edit_gives_the_input_and_none_the_reference(a, b):
    ta, tb = clause_tokens(a), clause_tokens(b)
    edits = split_edits(ta, tb)
    assert assemble(ta, tb, edits, set(range(len(edits))))[0] == flat(b)
    assert assemble(ta, tb, edits, set())[0] == flat(a)


def test_changes_one_token_apart_are_one_edit_with_its_parts():
    view = view_of("pay within thirty (30) days", 0, "pay within sixty (60) days", 0, None, load())
    (edit,) = view.edits
    assert view.ref_words(edit) == ["thirty", "(", "30"] and len(edit.pieces) == 2


def test_a_figure_restated_in_parentheses_is_one_edit_however_many_tokens_it_has():
    view = view_of("interest at five percent (5 %) per annum", 0, "interest at 5 % per annum", 0, None, load())
    (edit,) = view.edits
    assert view.ref_words(edit) == ["five", "percent", "(", "5", "%", ")"] and len(edit.pieces) == 2
    assert judged("Late payments bear interest at five percent (5 %) per annum.",
                  "Late payments bear interest at 5 % per annum.").p_conflict < FLAG
    assert judged("Late payments bear interest at five percent (5 %) per annum.",
                  "Late payments bear interest at six percent (6 %) per annum.").p_conflict >= FLAG


@pytest.mark.parametrize("reference, input", [
    ("As set out in Sec. 5, the fee is due on delivery.", "As set out in Section 5, the fee is due on delivery."),
    ("Support is available 24 hrs a day.", "Support is available 24 hours a day."),
])
def test_an_abbreviation_written_out_is_editorial(reference, input):
    assert ("editorial", "abbreviation") in verdicts(reference, input)
    assert judged(reference, input).p_conflict < FLAG


def test_a_number_word_changed_in_an_example_is_no_illustration():
    """Digits were never an example's editorial change; a number said in words is none either."""
    assert judged("The Services include support, including two site visits per year.",
                  "The Services include support, including three site visits per year.").p_conflict >= FLAG


def test_a_word_for_another_is_no_abbreviation():
    assert ("editorial", "abbreviation") not in verdicts("As set out in Sec. 5, the fee is due on delivery.",
                                                         "As set out in Schedule 5, the fee is due on delivery.")


def test_edit_spans_index_the_original_file_through_markup(fast_config):
    from conflictkit.engine import Engine

    reference = "# Records\n\nThe **Supplier** shall keep [the records](#records) for five years.\n"
    input = "# Records\n\nThe **Supplier** shall keep [the records](#records) for seven years.\n"
    (finding,) = Engine(fast_config).compare_texts(reference, input).report["findings"]
    (edit,) = [e for e in finding["edits"] if e["verdict"] == "substantive"]
    assert reference[edit["reference"]["start"]:edit["reference"]["end"]] == edit["reference"]["text"] == "five"
    assert input[edit["input"]["start"]:edit["input"]["end"]] == "seven"


# -- editorial classes: each recognised, and its near miss still judged -----------------------------

EDITORIAL = [
    ("typography", "The Buyer shall pay the Seller, in full.", "The Buyer shall pay the Seller in full"),
    ("typography", "The licence is non-exclusive and royalty free.", "The licence is nonexclusive and royalty-free."),
    ("extraction", "The Processor shall notify the Controller of any breach.",
     "The Processor shall notify theController of any breach."),
    ("extraction", "Customer may export its data at any time.", "Customer may export its da ta at any time."),
    ("typography", "Each party shall recieve a copy of the notice.", "Each party shall receive a copy of the notice."),
    ("grammar", "The Distributor shall market the Product in the Territory.",
     "The Distributor shall market the Products in the Territory."),
    ("grammar", "Licensee shall keep the Software confidential.", "Licensee shall keep this Software confidential."),
    ("cross-reference", "Fees are payable as set out in Section 7.2.", "Fees are payable as set out in Section 8.2."),
    ("cross-reference", "The rates are listed in Schedule 2.", "The rates are listed in Schedule Two."),
    ("link", "Our [data policy](https://example.com/a) applies to all accounts, see [our site](https://example.com).",
     "Our [data policy](https://example.com/b) applies to all accounts, see [our website](https://example.com)."),
    ("link", "Requests are handled as described [here](https://example.com/requests).",
     "Requests are handled as described in our [request handling guide](https://example.com/requests)."),
    ("rename", "Services are provided by Acme Widgets, LLC and its affiliates.",
     "Services are provided by Acme Widgets and its affiliates."),
    ("rename", "This policy covers the Apps and the Website.",
     "This policy covers the Apps and the Website (together, \"Products\")."),
    ("illustration", "You are responsible for content you upload, such as photos and documents.",
     "You are responsible for content you upload, such as photos, videos and documents."),
    ("pointer", "We delete backups after 30 days. For more details, see our retention schedule.",
     "We delete backups after 30 days. For more details, see our retention schedule and archive policy."),
]


@pytest.mark.parametrize("kind, reference, input", EDITORIAL)
def test_editorial_edits_are_recognised_and_not_reported(kind, reference, input):
    judgement = judged(reference, input)
    assert {(e.verdict, e.kind) for e in judgement.edits} == {("editorial", kind)}
    assert judgement.p_conflict < FLAG


NEAR_MISSES = [  # the same shapes, now changing what someone may, must or will do
    ("a digit moved across a separator", "The fee is 1,500 EUR per month.", "The fee is 15.00 EUR per month."),
    ("a negator glued in", "Customer may export its data at any time.", "Customer may notexport its data at any time."),
    ("a cross-reference word changed with its number", "Fees are payable as set out in Section 7.2.",
     "Fees are payable within 7 days."),
    ("a link to another document", "Use is subject to our [Acceptable Use Policy](https://example.com/aup).",
     "Use is subject to our [Reseller Terms](https://example.com/aup)."),
    ("an item added after a limiting marker", "Customer may use the Software for internal purposes only, including testing.",
     "Customer may use the Software for internal purposes only, including testing and resale to third parties."),
    ("a pointer sentence that binds", "We delete backups after 30 days. For details, see our retention schedule.",
     "We delete backups after 30 days. For details, see our retention schedule, which you must not disclose."),
    ("one corporate suffix for another company form", "Services are provided by Acme Widgets LLC.",
     "Services are provided by Acme Holdings LLC."),
]


@pytest.mark.parametrize("what, reference, input", NEAR_MISSES, ids=[n[0] for n in NEAR_MISSES])
def test_near_misses_of_editorial_classes_are_judged(what, reference, input):
    judgement = judged(reference, input)
    assert any(e.verdict == "substantive" for e in judgement.edits), what
    assert judgement.p_conflict >= FLAG, what


# -- many edits in one clause: the one that matters is found, quoted alone ---------------------------

def test_nine_editorial_edits_and_one_substantive_edit_give_a_finding_for_that_edit():
    reference = ("The Supplier shall deliver the Goods to the Buyer's premises, in good order, within fourteen (14) days "
                 "of an order; the Buyer shall inspect the Goods on delivery, notify the Supplier of any defect in "
                 "writing and return defective Goods at the Supplier's cost, as described in Section 4.1.")
    input = ("The Supplier shall deliver the goods to the Buyers premises in good order within fourteen (14) days "
             "of an order; the Buyer shall inspect the Goods upon delivery, notify the Supplier of any defect by "
             "e-mail and return defective Goods at the Buyer's cost, as described in Section 5.1.")
    judgement = judged(reference, input)
    substantive = [e for e in judgement.edits if e.verdict == "substantive"]
    assert judgement.p_conflict >= FLAG
    assert any("Buyer" in e.input.text for e in substantive)
    assert len([e for e in judgement.edits if e.verdict == "editorial"]) >= 3


def test_a_reason_that_spans_an_editorial_edit_quotes_the_reference_itself():
    """The families read the reference with its editorial edits applied; a quote of that text across an
    edit ("Customer's" for "Customer 's") is not in the reference, and was dropped by grounding."""
    reference = "Provider may suspend the Service unless Customer \u2019s account is paid in full."
    input = "Provider may suspend the Service unless Customer's account is settled in part."
    judgement = judged(reference, input)
    quotes = [r.reference for r in judgement.reasons if r.reference]
    assert judgement.p_conflict >= FLAG and any("unless" in q for q in quotes)
    assert all(q in flat(reference) for q in quotes), quotes


def test_many_small_edits_do_not_hide_a_widened_grant():
    reference = ("Licensee may use, copy and modify the Software solely for its internal business purposes at the "
                 "Site, subject to the payment of the Fees and to the restrictions in this Agreement, and shall keep "
                 "the Software confidential.")
    input = ("The Licensee may use, copy, modify and sublicense the Software solely for its internal business purposes "
             "at any Site, subject to payment of the Fees and to the restrictions set out in this Agreement, and "
             "shall keep the Software strictly confidential.")
    judgement = judged(reference, input)
    assert judgement.p_conflict >= FLAG
    assert any("sublicense" in e.input.text for e in judgement.edits if e.verdict == "substantive")


# -- kinds of change the clause-level atoms missed ---------------------------------------------------

CHANGES = [
    ("a party added through a short coordination", "The exclusions do not apply to claims brought by the Customer.",
     "The exclusions do not apply to claims brought by the Customer and/or its Affiliates."),
    ("one body replaced by another in a definition", "\"Regulator\" means the Financial Conduct Authority.",
     "\"Regulator\" means the Prudential Regulation Authority."),
    ("a duty turned into a discretion", "If the Supplier detects fraud, it will report the fraud to the police.",
     "If the Supplier detects fraud, it will take steps as it deems appropriate, including informing the police."),
    ("a deadline softened", "The Agent shall promptly forward any complaint to the Principal.",
     "The Agent shall forward any complaint to the Principal as soon as reasonably practicable."),
    ("a deadline tightened", "The Agent shall forward any complaint to the Principal as soon as practicable.",
     "The Agent shall forward any complaint to the Principal immediately."),
    ("a value added where the clause states it elsewhere",
     "Invoices are payable within 30 days. Disputed amounts are settled after a further review.",
     "Invoices are payable within 30 days. Disputed amounts are settled after a further 30 days of review."),
    ("a sentence of operative text added",
     "The Contractor shall perform the Works with reasonable skill and care.",
     "The Contractor shall perform the Works with reasonable skill and care. The Contractor shall also maintain "
     "professional indemnity insurance covering design errors throughout the warranty period."),
]


@pytest.mark.parametrize("what, reference, input", CHANGES, ids=[c[0] for c in CHANGES])
def test_new_kinds_of_change_are_flagged_with_a_substantive_edit(what, reference, input):
    judgement = judged(reference, input, similarity=0.85)  # retrieval finds an edited clause this close
    assert judgement.p_conflict >= FLAG, (what, judgement.reasons)
    assert any(e.verdict == "substantive" for e in judgement.edits), what


SAME = [
    ("one deadline word for its equal", "The Agent shall forward any complaint promptly.",
     "The Agent shall forward any complaint without undue delay."),
    ("the same body, its article added", "\"Regulator\" means Financial Conduct Authority.",
     "\"Regulator\" means the Financial Conduct Authority."),
    ("a value stated once more in a new place it already had",
     "Invoices are payable within 30 days of receipt.", "Invoices are payable within 30 days of their receipt."),
    ("a shared head spelled out for each item", "Transfers rely on the EU and Swiss Standard Clauses.",
     "Transfers rely on the EU Standard Clauses and the Swiss Standard Clauses."),
]


@pytest.mark.parametrize("what, reference, input", SAME, ids=[c[0] for c in SAME])
def test_rewordings_of_the_same_kinds_are_not_flagged(what, reference, input):
    judgement = judged(reference, input, similarity=0.85)
    assert judgement.p_conflict < FLAG, (what, judgement.reasons)
    assert not any(e.verdict == "substantive" for e in judgement.edits), what


def test_a_mutual_obligation_is_not_a_restated_head():
    judgement = judged("Provider shall indemnify Customer against third-party claims.",
                       "Provider shall indemnify Customer and Customer shall indemnify Provider against third-party claims.")
    assert judgement.p_conflict >= FLAG


# -- version stamps ------------------------------------------------------------------------------------

@pytest.mark.parametrize("reference, input", [
    ("Last updated: 3 March 2025", "Last updated: 9 June 2025"),
    ("Acme Master Services Agreement, Version 2.3", "Acme Master Services Agreement, Version 2.4"),
])
def test_a_version_stamp_change_is_reported_as_version_date(reference, input):
    judgement = judged(reference, input)
    assert judgement.p_conflict >= FLAG
    assert [e.kind for e in judgement.edits if e.verdict == "substantive"] == ["version_date"]
    assert judgement.reasons[0].type == "version_date"


def test_a_date_in_an_operative_clause_is_a_date_not_a_version():
    judgement = judged("The Services start on 3 March 2025.", "The Services start on 9 June 2025.")
    assert judgement.reasons[0].type == "date"
