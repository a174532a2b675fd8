"""Every place the CLI writes: an OS error is exit 2 and one line naming the path and the cause."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
import yaml

from tests.cli.test_compare import assert_user_error, run
from tests.conftest import FAST_CONFIG, INPUT, REFERENCE


@pytest.fixture
def fast(tmp_path):
    path = tmp_path / "fast.yaml"
    path.write_text(yaml.safe_dump(FAST_CONFIG))
    return path


def test_compare_out_name_too_long(fast, tmp_path):
    out = tmp_path / ("o" * 300)
    assert_user_error(run("compare", REFERENCE, INPUT, "--config", fast, "--out", out), "File name too long")


def test_calibrate_out_name_too_long(fast, tmp_path):
    toy = tmp_path / "toy.jsonl"
    toy.write_text("".join(json.dumps({"id": f"p{i}", "reference": "Pay within 30 days.", "input": text, "label": label,
                                       "category": "number"}) + "\n"
                           for i, (text, label) in enumerate([("Pay within 60 days.", "conflict"), ("Pay within 30 days.", "consistent")] * 4)))
    proc = run("calibrate", "--config", fast, "--dataset", toy, "--out", tmp_path / ("c" * 300 + ".yaml"))
    assert_user_error(proc, "File name too long")


@pytest.fixture
def small_disk(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "disk"
    mount.mkdir()
    # 1 MB: room for the samples' report set (0.5 MB) but not for it and a larger one beside it
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True, check=False).returncode:
        pytest.skip("cannot mount a tmpfs here")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_compare_full_disk_keeps_the_old_report(fast, small_disk):
    out = small_disk / "out"
    small = run("compare", REFERENCE, REFERENCE, "--config", fast, "--out", out)  # no findings: a small set
    assert small.returncode == 0, small.stderr
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    big_input = small_disk.parent / "big.md"
    big_input.write_text(INPUT.read_text() * 3)
    proc = run("compare", REFERENCE, big_input, "--config", fast, "--out", out, "--format", "html")
    assert_user_error(proc, "No space left on device")
    assert str(out) in proc.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in small_disk.iterdir()) == ["out"]


def test_compare_immutable_out(fast, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("chattr +i needs root")
    out = tmp_path / "out"
    out.mkdir()
    if subprocess.run(["chattr", "+i", str(out)], capture_output=True, check=False).returncode:
        pytest.skip("this file system does not support chattr +i")
    try:
        proc = run("compare", REFERENCE, INPUT, "--config", fast, "--out", out)
    finally:
        subprocess.run(["chattr", "-i", str(out)], check=False)
    assert_user_error(proc, "Operation not permitted")


def test_bench_read_only_out(fast, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mounting a read-only tmpfs needs root")
    mount = tmp_path / "ro"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,ro", "tmpfs", str(mount)], capture_output=True, check=False).returncode:
        pytest.skip("cannot mount a tmpfs here")
    toy = tmp_path / "toy.jsonl"
    toy.write_text(json.dumps({"id": "p1", "reference": "Pay within 30 days.", "input": "Pay within 60 days.",
                               "label": "conflict", "category": "number"}) + "\n")
    try:
        proc = run("bench", "--config", fast, "--dataset", toy, "--out", mount / "bench", "--no-plots")
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
    assert_user_error(proc, "Read-only file system")
