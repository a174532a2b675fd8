"""Content edits, one-sided duties, same-effect rewordings and typo fixes (issue 12, items 2-4)."""

from __future__ import annotations

import pytest

from conflictkit.judges.atoms.families.content import is_typo
from conflictkit.lexicon import load
from tests.judges.test_atoms_cases import judged

FLAG = 0.7


def _reasons(j):
    return [(r.type, r.reference, r.input, r.detail) for r in j.reasons]


@pytest.mark.parametrize(
    ("ref", "inp", "word"),
    [
        # an item added to or cut from a list of rights, prohibitions, uses or remedies
        ("The Reseller may market, sell and support the Products in the Territory.",
         "The Reseller may market, sell, support and repackage the Products in the Territory.", "repackage"),
        ("Tenant shall not paint, drill or alter the walls of the Premises.",
         "Tenant shall not paint or alter the walls of the Premises.", "drill"),
        ("We use your usage data to operate, secure and improve the platform.",
         "We use your usage data to operate, secure, improve and advertise the platform.", "advertise"),
        ("The Buyer may reject, return or repair defective Goods at the Seller's cost.",
         "The Buyer may reject or repair defective Goods at the Seller's cost.", "return"),
        ("The Bank may suspend the Facility if an Event of Default occurs.",
         "The Bank may suspend or cancel the Facility if an Event of Default occurs.", "cancel"),
    ],
)
def test_an_item_added_to_or_cut_from_a_list_is_a_conflict_that_quotes_it(ref, inp, word):
    j = judged(ref, inp)
    assert j.p_conflict >= FLAG, _reasons(j)
    assert any(word in (r.reference or "") + (r.input or "") and word in r.detail for r in j.reasons), _reasons(j)


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        # a qualifier added to an object narrows it
        ("The Distributor may appoint sub-distributors.", "The Distributor may appoint sub-distributors located in Ohio."),
        ("The Processor may engage subprocessors to process Customer Data.",
         "The Processor may engage approved subprocessors to process Customer Data."),
        # the trigger or the act changes
        ("Provider shall give notice of any price change at least 60 days in advance.",
         "Provider shall give notice of any price increase at least 60 days in advance."),
        ("During the Term the Author shall not submit the Work, or any sequel to the Work, to any other publisher.",
         "During the Term the Author shall not sell the Work, or any sequel to the Work, to any other publisher."),
        ("The Landlord may inspect the Premises on reasonable notice.",
         "The Landlord may enter the Premises on reasonable notice."),
        # a duty where the other clause only describes the act
        ("The Provider retains audit logs for twelve months.", "The Provider must retain audit logs for twelve months."),
        ("The Club holds the deposit until the season ends.", "The Club shall hold the deposit until the season ends."),
        # a payee swapped, a qualifier dropped, a formality dropped
        ("The Broker shall be paid a fee of 2% of the purchase price.",
         "The Company shall be paid a fee of 2% of the purchase price."),
        ("The financial statements present fairly, in all material respects, the position of the Company.",
         "The financial statements present fairly, in all respects, the position of the Company."),
        ("The deadline applies unless extended in writing by the Lender.", "The deadline applies unless extended by the Lender."),
        # words added to a condition
        ("The Licensor may terminate if the Licensee breaches clause 4.",
         "The Licensor may terminate if the Licensee breaches clause 4 or becomes insolvent."),
    ],
)
def test_content_edits_in_operative_text_are_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= FLAG, _reasons(j)


