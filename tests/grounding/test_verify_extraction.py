"""verify_extraction and Verifier on hand-written cases: the four statuses, offsets, bad input."""

from __future__ import annotations

import json

import pytest

from conflictkit.errors import UserError
from conflictkit.grounding import Verifier, verify_extraction

DOC = ("1. Fees. Customer shall pay all fees within thirty (30) days of the invoice date.\n"
       "2. Notices. Notices must be in writing. Notices must be in writing.\n"
       "3. Liability. Unlimited liability applies to breaches of Section 4.\n")


def at(text: str, part: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(part, start + 1)
    return start, start + len(part)


def test_grounded_at_cited_offsets():
    start, end = at(DOC, "Customer shall pay all fees")
    result = verify_extraction(DOC, "Customer shall pay all fees", start=start, end=end, label="fees")
    assert (result.status, result.start, result.end, result.label) == ("grounded", start, end, "fees")
    assert result.grounded


def test_grounded_once_without_offsets_reports_where():
    result = verify_extraction(DOC, "within thirty (30) days")
    assert result.status == "grounded"
    assert DOC[result.start : result.end] == "within thirty (30) days"


@pytest.mark.parametrize("shift", [-1, 1])
def test_offsets_one_character_off_are_a_mismatch_not_repaired(shift):
    start, end = at(DOC, "Customer shall pay")
    result = verify_extraction(DOC, "Customer shall pay", start=start + shift, end=end + shift)
    assert result.status == "offset_mismatch"
    assert (result.start, result.end) == (start + shift, end + shift)  # the cited span, never "fixed"
    assert result.found_at == [(start, end)]
    assert f"{start}-{end}" in result.detail


def test_quote_appearing_twice_is_ambiguous_without_offsets():
    result = verify_extraction(DOC, "Notices must be in writing.")
    assert result.status == "ambiguous"
    assert result.occurrences == 2
    assert result.found_at == [at(DOC, "Notices must be in writing."), at(DOC, "Notices must be in writing.", 1)]
    assert result.start is None and result.end is None


def test_quote_appearing_twice_is_grounded_at_either_cited_occurrence():
    for nth in (0, 1):
        start, end = at(DOC, "Notices must be in writing.", nth)
        assert verify_extraction(DOC, "Notices must be in writing.", start=start, end=end).status == "grounded"


def test_not_found():
    result = verify_extraction(DOC, "Provider may terminate for convenience")
    assert result.status == "not_found"
    assert result.near_miss is None


def test_not_found_with_offsets_says_what_the_offsets_hold():
    start, end = at(DOC, "Customer shall pay")
    result = verify_extraction(DOC, "Provider shall pay", start=start, end=end)
    assert result.status == "not_found"
    assert '"Customer shall pay"' in result.detail


@pytest.mark.parametrize(("quote", "doc_word", "quote_word", "kind"), [
    ("Customer shall not pay all fees", "", "not", "negator"),
    ("Customer may pay all fees", "shall", "may", "modal"),
    ("within sixty (30) days", "thirty", "sixty", "number"),
    ("within thirty (60) days", "30", "60", "number"),
    ("Customer shall pay any fees within", "all", "any", "quantifier"),
])
def test_near_miss_names_the_reversing_token(quote, doc_word, quote_word, kind):
    result = verify_extraction(DOC, quote)
    assert result.status == "not_found"
    change, = result.near_miss.changes
    assert (change.kind, change.a_text, change.b_text) == (kind, doc_word, quote_word)
    assert f'"{quote_word}"' in result.detail and kind in result.detail
    if doc_word:  # the document side of the change points at the word in the document
        assert DOC[change.a_start : change.a_end] == doc_word
    assert quote[change.b_start : change.b_end] == quote_word


def test_dropped_negator_near_miss():
    doc = "The Recipient shall not disclose Confidential Information to any third party."
    result = verify_extraction(doc, "The Recipient shall disclose Confidential Information")
    assert result.status == "not_found"
    change, = result.near_miss.changes
    assert (change.op, change.kind, change.a_text) == ("delete", "negator", "not")
    assert doc[change.a_start : change.a_end] == "not"
    assert 'negator "not"' in result.detail


def test_match_must_not_cut_into_words():
    result = verify_extraction(DOC, "limited liability applies")
    assert result.status == "not_found"
    assert "inside longer words" in result.detail and "Unlimited liability applies" in result.detail
    start, end = at(DOC, "limited liability applies")
    assert verify_extraction(DOC, "limited liability applies", start=start, end=end).status == "not_found"


def test_case_is_not_folded():
    assert verify_extraction(DOC, "customer shall pay").status == "not_found"


def test_typography_is_ignored_on_both_sides():
    doc = "The \u201cService\u201d\u00a0means\r\nthe of\ufb01ce suite \u2014 hosted."
    result = verify_extraction(doc, '"Service" means the office suite - hosted.')
    assert result.status == "grounded"
    assert (result.start, result.end) == (4, len(doc))
    assert verify_extraction(doc, "the of\u00adfice", start=result.start + 16, end=result.start + 26).status == "grounded"


def test_cited_span_may_include_surrounding_whitespace():
    doc = "Term.\n\n  The term is one year.  \n\nNext."
    start, end = at(doc, "\n\n  The term is one year.  \n")
    assert verify_extraction(doc, "The term is one year.", start=start, end=end).status == "grounded"


def test_offsets_outside_the_bmp_count_code_points():
    doc = "\U0001d504 Preamble \U0001f600.\nThe \U0001d504gent shall act \U0001f91d in good faith."
    quote = "The \U0001d504gent shall act \U0001f91d in good faith."
    result = verify_extraction(doc, quote)
    assert result.status == "grounded"
    assert doc[result.start : result.end] == quote
    assert result.start == doc.index("The")  # code points, not UTF-16 units or bytes
    assert verify_extraction(doc, quote, start=result.start, end=result.end).status == "grounded"
    assert verify_extraction(doc, quote, start=result.start - 1, end=result.end - 1).status == "offset_mismatch"


def test_offsets_with_crlf_line_endings_count_both_characters():
    doc = "Clause one.\r\nClause two spans\r\ntwo lines.\r\nClause three."
    result = verify_extraction(doc, "Clause two spans two lines.")
    assert result.status == "grounded"
    assert doc[result.start : result.end] == "Clause two spans\r\ntwo lines."
    start, end = at(doc, "Clause three.")
    assert verify_extraction(doc, "Clause three.", start=start, end=end).status == "grounded"
    assert verify_extraction(doc, "Clause three.", start=start - 1, end=end - 1).status == "offset_mismatch"


def test_cited_span_through_a_ligature_round_trips():
    doc = "See the \ufb01le and the other \ufb01le."
    result = verify_extraction(doc, "the other file.")
    assert result.status == "grounded"
    assert verify_extraction(doc, "the other file.", start=result.start, end=result.end).status == "grounded"


def test_verifier_reuses_one_index_for_many_quotes():
    verifier = Verifier(DOC)
    first = verifier.verify("within thirty (30) days")
    index = verifier.index
    second = verifier.verify("Notices must be in writing.")
    assert verifier.index is index
    assert (first.status, second.status) == ("grounded", "ambiguous")


def test_result_is_json_friendly():
    data = verify_extraction(DOC, "Notices must be in writing.", label="n").to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["status"] == "ambiguous" and data["label"] == "n"


@pytest.mark.parametrize(("document", "quote", "kwargs", "message"), [
    (DOC, "", {}, "quote is empty"),
    (DOC, " \n\u00ad\u200b ", {}, "quote is empty"),
    ("", "x", {}, "document is empty"),
    ("\n \u00a0\r\n", "x", {}, "document is empty"),
    (DOC, "fees", {"start": 5}, "only start"),
    (DOC, "fees", {"end": 5}, "only end"),
    (DOC, "fees", {"start": -1, "end": 3}, "outside the document"),
    (DOC, "fees", {"start": 0, "end": len(DOC) + 1}, "outside the document"),
    (DOC, "fees", {"start": 9, "end": 5}, "less than end"),
    (DOC, "fees", {"start": 5, "end": 5}, "less than end"),
    (DOC, "fees", {"start": 1.0, "end": 5}, "start must be an integer"),
    (DOC, "fees", {"start": 1, "end": "5"}, "end must be an integer"),
    (DOC, "fees", {"start": True, "end": 5}, "start must be an integer"),
    ("short text", "a much longer quote than the document", {}, "longer than the document"),
    (DOC, b"fees", {}, "quote must be a string"),
    (None, "fees", {}, "document must be a string"),
])
def test_bad_input_is_a_user_error(document, quote, kwargs, message):
    with pytest.raises(UserError, match=message) as info:
        verify_extraction(document, quote, **kwargs)
    assert "\n" not in str(info.value)
