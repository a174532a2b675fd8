"""The literal screen in front of the lexicon's regexes never hides a match."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conflictkit.judges.atoms.numgrammar import grammar
from conflictkit.judges.atoms.phrases import _compiled
from conflictkit.judges.atoms.screen import may_match, required_literals, screen
from conflictkit.lexicon import load
from tests.judges.bench_pairs import bench_texts_lower


@pytest.mark.parametrize(("pattern", "literals"), [
    (r"\bnon[\s-]?exclusive(?:ly)?\b|\bnot\s+exclusive\b", {"exclusive"}),
    (r"\b(?:documented|substantiated|verifiable)\b", {"documented", "substantiated", "verifiable"}),
    (r"\bwithout\s+(?:(?:undue|unreasonable|any)\s+)?delay\b", {"without"}),
    (r"(?:ab)+c", {"ab"}),
])
def test_reads_the_words_a_match_needs(pattern, literals):
    assert required_literals(re.compile(pattern)) == literals


@pytest.mark.parametrize("pattern", [
    r"(?i)\bexclusive\b",  # case-insensitive: the lower-case literal is not required
    r"\b(?i:Exclusive)\b",
    r"\bnon\b|\s+",  # an alternative without a literal
    r"(?:exclusive)?\w+",  # the literal is optional
    r"[a-z]+",
    r"a\b",  # too short to be worth a look-up
])
def test_no_screen_where_it_cannot_vouch(pattern):
    assert required_literals(re.compile(pattern)) is None
    assert may_match(screen(re.compile(pattern)), "")


def test_a_screen_looks_for_the_shortest_of_nested_literals():
    assert screen(re.compile(r"\b(?:september|sept|sep)\b")) == ("sep",)
    assert screen(re.compile(r"\bweekly\b|\bbiweekly\b|\bdaily\b")) == ("weekly", "daily")


def test_every_lexicon_row_matches_only_texts_that_pass_its_screen():
    lexicon = load()
    rows = _compiled(lexicon, "idioms") + _compiled(lexicon, "phrases")
    screened = [row for row in rows if row[5] is not None]
    assert len(screened) > len(rows) // 2  # the screen is in place for most rows
    matched = skipped = 0
    for text in bench_texts_lower():
        for _, pattern, _, _, _, literals in rows:
            found = pattern.search(text) is not None
            if not may_match(literals, text):
                assert not found, (pattern.pattern, text)
                skipped += 1
            matched += found
    assert matched and skipped


def test_the_number_and_date_screens_hide_no_match():
    g = grammar(load())
    d = g.dates
    calendar = [(p, screen(p)) for p in (d.ordinal, d.weekday, d.quarter, d.month_alone)]
    screened = [*zip(d.patterns, d.screens, strict=True), *calendar, (g.p.frequency, g.frequency_screen)]
    texts = bench_texts_lower() + ["Payment is due on the 1st day of each Month, every Friday, or by March 31, 2026.",
                               "Reports are delivered quarterly and invoices twice per year, on 15 June 2026."]
    skipped = 0
    for text in texts + [t.title() for t in texts]:
        for pattern, literals in screened:
            if not may_match(literals, text):
                assert pattern.search(text) is None, (pattern.pattern, text)
                skipped += 1
    assert skipped


_PIECES = st.sampled_from(["ab", "b", "ba", "c", r"\b", r"\s+", "[ab]", "(?:ab|ba)", "(?:abc|c)?", "a+", "(?:ca)+",
                           "(?=b)", "x{2}", ".", "(?:a|)"])


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(_PIECES, min_size=1, max_size=6), branch=st.booleans(), text=st.text("abcx ", max_size=12))
def test_a_screened_out_text_never_matches(pieces, branch, text):
    source = "".join(pieces)
    if branch:
        source = f"{source}|{''.join(reversed(pieces))}"
    pattern = re.compile(source)
    if not may_match(screen(pattern), text):
        assert pattern.search(text) is None, (source, text)
