"""Per-language lexicons: loaded once from data files, shared by the judge and the redline; a new
language is a folder of files (in the package or on CONFLICTKIT_LEXICON_PATH)."""

from __future__ import annotations

import shutil
from importlib import resources

import pytest
import yaml

from conflictkit import lexicon
from conflictkit.judges.atoms import LegalAtomsJudge
from conflictkit.judges.atoms.extract import extract
from tests.judges.test_atoms_cases import judged


@pytest.fixture
def extra_language(tmp_path, monkeypatch):
    """A copy of the English lexicon as language "xx" on CONFLICTKIT_LEXICON_PATH, with "nae" as a negator."""
    folder = tmp_path / "xx"
    shutil.copytree(str(resources.files("conflictkit.judges.atoms.lang").joinpath("en")), folder)
    words = yaml.safe_load((folder / "words.yaml").read_text(encoding="utf-8"))
    words["negators"].append("nae")
    (folder / "words.yaml").write_text(yaml.safe_dump(words), encoding="utf-8")
    monkeypatch.setenv(lexicon.LEXICON_PATH_ENV, str(tmp_path))
    lexicon.load.cache_clear()
    extract.cache_clear()
    yield "xx"
    lexicon.load.cache_clear()
    extract.cache_clear()


def test_the_module_lists_are_the_english_lexicon():
    en = lexicon.load("en")
    assert lexicon.NEGATORS == en.words("words.negators") and "not" in lexicon.NEGATORS
    assert lexicon.REVERSING >= lexicon.NEGATORS | lexicon.MODALS | lexicon.EXCEPTIONS
    assert lexicon.load("en") is en  # read once


def test_an_unknown_language_is_one_clear_error():
    with pytest.raises(lexicon.LexiconError, match=r"no language pack for 'zz' \(available: .*en"):
        lexicon.load("zz")
    with pytest.raises(ValueError, match="no language pack for 'zz'"):
        LegalAtomsJudge(options={"language": "zz"})


def test_a_language_is_a_folder_of_files(extra_language):
    assert extra_language in lexicon.languages()
    judge = LegalAtomsJudge(options={"language": extra_language})
    ref, inp = "The Supplier shall deliver the Goods to the Site.", "The Supplier shall nae deliver the Goods to the Site."
    assert judged(ref, inp, judge=judge).p_conflict >= 0.7  # "nae" negates in this language
    assert any(r.type == "negation" for r in judged(ref, inp, judge=judge).reasons)
    assert not any(a.family == "negation" for a in extract(inp).atoms)  # and not in English


def test_a_broken_lexicon_file_names_itself(tmp_path, monkeypatch):
    folder = tmp_path / "yy"
    folder.mkdir()
    (folder / "words.yaml").write_text("negators: [not\n", encoding="utf-8")
    monkeypatch.setenv(lexicon.LEXICON_PATH_ENV, str(tmp_path))
    lexicon.load.cache_clear()
    try:
        with pytest.raises(lexicon.LexiconError, match=r"yy/words.yaml is not valid YAML"):
            lexicon.load("yy")
    finally:
        lexicon.load.cache_clear()
