"""Numbers, amounts, percentages, durations, comparators and dates in the legal-atoms judge."""

from __future__ import annotations

import pytest

from conflictkit.judges.atoms import compare, extract
from conflictkit.judges.atoms.numbers import words_to_number
from conflictkit.normalize import flat
from tests.judges.test_atoms_cases import judged


def keys(text: str, family: str = "number") -> list[str]:
    return [a.key for a in extract(flat(text)).atoms if a.family == family]


@pytest.mark.parametrize(
    ("phrase", "value"),
    [("thirty", 30), ("forty-five", 45), ("one hundred and twenty", 120), ("two thousand five hundred", 2500),
     ("ninety nine", 99), ("one million", 1_000_000), ("twelve", 12), ("banana", None)],
)
def test_words_to_number(phrase, value):
    assert words_to_number(phrase) == value


@pytest.mark.parametrize(
    "variants",
    [
        ["thirty (30) days", "30 days", "thirty days", "a 30-day period", "30 (thirty) days", "30 calendar days"],
        ["$1,000", "USD 1,000", "US$1,000.00", "one thousand dollars", "one thousand U.S. dollars ($1,000)", "USD 1000"],
        ["5%", "five percent", "5 per cent", "five percent (5%)", "5 percent"],
        ["one (1) year", "12 months", "twelve (12) months", "1 year"],
        ["two weeks", "14 days", "fourteen (14) days"],
        ["EUR 250,000", "€250,000", "250,000 euros", "EUR 250 thousand"],
        ["£10 million", "GBP 10,000,000", "10,000,000 pounds sterling"],
        ["1.5% per month", "1.5 percent monthly", "one point"[:0] + "1.5% each month"],
    ],
)
def test_number_formats_are_one_key(variants):
    found = {tuple(keys(v)) for v in variants}
    assert len(found) == 1, found
    assert all(found), variants


@pytest.mark.parametrize(
    ("a", "b"),
    [("30 days", "30 business days"), ("30 days", "30 months"), ("$1,000", "EUR 1,000"), ("5%", "5 percentage points"),
     ("12 months", "12 weeks"), ("1.5% per month", "1.5% per annum"), ("$100 per hour", "$100 per day")],
)
def test_units_and_currencies_differ(a, b):
    assert keys(a) != keys(b)


def test_dates_in_any_format_are_one_key():
    variants = ["January 1, 2025", "1 January 2025", "2025-01-01", "01/01/2025", "the 1st day of January, 2025",
                "Jan. 1, 2025", "January 1st, 2025"]
    assert {tuple(keys(v, "date")) for v in variants} == {("2025-01-01",)}


def test_may_the_modal_is_not_a_month():
    assert keys("Customer may 3 times per year request an audit.", "date") == []
    assert keys("The term ends on May 3, 2026.", "date") == ["2026-05-03"]


def test_cross_references_and_list_numbers_are_not_numbers():
    assert keys("3.2 Fees. As set out in Section 4.2 and Exhibit 3, fees are due as stated.") == []
    assert keys("Sections 9 and 10 survive termination.") == []
    assert keys("Subject to clause 12.1(b), notice is due within 10 days.") == ["duration:10:day"]


def test_comparators_travel_with_the_number_and_are_not_negations():
    atoms = extract(flat("Supplier shall give not less than ninety (90) days' notice, and no later than the renewal date."))
    number = [a for a in atoms.atoms if a.family == "number"]
    assert [(a.key, a.attr("cmp")) for a in number] == [("duration:90:day", ">=")]
    assert not [a for a in atoms.atoms if a.family == "negation"]


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Customer shall pay each undisputed invoice within thirty (30) days after receipt.",
         "Customer shall pay each undisputed invoice within sixty (60) days after receipt."),
        ("The late payment charge is 1.5% per month on overdue amounts.",
         "The late payment charge is 2% per month on overdue amounts."),
        ("Provider's aggregate liability shall not exceed $500,000 in any contract year.",
         "Provider's aggregate liability shall not exceed $5,000,000 in any contract year."),
        ("Licensee shall pay a royalty of five percent (5%) of Net Sales.",
         "Licensee shall pay a royalty of seven percent (7%) of Net Sales."),
        ("Either party may terminate this Agreement on ninety days' written notice.",
         "Either party may terminate this Agreement on thirty days' written notice."),
        ("Supplier shall respond to Priority 1 incidents within four (4) hours.",
         "Supplier shall respond to Priority 1 incidents within four (4) business days."),
        ("The Initial Term is two (2) years from the Effective Date.",
         "The Initial Term is eighteen (18) months from the Effective Date."),
        ("All fees are stated and payable in US dollars, and the annual fee is USD 48,000.",
         "All fees are stated and payable in US dollars, and the annual fee is EUR 48,000."),
        ("The warranty period is twelve (12) months from delivery.",
         "The warranty period is twelve (12) weeks from delivery."),
    ],
)
def test_number_changes_are_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7, j
    assert any(r.type == "number" for r in j.reasons)


