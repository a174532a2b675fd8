"""Where `conflictkit explain` looks for a run's documents (conflictkit.cli.explain.candidates)."""

from __future__ import annotations

import os

from conflictkit.cli.explain import candidates
from conflictkit.report.sets import SUBFOLDER


def test_a_set_written_below_its_out_folder_finds_its_documents_by_their_place_from_the_run(tmp_path, monkeypatch):
    """`--out .` puts the set in ./conflictkit-report, but params.json's from_run was computed from the
    --out folder: the documents are found from the run's parent, with nothing else to go by."""
    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    (work / "docs").mkdir(parents=True)
    elsewhere.mkdir()
    document = work / "docs" / "draft.md"
    document.write_text("text")
    run = work / SUBFOLDER
    run.mkdir()
    saved = {"from_run": os.path.relpath(document, work)}  # no absolute path (moved machines), run from elsewhere
    monkeypatch.chdir(elsewhere)
    assert document.resolve() in candidates(run, "gone/draft.md", saved)


def test_a_set_in_its_own_folder_looks_from_that_folder_first(tmp_path):
    run = tmp_path / "out"
    run.mkdir()
    found = candidates(run, "draft.md", {"from_run": "../draft.md", "absolute": "/elsewhere/draft.md"})
    assert found[0] == (tmp_path / "draft.md").resolve()