def test_a_content_reason_says_added_or_removed_and_where():
    j = judged("Licensee may use, copy and modify the Software.", "Licensee may use, copy, modify and sublicense the Software.")
    (reason,) = [r for r in j.reasons if r.detail.startswith("'sublicense'")]
    assert reason.input == "sublicense" and reason.reference is None
    assert reason.detail == "'sublicense' added to the list"
    j = judged("The Customer shall not sell, resell or rent the Service.", "The Customer shall not sell or rent the Service.")
    assert any(r.reference == "resell" and r.detail == "'resell' removed from the list" for r in j.reasons), _reasons(j)


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        # an exception tail moved to the front
        ("The Lessee shall return the Vehicle in the condition in which it was delivered, fair wear and tear excepted.",
         "Except for fair wear and tear, the Lessee shall return the Vehicle in the condition in which it was delivered."),
        ("Each party shall bear its own costs, except as set out in clause 9.",
         "Except as set out in clause 9, each party shall bear its own costs."),
        # an ordinal period and a cardinal one
        ("The Escrow Agent shall release the funds two (2) Business Days after the Closing.",
         "The Escrow Agent shall release the funds on the second Business Day after the Closing."),
        ("Rent is due 5 days after the start of each month.", "Rent is due on the fifth day after the start of each month."),
        # a pronoun or possessive standing for the party
        ("The Consultant shall perform the Services using the Consultant's own equipment.",
         "The Consultant shall perform the Services using its own equipment."),
        ("The Executive shall devote the Executive's full working time to the Business.",
         "The Executive shall devote his or her full working time to the Business."),
        # a double negative
        ("The fee is refundable if the booking is cancelled other than through a fault of the Guest.",
         "The fee is refundable if the booking is cancelled through no fault of the Guest."),
        # active and passive
        ("The Contractor shall submit the monthly report to the Employer.",
         "The monthly report shall be submitted to the Employer by the Contractor."),
        # shall / will / must as duties
        ("The Supplier shall insure the Goods until delivery.", "The Supplier must insure the Goods until delivery."),
        ("The Client will pay each invoice within 30 days.", "The Client shall pay each invoice within 30 days."),
        # a list reordered
        ("The Licensee may reproduce, distribute and display the Work.",
         "The Licensee may display, reproduce and distribute the Work."),
        ("Either party may terminate for insolvency, breach or force majeure.",
         "Either party may terminate for breach, force majeure or insolvency."),
        # a legal doublet
        ("Each party has full power to sign this Agreement.", "Each party has full power and authority to sign this Agreement."),
        # a synonym
        ("The Vendor shall supply spare parts for five years.", "The Vendor shall provide spare parts for five years."),
    ],
)
def test_same_effect_rewordings_are_not_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict < FLAG, _reasons(j)


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("The Receiving Party shall not disclose the data, expect as required by law.",
         "The Receiving Party shall not disclose the data, except as required by law."),
        ("The Buyer shall pay the price unles the Goods are defective.",
         "The Buyer shall pay the price unless the Goods are defective."),
        ("The Tenant must recieve written consent before subletting.", "The Tenant must receive written consent before subletting."),
        ("The committee shall meet all together twice a year.", "The committee shall meet altogether twice a year."),
        ("The Seller shall keep seperate records for each order.", "The Seller shall keep separate records for each order."),
        ("Payment is due untill the account is closed.", "Payment is due until the account is closed."),
        # a lost space: the first word's root is the joined word's ("Agreementexpires")
        ("This Agreementexpires when the last Order Form ends, unless renewed in writing.",
         "This Agreement expires when the last Order Form ends, unless renewed in writing."),
    ],
)
def test_typo_fixes_have_a_low_p_and_are_editorial_edits(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict < 0.3, _reasons(j)
    assert j.reasons == [], _reasons(j)
    (edit,) = j.edits
    assert (edit.verdict, edit.kind) in {("editorial", "typography"), ("editorial", "extraction")}
    assert edit.reference.text != edit.input.text


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("The Licensor shall maintain the Software.", "The Licensee shall maintain the Software."),
        ("The price may increase by 5% each year.", "The price may decrease by 5% each year."),
        ("The licence is limited to the Territory.", "The licence is unlimited to the Territory."),
        ("The Agent may sell the Goods held in the Principal's warehouse to retail customers in the Territory.",
         "The Agent may tell the Goods held in the Principal's warehouse to retail customers in the Territory."),
        ("Fees include all taxes.", "Fees exclude all taxes."),
        ("The Lessor shall insure the Equipment.", "The Lessee shall insure the Equipment."),
    ],
)
def test_real_word_swaps_one_or_two_letters_apart_are_not_typos(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= FLAG, _reasons(j)
    assert "typo" not in [r.type for r in j.reasons]


@pytest.mark.parametrize(
    ("x", "y", "typo"),
    [("recieve", "receive", True), ("expect", "except", True), ("untill", "until", True), ("seperate", "separate", True),
     ("sell", "tell", False), ("licensor", "licensee", False), ("limited", "unlimited", False), ("increase", "decrease", False),
     ("not", "now", False), ("change", "charge", False), ("shall", "shall", False)],
)
def test_is_typo(x, y, typo):
    assert is_typo(x, y, load()) is typo
