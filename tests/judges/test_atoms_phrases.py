"""Governing law and venue, qualifiers, exceptions and scope words in the legal-atoms judge."""

from __future__ import annotations

import pytest

from conflictkit.judges.atoms import extract
from conflictkit.normalize import flat
from tests.judges.test_atoms_cases import judged


def places(text: str) -> list[tuple[str, str]]:
    return [(a.group, a.key) for a in extract(flat(text)).atoms if a.family == "place" and a.group != "forum_type"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("This Agreement is governed by the laws of the State of Delaware.", [("law", "delaware")]),
        ("Delaware law governs this Agreement.", [("law", "delaware")]),
        ("The courts of England and Wales have exclusive jurisdiction.", [("forum", "england and wales")]),
        ("Each party submits to the courts of New York County.", [("forum", "new york county")]),
        ("The arbitration shall be seated in Geneva.", [("forum", "geneva")]),
        ("The licence is limited to the United States.", [("territory", "united states")]),
        ("The Software may be used worldwide.", [("territory", "worldwide")]),
        ("Payment is due in US$ to the account in the U.K.", [("territory", "united kingdom")]),
    ],
)
def test_places_and_their_roles(text, expected):
    assert places(text) == expected


@pytest.mark.parametrize(
    ("ref", "inp", "kind"),
    [
        ("This Agreement is governed by the laws of the State of Delaware, without regard to its conflict of laws rules.",
         "This Agreement is governed by the laws of England and Wales, without regard to its conflict of laws rules.",
         "governing_law"),
        ("The state and federal courts located in Santa Clara County, California have exclusive jurisdiction over any dispute.",
         "The state and federal courts located in King County, Washington have exclusive jurisdiction over any dispute.",
         "jurisdiction"),
        ("Any dispute shall be finally resolved by binding arbitration administered by JAMS.",
         "Any dispute shall be finally resolved by the courts of competent jurisdiction.",
         "forum"),
        ("Provider grants Customer a worldwide licence to use the Platform during the Term.",
         "Provider grants Customer a licence to use the Platform in the United States during the Term.",
         "scope"),
    ],
)
def test_law_venue_and_territory_changes_are_conflicts(ref, inp, kind):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7, j
    assert any(r.type == kind for r in j.reasons), j.reasons


def test_governing_law_reason_quotes_the_places():
    j = judged("This Agreement is governed by Delaware law.", "This Agreement is governed by the law of England and Wales.")
    reason = next(r for r in j.reasons if r.type == "governing_law")
    assert (reason.reference, reason.input) == ("Delaware", "England and Wales")


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Recipient shall not disclose the Confidential Information without the Discloser's prior written approval.",
         "Recipient shall not disclose the Confidential Information without the Discloser's prior approval."),
        ("Either party may terminate this Agreement if the other party commits a material breach.",
         "Either party may terminate this Agreement if the other party commits a breach."),
        ("Provider may suspend the Service in its reasonable discretion.",
         "Provider may suspend the Service in its sole discretion."),
        ("Customer shall reimburse reasonable travel expenses approved in advance.",
         "Customer shall reimburse travel expenses approved in advance."),
        ("The cap does not apply to losses caused by gross negligence or wilful misconduct.",
         "The cap does not apply to losses caused by negligence or wilful misconduct."),
        ("Supplier shall use commercially reasonable efforts to meet the delivery dates.",
         "Supplier shall use best efforts to meet the delivery dates."),
        ("Licensee may assign this Agreement with Licensor's consent, not to be unreasonably withheld.",
         "Licensee may assign this Agreement with Licensor's consent, which Licensor may withhold in its sole discretion."),
        ("Neither party is liable for indirect or consequential damages.",
         "Neither party is liable for direct or consequential damages."),
    ],
)
def test_qualifier_changes_are_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7, j
    assert any(r.type == "qualifier" for r in j.reasons), j.reasons


