"""The docx loader on Word files built from raw OOXML: numbering, headings, tables, tracked
changes, comments, footnotes, headers and footers, and every bad input."""

from __future__ import annotations

import io
import zipfile

import pytest

pytest.importorskip("docx")

from conflictkit_docx.loader import DocxLoader  # noqa: E402
from conflictkit_docx.testing import DocxBuilder, delete, ins, markdown_to_docx, run  # noqa: E402

from conflictkit.engine import Engine  # noqa: E402
from conflictkit.errors import InputError  # noqa: E402
from conflictkit.loaders import read_document  # noqa: E402
from conflictkit.testing.formats import finding_signature  # noqa: E402
from tests.conftest import INPUT, REFERENCE, SAMPLES  # noqa: E402


def load(data: bytes, revision="accepted"):
    return DocxLoader().load(data, "t.docx", revision)


def test_a_word_file_without_its_extension_is_read_by_content():
    from conflictkit.loaders import document_from_bytes

    document = document_from_bytes(DocxBuilder().paragraph("The Customer shall pay.").build(), "download")
    assert document.original == "The Customer shall pay." and document.source.format == "docx"


def test_numbering_labels_are_computed_from_numbering_xml():
    b = DocxBuilder()
    for n in range(1, 6):
        b.paragraph(f"Section {n} heading", style="Heading1", num=(1, 0))
        if n == 5:
            for k in range(1, 5):
                b.paragraph(f"Clause 5.{k} text.", num=(1, 1))
            b.paragraph("first item;", num=(1, 2)).paragraph("second item.", num=(1, 2))
    b.paragraph("Section six", style="Heading1", num=(1, 0)).paragraph("Resets below.", num=(1, 1))
    text = load(b.build()).text
    assert "# 5. Section 5 heading\n\n5.1 Clause 5.1 text." in text
    assert "5.4 Clause 5.4 text.\n\n(a) first item;\n\n(b) second item." in text
    assert "# 6. Section six\n\n6.1 Resets below." in text


def test_a_start_override_restarts_an_instance_and_shared_lists_continue():
    b = DocxBuilder(extra_numbering=['<w:num w:numId="2"><w:abstractNumId w:val="0"/>'
                                     '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="7"/></w:lvlOverride></w:num>'])
    b.paragraph("one", num=(1, 0)).paragraph("two", num=(1, 0)).paragraph("seven", num=(2, 0)).paragraph("eight", num=(2, 0))
    assert load(b.build()).text.split("\n\n") == ["1. one", "2. two", "7. seven", "8. eight"]


def test_tables_become_rows_and_headings_come_from_styles():
    b = DocxBuilder().paragraph("Agreement", style="Title").paragraph("Definitions", style="Heading2")
    b.table([["Term", "Meaning"], ["Fees", "the amounts in the Order Form"]])
    loaded = load(b.build())
    assert loaded.text == "# Agreement\n\n## Definitions\n\n| Term | Meaning |\n|---|---|\n| Fees | the amounts in the Order Form |"
    rows = [blk for blk in loaded.source.blocks if "table" in blk.location]
    assert [blk.location["row"] for blk in rows] == [0, 1]


def test_tracked_changes_are_read_accepted_by_default_and_rejected_on_request():
    b = DocxBuilder().paragraph(["Payment is due within ", delete("thirty (30)"), ins("sixty (60)"), " days."])
    data = b.build()
    accepted, original = load(data), load(data, "original")
    assert accepted.text == "Payment is due within sixty (60) days."
    assert original.text == "Payment is due within thirty (30) days."  # never "thirty (30)sixty (60)"
    assert accepted.source.details["tracked_changes"]["insertions"] == 1
    assert "tracked changes (1 insertion, 1 deletion" in accepted.source.notes[0]
    assert "all changes accepted" in accepted.source.notes[0]


def test_a_deleted_paragraph_mark_joins_the_paragraphs():
    mark = '<w:pPr><w:rPr><w:del w:id="9" w:author="A" w:date="2027-01-01T00:00:00Z"/></w:rPr></w:pPr>'
    b = DocxBuilder().raw(f"<w:p>{mark}{run('The Customer shall pay')}</w:p>").paragraph(" all Fees.")
    assert load(b.build()).text == "The Customer shall pay all Fees."
    assert load(b.build(), "original").text == "The Customer shall pay\n\n all Fees."


def test_comments_are_kept_out_and_footnotes_headers_footers_are_non_operative():
    b = DocxBuilder(headers=["ACME CONFIDENTIAL"], footers=["Page 1"])
    b.paragraph("The Customer shall pay the Fees.").comment("Reviewer: push back on this").footnote("Fees exclude VAT.")
    loaded = load(b.build())
    assert "push back" not in loaded.text
    assert loaded.source.details["comments_dropped"] == 1
    roles = {loaded.text[blk.start:blk.end]: blk.role for blk in loaded.source.blocks}
    assert roles == {"The Customer shall pay the Fees.": "body", "Header: ACME CONFIDENTIAL": "header",
                     "Footer: Page 1": "footer", "Footnote 1: Fees exclude VAT.": "footnote"}


