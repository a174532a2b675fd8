"""The writer: a report set replaced whole or not at all, OS errors as one clear UserError, umask modes."""

from __future__ import annotations

import errno
import re
import os
import subprocess
from pathlib import Path

import pytest

from conflictkit.errors import OutputError, UserError
from conflictkit.report import sets
from conflictkit.report.sets import MANIFEST, SUBFOLDER
from conflictkit.report.writer import REPORT_FILES, atomic_write, write_set

OLD = {"report.json": "old-report", "pairs.json": "old-pairs", "params.json": "old-params", "report.md": "old-md"}
NEW = {"report.json": "new-report " * 2000, "pairs.json": "new-pairs " * 4000, "params.json": "new-params", "report.md": "new-md"}


def owned(name: str) -> bool:
    return name in REPORT_FILES


def contents(directory: Path) -> dict[str, str]:
    """The set's files (its manifest left out)."""
    return {p.name: p.read_text() for p in sorted(directory.iterdir()) if p.name != MANIFEST}


def test_new_set_replaces_old_whole(tmp_path):
    out = tmp_path / "out"
    write_set(out, {**OLD, "report.html": "stale html from an earlier --format html"}, owned)
    write_set(out, NEW, owned)
    assert contents(out) == NEW  # the earlier run's report.html went with its set
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no staging left beside it


def test_modes_follow_the_umask(tmp_path):
    old_mask = os.umask(0o022)
    try:
        write_set(tmp_path / "out", OLD, owned)
        atomic_write(tmp_path / "single.yaml", "x")
    finally:
        os.umask(old_mask)
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o755
    assert {(p.stat().st_mode & 0o777) for p in (tmp_path / "out").iterdir()} == {0o644}
    assert (tmp_path / "single.yaml").stat().st_mode & 0o777 == 0o644


def test_folder_with_other_files_is_refused_untouched(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match=r"holds notes.txt \(not written by conflictkit\); conflictkit replaces only files it wrote"):
        write_set(out, NEW, owned)
    assert contents(out) == {"notes.txt": "mine"}


def test_empty_existing_folder_is_replaced_whole_keeping_its_mode(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o750)
    write_set(out, NEW, owned)
    assert contents(out) == NEW and out.stat().st_mode & 0o777 == 0o750


def test_failure_while_staging_leaves_the_old_set(tmp_path, monkeypatch):
    out = tmp_path / "out"
    write_set(out, OLD, owned)
    real = sets._write_new
    calls = []

    def full_disk_on_third(path, content):
        calls.append(path)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, content)

    monkeypatch.setattr(sets, "_write_new", full_disk_on_third)
    with pytest.raises(OutputError, match=r"cannot write .*out: No space left on device; free some space"):
        write_set(out, NEW, owned)
    assert contents(out) == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@pytest.mark.parametrize("crash_after", ["rename-old-away", "staged"])
