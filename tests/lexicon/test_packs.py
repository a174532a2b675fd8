"""Language packs: one validated object per language, loaded once; an incomplete or malformed pack
is refused with one line naming every problem; extra tables; language detection; letter classes."""

from __future__ import annotations

import json
import re

import pytest

from conflictkit import lexicon
from conflictkit.lexicon import LexiconError, detect, load
from conflictkit.lexicon.regex import compile_pattern, expand
from conflictkit.lexicon.schema import SECTIONS, pack_schema
from conflictkit.testing.packs import derived_pack


def test_the_english_pack_is_one_validated_object_read_once():
    en = load("en")
    assert en is load("en") and en.name == "English"
    assert "not" in en.data.words.negators and en.words("words.negators") == frozenset(en.data.words.negators)
    assert en.data.numbers.units["thirty"] == 30 and en.get("numbers.scales.hundred") == 100
    assert lexicon.NEGATORS == en.words("words.negators")  # the module lists are the default pack's
    assert set(SECTIONS) == {p.name[:-5] for p in en.folder.glob("*.yaml")}  # every file is a section, and back


def test_an_unknown_language_is_one_clear_error():
    with pytest.raises(LexiconError, match=r"no language pack for 'zz' \(available: .*en.*\); add a folder zz/"):
        load("zz")
    with pytest.raises(LexiconError, match="not a language code"):
        load("../en")


@pytest.mark.parametrize(("change", "problem"), [
    ({"numbers": None}, r"numbers\.yaml is missing"),
    ({"words.negators": None}, r"words\.yaml: negators: Input should be a valid list"),
    ({"numbers.comparators": {">=": ["at\\s+least("]}}, r"numbers\.yaml: comparators\.>=\[0\]: not a valid regular expression"),
    ({"words.exceptions": ["except", True]}, r"words\.yaml: exceptions\[1\]: true was read as a yes/no value: quote the word"),
    ({"words.negators": ["not", ""]}, r"words\.yaml: negators\[1\]: an empty word would match everywhere"),
    ({"words.nagators": ["not"]}, r"words\.yaml: unknown key nagators"),
    ({"numbers.decimal_mark": ";"}, r"numbers\.yaml: decimal_mark: Input should be '\.' or ','"),
])
def test_a_malformed_pack_is_refused_with_one_line_naming_the_problem(pack_root, code, change, problem):
    derived_pack(pack_root, code, changes=change)
    with pytest.raises(LexiconError) as caught:
        load(code)
    message = str(caught.value)
    assert re.search(problem, message), message
    assert "\n" not in message and f"language pack {code!r}" in message


def test_every_problem_of_a_pack_is_named_at_once(pack_root, code):
    derived_pack(pack_root, code, changes={"dates": None, "tokens.negator": None})
    with pytest.raises(LexiconError, match=r"tokens\.yaml: negator: Input should be a valid string; dates\.yaml is missing"):
        load(code)


def test_a_file_that_is_no_section_is_refused(pack_root, code):
    folder = derived_pack(pack_root, code)
    (folder / "severity.yaml").write_text("high: [liability]\n", encoding="utf-8")
    with pytest.raises(LexiconError, match=r"severity\.yaml is not a file of a language pack \(put extra tables in tables/\)"):
        load(code)


def test_a_folder_without_a_manifest_is_an_incomplete_pack(pack_root, code):
    (pack_root / code).mkdir()
    (pack_root / code / "words.yaml").write_text("negators: [not\n", encoding="utf-8")
    with pytest.raises(LexiconError, match="is incomplete: pack.yaml is missing"):
        load(code)


def test_a_broken_file_names_itself(pack_root, code):
    folder = derived_pack(pack_root, code)
    (folder / "words.yaml").write_text("negators: [not\n", encoding="utf-8")
    with pytest.raises(LexiconError, match=rf"language pack file {code}/words\.yaml is not valid YAML at line 2"):
        load(code)


def test_extra_tables_are_read_and_checked_on_demand(pack_root, code):
    from pydantic import BaseModel

    folder = derived_pack(pack_root, code)
    (folder / "tables").mkdir(exist_ok=True)  # the English pack it copies has tables of its own
    (folder / "tables" / "severity.yaml").write_text("high: [liability, indemnity]\n", encoding="utf-8")
    pack = load(code)
    assert pack.tables() == ["severity"] and pack.table("severity") == {"high": ["liability", "indemnity"]}

    class Severity(BaseModel):
        high: list[str]
        low: list[str]

    with pytest.raises(LexiconError, match=r"has a malformed table: tables/severity\.yaml: low is missing"):
        pack.table("severity", Severity)
    with pytest.raises(LexiconError, match=r"has no table 'channels' \(tables/channels\.yaml; its tables: severity\)"):
        pack.table("channels")


def test_the_fingerprint_follows_the_words(pack_root, code):
    derived_pack(pack_root, code, changes={"words.negators": ["not", "nae"]})
    assert load(code).fingerprint != load("en").fingerprint
    assert load(code).fingerprint.startswith(f"{code}:")


def test_the_schema_file_is_the_schema_of_the_models():
    from importlib import resources

    shipped = json.loads(resources.files("conflictkit.lexicon").joinpath("schema.json").read_text(encoding="utf-8"))
    assert shipped == pack_schema(), "run: conflictkit languages --schema > conflictkit/lexicon/schema.json"
    described = [name for name, prop in pack_schema()["$defs"]["NumbersSection"]["properties"].items()
                 if not prop.get("description")]
    assert not described  # every field says what it is


def test_auto_detects_the_language_of_the_texts(pack_root, code):
    derived_pack(pack_root, code, changes={"pack.detection_words": ["der", "die", "das", "und", "ist", "nicht", "den",
                                                                    "von", "zu", "mit", "des", "im"]})
    english = "The Supplier shall deliver the Goods to the Buyer within thirty days of the order."
    german = "Der Lieferant liefert die Ware an den Käufer innerhalb von dreißig Tagen nach der Bestellung."
    mine = ["en", code]  # the installed German pack would win the German text otherwise
    assert detect([english], candidates=mine) == "en" and detect([german], candidates=mine) == code
    assert detect([german, english], candidates=mine) in ("en", code)  # the larger share wins
    assert detect([""]) == "en" and detect(["12345 ..."]) == "en"  # no words: the default language
    assert detect([german], candidates=["en"]) == "en"


def test_letter_classes_read_every_script():
    assert compile_pattern(r"\p{L}+").fullmatch("fällig") and compile_pattern(r"\p{Lu}\p{Ll}+").fullmatch("Ärger")
    assert compile_pattern(r"[\p{L}0-9]+").fullmatch("Straße42") and not compile_pattern(r"\p{Ll}").match("Ä")
    assert expand("plain") == "plain" and "\\p" not in expand(r"[^\s\p{L}\d]")
