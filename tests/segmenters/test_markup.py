"""Markup stripped from compared text, with and without a map back to the source."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conflictkit.normalize import flat
from conflictkit.segmenters.markup import clause_text, markup_free, strip_markup

_PIECES = ["<span class=\"keyterms_link\">", "</span>", "<br/>", "<!-- note -->", "**", "__", "*", "_", "~~", "`",
           "[link](https://x.example/a)", "[[Wiki]]", "![alt](i.png)", "&amp;", "&nbsp;", "&#8217;", "&rsquo;", "\\*",
           " | ", "\n", "\n> ", "  ", "Customer", "shall", "not", "pay", "30", "(a)", "____", "# ", " ##"]


@pytest.mark.parametrize("raw, clean", [
    ('<span class="header_3" id="1.1">Fees.</span> Due', "Fees. Due"),
    ("Terms &amp; Conditions&nbsp;apply", "Terms & Conditions apply"),
    ("Provider&rsquo;s duty", "Provider's duty"),
    ("**Payment.** Customer [pays](https://x.example) *monthly*", "Payment. Customer pays monthly"),
    ("The Customer\n> shall pay\n> > in full.", "The Customer shall pay in full."),
])
def test_clause_text(raw, clean):
    assert clause_text(raw) == clean


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES) | st.text(max_size=6), max_size=30))
def test_markup_free_strips_what_strip_markup_strips_and_maps_every_character_back(pieces):
    text = "".join(pieces)
    clean, offsets = markup_free(text)
    assert len(offsets) == len(clean) + 1 and offsets[-1] == len(text)
    assert all(0 <= o < len(text) for o in offsets[:-1]) and list(offsets) == sorted(offsets)
    flattened = flat(text)  # on the text clauses are cut from, both strip the same markup
    assert " ".join(markup_free(flattened)[0].split()).strip(" |") == strip_markup(flattened)


def test_markup_free_keeps_link_text_and_entities_at_their_source():
    text = "See [the terms](https://x.example) &amp; pay"
    clean, offsets = markup_free(text)
    assert clean == "See the terms & pay"
    start = clean.index("the terms")
    assert text[offsets[start]:offsets[start + len("the terms") - 1] + 1] == "the terms"
    assert text[offsets[clean.index("&")]] == "&"
