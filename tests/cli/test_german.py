"""German documents through the CLI as a user runs it: ``language: auto`` picks the German pack for
the German contract, the edits that change its effect are found and a paraphrase is not
(the contract and its scripted edits are benchmarks/data/documents/de)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conflictkit.cli import main
from tests.conftest import FAST_CONFIG

DOCS = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "documents" / "de"
CONTRACT = DOCS / "saas-vertrag.md"


@pytest.fixture
def auto_config(tmp_path):
    config = tmp_path / "auto.yaml"
    config.write_text(yaml.safe_dump({**FAST_CONFIG, "language": "auto"}))
    return config


def compare(capsys, tmp_path, config, edited: str) -> tuple[dict, dict]:
    out = tmp_path / edited
    with pytest.raises(SystemExit) as done:
        main(["compare", str(CONTRACT), str(DOCS / "edits" / f"{edited}.md"), "--config", str(config), "--out", str(out), "-q"])
    _, err = capsys.readouterr()
    assert done.value.code == 0, err
    return json.loads((out / "report.json").read_text()), json.loads((out / "params.json").read_text())


def test_auto_reads_the_german_contract_with_the_german_pack(capsys, tmp_path, auto_config):
    _, params = compare(capsys, tmp_path, auto_config, "paraphrase")
    assert params["language"] == "de" and params["backends"]["judge"]["language"] == "de"


@pytest.mark.parametrize("edited, quote", [
    ("drop-not", "Der Kunde darf die Zugangsdaten an Dritte weitergeben"),   # "darf nicht" -> "darf"
    ("change-number", "innerhalb von sechzig (60) Tagen"),                   # 30 -> 60 Tage
    ("governing-law", "englischem Recht"),                                    # deutsches -> englisches Recht
    ("venue", "Hamburg"),                                                     # Gerichtsstand München -> Hamburg
])
def test_an_edit_that_changes_the_effect_is_found(capsys, tmp_path, auto_config, edited, quote):
    report, _ = compare(capsys, tmp_path, auto_config, edited)
    quoted = [f["input"]["text"] for f in report["findings"] if f.get("input")]
    assert any(quote in text for text in quoted), quoted


@pytest.mark.parametrize("edited", ["paraphrase", "format-reference", "format-amount", "format-date", "swiss-spelling",
                                    "change-log"])
def test_a_same_effect_edit_is_not_flagged(capsys, tmp_path, auto_config, edited):
    report, _ = compare(capsys, tmp_path, auto_config, edited)
    assert report["findings"] == []
