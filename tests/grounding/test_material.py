"""material_difference: changed tokens, their classes and their offsets in both originals."""

from __future__ import annotations

import json

import pytest

from conflictkit.errors import UserError
from conflictkit.grounding import material_difference, token_class, tokenize


def only(a: str, b: str):
    diff = material_difference(a, b)
    assert diff.differs
    change, = diff.changes
    return change


@pytest.mark.parametrize(("a", "b", "old", "new", "kind"), [
    ("within 30 days", "within 60 days", "30", "60", "number"),
    ("a fee of $1,000 per month", "a fee of $10,000 per month", "$1,000", "$10,000", "number"),
    ("within thirty days", "within sixty days", "thirty", "sixty", "number"),
    ("twenty-five percent", "thirty-five percent", "twenty-five", "thirty-five", "number"),
    ("Customer shall pay", "Customer may pay", "shall", "may", "modal"),
    ("any claim", "all claims", None, None, None),
    ("except as stated", "unless as stated", "except", "unless", "exception"),
    ("if notified", "when notified", "if", "when", "condition"),
    ("for each user", "for some user", "each", "some", "quantifier"),
    ("Customer shall pay", "Customer must pay", "shall", "must", "modal"),
])
def test_replacement_is_classed_with_offsets_in_both(a, b, old, new, kind):
    diff = material_difference(a, b)
    if old is None:  # two tokens changed: each is reported
        assert [c.kind for c in diff.changes] == ["quantifier", None]
        return
    change = only(a, b)
    assert (change.op, change.kind, change.a_text, change.b_text) == ("replace", kind, old, new)
    assert a[change.a_start : change.a_end] == old
    assert b[change.b_start : change.b_end] == new


def test_dropped_negator_points_into_both_strings():
    a, b = "The Recipient shall not disclose it.", "The Recipient shall disclose it."
    change = only(a, b)
    assert (change.op, change.kind) == ("delete", "negator")
    assert a[change.a_start : change.a_end] == "not"
    assert change.b_start == change.b_end == b.index("shall") + len("shall")


def test_added_exception_is_an_insert():
    a, b = "Either party may terminate.", "Either party may terminate only for cause."
    diff = material_difference(a, b)
    assert [(c.op, c.kind, c.b_text) for c in diff.changes] == [
        ("insert", "exception", "only"), ("insert", None, "for"), ("insert", None, "cause")]
    assert diff.reversing and [c.b_text for c in diff.material] == ["only"]


def test_typography_is_not_a_difference():
    a = "The \u201cCustomer\u201d shall\u00a0not\r\nuse the of\ufb01ce \u2014 ever."
    b = 'The "Customer" shall not use the office - ever.'
    diff = material_difference(a, b)
    assert not diff.differs and diff.changes == [] and not diff.reversing


def test_case_change_is_a_change_without_a_class():
    change = only("Shall pay", "shall pay")
    assert change.kind is None and not change.material


def test_plain_word_change_is_not_material():
    diff = material_difference("the Customer shall pay", "the Client shall pay")
    assert diff.differs and not diff.reversing


def test_offsets_map_to_originals_outside_the_bmp():
    a, b = "\U0001d504 Fees are due in 30 days.", "\U0001d504\u00a0\u00a0Fees are due in\r\n45 days."
    change = only(a, b)
    assert (a[change.a_start : change.a_end], b[change.b_start : change.b_end]) == ("30", "45")


def test_contraction_negator_is_its_own_token():
    assert tokenize("Supplier won't sell").words == ("Supplier", "wo", "n't", "sell")
    change = only("Supplier won't sell", "Supplier wo sell")
    assert change.kind == "negator"


def test_token_classes():
    assert [token_class(t) for t in ("not", "Shall", "unless", "upon", "every", "30%", "1.5", "House")] == [
        "negator", "modal", "exception", "condition", "quantifier", "number", "number", None]


def test_to_dict_is_json():
    data = material_difference("pay in 30 days", "pay in 60 days").to_dict()
    assert json.loads(json.dumps(data)) == data and data["reversing"] is True


def test_bad_input():
    with pytest.raises(UserError, match="a must be a string"):
        material_difference(None, "x")
