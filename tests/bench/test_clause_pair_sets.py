"""The project's clause-pair splits (benchmarks/data/clause-pairs): every file loads in the bench harness,
is registered with the folder's validator, and passes it (known categories and labels, unique ids, no clause
text shared between splits, the minimum count per category)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conflictkit.bench.datasets import load_dataset

_FOLDER = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "clause-pairs"
_SPLIT_FILES = sorted(_FOLDER.glob("*.jsonl"))


def _validator():
    spec = importlib.util.spec_from_file_location("clause_pairs_validate", _FOLDER / "validate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("split", _SPLIT_FILES, ids=[p.stem for p in _SPLIT_FILES])
def test_every_split_loads_in_the_bench_harness_with_the_folders_categories(split):
    validate = _validator()
    dataset = load_dataset(split)
    assert dataset.kind == "clause-pairs" and dataset.name == split.stem
    for category, label in dataset.categories().items():
        expected = "conflict" if category in validate.CONFLICT else "consistent"
        assert category in validate.CONFLICT + validate.CONSISTENT and label == expected, (category, label)


def test_every_split_file_is_one_the_validator_checks():
    assert {p.stem for p in _SPLIT_FILES} == set(_validator().SPLITS)


def test_the_splits_pass_the_validator(capsys):
    assert _validator().main(_FOLDER) == 0, capsys.readouterr().err