def test_text_boxes_are_counted_and_said_not_read():
    mc = "http://schemas.openxmlformats.org/markup-compatibility/2006"
    box = "<w:txbxContent><w:p>" + run("Boxed text") + "</w:p></w:txbxContent>"
    drawing = (f'<w:r><mc:AlternateContent xmlns:mc="{mc}"><mc:Choice Requires="wps"><w:drawing>{box}</w:drawing></mc:Choice>'
               f"<mc:Fallback><w:pict>{box}</w:pict></mc:Fallback></mc:AlternateContent></w:r>")
    loaded = load(DocxBuilder().raw(f"<w:p>{run('Body text.')}{drawing}</w:p>").build())
    assert loaded.text == "Body text."
    assert loaded.source.details["text_boxes_dropped"] == 1
    assert "1 text boxes or embedded documents: not read" in loaded.source.notes[0]


def test_non_operative_parts_are_flagged_never_compared(tmp_path, fast_config):
    body = DocxBuilder(headers=["ACME CONFIDENTIAL"]).paragraph("1. The Customer shall pay the Fees within thirty (30) days.")
    other = DocxBuilder(headers=["OTHER HEADER TEXT"]).paragraph("1. The Customer shall pay the Fees within thirty (30) days.")
    (tmp_path / "a.docx").write_bytes(body.footnote("Fees exclude VAT.").build())
    (tmp_path / "b.docx").write_bytes(other.build())
    result = Engine(fast_config).compare(str(tmp_path / "a.docx"), str(tmp_path / "b.docx"))
    flagged = {c.filtered for c in result.reference.clauses if c.filtered}
    assert {"header", "footnote"} <= flagged
    assert result.report["findings"] == []


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize("data, fragment", [
    (b"PK\x03\x04 this is not really a zip", "corrupt zip"),
    (b"%PDF-1.7\n...", "not a Word document: it looks like a PDF"),
    (b"1. The Customer shall pay.", "not a Word document: it looks like a text file"),
    (_zip({"notes.txt": b"hello"}), "not a Word document (no [Content_Types].xml)"),
    (DocxBuilder(macro=True).paragraph("x").build(), "macro-enabled"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64 + "EncryptedPackage".encode("utf-16-le"), "password-protected"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64, "legacy Word file (.doc)"),
    (_zip({"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<" + b" " * 50_000_000 + b">"}), "zip bomb"),
])
def test_bad_word_files_get_one_clear_line(tmp_path, data, fragment):
    path = tmp_path / "bad.docx"
    path.write_bytes(data)
    with pytest.raises(InputError, match=fragment.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("]", r"\]")):
        read_document(path)


@pytest.mark.parametrize("pair", [(REFERENCE, INPUT), (SAMPLES / "nda-reference.txt", SAMPLES / "nda-input.txt")],
                         ids=["saas-markdown", "nda-text"])
def test_samples_as_docx_give_the_markdown_findings(tmp_path, fast_config, pair):
    paths = []
    for source in pair:
        path = tmp_path / (source.stem + ".docx")
        path.write_bytes(markdown_to_docx(source.read_text(encoding="utf-8")))
        paths.append(path)
    engine = Engine(fast_config)
    markdown = engine.compare(*map(str, pair))
    as_docx = engine.compare(*map(str, paths))
    assert finding_signature(as_docx.report) == finding_signature(markdown.report)
    assert as_docx.report["summary"]["deviation"] > 0
    for side in (as_docx.reference, as_docx.input):
        for clause in side.clauses:
            assert side.document.original[clause.span.start:clause.span.end].strip()
    for finding in as_docx.report["findings"]:
        for side, doc in (("reference", as_docx.reference), ("input", as_docx.input)):
            quote = finding[side]
            if quote:
                assert doc.document.original[quote["start"]:quote["end"]] == quote["text"]
                assert "paragraph" in quote["location"]


def test_number_formats_legal_numbering_bullets_and_list_styles():
    from conflictkit_docx.numbering import format_number

    assert [format_number(n, "lowerRoman") for n in (1, 4, 9, 14)] == ["i", "iv", "ix", "xiv"]
    assert format_number(28, "lowerLetter") == "bb" and format_number(3, "upperLetter") == "C"
    assert format_number(7, "decimalZero") == "07" and format_number(5, "ordinal") == "5"
    lvl = '<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/><w:lvlText w:val="{text}"/>{legal}</w:lvl>'
    legal = ('<w:abstractNum w:abstractNumId="7"><w:styleLink w:val="LegalList"/>'
             + lvl.format(i=0, fmt="upperRoman", text="Article %1", legal="")
             + lvl.format(i=1, fmt="decimal", text="%1.%2", legal="<w:isLgl/>")
             + lvl.format(i=2, fmt="bullet", text="\u2022", legal="") + "</w:abstractNum>"
             '<w:abstractNum w:abstractNumId="8"><w:numStyleLink w:val="LegalList"/></w:abstractNum>'
             '<w:num w:numId="3"><w:abstractNumId w:val="7"/></w:num><w:num w:numId="4"><w:abstractNumId w:val="8"/></w:num>')
    b = DocxBuilder(extra_numbering=[legal])
    b.paragraph("Definitions", num=(3, 0)).paragraph("Terms apply.", num=(3, 1)).paragraph("a point", num=(3, 2))
    b.paragraph("Payment", num=(4, 0)).paragraph("Fees are due.", num=(4, 1))
    assert load(b.build()).text.split("\n\n") == [
        "Article I Definitions", "1.1 Terms apply.", "- a point", "Article II Payment", "2.1 Fees are due."]
