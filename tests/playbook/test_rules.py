"""Red-line rules read clauses as the judge does, and quote the words that break them in the original file."""

from __future__ import annotations

import pytest

from conflictkit.playbook.model import Rule
from conflictkit.playbook.rules import CompiledRule, Reading, RuleError


NEAR = ("Customer shall answer within 10 days of each notice of a dispute. If the dispute is not resolved by the parties' "
        "senior executives in good faith in that time, either party may terminate if the other fails to cure within 20 days.")


def hits(rule: dict, text: str) -> list[tuple[str, str | None]]:
    reading = Reading.of(text, 0, len(text))
    return [(h.detail, None if h.start is None else text[h.start:h.end]) for h in CompiledRule(Rule(**rule)).check(reading)]


@pytest.mark.parametrize("rule, text, broken", [
    ({"below": "12 months"}, "fees paid in the six (6) months before the claim", ["six (6) months"]),
    ({"below": "12 months"}, "fees paid in the twelve (12) months before the claim", []),
    ({"below": "12 months"}, "fees paid in the 52 weeks before the claim", []),  # 364 days: within 1%
    ({"below": "12 months"}, "fees paid in the 300 days before the claim", ["300 days"]),
    ({"below": "1 year"}, "fees paid in the last 6 months", ["6 months"]),
    ({"above": "72 hours"}, "notify Customer within five (5) days", ["five (5) days"]),
    ({"above": "72 hours"}, "notify Customer within two (2) days", []),
    ({"below": "$1,000,000"}, "a cap of five hundred thousand dollars ($500,000)", ["five hundred thousand dollars ($500,000)"]),
    ({"below": "$1,000,000"}, "a cap of EUR 2,000,000", ["EUR 2,000,000"]),  # another currency: cannot be compared
    ({"above": "10%"}, "a discount of fifteen percent (15%)", ["fifteen percent (15%)"]),
    ({"below": "30 days", "near": "cure"}, NEAR, ["20 days"]),
    ({"below": "30 days", "near": "notice"}, NEAR, ["10 days"]),
])
def test_quantities(rule, text, broken):
    assert [words for _, words in hits(rule, text)] == broken


def test_places_and_words():
    law = {"governing_law_other_than": ["Delaware", "New York"]}
    assert hits(law, "governed by the laws of England and Wales") == [
        ("England and Wales is not Delaware or New York", "England and Wales")]
    assert hits(law, "governed by the laws of the State of New York") == []
    assert hits({"venue_other_than": "Delaware"}, "the courts located in London, England have jurisdiction")[0][1] == "London"
    assert hits({"contains": ["unlimited liability"]}, "Provider has UNLIMITED\nliability here") == [
        ("'UNLIMITED liability' is in the clause", "UNLIMITED\nliability")]
    assert hits({"contains": "limited liability"}, "Provider has unlimited liability") == []  # whole words only
    assert hits({"lacks": ["prior written consent", "notice"]}, "without the prior written consent of the other party") == [
        ("'notice' is not in the clause", None)]


def test_hits_are_located_in_the_original_through_markup_and_typography():
    original = ('intro\n\n1. <span class="x">Cap.</span> Liability shall not exceed fees paid in the\n'
                '   six&nbsp;(6) months before the claim.')
    start = original.index("<span")
    reading = Reading.of(original, start, len(original))
    assert reading.text.startswith("Cap. Liability shall not exceed")
    (hit,) = CompiledRule(Rule(below="12 months")).check(reading)
    assert original[hit.start:hit.end] == "six&nbsp;(6) months" and hit.words == "six (6) months"


def test_descriptions():
    assert CompiledRule(Rule(below="12 months", near="fees")).describe() == "any duration below 12 months (near 'fees')"
    assert CompiledRule(Rule(above="$5,000,000")).describe() == "any amount above $5,000,000"
    assert CompiledRule(Rule(governing_law_other_than=["Delaware"])).describe() == "a governing law other than Delaware"
    assert CompiledRule(Rule(lacks=["a", "b"])).describe() == "missing the words 'a' and 'b'"


@pytest.mark.parametrize("rule", [{"below": "soon"}, {"below": "30 days or 60 days"}, {"contains": [" "]},
                                  {"governing_law_other_than": ["Delaware and New York"]}])
def test_unreadable_rules_say_what_to_write(rule):
    with pytest.raises(RuleError):
        CompiledRule(Rule(**rule))
