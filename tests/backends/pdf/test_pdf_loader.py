"""The pdf loader on PDFs set with reportlab: two columns, page breaks, running headers and
footers, hyphenated line ends, pages and boxes; no text layer and encryption refused."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("pypdfium2")
pytest.importorskip("reportlab")

from conflictkit_pdf.loader import PdfLoader  # noqa: E402
from conflictkit_pdf.testing import markdown_to_pdf, pdf_from_lines  # noqa: E402

from conflictkit.engine import Engine  # noqa: E402
from conflictkit.errors import InputError  # noqa: E402
from conflictkit.loaders import read_document  # noqa: E402
from conflictkit.testing.formats import finding_signature  # noqa: E402
from tests.conftest import INPUT, REFERENCE, SAMPLES  # noqa: E402

HEADER = (72, 760, "ACME / Larkspur - Confidential Draft")


def footer(n):
    return (290, 30, f"Page {n} of 2")


def test_two_columns_read_left_then_right_and_clauses_join_across_pages():
    page1 = [HEADER, (72, 700, "1. Fees. The Customer shall pay the"), (72, 686, "Fees within thirty (30) days of"),
             (320, 700, "2. Term. This Agreement lasts for one"), (320, 686, "year from the Effective Date and re-"),
             (320, 672, "news automatically each year, unless"), footer(1)]
    page2 = [HEADER, (72, 700, "either party gives notice."), (72, 672, "3. Law. New York law governs."), footer(2)]
    loaded = PdfLoader().load(pdf_from_lines([page1 + [(72, 672, "receipt.")], page2]), "t.pdf")
    assert loaded.text == ("1. Fees. The Customer shall pay the\nFees within thirty (30) days of\nreceipt.\n\n"
                           "2. Term. This Agreement lasts for one\nyear from the Effective Date and renews automatically each year, unless\n"
                           "either party gives notice.\n\n3. Law. New York law governs.")
    assert "Confidential" not in loaded.text and "Page" not in loaded.text
    assert loaded.source.details["running_lines_removed"] == 4  # the header and the "Page N of 2" footer, both pages
    where = loaded.source.locate(loaded.text.index("either"), loaded.text.index("notice"))
    assert where["page"] == 2 and len(where["bbox"]) == 4
    spanning = loaded.source.locate(loaded.text.index("2. Term"), loaded.text.index("notice"))
    assert spanning["pages"] == [1, 2]


def test_no_text_layer_needs_ocr_and_encryption_is_refused(tmp_path):
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    scan = canvas.Canvas(buffer)
    scan.rect(100, 100, 300, 300, fill=1)  # a page with only a picture of text
    scan.showPage()
    scan.save()
    with pytest.raises(InputError, match="no text layer .* needs OCR first"):
        PdfLoader().load(buffer.getvalue(), "scan.pdf")
    locked = io.BytesIO()
    secret = canvas.Canvas(locked, encrypt="s3cret")
    secret.drawString(72, 700, "The Customer shall pay.")
    secret.showPage()
    secret.save()
    with pytest.raises(InputError, match="encrypted PDF"):
        PdfLoader().load(locked.getvalue(), "locked.pdf")
    (tmp_path / "fake.pdf").write_bytes(b"PK\x03\x04 a zip")
    with pytest.raises(InputError, match="not a PDF: it looks like a zip archive"):
        read_document(tmp_path / "fake.pdf")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7\n garbage")
    with pytest.raises(InputError, match="not a readable PDF"):
        read_document(tmp_path / "broken.pdf")


@pytest.mark.parametrize("pair", [(REFERENCE, INPUT), (SAMPLES / "nda-reference.txt", SAMPLES / "nda-input.txt")],
                         ids=["saas-markdown", "nda-text"])
def test_samples_as_two_column_pdfs_give_the_markdown_findings(tmp_path, fast_config, pair):
    paths = []
    for source in pair:
        path = tmp_path / (source.stem + ".pdf")
        path.write_bytes(markdown_to_pdf(source.read_text(encoding="utf-8")))
        paths.append(path)
    engine = Engine(fast_config)
    markdown = engine.compare(*map(str, pair))
    as_pdf = engine.compare(*map(str, paths))
    assert as_pdf.report["input"]["source"]["details"]["pages"] >= (3 if pair[0] == REFERENCE else 1)  # page breaks inside clauses
    assert finding_signature(as_pdf.report) == finding_signature(markdown.report)
    for finding in as_pdf.report["findings"]:
        for side, doc in (("reference", as_pdf.reference), ("input", as_pdf.input)):
            quote = finding[side]
            if quote:
                assert doc.document.original[quote["start"]:quote["end"]] == quote["text"]
                assert quote["location"]["page"] >= 1 and len(quote["location"]["bbox"]) == 4


def test_a_lone_page_number_in_the_margin_is_removed_but_not_in_the_body():
    pages = [[(72, 700, "1. The Customer shall pay the Fees."), (300, 30, "7")],
             [(72, 700, "2. The Provider shall keep the records for"), (72, 686, "12"), (300, 30, "8")]]
    loaded = PdfLoader().load(pdf_from_lines(pages), "t.pdf")
    details = loaded.source.details
    assert details["page_numbers_removed"] + details["running_lines_removed"] == 2
    assert "7" not in loaded.text and loaded.text.endswith("records for\n12")
