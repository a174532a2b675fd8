"""`conflictkit languages` and `language:` in a config, as a user meets them."""

from __future__ import annotations

import json

import pytest
import yaml

from conflictkit import lexicon
from conflictkit.cli import main
from conflictkit.testing.packs import derived_pack
from tests.conftest import FAST_CONFIG, INPUT, REFERENCE


def run(capsys, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out, err = capsys.readouterr()
    return done.value.code, out, err


def test_languages_lists_the_packs_and_a_broken_one_says_why(pack_root, capsys):
    derived_pack(pack_root, "qq", changes={"numbers": None})
    code, out, _ = run(capsys, "languages")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("de     German") and lines[1].startswith("en     English")
    assert "qq     BROKEN: language pack 'qq'" in out and "numbers.yaml is missing" in out
    code, out, _ = run(capsys, "languages", "--json")
    assert {row["code"]: row["problem"] is None for row in json.loads(out)} == {"de": True, "en": True, "qq": False}


def test_check_runs_a_pack_folder_s_contract(tmp_path, capsys):
    folder = derived_pack(tmp_path / "mine", "mm")
    code, out, _ = run(capsys, "languages", "--check", str(folder))
    assert code == 0 and out.startswith("mm: English, 31 contract cases, 0 failures")
    (folder / "words.yaml").write_text("negators: [not\n", encoding="utf-8")
    lexicon.load.cache_clear()
    code, _, err = run(capsys, "languages", "--check", str(folder))
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("conflictkit: error: language pack file mm/words.yaml is not valid YAML at line 2: ")


def test_schema_prints_the_pack_schema(capsys):
    code, out, _ = run(capsys, "languages", "--schema")
    schema = json.loads(out)
    assert code == 0 and "numbers" in schema["properties"] and schema["title"] == "conflictkit language pack"


def test_a_config_naming_a_broken_pack_fails_before_any_work(pack_root, tmp_path, capsys):
    derived_pack(pack_root, "qq", changes={"numbers.decimal_mark": ";"})
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({**FAST_CONFIG, "language": "qq"}))
    code, out, err = run(capsys, "compare", str(REFERENCE), str(INPUT), "--config", str(config), "-q")
    assert code == 2 and not out
    assert err.count("\n") == 1 and "language: language pack 'qq'" in err and "decimal_mark" in err


def test_auto_compares_in_the_language_of_the_documents(tmp_path, capsys):
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({**FAST_CONFIG, "language": "auto"}))
    out_dir = tmp_path / "run"
    code, _, err = run(capsys, "compare", str(REFERENCE), str(INPUT), "--config", str(config), "--out", str(out_dir), "-q")
    assert code == 0, err
    params = json.loads((out_dir / "params.json").read_text())
    assert params["language"] == "en" and params["config"]["language"] == "auto"
    assert params["backends"]["judge"]["language"] == "en"
