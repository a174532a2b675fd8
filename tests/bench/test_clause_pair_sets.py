"""The project's clause-pair splits (benchmarks/data/clause-pairs and its language folders such as de/):
every file loads in the bench harness, is registered with the folder's validator, and passes it (known
categories and labels, unique ids, no clause text shared between splits, the minimum count per category)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conflictkit.bench.datasets import load_dataset

_FOLDER = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "clause-pairs"
_FOLDERS = [_FOLDER, *sorted(p for p in _FOLDER.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))]
_SPLIT_FILES = sorted(p for folder in _FOLDERS for p in folder.glob("*.jsonl"))


def _validator():
    spec = importlib.util.spec_from_file_location("clause_pairs_validate", _FOLDER / "validate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _name(path: Path) -> str:
    return path.relative_to(_FOLDER).with_suffix("").as_posix()


@pytest.mark.parametrize("split", _SPLIT_FILES, ids=[_name(p) for p in _SPLIT_FILES])
def test_every_split_loads_in_the_bench_harness_with_the_folders_categories(split):
    validate = _validator()
    dataset = load_dataset(split)
    assert dataset.kind == "clause-pairs" and dataset.name.startswith(split.stem)
    for category, label in dataset.categories().items():
        expected = "conflict" if category in validate.CONFLICT else "consistent"
        assert category in validate.CONFLICT + validate.CONSISTENT and label == expected, (category, label)


@pytest.mark.parametrize("folder", _FOLDERS, ids=[p.name for p in _FOLDERS])
def test_every_split_file_is_one_the_validator_checks(folder):
    validate = _validator()
    splits = validate.LANGUAGES[folder.name][0] if folder != _FOLDER else validate.SPLITS
    assert {p.stem for p in folder.glob("*.jsonl")} == set(splits)


def test_every_language_folder_is_known_to_the_validator():
    assert {p.name for p in _FOLDERS[1:]} == set(_validator().LANGUAGES)


@pytest.mark.parametrize("folder", _FOLDERS, ids=[p.name for p in _FOLDERS])
def test_the_splits_pass_the_validator(folder, capsys):
    assert _validator().main(folder) == 0, capsys.readouterr().err


def test_the_validator_refuses_a_language_split_below_its_minimum(tmp_path, capsys):
    folder = tmp_path / "de"
    folder.mkdir()
    for split in ("tune", "report"):
        source = (_FOLDER / "de" / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
        kept = [line for line in source if '"category": "duty"' not in line] if split == "report" else source
        (folder / f"{split}.jsonl").write_text("\n".join(kept) + "\n", encoding="utf-8")
    assert _validator().main(folder) == 1
    assert "report: duty has 0 pairs, minimum 12" in capsys.readouterr().err
