"""Negation, modality and who acts in the legal-atoms judge."""

from __future__ import annotations

import pytest

from conflictkit.judges.atoms import extract
from conflictkit.normalize import flat
from tests.judges.test_atoms_cases import judged


def modal_keys(text: str) -> list[str]:
    return [a.key for a in extract(flat(text)).atoms if a.family == "modality"]


def negations(text: str) -> list[str]:
    return [a.text for a in extract(flat(text)).atoms if a.family == "negation"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Provider shall maintain the insurance.", ["obligation"]),
        ("Provider will maintain the insurance.", ["obligation"]),
        ("Provider must maintain the insurance.", ["obligation"]),
        ("Provider agrees to maintain the insurance.", ["obligation"]),
        ("Provider is required to maintain the insurance.", ["obligation"]),
        ("Provider undertakes to maintain the insurance.", ["obligation"]),
        ("Customer may audit Provider once a year.", ["permission"]),
        ("Customer is entitled to audit Provider once a year.", ["permission"]),
        ("Customer has the right to audit Provider once a year.", ["permission"]),
        ("Customer shall not sublicense the Software.", ["prohibition"]),
        ("Customer may not sublicense the Software.", ["prohibition"]),
        ("Customer must not sublicense the Software.", ["prohibition"]),
        ("Customer won't sublicense the Software.", ["prohibition"]),
        ("Customer cannot sublicense the Software.", ["prohibition"]),
        ("Customer is not permitted to sublicense the Software.", ["prohibition"]),
        ("Customer is prohibited from sublicensing the Software.", ["prohibition"]),
        ("Neither party shall sublicense the Software.", ["prohibition"]),
        ("In no event shall Customer sublicense the Software.", ["prohibition"]),
        ("Customer is not required to purchase support.", ["no_obligation"]),
        ("Customer shall have no obligation to purchase support.", ["no_obligation"]),
        ("Customer need not purchase support.", ["no_obligation"]),
        ("Customer may be required to purchase support.", ["contingent_obligation"]),
    ],
)
def test_modal_classes(text, expected):
    assert modal_keys(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Consent shall not be unreasonably withheld, conditioned or delayed.",
        "Fees include, but are not limited to, hosting and support.",
        "Fees include hosting and support, including without limitation backups.",
        "Supplier shall pay no later than the fifth business day.",
        "The deposit shall be not less than $5,000.",
        "Supplier shall notify Customer without undue delay.",
        "The licence is non-exclusive and not transferable.",
    ],
)
def test_idioms_and_comparators_are_not_negations(text):
    assert negations(text) == []
    assert "prohibition" not in modal_keys(text)


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("The Receiving Party shall not disclose Confidential Information to any third party.",
         "The Receiving Party shall disclose Confidential Information to any third party."),
        ("Provider is not liable for any loss of data caused by Customer's systems.",
         "Provider is liable for any loss of data caused by Customer's systems."),
        ("Neither party may assign this Agreement without the other party's consent.",
         "Either party may assign this Agreement without the other party's consent."),
        ("Customer may not use the Service to process payment card data.",
         "Customer may use the Service to process payment card data."),
        ("The Distributor will sell the Products within the Territory.",
         "The Distributor won't sell the Products within the Territory."),
        ("Licensee shall obtain the Licensor's approval before any public announcement.",
         "Licensee need not obtain the Licensor's approval before any public announcement."),
        ("The Supplier shall have no liability for delays caused by the Buyer.",
         "The Supplier shall have liability for delays caused by the Buyer."),
    ],
)
def test_negation_changes_are_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7, j
    assert any(r.type == "negation" for r in j.reasons), j.reasons


def test_negation_reason_quotes_the_modal_of_each_side():
    j = judged("Contractor shall not subcontract any of the Services.", "Contractor shall subcontract any of the Services.")
    reason = next(r for r in j.reasons if r.type == "negation")
    assert (reason.reference, reason.input) == ("shall not", "shall")


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Provider shall deliver the monthly report to Customer.", "Provider may deliver the monthly report to Customer."),
        ("The Tenant must keep the Premises insured at all times.", "The Tenant may keep the Premises insured at all times."),
        ("The Purchaser is entitled to inspect the goods on arrival.", "The Purchaser is required to inspect the goods on arrival."),
        ("Customer is not required to accept any update.", "Customer shall not accept any update."),
    ],
)
def test_modality_changes_are_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7, j
    assert any(r.type in ("modality", "negation") for r in j.reasons)


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Provider shall indemnify Customer against all third-party claims arising from the Service.",
         "Customer shall indemnify Provider against all third-party claims arising from the Service."),
        ("The Receiving Party shall return all Confidential Information on request.",
         "The Disclosing Party shall return all Confidential Information on request."),
        ("Licensor shall maintain the registrations of the Licensed Marks at its own expense.",
         "Licensee shall maintain the registrations of the Licensed Marks at its own expense."),
        ("Either party may terminate this Agreement for convenience on ninety days' notice.",
         "Provider may terminate this Agreement for convenience on ninety days' notice."),
        ("The Landlord bears the cost of structural repairs to the Building.",
         "The Tenant bears the cost of structural repairs to the Building."),
    ],
)
def test_party_changes_are_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7, j
    assert any(r.type == "party" for r in j.reasons), j.reasons


