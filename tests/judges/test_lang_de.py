"""The German lexicon (conflictkit/judges/atoms/lang/de, issue 26): it has every file and every entry
the English one has, with the same shapes, so a reader of lang/en can read it; its patterns compile;
and the legal-atoms judge runs on German text with it."""

from __future__ import annotations

import re

import pytest

from conflictkit import lexicon
from conflictkit.judges.atoms import LegalAtomsJudge
from tests.judges.test_atoms_cases import judged


def _shape(value):
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, list):
        return "list"
    return type(value).__name__


def _sections(language):
    lex = lexicon.load(language)
    return {name: lex.section(name) for name in lex._sections}


def test_every_english_file_and_entry_has_a_german_one_of_the_same_shape():
    english, german = _sections("en"), _sections("de")
    missing = [f"{name}.yaml" for name in english if name not in german]
    assert not missing, missing
    for name, entries in english.items():
        for key, value in entries.items():
            assert key in german[name], f"lang/de/{name}.yaml has no {key!r}"
            assert _shape(german[name][key]) == _shape(value), f"lang/de/{name}.yaml: {key!r}"


def test_german_phrase_rows_have_four_fields_and_compile():
    phrases = lexicon.load("de").section("phrases")
    for table in ("idioms", "phrases"):
        for row in phrases[table]:
            assert len(row) == 4, row
            re.compile(row[0])


def _patterns(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _patterns(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _patterns(item)


@pytest.mark.parametrize("path", ["editorial.pointer_patterns", "editorial.version_patterns", "places.world_patterns",
                                  "places.cued_place_patterns", "places.forum_types", "numbers.comparator_idioms",
                                  "segments.definition_patterns", "segments.alias_patterns", "segments.heading_patterns",
                                  "filters.update_banner_patterns", "filters.self_non_binding_patterns"])
def test_german_patterns_compile(path):
    for pattern in _patterns(lexicon.load("de").get(path)):
        re.compile(pattern.replace("MONTH", "märz"))


@pytest.mark.parametrize("text, key", [
    ("Die Zustimmung darf nicht unbillig verweigert werden.", "not unreasonably withheld"),
    ("ein einfaches, nicht übertragbares Nutzungsrecht", "non-exclusive"),
    ("ein ausschließliches Nutzungsrecht", "exclusive"),
    ("ausschließlich für interne Zwecke", "only"),
    ("zuzüglich der gesetzlichen Umsatzsteuer", "excluding"),
    ("nach billigem Ermessen", "reasonable discretion"),
    ("nach freiem Ermessen", "sole discretion"),
    ("Kündigungen bedürfen der Textform.", "text form"),
    ("bei grober Fahrlässigkeit", "gross negligence"),
    ("ohne schuldhaftes Zögern", "promptly"),
])
def test_german_phrases_give_the_language_neutral_keys(text, key):
    rows = lexicon.load("de").section("phrases")
    low = text.lower()
    assert key in {k for p, _, _, k in rows["idioms"] + rows["phrases"] if re.search(p, low)}


def test_third_parties_are_not_the_third_day():
    rows = lexicon.load("de").section("phrases")["phrases"]
    third = next(p for p, _, group, _ in rows if group == "third-party")
    assert re.search(third, "an dritte weitergeben") and not re.search(third, "am dritten werktag eines monats")


def test_the_judge_runs_on_german_text_with_the_german_lexicon():
    judge = LegalAtomsJudge({"language": "de"})
    reference = "Der Kunde darf die Zugangsdaten nicht an Dritte weitergeben."
    dropped = judged(reference, "Der Kunde darf die Zugangsdaten an Dritte weitergeben.", judge=judge)
    same = judged(reference, "Der Kunde darf die Zugangsdaten nicht an Dritte weitergeben.", judge=judge)
    assert dropped.p_conflict > 0.7 > same.p_conflict
