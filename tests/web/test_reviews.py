"""The review store when the disk says no: one UserError naming the file, never a 500 with a traceback."""

from __future__ import annotations

import os
import subprocess

import pytest

from conflictkit.errors import UserError
from conflictkit.testing.reports import make_report
from conflictkit.web.reviews import ReviewStore


@pytest.fixture
def small_disk(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "disk"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", str(mount)], capture_output=True, check=False).returncode:
        pytest.skip("cannot mount a tmpfs here")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_is_a_user_error_naming_the_database(small_disk):
    store = ReviewStore(small_disk / "reviews.sqlite")
    ref, inp = "1. A shall pay.\n", "1. A may pay.\n"
    report = make_report(ref, inp, [("deviation", "A shall pay.", "A may pay.", [])])
    with pytest.raises(UserError, match=r"cannot save to the review database .*reviews.sqlite: database or disk is full"):
        for _ in range(100):
            store.add("r.md", "i.md", ref * 2000, inp * 2000, report, "")