def test_dropped_written_is_quoted_with_its_noun():
    j = judged("Supplier may change the specification only with Buyer's prior written approval.",
               "Supplier may change the specification only with Buyer's prior approval.")
    reason = next(r for r in j.reasons if r.type == "qualifier")
    assert reason.reference == "written approval" and reason.input == "prior approval"


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Recipient shall not disclose Confidential Information except as required by law.",
         "Recipient shall not disclose Confidential Information as required by law."),
        ("Customer may use the Output only for its internal business purposes.",
         "Customer may use the Output for its internal business purposes."),
        ("Subject to payment of the Fees, Provider grants Customer a licence to use the Software.",
         "Provider grants Customer a licence to use the Software."),
    ],
)
def test_exception_changes_are_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7, j
    assert any(r.type == "exception" for r in j.reasons), j.reasons


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Licensor grants Licensee an exclusive licence to distribute the Products in the Territory.",
         "Licensor grants Licensee a non-exclusive licence to distribute the Products in the Territory."),
        ("The licence granted in this Section is irrevocable.", "The licence granted in this Section is revocable."),
        ("Customer grants Provider a non-transferable licence to use the Customer Data.",
         "Customer grants Provider a transferable licence to use the Customer Data."),
        ("The licence is perpetual and royalty-free.", "The licence is royalty-free."),
        ("Setup fees are non-refundable.", "Setup fees are refundable."),
        ("The licence fee covers all Users, including Affiliates' employees.",
         "The licence fee covers all Users, excluding Affiliates' employees."),
    ],
)
def test_scope_changes_are_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7, j
    assert any(r.type == "scope" for r in j.reasons), j.reasons


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Notices must be given in writing.", "Notices must be written."),
        ("Recipient shall not disclose Confidential Information unless required by law.",
         "Recipient shall not disclose Confidential Information except as required by law."),
        ("The licence is non-exclusive.", "The licence is nonexclusive."),
        ("The licence is non-exclusive.", "The licence is not exclusive."),
        ("This Agreement is governed by the laws of the State of New York.", "New York law governs this Agreement."),
        ("Fees include, without limitation, hosting fees.", "Fees include, but are not limited to, hosting fees."),
    ],
)
def test_wording_of_qualifiers_and_scope_is_not_a_conflict(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict < 0.5, (j.p_conflict, j.reasons)
    assert not [r for r in j.reasons if r.type in ("qualifier", "exception", "scope", "governing_law")], j.reasons


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Recipient shall not use the Confidential Information for any purpose other than the Project.",
         "Recipient may use the Confidential Information solely for the Project."),
        ("No amendment to this Agreement is effective unless it is signed by both parties.",
         "This Agreement may be amended only by a document signed by both parties."),
        ("Licensee shall not copy the Software except as expressly permitted in this Section.",
         "Licensee may copy the Software only as expressly permitted in this Section."),
        ("Fees are exclusive of sales tax.", "Fees do not include sales tax."),
    ],
)
def test_restrictive_exceptions_read_the_same_in_either_style(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict < 0.5, (j.p_conflict, j.reasons)


@pytest.mark.parametrize(
    ("ref", "inp", "kind"),
    [
        ("Licensee may use the Software for its internal business purposes.",
         "Licensee may use the Software for any business purposes.", "scope"),
        ("The licence covers Customer and its Affiliates.", "The licence covers Customer.", "scope"),
        ("Distributor may sell the Products only in the Territory.", "Distributor may sell the Products worldwide.", "scope"),
        ("Supplier shall endeavour to deliver the Goods by the Delivery Date.",
         "Supplier shall deliver the Goods by the Delivery Date.", "qualifier"),
        ("Seller represents that, to its knowledge, the Goods infringe no patent.",
         "Seller represents that the Goods infringe no patent.", "qualifier"),
        ("Customer shall pay all undisputed invoices within 30 days.", "Customer shall pay all invoices within 30 days.",
         "qualifier"),
        ("The venue shall be Hamburg.", "The venue shall be Munich.", "jurisdiction"),
    ],
)
def test_more_scope_and_qualifier_changes(ref, inp, kind):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7, (j.p_conflict, j.reasons)
    assert any(r.type == kind for r in j.reasons), j.reasons


def test_a_repeated_qualifier_said_once_is_not_a_difference():
    j = judged("Either party may terminate on written notice; the written notice must state the breach.",
               "Either party may terminate on written notice, which must state the breach.")
    assert not [r for r in j.reasons if r.type == "qualifier"]


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Neither party is liable for any delay in performance, other than a payment obligation, caused by force majeure.",
         "Except for payment obligations, a party is not liable for any delay in performance caused by force majeure."),
        ("Supplier shall use reasonable efforts to prevent unauthorised access.",
         "Supplier will take reasonable steps to prevent unauthorised access."),
        ("Recipient may disclose Confidential Information if required by law, provided that it gives prompt notice.",
         "Recipient may disclose Confidential Information if required by law, as long as it gives prompt notice."),
        ("A notice is effective on receipt, except that an email sent after 5 p.m. is received the next day.",
         "A notice takes effect on receipt; however, an email sent after 5 p.m. is received the next day."),
        ("Force majeure events include events such as floods and strikes.",
         "Force majeure events include events, for example floods and strikes."),
    ],
)
def test_equivalent_drafting_of_exceptions_and_efforts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict < 0.5, (j.p_conflict, j.reasons)


def test_an_exception_added_to_a_relative_clause_is_a_conflict():
    j = judged("The Buyer may reject any Goods that do not conform to the Specification within ten days.",
               "The Buyer may reject any Goods that do not conform to the Specification, unless the defect is minor, "
               "within ten days.")
    assert j.p_conflict >= 0.7 and any(r.type == "exception" for r in j.reasons)


def test_fractions_in_words():
    j = judged("Overdue amounts bear interest at one percent (1%) per month.",
               "Overdue amounts bear interest at one and one-half percent (1.5%) per month.")
    reason = next(r for r in j.reasons if r.type == "number")
    assert (reason.reference, reason.input) == ("one percent (1%) per month", "one and one-half percent (1.5%) per month")


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Provider shall indemnify Customer against all claims arising from the Service.",
         "Provider shall indemnify Customer against third-party claims arising from the Service."),
        ("Customer may use the Software on an unlimited number of devices.", "Customer may use the Software on up to five devices."),
        ("All Customer Data remains the property of Customer.", "Some Customer Data remains the property of Customer."),
    ],
)
def test_narrowed_scope_is_a_conflict(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7, (j.p_conflict, j.reasons)


@pytest.mark.parametrize(
    ("ref", "inp", "conflict"),
    [
        ("This Agreement is governed by Swiss law.", "This Agreement is governed by German law.", True),
        ("This Agreement is governed by Swiss law.", "The laws of Switzerland govern this Agreement.", False),
        ("English law governs this Agreement.", "This Agreement is governed by the laws of England and Wales.", False),
        ("The courts of London have exclusive jurisdiction.", "Exclusive jurisdiction lies with the courts of London, England.",
         False),
        ("The Supplier is liable for losses caused by its wilful default.",
         "The Supplier is liable for losses caused by its default.", True),
    ],
)
def test_demonyms_enclosing_places_and_intent(ref, inp, conflict):
    j = judged(ref, inp)
    assert (j.p_conflict >= 0.7) is conflict, (j.p_conflict, j.reasons)
