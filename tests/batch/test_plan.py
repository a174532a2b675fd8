"""Which pairs a batch runs: inputs from files, globs and directories, or a CSV manifest."""

import pytest

from conflictkit.batch.plan import folder_name, pairs_from_inputs, pairs_from_manifest
from conflictkit.errors import UserError


def test_directories_globs_and_files_expand_once_each_in_order(tmp_path):
    (tmp_path / "a.md").write_text("A")
    (tmp_path / "b.txt").write_text("B")
    (tmp_path / "skip.png").write_bytes(b"\x89PNG")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.md").write_text("C")
    ref = tmp_path / "ref.md"
    ref.write_text("R")
    pairs = pairs_from_inputs(str(ref), [str(tmp_path), str(tmp_path / "*.md"), str(tmp_path / "a.md")])
    inputs = [p.input for p in pairs]
    assert inputs == [str(tmp_path / "a.md"), str(tmp_path / "b.txt"), str(tmp_path / "sub" / "c.md")]
    assert all(p.reference == str(ref) for p in pairs)  # the reference is never compared with itself
    assert len({p.folder for p in pairs}) == 3


def test_a_named_missing_file_is_kept_as_a_pair_but_an_empty_glob_is_an_error(tmp_path):
    pairs = pairs_from_inputs("ref.md", [str(tmp_path / "missing.md")])
    assert [p.input for p in pairs] == [str(tmp_path / "missing.md")]
    with pytest.raises(UserError, match="matches no document"):
        pairs_from_inputs("ref.md", [str(tmp_path / "*.docx")])
    with pytest.raises(UserError, match="no inputs"):
        pairs_from_inputs("ref.md", [])


def test_folder_names_are_readable_stable_and_distinct():
    assert folder_name("t.md", "in/Vendor MSA (v2).md") == folder_name("t.md", "in/Vendor MSA (v2).md")
    assert folder_name("t.md", "in/Vendor MSA (v2).md").startswith("Vendor-MSA-v2-")
    assert folder_name("t.md", "a/x.md") != folder_name("t.md", "b/x.md")
    assert folder_name("t1.md", "x.md") != folder_name("t2.md", "x.md")


def test_manifest_paths_are_relative_to_the_manifest(tmp_path):
    manifest = tmp_path / "pairs.csv"
    manifest.write_text("\ufeffReference,Input\nref.md,a.md\n\nref.md, sub/b.md \nref.md,a.md\n", encoding="utf-8")
    pairs = pairs_from_manifest(str(manifest))
    assert [(p.reference, p.input) for p in pairs] == [
        (str(tmp_path / "ref.md"), str(tmp_path / "a.md")), (str(tmp_path / "ref.md"), str(tmp_path / "sub" / "b.md"))]


@pytest.mark.parametrize("content, message", [
    ("", "is empty"),
    ("left,right\na,b\n", "'reference' and 'input' columns"),
    ("reference,input\n", "no pairs"),
    ("reference,input\na.md,\n", "line 2: needs both"),
])
def test_bad_manifests_say_what_is_wrong(tmp_path, content, message):
    manifest = tmp_path / "pairs.csv"
    manifest.write_text(content)
    with pytest.raises(UserError, match=message):
        pairs_from_manifest(str(manifest))


def test_missing_manifest(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        pairs_from_manifest(str(tmp_path / "nope.csv"))


def test_devices_and_fifos_are_refused_before_the_batch_starts(tmp_path):
    import os

    ref = tmp_path / "ref.md"
    ref.write_text("R")
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)  # a FIFO no one writes to: opening it would block the batch for ever
    with pytest.raises(UserError, match=r"pipe.md is a FIFO, not a regular file; give document files"):
        pairs_from_inputs(str(ref), [str(fifo)])
    with pytest.raises(UserError, match=r"/dev/zero is a device, not a regular file"):
        pairs_from_inputs(str(ref), ["/dev/zero"])
    manifest = tmp_path / "pairs.csv"
    manifest.write_text(f"reference,input\nref.md,{fifo.name}\n")
    with pytest.raises(UserError, match=r"is a FIFO"):
        pairs_from_manifest(str(manifest))
    with pytest.raises(UserError, match=r"/dev/zero is a device"):
        pairs_from_inputs("/dev/zero", [str(ref)])  # the reference too
