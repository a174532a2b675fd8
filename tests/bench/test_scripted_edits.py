"""The scripted-edit sets (benchmarks/make_edits.py): the committed files are what the script writes,
and every manifest loads in the bench harness (each quote found once where it must be)."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path

import pytest
import yaml

from conflictkit.bench.datasets import load_dataset

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "make_edits.py"


def _make_edits():
    spec = importlib.util.spec_from_file_location("make_edits", _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_edits", module)  # dataclasses look their module up while it loads
    spec.loader.exec_module(sys.modules["make_edits"])
    return sys.modules["make_edits"]


_SETS = _make_edits().SETS


@pytest.mark.parametrize("index", range(len(_SETS)), ids=[s.out.parent.name for s in _SETS])
def test_the_committed_edit_files_are_what_the_script_writes(index, tmp_path):
    module = _make_edits()
    edit_set = module.SETS[index]
    out = tmp_path / edit_set.out.relative_to(module.ROOT)
    module.build(dataclasses.replace(edit_set, out=out))
    written = sorted(p.name for p in out.iterdir())
    assert written == sorted(p.name for p in edit_set.out.iterdir())
    for name in written:
        if name != "edits.yaml":
            assert (out / name).read_bytes() == (edit_set.out / name).read_bytes(), name
    # the manifest names the reference relative to where it was written: compare all but that
    fresh, committed = (yaml.safe_load((folder / "edits.yaml").read_text(encoding="utf-8")) for folder in (out, edit_set.out))
    for pairs in (fresh["pairs"], committed["pairs"]):
        for pair in pairs:
            pair.pop("reference")
    assert fresh == committed


@pytest.mark.parametrize("index", range(len(_SETS)), ids=[s.out.parent.name for s in _SETS])
def test_every_manifest_loads_with_each_quote_where_it_belongs(index):
    edit_set = _SETS[index]
    dataset = load_dataset(edit_set.out / "edits.yaml")
    assert not dataset.skipped
    assert len(dataset.pairs) == len(edit_set.edits) + 1  # one per edit and one with all of them
    expected = sum(1 for e in edit_set.edits if e.kind)
    all_edits = next(p for p in dataset.pairs if p.id == "all-edits")
    assert len(all_edits.expected) == expected