def test_party_reason_quotes_who_acts():
    j = judged("Provider shall indemnify Customer against third-party claims.",
               "Customer shall indemnify Provider against third-party claims.")
    reason = next(r for r in j.reasons if r.type == "party")
    assert (reason.reference, reason.input) == ("Provider shall indemnify", "Customer shall indemnify")


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("The Supplier shall deliver the Goods to the Delivery Point.", "The Supplier will deliver the Goods to the Delivery Point."),
        ("The Supplier must deliver the Goods to the Delivery Point.", "The Supplier agrees to deliver the Goods to the Delivery Point."),
        ("Customer shall not reverse engineer the Software.", "Customer may not reverse engineer the Software."),
        ("Customer shall not reverse engineer the Software.", "Customer must not reverse engineer the Software."),
        ("Customer shall not reverse engineer the Software.", "Customer is prohibited from reverse engineering the Software."),
        ("Customer shall pay the Fees to Provider.", "The Fees shall be paid by Customer to Provider."),
        ("The Disclosing Party makes no warranty as to accuracy.", "No warranty as to accuracy is made by the Discloser."),
        ("Provider is not liable for indirect losses.", "Provider shall not be liable for indirect losses."),
        ("Neither party shall assign this Agreement.", "No party may assign this Agreement."),
    ],
)
def test_modal_and_negation_paraphrases_are_not_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict < 0.5, (j.p_conflict, j.reasons)
    assert not [r for r in j.reasons if r.type in ("negation", "party")], j.reasons


def test_party_names_on_the_same_side_are_one_role():
    j = judged("Provider shall host the Service in the European Union.", "Supplier shall host the Service in the European Union.")
    assert not [r for r in j.reasons if r.type == "party"]


def test_fails_to_is_a_negation_of_its_verb():
    j = judged("If Customer does not pay an invoice when due, Provider may suspend the Service.",
               "If Customer fails to pay an invoice when due, Provider may suspend the Service.")
    assert not [r for r in j.reasons if r.type == "negation"] and j.p_conflict < 0.5
    j = judged("If Customer fails to pay an invoice when due, Provider may suspend the Service.",
               "If Customer pays an invoice when due, Provider may suspend the Service.")
    assert any(r.type == "negation" for r in j.reasons) and j.p_conflict >= 0.7


def test_parties_outside_a_supply_deal_are_roles_of_their_own():
    j = judged("The Sponsor shall own all Study Data.", "The Institution shall own all Study Data.")
    assert any(r.type == "party" for r in j.reasons) and j.p_conflict >= 0.7


def test_a_role_filled_by_the_other_party_is_a_conflict_without_any_modal():
    j = judged("Any Deliverable created by Contractor is owned by Client.",
               "Any Deliverable created by Client is owned by Contractor.")
    assert j.p_conflict >= 0.7
    assert [(r.type, r.reference, r.input) for r in j.reasons] == [("party", "created by Contractor", "created by Client")]
    j = judged("Client owns any Deliverable created by Contractor.",
               "Any Deliverable created by Contractor is owned by Client.")
    assert j.p_conflict < 0.5 and not j.reasons


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Provider shall, at its option, repair or replace the defective Goods.",
         "Provider may, at its option, repair or replace the defective Goods."),
        ("The Distributor must, within the Territory, promote the Products.",
         "The Distributor may, within the Territory, promote the Products."),
    ],
)
def test_a_modal_before_a_parenthetical_is_still_a_modal(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7 and j.reasons[0].type == "modality"


def test_comparators_with_a_word_between_are_not_negations():
    j = judged("The Recipient shall protect the information with no less than reasonable care.",
               "The Recipient shall protect the information with at least reasonable care and no less care than its own.")
    assert not [r for r in j.reasons if r.type == "negation"]
    assert negations("The cap shall not be less than $1,000,000.") == []
