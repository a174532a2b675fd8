"""report.docx: the input as a Word redline of the reference, provably: accepting every change gives
the input, rejecting every change the reference; one comment per finding; LibreOffice opens it."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

docx = pytest.importorskip("docx")

from conflictkit_docx.redline import comment_lines, index_lines, report_docx  # noqa: E402
from conflictkit_docx.testing import DocxBuilder, document_tokens, rendered_to_docx, round_trip  # noqa: E402
from conflictkit_docx.tracked import Replacement, tracked_changes_docx  # noqa: E402

from conflictkit.engine import Engine  # noqa: E402
from conflictkit.stages import Rendering  # noqa: E402
from tests.cli.test_compare import assert_user_error, run  # noqa: E402
from tests.conftest import CORPUS, INPUT, REFERENCE, SAMPLES  # noqa: E402

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
DATE = "2026-12-02T00:00:00Z"
CP = CORPUS / "commonpaper"
CP_PAIRS = [("csa/CSA_v1.0.md", "csa/CSA_v1.1.md"), ("csa/CSA_v1.1.md", "csa/CSA_v2.0.md"), ("csa/CSA_v2.0.md", "csa/CSA_v2.1.md"),
            ("dpa/DPA_v1.0.md", "dpa/DPA_v1.1.md"), ("psa/PSA_v1.0.md", "psa/PSA_v1.1.md"),
            ("mnda/Mutual-NDA_v0.1.md", "mnda/Mutual-NDA_v1.0.md")]


@pytest.fixture(scope="module")
def opened_in_libreoffice(tmp_path_factory):
    """Every report.docx a test here writes, converted to PDF by LibreOffice headless at the end, in one run."""
    written: list[Path] = []
    yield written
    soffice = shutil.which("soffice")
    if soffice is None or not written:
        return  # scripts/test.sh installs LibreOffice when it runs as root; without it this check is skipped
    out = tmp_path_factory.mktemp("pdf")
    profile = tmp_path_factory.mktemp("lo-profile")
    proc = subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf",
                           "--outdir", str(out), *map(str, written)], capture_output=True, text=True, timeout=600)
    missing = [p.name for p in written if not (out / (p.stem + ".pdf")).exists() or (out / (p.stem + ".pdf")).stat().st_size == 0]
    assert proc.returncode == 0 and not missing, (missing, proc.stderr[-2000:])


def write_report(tmp_path: Path, result, opened: list[Path], name: str, changes: str = "all") -> bytes:
    data = report_docx(Rendering.of_result(result, changes=changes), date=DATE)
    path = tmp_path / f"{name}.docx"
    path.write_bytes(data)
    docx.Document(str(path))  # python-docx reads it back
    opened.append(path)
    return data


def assert_round_trip(result, data: bytes) -> None:
    """Accept all: the input's words; reject all: the reference's (after the engine's normalization)."""
    accepted, rejected = round_trip(data)
    for side, got in (("input", accepted), ("reference", rejected)):
        document = getattr(result, side).document
        fmt = document.source.format if document.source else "markdown"
        expected = document_tokens(document.original, fmt, document.source.blocks if document.source else None)
        assert got == expected, (side, _first_difference(expected, got))


def _first_difference(a: list[str], b: list[str]) -> tuple:
    k = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return k, a[max(0, k - 5):k + 5], b[max(0, k - 5):k + 5]


def xml_of(data: bytes, part: str = "word/document.xml") -> str:
    return zipfile.ZipFile(io.BytesIO(data)).read(part).decode("utf-8")


def as_docx(tmp_path: Path, source: Path) -> Path:
    path = tmp_path / (source.stem + ".docx")
    path.write_bytes(rendered_to_docx(source.read_text(encoding="utf-8")))
    return path


@pytest.mark.parametrize("kind", ["markdown", "docx", "markdown-to-docx", "docx-to-markdown", "text"])
def test_accepting_gives_the_input_and_rejecting_the_reference_on_the_samples(tmp_path, fast_config, opened_in_libreoffice, kind):
    reference, input = {
        "markdown": (REFERENCE, INPUT),
        "docx": (as_docx(tmp_path, REFERENCE), as_docx(tmp_path, INPUT)),
        "markdown-to-docx": (REFERENCE, as_docx(tmp_path, INPUT)),
        "docx-to-markdown": (as_docx(tmp_path, REFERENCE), INPUT),
        "text": (SAMPLES / "nda-reference.txt", SAMPLES / "nda-input.txt"),
    }[kind]
    result = Engine(fast_config).compare(str(reference), str(input))
    data = write_report(tmp_path, result, opened_in_libreoffice, f"samples-{kind}")
    assert_round_trip(result, data)
    xml = xml_of(data)
    assert 'w:author="conflictkit"' in xml and f'w:date="{DATE}"' in xml
    assert xml.count("<w:ins ") >= 1 and xml.count("<w:del ") >= 1
    document = docx.Document(io.BytesIO(data))
    assert len(list(document.comments)) == len(result.report["findings"]) + 1  # and the index at the top
    text = "\n".join(p.text for p in document.paragraphs)
    assert "**" not in text and "<span" not in text and "&amp;" not in text


def test_a_markdown_input_becomes_real_headings_bold_lists_and_tables(tmp_path, fast_config, opened_in_libreoffice):
    result = Engine(fast_config).compare(str(REFERENCE), str(INPUT))
    data = write_report(tmp_path, result, opened_in_libreoffice, "typeset")
    document = docx.Document(io.BytesIO(data))
    styles = {p.style.name for p in document.paragraphs}
    assert {"Heading 1", "Heading 2"} <= styles
    assert len(document.tables) >= 1 and document.tables[0].rows[0].cells[0].text == "Field"
    bold = [r.text for p in document.paragraphs for r in p.runs if r.bold]
    assert any("Grant of access" in b for b in bold)  # **Grant of access.** is bold, not asterisks
    assert all("**" not in p.text and not p.text.startswith("#") for p in document.paragraphs)


def test_a_docx_input_keeps_its_styles_numbering_tables_headers_and_footers(tmp_path, fast_config, opened_in_libreoffice):
    builder = DocxBuilder()
    builder.headers.append("Larkspur - Confidential")
    builder.footers.append("Page footer text")
    builder.paragraph("Fees", style="Heading1", num=(1, 0))
    builder.paragraph("Customer shall pay each invoice within thirty (30) days of receipt.", num=(1, 1))
    builder.paragraph("Late amounts bear interest at one percent (1%) per month.", num=(1, 1))
    builder.paragraph("Customer may dispute an invoice in good faith before its due date.", num=(1, 1))
    builder.table([["Plan", "Fee"], ["Basic", "$10"], ["Pro", "$20"]])
    reference = builder.build()
    draft = DocxBuilder()
    draft.headers.append("Larkspur - Confidential")
    draft.footers.append("Page footer text")
    draft.paragraph("Fees", style="Heading1", num=(1, 0))
    draft.paragraph("Customer shall pay each invoice within sixty (60) days of receipt.", num=(1, 1))
    draft.paragraph("Customer may dispute an invoice in good faith before its due date.", num=(1, 1))
    draft.paragraph("Provider may suspend the Services for unpaid invoices.", num=(1, 1))
    draft.table([["Plan", "Fee"], ["Basic", "$12"], ["Enterprise", "$50"], ["Pro", "$20"]])
    (tmp_path / "ref.docx").write_bytes(reference)
    (tmp_path / "draft.docx").write_bytes(draft.build())
    result = Engine(fast_config).compare(str(tmp_path / "ref.docx"), str(tmp_path / "draft.docx"))
    data = write_report(tmp_path, result, opened_in_libreoffice, "numbered")
    assert_round_trip(result, data)
    names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    assert {"word/numbering.xml", "word/header0.xml", "word/footer0.xml", "word/styles.xml", "word/comments.xml"} <= names
    xml = xml_of(data)
    assert "<w:numPr>" in xml and "<w:tbl>" in xml and 'w:val="Heading1"' in xml
    # the deleted clause is put back numbered by Word (1.2 again when rejected), the added row marked inserted
    from conflictkit_docx.loader import read_docx

    rejected, _ = read_docx(data, "x", "original")
    accepted, _ = read_docx(data, "x", "accepted")
    assert "1.2 Late amounts bear interest" in rejected.text and "1.3 Customer may dispute" in rejected.text
    assert "1.2 Customer may dispute" in accepted.text and "1.3 Provider may suspend" in accepted.text
    assert re.search(r"<w:trPr><w:ins [^>]*/></w:trPr>", xml)


def test_only_the_findings_edits_are_tracked_when_asked(tmp_path, fast_config, opened_in_libreoffice):
    result = Engine(fast_config).compare(str(REFERENCE), str(INPUT))
    every = write_report(tmp_path, result, opened_in_libreoffice, "all")
    findings = write_report(tmp_path, result, opened_in_libreoffice, "findings", changes="findings")
    accepted, rejected = round_trip(findings)
    assert accepted == document_tokens(result.input.document.original, "markdown")
    reference_words = document_tokens(result.reference.document.original, "markdown")
    assert rejected != reference_words  # editorial changes are accepted, not tracked
    assert xml_of(findings).count("<w:ins ") < xml_of(every).count("<w:ins ") / 2
    joined = " ".join(rejected)
    assert "within thirty ( 30 ) days after receiving notice" in joined  # F0008's number is tracked ...
    assert "will take reasonable steps to prevent any" in joined  # ... an unflagged rewording is not
    assert len(list(docx.Document(io.BytesIO(findings)).comments)) == len(result.report["findings"]) + 1


def test_each_finding_has_one_comment_on_its_tracked_changes(tmp_path, fast_config, opened_in_libreoffice):
    result = Engine(fast_config).compare(str(REFERENCE), str(INPUT))
    data = write_report(tmp_path, result, opened_in_libreoffice, "comments")
    document = docx.Document(io.BytesIO(data))
    comments = {c.comment_id: c for c in document.comments}
    findings = {f["id"]: f for f in result.report["findings"]}
    by_finding = {c.text.split()[0]: c for c in comments.values()}
    assert set(by_finding) == set(findings) | {"conflictkit:"}
    view = Rendering.of_result(result).view
    # the first comment, on the document's first words, lists what matters first
    index = by_finding["conflictkit:"]
    assert index.text.splitlines() == index_lines(view)
    assert index.text.splitlines()[1].startswith("High: F0006 missing 4.5 Disputed invoices; F0009 missing 5.4 Termination")
    assert min(int(c.comment_id) for c in comments.values()) == int(index.comment_id)
    f4 = findings["F0008"]
    assert by_finding["F0008"].text.splitlines() == comment_lines(view, f4)
    assert by_finding["F0008"].text.startswith("F0008 medium deviation, P(conflict) 0.9")
    assert "number: thirty (30) days -> sixty (60) days" in by_finding["F0008"].text
    assert "Severity medium: terms changed (number) in term and termination" in by_finding["F0008"].text
    # the comment's range holds the finding's deletion and insertion
    body = xml_of(data)
    cid = by_finding["F0008"].comment_id
    inside = body[body.index(f'<w:commentRangeStart w:id="{cid}"/>'):body.index(f'<w:commentRangeEnd w:id="{cid}"/>')]
    assert "thirty" in inside and "sixty" in inside and "<w:del " in inside and "<w:ins " in inside
    # a missing clause's comment sits on its deleted paragraph, an added one's on the inserted paragraph
    missing = next(f for f in findings.values() if f["kind"] == "missing")
    cid = by_finding[missing["id"]].comment_id
    inside = body[body.index(f'<w:commentRangeStart w:id="{cid}"/>'):body.index(f'<w:commentRangeEnd w:id="{cid}"/>')]
    assert "<w:delText" in inside


def test_a_moved_paragraph_is_a_word_move(tmp_path, fast_config, opened_in_libreoffice):
    clauses = [f"{n}. {text}" for n, text in enumerate([
        "Confidentiality. Each party shall keep the other party's Confidential Information secret and use it only for this Agreement.",
        "Fees. Customer shall pay the Fees within thirty (30) days of each invoice date.",
        "Warranty. Provider warrants that the Services will perform materially as described in the Documentation.",
        "Term. This Agreement starts on the Effective Date and continues for one (1) year.",
        "Notices. Notices must be in writing and sent to the addresses on the Order Form.",
    ], 1)]
    reference = "\n\n".join(clauses) + "\n"
    moved = [clauses[0], clauses[2], clauses[3], clauses[1], clauses[4]]
    (tmp_path / "ref.md").write_text(reference)
    (tmp_path / "inp.md").write_text("\n\n".join(moved) + "\n")
    result = Engine(fast_config).compare(str(tmp_path / "ref.md"), str(tmp_path / "inp.md"))
    data = write_report(tmp_path, result, opened_in_libreoffice, "moved")
    assert_round_trip(result, data)
    xml = xml_of(data)
    assert "<w:moveFrom " in xml and "<w:moveTo " in xml and "moveFromRangeStart" in xml and "moveToRangeEnd" in xml
    assert xml.index("<w:moveFrom ") < xml.index("<w:moveTo ") or xml.index("<w:moveTo ") < xml.index("<w:moveFrom ")


def test_edits_decide_what_is_tracked_and_commented(tmp_path, fast_config, opened_in_libreoffice):
    """With a judge's edits, only substantive edits are a finding's tracked changes; editorial ones are accepted."""
    ref = "1. Customer shall pay the Fees within thirty (30) days of the invoice date.\n"
    inp = "1. The Customer shall pay the Fees within sixty (60) days of the invoice date.\n"
    (tmp_path / "ref.md").write_text(ref)
    (tmp_path / "inp.md").write_text(inp)
    result = Engine(fast_config).compare(str(tmp_path / "ref.md"), str(tmp_path / "inp.md"))
    (finding,) = result.report["findings"]

    def side(text, word):
        start = text.index(word)
        return {"start": start, "end": start + len(word), "text": word}

    finding["edits"] = [
        {"reference": {"start": ref.index("Customer"), "end": ref.index("Customer"), "text": ""}, "input": side(inp, "The "),
         "verdict": "editorial", "kind": "typography", "p_conflict": 0.01, "reasons": []},
        {"reference": side(ref, "thirty (30)"), "input": side(inp, "sixty (60)"), "verdict": "substantive", "kind": "number",
         "p_conflict": 0.95, "reasons": [{"type": "number", "reference": "thirty (30) days", "input": "sixty (60) days"}]},
    ]
    data = write_report(tmp_path, result, opened_in_libreoffice, "edits", changes="findings")
    xml = xml_of(data)
    assert "sixty" in xml and "thirty" in xml and xml.count("<w:ins ") >= 1
    accepted, rejected = round_trip(data)
    assert " ".join(rejected).startswith("1 . The Customer shall pay the Fees within thirty")  # "The" stays: editorial
    comment = docx.Document(io.BytesIO(data)).comments
    assert "1 editorial edit not flagged (typography)" in next(iter(comment)).text
    all_changes = write_report(tmp_path, result, opened_in_libreoffice, "edits-all")
    assert round_trip(all_changes)[1] == document_tokens(ref, "markdown")


def test_tracked_changes_docx_applies_replacements_with_comments(tmp_path, opened_in_libreoffice):
    text = "1. Customer shall pay within thirty (30) days.\n\n2. Provider may audit Customer once a year.\n"
    start = text.index("thirty (30)")
    data = tracked_changes_docx(None, text, [
        Replacement(start, start + len("thirty (30)"), "sixty (60)", comment="Playbook: 60 days is our position"),
        Replacement(text.index(" once a year"), text.index(" once a year") + len(" once a year"), ""),
    ], date=DATE)
    path = tmp_path / "replacements.docx"
    path.write_bytes(data)
    opened_in_libreoffice.append(path)
    accepted, rejected = round_trip(data)
    assert " ".join(accepted) == "1 . Customer shall pay within sixty ( 60 ) days . 2 . Provider may audit Customer ."
    assert rejected == document_tokens(text, "markdown")
    (comment,) = docx.Document(str(path)).comments
    assert comment.text == "Playbook: 60 days is our position"


def test_compare_format_docx_writes_the_redline_and_needs_out(tmp_path, fast):
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, INPUT, "--config", fast, "--format", "docx", "--changes", "findings", "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {out}/report.docx" in proc.stderr
    report = json.loads((out / "report.json").read_text())
    assert len(list(docx.Document(str(out / "report.docx")).comments)) == len(report["findings"]) + 1
    assert_user_error(run("compare", REFERENCE, INPUT, "--format", "docx"), "--format docx writes report.docx: give --out DIR")


@pytest.mark.corpus
@pytest.mark.parametrize("pair", CP_PAIRS, ids=lambda p: Path(p[1]).stem)
@pytest.mark.parametrize("as_word", [False, True], ids=["markdown", "docx"])
def test_common_paper_versions_round_trip(tmp_path, fast_config, opened_in_libreoffice, pair, as_word):
    if not CP.exists():
        pytest.skip("corpus not available")
    reference, input = CP / pair[0], CP / pair[1]
    if as_word:
        reference, input = as_docx(tmp_path, reference), as_docx(tmp_path, input)
    result = Engine(fast_config).compare(str(reference), str(input))
    data = write_report(tmp_path, result, opened_in_libreoffice, f"{Path(pair[1]).stem}-{'docx' if as_word else 'md'}")
    assert_round_trip(result, data)
    document = docx.Document(io.BytesIO(data))
    texts = [p.text for p in document.paragraphs] + [c.text for c in document.comments]
    assert not any(re.search(r"\*\*|<span|&amp;|\\[!-/:-@\[-`{-~]", t) for t in texts)


def test_a_docx_input_with_its_own_tracked_changes_and_links(tmp_path, fast_config, opened_in_libreoffice):
    """The input's own revisions are accepted first, so every tracked change in the redline is conflictkit's."""
    from conflictkit_docx.testing import delete, ins

    link = '<w:hyperlink w:anchor="x"><w:r><w:t xml:space="preserve">Order Form</w:t></w:r></w:hyperlink>'
    reference = DocxBuilder().paragraph("Customer shall pay each invoice within thirty (30) days of the Order Form.")
    draft = DocxBuilder().paragraph(["Customer shall pay each invoice within ", delete("thirty (30)"), ins("sixty (60)"),
                                     " days of the ", link, "."])
    (tmp_path / "ref.docx").write_bytes(reference.build())
    (tmp_path / "draft.docx").write_bytes(draft.build())
    result = Engine(fast_config).compare(str(tmp_path / "ref.docx"), str(tmp_path / "draft.docx"))
    data = write_report(tmp_path, result, opened_in_libreoffice, "own-revisions")
    assert_round_trip(result, data)
    xml = xml_of(data)
    assert 'w:author="Counterparty"' not in xml and "<w:hyperlink" in xml
    (comment,) = docx.Document(io.BytesIO(data)).comments
    cid = comment.comment_id
    inside = xml[xml.index(f'<w:commentRangeStart w:id="{cid}"/>'):xml.index(f'<w:commentRangeEnd w:id="{cid}"/>')]
    assert "thirty" in inside and ">60<" in inside and "<w:del " in inside and "<w:ins " in inside


def test_control_characters_in_a_typeset_input_do_not_break_report_docx(tmp_path, fast_config, opened_in_libreoffice):
    (tmp_path / "ref.md").write_text("1. Customer shall pay within thirty (30) days.\n")
    (tmp_path / "inp.md").write_text("1. Customer shall pay within sixty (60) days.\x07\x1b[2J\n")
    result = Engine(fast_config).compare(str(tmp_path / "ref.md"), str(tmp_path / "inp.md"))
    data = write_report(tmp_path, result, opened_in_libreoffice, "controls")
    (comment,) = docx.Document(io.BytesIO(data)).comments
    assert "deviation" in comment.text
