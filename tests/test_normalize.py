import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conflictkit.lexicon import MODALS, NEGATORS
from conflictkit.normalize import flat, map_span, normalize


def spans_hold(original: str) -> None:
    n = normalize(original)
    assert len(n.offsets) == len(n.text) + 1
    assert n.offsets[-1] == len(original)
    assert np.all(np.diff(n.offsets[:-1]) >= 0)  # monotone: spans stay contiguous


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("\u201cCustomer\u201d", '"Customer"'),
        ("Provider\u2019s", "Provider's"),
        ("2020\u20132021 \u2014 term", "2020-2021 - term"),
        ("\ufb01nal \ufb02at", "final flat"),
        ("indem\u00adnify", "indemnify"),
        ("thirty\u00a0(30)\u2009days", "thirty (30) days"),
        ("zero\u200bwidth\ufeff", "zerowidth"),
        ("a\x00b\x07c", "abc"),
        ("many     spaces\tand\ttabs", "many spaces and tabs"),
        ("line one  \r\n  line two", "line one\nline two"),
        ("para\n\n\n\n\npara", "para\n\npara"),
        # breaks that stay inside a paragraph are spaces; a paragraph separator is a blank line
        ("line\u2028separator", "line separator"),
        ("word\x0bmanual break", "word manual break"),
        ("next\x85line", "next line"),
        ("end of page\x0ccontinued", "end of page continued"),
        ("page one.\n\x0c\nPage two.", "page one.\n\nPage two."),
        ("one\u2029two", "one\n\ntwo"),
    ],
)
def test_typography_is_normalized(raw, expected):
    assert normalize(raw).text == expected
    spans_hold(raw)


@pytest.mark.parametrize("word", sorted(NEGATORS | MODALS))
def test_meaning_is_never_normalized(word):
    for text in (f"Customer {word} not assign", f"Provider may {word} disclose", f"{word.upper()} SHALL", f"may {word}"):
        assert normalize(text).text == text
        assert flat(text) == text


def test_may_not_stays_may_not():
    assert flat("Customer may\u00a0not\r\nassign") == "Customer may not assign"
    assert "may not" in normalize("may \u200bnot").text


def test_offsets_map_back_to_the_original():
    original = "He said \u201cthe Customer\u201d may\u00a0\u00a0not\r\nassign \ufb01les \u2014 ok\u00ad."
    n = normalize(original)
    i = n.text.index("the Customer")
    s, e = n.to_original(i, i + len("the Customer"))
    assert original[s:e] == "the Customer"
    i = n.text.index("files")
    s, e = n.to_original(i, i + len("files"))
    assert original[s:e] == "\ufb01les"
    i = n.text.index("may not\nassign")
    s, e = n.to_original(i, i + len("may not\nassign"))
    assert original[s:e] == "may\u00a0\u00a0not\r\nassign"


def test_flatten_folds_line_breaks():
    n = normalize("one\n\ntwo\r\nthree", flatten=True)
    assert n.text == "one two three"
    s, e = n.to_original(0, len(n.text))
    assert (s, e) == (0, len("one\n\ntwo\r\nthree"))


def test_astral_characters_keep_offsets():
    original = "\U0001d504 clause \U0001f600 \u201cquoted\u201d"
    n = normalize(original)
    i = n.text.index('"quoted"')
    s, e = n.to_original(i, i + 8)
    assert original[s:e] == "\u201cquoted\u201d"


def test_map_span_rejects_out_of_range():
    offsets = normalize("abc").offsets
    with pytest.raises(ValueError):
        map_span(offsets, 2, 9)
    assert map_span(offsets, 1, 1) == (1, 1)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)
       | st.text(alphabet="ab \t\n\r\u00a0\u2028\u2029\u00ad\u200b\ufb01\u2026\u201c\x0b\x0c\x1c\x85\u3000", max_size=30))
def test_flat_key_is_flat(text):
    from conflictkit.normalize import flat_key

    assert flat_key(text) == flat(text)