def test_number_reason_quotes_both_surfaces():
    j = judged("Customer shall pay within thirty (30) days of the invoice date.",
               "Customer shall pay within sixty (60) days of the invoice date.")
    reason = next(r for r in j.reasons if r.type == "number")
    assert (reason.reference, reason.input) == ("thirty (30) days", "sixty (60) days")


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Customer shall pay within thirty (30) days of receipt of the invoice.",
         "Customer shall pay within 30 days of receipt of the invoice."),
        ("The cap on liability is $1,000,000.", "The cap on liability is USD 1,000,000.00."),
        ("The cap on liability is one million dollars.", "The cap on liability is US$1 million."),
        ("Interest accrues at 5% per annum.", "Interest accrues at five per cent per annum."),
        ("The subscription renews for successive one (1) year terms.", "The subscription renews for successive 12-month terms."),
        ("The Effective Date is January 15, 2025.", "The Effective Date is 15 January 2025."),
        ("Notice must be given at least sixty (60) days before renewal.",
         "Notice must be given no less than 60 days before renewal."),
        ("The cure period is 30 days.", "The cure period is thirty days."),
    ],
)
def test_number_formats_are_not_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict < 0.5, j
    assert not [r for r in j.reasons if r.type in ("number", "date")]


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Provider shall give at least thirty (30) days' notice of any price increase.",
         "Provider shall give at most thirty (30) days' notice of any price increase."),
        ("Customer may return the goods within 14 days after delivery.",
         "Customer may return the goods within 14 days before delivery."),
    ],
)
def test_comparator_and_direction_changes_are_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7
    assert any(r.type == "number" and "changed" in (r.detail or "") for r in j.reasons)


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("This Agreement expires on December 31, 2026.", "This Agreement expires on June 30, 2026."),
        ("The price list is valid until 2025-03-31.", "The price list is valid until 31 March 2024."),
    ],
)
def test_date_changes_are_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict >= 0.7
    assert any(r.type == "date" for r in j.reasons)


def test_a_dropped_amount_is_a_difference():
    diffs = compare(extract("Supplier shall pay liquidated damages of $2,000 per day of delay."),
                    extract("Supplier shall pay liquidated damages for each day of delay."))
    assert any(d.type == "number" and d.reference == "$2,000 per day" and d.input is None for d in diffs)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [("quarterly", "once per quarter", True), ("annually", "once a year", True), ("every month", "monthly", True),
     ("twice a year", "semi-annually", True), ("twice a year", "annually", False), ("weekly", "daily", False)],
)
def test_frequencies(a, b, same):
    assert (keys(f"Provider shall report {a}.") == keys(f"Provider shall report {b}.")) is same
    assert keys(f"Provider shall report {a}.")


def test_currencies_named_without_an_amount():
    j = judged("All payments under this Agreement shall be made in euros.",
               "All payments under this Agreement shall be made in US dollars.")
    assert j.p_conflict >= 0.7 and any(r.type == "number" for r in j.reasons)
    j = judged("All payments shall be made in euros.", "All payments must be made in EUR.")
    assert j.p_conflict < 0.5


@pytest.mark.parametrize(
    "variants",
    [["EUR 10.000,00", "EUR 10,000.00", "10,000 euros"], ["4 hrs", "four hours", "4 hours"], ["6 yrs.", "six years", "72 months"],
     ["3 wks", "21 days"]],
)
def test_european_amounts_and_abbreviated_units(variants):
    assert len({tuple(keys(v)) for v in variants}) == 1, [keys(v) for v in variants]


def test_comparator_wordings_agree():
    j = judged("The insurance cover shall not be less than $1,000,000 per claim.",
               "The insurance cover shall be no less than $1,000,000 per claim.")
    assert j.reasons == [] and j.p_conflict < 0.5
    j = judged("The insurance cover shall not be less than $1,000,000 per claim.",
               "The insurance cover shall not be more than $1,000,000 per claim.")
    assert j.p_conflict >= 0.7 and any("comparator" in (r.detail or "") for r in j.reasons)


@pytest.mark.parametrize(
    "variants",
    [
        ["$1,250,000", "$1 250 000", "$1\u2009250\u2009000", "$1\u202f250\u202f000", "USD 1'250'000"],
        ["CHF 1,250,000", "CHF 1'250'000", "CHF 1’250’000", "CHF 1 250 000"],
        ["3.5%", "3,5%", "3,5 percent", "3.5 per cent"],
        ["EUR 1.50", "EUR 1,50", "1,50 euros", "€1,50"],
        ["50% of the Fees", "1/2 of the Fees", "half of the Fees"],
        ["25% of the Deposit", "1/4 of the Deposit", "one quarter of the Deposit"],
    ],
)
def test_group_separators_decimal_commas_and_slash_shares_are_one_key(variants):
    found = {tuple(keys(v)) for v in variants}
    assert len(found) == 1, found
    assert all(found), variants


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1,500 euros", ["money:1500:EUR"]), ("1,50 euros", ["money:1.5:EUR"]), ("2/3 of the Fees", ["percent:66.67:"]),
     ("24/7 support", ["count:24:", "count:7:"]), ("$1 250 001", ["money:1250001:USD"])],
)
def test_the_plain_reading_of_each_format(text, expected):
    assert keys(text) == expected


def test_a_slash_date_is_no_share():
    assert keys("on 1/2/2026", "date") == ["2026-01-02"]
    assert not [k for k in keys("on 1/2/2026 of the Term") if k.startswith("percent")]
