"""A word list as a trie-shaped regex matches exactly what its longest-first alternation matches."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conflictkit.judges.atoms.parties import _pattern, sides
from conflictkit.judges.atoms.places import gazetteer
from conflictkit.judges.atoms.trie import alternation
from conflictkit.lexicon import LexiconError, load
from tests.judges.bench_pairs import bench_texts_lower


def _plain(words) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


def _found(pattern: re.Pattern[str], text: str) -> list[tuple]:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


# what follows the word list decides whether a shorter word must be tried after a longer one failed
_CONTEXTS = ["{}", r"\b(?:{})\b", r"(?P<w>{})(?P<tail>\s+county)?(?![\w])", r"(?:{})(?=\s+law)"]


@settings(max_examples=300, deadline=None)
@given(words=st.lists(st.text("ab .", min_size=1, max_size=5), min_size=1, max_size=8),
       text=st.text("ab .cwlounty", max_size=30), context=st.sampled_from(_CONTEXTS))
def test_the_trie_matches_as_the_alternation_does(words, text, context):
    plain, trie = re.compile(context.format(_plain(words))), re.compile(context.format(alternation(words)))
    assert _found(trie, text) == _found(plain, text)


def test_the_gazetteer_finds_the_same_places_as_before():
    lex = load()
    g, places = gazetteer(lex), lex.section("places")
    names = set(places["us_states"]) | set(places["countries"]) | set(places["cities"]) | set(places["aliases"])
    plain = re.compile(r"(?<![\w.])(?:the\s+(?:state|commonwealth|province|county|city|courts?)\s+of\s+)?(?P<p>"
                       + _plain(names) + r")(?P<county>\s+county)?(?![\w])")
    texts = [f"the State of {n} and {n} County, {n}'s courts, in {n}" for n in sorted(names)] + bench_texts_lower()
    assert sum(bool(_found(g.place, t)) for t in texts) > len(names)
    for text in texts:
        assert _found(g.place, text) == _found(plain, text), text


def test_party_names_are_found_as_before():
    lex = load()
    names = sides(lex)
    plain = re.compile(r"\b(?:" + _plain(names) + r")\b(?!-)")
    texts = [f"the {n} and each {n}'s {n}-owned {n}s" for n in sorted(names)] + bench_texts_lower()
    for text in texts:
        assert _found(_pattern(lex), text) == _found(plain, text), text


def test_an_empty_word_is_refused():
    with pytest.raises(LexiconError, match="empty entry"):
        alternation(["delaware", ""])