def test_crash_mid_swap_is_repaired_by_the_next_run(tmp_path, monkeypatch, crash_after):
    """Without renameat2 the swap is two renames; a crash between them leaves no report folder."""
    out = tmp_path / "out"
    write_set(out, OLD, owned)
    monkeypatch.setattr(sets, "_exchange", lambda a, b: False)
    real_rename = os.rename

    def crash(src, dst):
        if crash_after == "rename-old-away" and Path(src) == out:
            real_rename(src, dst)
            raise KeyboardInterrupt  # the process dies before the second rename
        if crash_after == "staged" and Path(dst) == out:
            raise KeyboardInterrupt
        real_rename(src, dst)

    monkeypatch.setattr(sets.os, "rename", crash)
    with pytest.raises(KeyboardInterrupt):
        write_set(out, NEW, owned)
    monkeypatch.setattr(sets.os, "rename", real_rename)
    # the next run (here: a write of a third set) first puts a whole set back, then replaces it
    leftover_new = any("-new-" in p.name for p in tmp_path.iterdir())
    sets._recover(out, owned)
    assert contents(out) == (NEW if leftover_new else OLD)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_exchange_swaps_in_one_step(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("a")
    if not sets._exchange(a, b):
        pytest.skip("this file system has no renameat2 exchange")
    assert (b / "x").read_text() == "a" and not (a / "x").exists()


def test_name_over_255_bytes(tmp_path):
    with pytest.raises(OutputError, match="File name too long; use a shorter name"):
        write_set(tmp_path / ("r" * 300), NEW, owned)
    with pytest.raises(OutputError, match="File name too long"):
        atomic_write(tmp_path / ("c" * 300 + ".yaml"), "x")


def test_read_only_folder(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes through a read-only mode; the immutable and tmpfs tests cover root")
    parent = tmp_path / "ro"
    parent.mkdir()
    parent.chmod(0o555)
    try:
        with pytest.raises(OutputError, match="Permission denied"):
            write_set(parent / "out", NEW, owned)
    finally:
        parent.chmod(0o755)


def _mount_tmpfs(path: Path, *options: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    path.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(("size=64k", *options)), "tmpfs", str(path)],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip()}")


@pytest.fixture
def small_disk(tmp_path):
    mount = tmp_path / "disk"
    _mount_tmpfs(mount)
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_full_disk_keeps_the_old_set(small_disk):
    out = small_disk / "out"
    write_set(out, OLD, owned)
    huge = {**NEW, "pairs.json": "x" * 200_000}
    with pytest.raises(OutputError, match="No space left on device"):
        write_set(out, huge, owned)
    assert contents(out) == OLD
    assert sorted(p.name for p in small_disk.iterdir()) == ["out"]


def test_read_only_mount(tmp_path):
    mount = tmp_path / "ro"
    _mount_tmpfs(mount, "ro")
    try:
        with pytest.raises(OutputError, match="Read-only file system; the file system is read-only"):
            write_set(mount / "out", NEW, owned)
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_parallel_writers_leave_one_whole_set(tmp_path):
    """Two runs with the same --out: the survivor's files all come from one run, nothing beside them."""
    import threading

    out = tmp_path / "out"
    sets = [{name: f"run {n}: {name}" for name in OLD} for n in range(8)]
    errors = []

    def write(files):
        try:
            write_set(out, files, owned)
        except Exception as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(files,)) for files in sets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    final = contents(out)
    assert final in sets
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_the_current_directory_gets_a_subfolder_swapped_whole(tmp_path, monkeypatch, capsys):
    """Swapping the folder a shell sits in would leave that shell in a deleted folder; filling it file by
    file would leave a mix after a crash: the set goes into a subfolder, swapped like any --out."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("the user's")
    monkeypatch.chdir(out)
    written = write_set(".", OLD, owned)
    assert written[0].parent == Path(SUBFOLDER) and contents(out / SUBFOLDER) == OLD
    assert f"the files are in {SUBFOLDER}" in capsys.readouterr().err
    write_set(".", NEW, owned)
    assert contents(out / SUBFOLDER) == NEW
    assert sorted(p.name for p in out.iterdir()) == [SUBFOLDER, "mine.txt"]  # nothing of the user's touched


def test_in_place_failure_while_writing_leaves_the_old_set(tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    write_set(".", OLD, owned)
    real = sets._write_new
    calls = []

    def full_disk_on_second(path, content):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, content)

    monkeypatch.setattr(sets, "_write_new", full_disk_on_second)
    with pytest.raises(OutputError, match="No space left on device"):
        write_set(".", NEW, owned)
    assert contents(out / SUBFOLDER) == OLD and sorted(p.name for p in out.iterdir()) == [SUBFOLDER]


@pytest.mark.parametrize("name, make", [
    (".ck-notes", lambda p: p.write_text("my notes")),  # named like the tool's own hidden files
    ("report.docx", lambda p: (p.mkdir(), (p / "thesis.txt").write_text("mine"))),  # a folder named like a report file
    ("report.html", lambda p: p.symlink_to("/etc/hostname")),  # a link the user made
])
def test_a_users_entry_beside_a_set_is_never_deleted(tmp_path, name, make):
    out = tmp_path / "out"
    write_set(out, OLD, owned)
    make(out / name)
    with pytest.raises(UserError, match=rf"holds {re.escape(name)} \(not written by conflictkit\)"):
        write_set(out, NEW, owned)
    assert (out / name).exists() or (out / name).is_symlink()
    assert {p.name: p.read_text() for p in out.iterdir() if p.name in OLD} == OLD


def test_a_users_entry_in_a_folder_without_a_manifest_is_never_deleted(tmp_path):
    out = tmp_path / "out"
    (out / "report.json").mkdir(parents=True)
    (out / "report.json" / "thesis.txt").write_text("mine")
    with pytest.raises(UserError, match="not written by conflictkit"):
        write_set(out, NEW, owned)
    assert (out / "report.json" / "thesis.txt").read_text() == "mine"


def test_an_edited_report_file_is_not_replaced(tmp_path):
    out = tmp_path / "out"
    write_set(out, OLD, owned)
    (out / "report.md").write_text("old-md, with my review comments")
    with pytest.raises(UserError, match=r"report.md \(edited since conflictkit wrote it\)"):
        write_set(out, NEW, owned)
    assert (out / "report.md").read_text() == "old-md, with my review comments"


def test_a_set_from_before_manifests_is_replaced(tmp_path):
    """An earlier conflictkit wrote no manifest: plain files of the set, one a conflictkit JSON file."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.json").write_text('{"schema": "conflictkit.report/1"}')
    (out / "report.md").write_text("# old")
    write_set(out, NEW, owned)
    assert contents(out) == NEW


