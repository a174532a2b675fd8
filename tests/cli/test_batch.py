"""``conflictkit batch`` as a user runs it: exit codes 0 / 2 / 3 / 4, the summary, a resumed run."""

import csv
import json

import pytest

from tests.cli.test_compare import assert_user_error, run
from tests.conftest import INPUT, REFERENCE


@pytest.fixture
def inputs(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "draft.md").write_text(INPUT.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "same.md").write_text(REFERENCE.read_text(encoding="utf-8"), encoding="utf-8")
    return folder


def test_all_pairs_done_exit_0_and_fail_on_exit_3(inputs, fast, tmp_path):
    out = tmp_path / "out"
    proc = run("batch", "--reference", REFERENCE, inputs, "--out", out, "--config", fast, "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    assert "2 pairs: 2 done, 0 failed" in proc.stderr
    rows = list(csv.DictReader((out / "summary.csv").open()))
    assert [r["status"] for r in rows] == ["ok", "ok"] and int(rows[0]["deviation"]) > 0
    again = run("batch", "-r", REFERENCE, inputs, "-o", out, "-c", fast, "-w", "1", "--fail-on", "deviation")
    assert again.returncode == 3, again.stderr
    assert "(2 unchanged, kept)" in again.stderr
    gated = run("batch", "-r", REFERENCE, inputs, "-o", out, "-c", fast, "-w", "1", "--fail-on", "high")
    assert gated.returncode == 3, gated.stderr  # the draft has high-severity findings
    calm = run("batch", "-r", REFERENCE, inputs / "same.md", "-o", tmp_path / "calm", "-c", fast, "-w", "1", "--fail-on", "low")
    assert calm.returncode == 0, calm.stderr


def test_a_failed_pair_is_recorded_and_the_batch_exits_4(inputs, fast, tmp_path):
    (inputs / "scan.md").write_bytes(b"%PDF-1.4\x00\x00binary")
    out = tmp_path / "out"
    proc = run("batch", "-r", REFERENCE, inputs, "-o", out, "-c", fast, "-w", "1", "--fail-on", "any")
    assert proc.returncode == 4, proc.stderr
    assert "1 failed" in proc.stderr and "scan.md" in proc.stderr and "Traceback" not in proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    failed = [p for p in summary["pairs"] if p["status"] == "failed"]
    assert len(failed) == 1 and failed[0]["error"]


def test_manifest(inputs, fast, tmp_path):
    manifest = tmp_path / "pairs.csv"
    manifest.write_text(f"reference,input\n{REFERENCE},in/draft.md\n")
    proc = run("batch", "--manifest", manifest, "-o", tmp_path / "out", "-c", fast, "-w", "1")
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["totals"]["pairs"] == 1


@pytest.mark.parametrize("args, message", [
    (["-o", "out"], "nothing to compare"),
    (["--manifest", "m.csv", "-r", "ref.md", "-o", "out"], "either --manifest or --reference"),
    (["--manifest", "m.csv", "-o", "out"], "manifest m.csv does not exist"),
    (["-r", "ref.md", "*.nothing", "-o", "out"], "matches no document"),
    (["-r", "ref.md", "a.md", "-o", "out", "--engine", "spark"], "unknown batch engine 'spark'"),
    (["-r", "ref.md", "a.md", "-o", "out", "--fail-on", "typos"], "unknown kind"),
])
def test_usage_errors_are_one_line_exit_2(tmp_path, args, message):
    assert_user_error(run("batch", *args, cwd=tmp_path), message)


def test_help_lists_batch_and_its_exit_codes():
    assert "batch" in run("--help").stdout
    text = run("batch", "--help").stdout
    assert "--manifest" in text and "4 some pairs failed" in text
