"""No negator or modal is ever normalized away: "may not" never becomes "may", for every listed word."""

from __future__ import annotations

import pytest

from conflictkit.grounding import (
    material_difference,
    redline,
    token_class,
    tokenize,
    verify_extraction,
)
from conflictkit.lexicon import MODALS, NEGATORS
from conflictkit.normalize import normalize

# Typographic noise around the word: the normalizer must fold the spacing and keep the word.
NOISY_SPACES = ["\u00a0", "\r\n", " \n ", "\u2009", "  "]


def phrase(word: str) -> tuple[str, str]:
    """A clause holding ``word`` and the same clause without it."""
    if word == "n't":
        return "The Supplier shouldn't disclose the data.", "The Supplier should disclose the data."
    if word in NEGATORS:
        return f"The Supplier may {word} disclose the data.", "The Supplier may disclose the data."
    return f"The Supplier {word} not disclose the data.", "The Supplier not disclose the data."


WORDS = sorted(NEGATORS | MODALS)


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("space", NOISY_SPACES)
def test_normalization_keeps_the_word(word, space):
    with_word, _ = phrase(word)
    noisy = with_word.replace(" ", space)
    assert normalize(noisy, flatten=True).text == with_word
    assert word in tokenize(noisy).words


@pytest.mark.parametrize("word", WORDS)
def test_dropping_the_word_is_not_found_and_named(word):
    with_word, without = phrase(word)
    doc = f"Preamble.\n\n{with_word.replace(' ', chr(0xa0))}\n\nSignatures."
    result = verify_extraction(doc, without)
    assert result.status == "not_found", result.detail
    kind = "negator" if word in NEGATORS else "modal"
    assert result.near_miss is not None, result.detail
    assert [(c.kind, c.a_text) for c in result.near_miss.changes] == [(kind, word)]


@pytest.mark.parametrize("word", WORDS)
def test_material_difference_and_redline_flag_the_word(word):
    with_word, without = phrase(word)
    diff = material_difference(with_word, without)
    assert diff.differs and diff.reversing
    assert token_class(word) in ("negator", "modal")
    assert any(op.reversing and op.op in ("delete", "insert") for op in redline(with_word, without).ops)


@pytest.mark.parametrize(("quote", "added"), [
    ("Each party's information includes the status of the discussions and the Cover Page cannot .", "cannot"),
    ("not Each party's information includes the status of the discussions and the Cover Page .", "not"),
])
def test_a_negator_added_at_either_end_of_a_quote_is_named(quote, added):
    """An added word past the quote's last (or before its first) matched word is an insertion, not a
    change of the document's next word: the near miss ends at the matched words and names the negator."""
    doc = ("Preamble. Each party's information includes the status of the discussions and the Cover Page . "
           "Confidential Information includes technical data. Signatures.")
    result = verify_extraction(doc, quote)
    assert result.status == "not_found", result.detail
    assert result.near_miss is not None, result.detail
    assert [(c.kind, c.b_text) for c in result.near_miss.changes] == [("negator", added)]
