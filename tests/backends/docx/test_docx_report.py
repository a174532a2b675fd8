"""report.docx and --revisions through the CLI as a user runs them."""

from __future__ import annotations

import shutil
import subprocess

import pytest

docx = pytest.importorskip("docx")

from conflictkit_docx.comments import comment_lines  # noqa: E402
from conflictkit_docx.testing import DocxBuilder, delete, ins, markdown_to_docx  # noqa: E402

from tests.cli.test_compare import assert_user_error, run  # noqa: E402
from tests.conftest import INPUT, REFERENCE  # noqa: E402


@pytest.fixture
def sample_docx(tmp_path):
    paths = []
    for source in (REFERENCE, INPUT):
        path = tmp_path / (source.stem + ".docx")
        path.write_bytes(markdown_to_docx(source.read_text(encoding="utf-8")))
        paths.append(path)
    return paths


def _comments(path):
    document = docx.Document(str(path))
    return document, list(document.comments)


def test_report_docx_keeps_a_docx_input_and_comments_every_finding(tmp_path, sample_docx, fast):
    out = tmp_path / "out"
    proc = run("compare", *sample_docx, "--config", fast, "--format", "docx", "--out", out)
    assert proc.returncode == 0, proc.stderr
    import json

    report = json.loads((out / "report.json").read_text())
    document, comments = _comments(out / "report.docx")
    assert len(comments) == len(report["findings"]) > 0
    first = report["findings"][0]
    assert comments[0].text.splitlines()[0] == comment_lines(first)[0]
    assert "Reference" in comments[0].text
    # the input's own formatting: its heading styles and tables are still there
    assert any(p.style.name.lower().startswith("heading") for p in document.paragraphs)
    assert len(document.tables) >= 1
    # each deviation's comment sits on the runs of its input span
    body = document.element.body
    anchored = "".join(t.text or "" for t in body.iter("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}t"))
    assert first["input"]["text"].replace("**", "")[:40] in anchored


def test_report_docx_from_markdown_and_pdf_inputs_is_typeset(tmp_path, fast):
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, INPUT, "--config", fast, "--format", "docx", "--out", out)
    assert proc.returncode == 0, proc.stderr
    _, comments = _comments(out / "report.docx")
    kinds = {c.text.split()[1].rstrip(":") for c in comments}
    assert kinds == {"deviation", "missing", "added"}


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_report_docx_converts_headless_in_libreoffice(tmp_path, sample_docx, fast):
    out = tmp_path / "out"
    assert run("compare", *sample_docx, "--config", fast, "--format", "docx", "--out", out).returncode == 0
    proc = subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path), str(out / "report.docx")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and (tmp_path / "report.pdf").stat().st_size > 0, proc.stderr


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


def test_comments_anchor_on_runs_inside_tracked_insertions_and_hyperlinks(tmp_path, fast_config):
    from conflictkit_docx.comments import report_docx

    from conflictkit.engine import Engine

    link = ('<w:hyperlink w:anchor="x"><w:r><w:t xml:space="preserve">Order Form</w:t></w:r></w:hyperlink>')
    reference = DocxBuilder().paragraph("Customer shall pay each invoice within thirty (30) days of the Order Form.")
    draft = DocxBuilder().paragraph(["Customer shall pay each invoice within ", delete("thirty (30)"), ins("sixty (60)"),
                                     " days of the ", link, "."])
    (tmp_path / "ref.docx").write_bytes(reference.build())
    (tmp_path / "draft.docx").write_bytes(draft.build())
    result = Engine(fast_config).compare(str(tmp_path / "ref.docx"), str(tmp_path / "draft.docx"))
    (finding,) = result.report["findings"]
    out = tmp_path / "report.docx"
    out.write_bytes(report_docx(result, result.input.document.data))
    document = docx.Document(str(out))
    (comment,) = document.comments
    assert comment.text.startswith(f"{finding['id']} deviation")
    xml = document.element.body.xml
    assert xml.index("commentRangeStart") < xml.index("sixty (60)") < xml.index("commentRangeEnd")
    assert "thirty (30)" in xml  # the tracked deletion is still in the file, as the input had it


def test_control_characters_in_a_typeset_input_do_not_break_report_docx(tmp_path, fast_config):
    from conflictkit.engine import Engine
    from conflictkit_docx.comments import report_docx

    (tmp_path / "ref.md").write_text("1. Customer shall pay within thirty (30) days.\n")
    (tmp_path / "inp.md").write_text("1. Customer shall pay within sixty (60) days.\x07\x1b[2J\n")
    result = Engine(fast_config).compare(str(tmp_path / "ref.md"), str(tmp_path / "inp.md"))
    out = tmp_path / "report.docx"
    out.write_bytes(report_docx(result))
    (comment,) = docx.Document(str(out)).comments
    assert "deviation" in comment.text
