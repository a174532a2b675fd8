"""--revisions, tracked-change notes and bad Word inputs through the CLI as a user runs them (report.docx: test_docx_redline)."""

from __future__ import annotations

import pytest

docx = pytest.importorskip("docx")

from conflictkit_docx.testing import DocxBuilder, delete, ins  # noqa: E402

from tests.cli.test_compare import assert_user_error, run  # noqa: E402
from tests.conftest import INPUT, REFERENCE  # noqa: E402


def test_revisions_compares_the_original_with_the_revised_text(tmp_path, fast):
    b = DocxBuilder()
    b.paragraph("Fees", style="Heading1", num=(1, 0))
    b.paragraph(["Customer shall pay each invoice within ", delete("thirty (30)"), ins("sixty (60)"), " days of receipt."], num=(1, 1))
    b.paragraph("Customer shall keep the Services secure.", num=(1, 1))
    path = tmp_path / "redline.docx"
    path.write_bytes(b.build())
    out = tmp_path / "out"
    proc = run("compare", "--revisions", path, "--config", fast, "--format", "json", "--out", out)
    assert proc.returncode == 0, proc.stderr
    import json

    report = json.loads(proc.stdout)
    (finding,) = report["findings"]
    assert finding["kind"] == "deviation"
    assert "thirty (30)" in finding["reference"]["text"] and "sixty (60)" in finding["input"]["text"]
    assert report["reference"]["path"].endswith("(original)") and report["input"]["path"].endswith("(revised)")


def test_revisions_of_a_file_without_changes_says_so(tmp_path, fast):
    path = tmp_path / "clean.docx"
    path.write_bytes(DocxBuilder().paragraph("Customer shall pay within thirty (30) days.").build())
    proc = run("compare", "--revisions", path, "--config", fast, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert "has no tracked changes that change its text" in proc.stderr


def test_tracked_changes_are_said_on_stderr_when_accepted(tmp_path, fast):
    b = DocxBuilder().paragraph(["Customer shall pay within ", delete("thirty (30)"), ins("sixty (60)"), " days."])
    path = tmp_path / "draft.docx"
    path.write_bytes(b.build())
    proc = run("compare", REFERENCE, path, "--config", fast)
    assert proc.returncode == 0, proc.stderr
    assert "has tracked changes (1 insertion, 1 deletion, 0 moves): read with all changes accepted" in proc.stderr


def test_bad_usage_and_inputs_exit_2_with_one_line(tmp_path, fast):
    (tmp_path / "a.md").write_text("1. The Customer shall pay.\n")
    assert_user_error(run("compare", "--revisions", tmp_path / "a.md", "--config", fast), "--revisions needs a file with tracked changes")
    assert_user_error(run("compare", REFERENCE, "--revisions", tmp_path / "a.md"), "give no REFERENCE or INPUT")
    assert_user_error(run("compare", REFERENCE, INPUT, "--format", "docx"), "--format docx writes report.docx: give --out DIR")
    (tmp_path / "fake.docx").write_bytes(b"%PDF-1.4 not a word file")
    out = tmp_path / "out"
    assert_user_error(run("compare", REFERENCE, tmp_path / "fake.docx", "--config", fast, "--out", out), "is not a Word document")
    assert not out.exists()


def test_docx_without_its_plugin_names_the_install_command(tmp_path, fast):
    path = tmp_path / "contract.docx"
    path.write_bytes(DocxBuilder().paragraph("x").build())
    proc = run("compare", REFERENCE, path, "--config", fast, env={"CONFLICTKIT_LOAD_PLUGINS": ""})
    assert_user_error(proc, "pip install ./backends/conflictkit-docx")