def test_files_named_like_a_set_without_conflictkit_content_are_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.md").write_text("my own report, nothing to do with conflictkit")
    with pytest.raises(UserError, match="no manifest"):
        write_set(out, NEW, owned)
    assert (out / "report.md").read_text().startswith("my own report")


def test_leftovers_beside_are_removed_only_when_they_are_ours(tmp_path):
    out = tmp_path / "out"
    write_set(out, OLD, owned)
    prefix = sets._sibling_prefix(out)
    ours = tmp_path / f"{prefix}new-00000000"  # a staging folder a killed run left, half written
    ours.mkdir()
    (ours / MANIFEST).write_text('{"schema": "conflictkit.set/1", "files": {"report.json": "0"}}')
    (ours / "report.json").write_text("half")
    empty = tmp_path / f"{prefix}new-11111111"  # killed right after mkdir
    empty.mkdir()
    theirs = tmp_path / f"{prefix}old-22222222"  # named like ours, holding a user's file
    theirs.mkdir()
    (theirs / "keep.txt").write_text("mine")
    write_set(out, NEW, owned)
    assert not ours.exists() and not empty.exists() and (theirs / "keep.txt").read_text() == "mine"


@pytest.mark.parametrize("in_cwd", [False, True], ids=["--out DIR", "--out ."])
def test_sigkill_at_any_moment_leaves_one_whole_set(tmp_path, in_cwd):
    """Real SIGKILLs of a process writing set after set, at 24 moments: a reader finds one whole set each time."""
    from conflictkit.testing.kills import kill_at, read_set

    out = tmp_path / "out"
    seen = []
    for i in range(24):
        found = kill_at(out, delay=0.01 * i, cwd=in_cwd)
        seen.append(found)
        assert not found.startswith("mixed"), f"kill {i}: {found}"
    assert len(set(seen) - {"absent"}) >= 2  # the kills landed at different moments, not all before the first set
    folder = out / SUBFOLDER if in_cwd else out
    write_set(folder, NEW, owned)  # the next run clears what the killed ones left beside
    assert contents(folder) == NEW and read_set(folder) == "mixed: " + str({n: None for n in ("report.json", "pairs.json", "params.json", "report.md")})
    assert sorted(p.name for p in folder.parent.iterdir()) == ([SUBFOLDER] if in_cwd else ["out"])
