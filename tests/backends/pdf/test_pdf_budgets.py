"""Hostile PDFs are refused in one line (exit 2) before they cost memory or time, or read within the
limits; the text extraction reads each page in one pass and gives what PDFium's rectangles give."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("pypdfium2")

from conflictkit_pdf import testing as hostile  # noqa: E402
from conflictkit_pdf.budget import unpacked_bytes  # noqa: E402
from conflictkit_pdf.layout import Run  # noqa: E402
from conflictkit_pdf.loader import PdfLoader, text_runs  # noqa: E402

from conflictkit.config import Limits  # noqa: E402
from conflictkit.errors import InputError, LimitError  # noqa: E402
from tests.conftest import REFERENCE  # noqa: E402


def load(data: bytes, **limits):
    loader = PdfLoader()
    loader.use_limits(Limits(**limits))
    return loader.load(data, "hostile.pdf")


@pytest.mark.parametrize("data", [hostile.page_tree_loop_pdf(), hostile.deep_page_tree_pdf(5_000)], ids=["loop", "5000 deep"])
def test_a_broken_page_tree_is_an_input_error_not_a_pdfium_error(data):
    with pytest.raises(InputError, match=r"hostile.pdf: PDFium cannot load page \d .*page tree that loops or nests"):
        load(data)


def test_a_flate_bomb_is_refused_before_pdfium_inflates_it():
    bomb = hostile.flate_bomb_pdf(300_000_000)
    assert len(bomb) < 400_000
    assert 10_000_000 < unpacked_bytes(bomb, 10_000_000) <= 10_000_000 + (1 << 20)  # counting stops at the limit
    with pytest.raises(LimitError, match=r"streams that unpack to more than the limit of 10 MB .*limits.max_unpacked_bytes"):
        load(bomb, max_unpacked_bytes=10_000_000)


def test_a_bomb_whose_dictionary_says_image_or_no_filter_is_counted_all_the_same():
    # PDFium reads a page's contents whatever their dictionary says: a dictionary is no reason to skip a stream
    from conflictkit.testing.hostile import deflate_bomb

    bomb = deflate_bomb(50_000_000)[0]
    for dictionary in (b"<< /Subtype /Image /Width 1 /Height 1 /Length %d >>", b"<< /Length %d >>"):
        pdf = hostile.RawPdf()
        contents = pdf.add(dictionary % len(bomb) + b"\nstream\n" + bomb + b"\nendstream")
        with pytest.raises(LimitError, match="max_unpacked_bytes"):
            load(hostile.raw_pdf([[contents]], pdf), max_unpacked_bytes=10_000_000)


def test_pages_over_the_limit_are_refused_before_any_is_read():
    with pytest.raises(LimitError, match=r"hostile.pdf has 100,000 pages, over the limit of 2,000; .*limits.max_pages"):
        load(hostile.shared_stream_pdf(100_000))
    assert load(hostile.shared_stream_pdf(5), max_pages=5).source.details["pages"] == 5


def test_objects_on_the_pages_are_counted_against_the_limit():
    with pytest.raises(LimitError, match=r"over 10,000 objects .* on its first 1 pages.*limits.max_page_objects"):
        load(hostile.drawing_operators_pdf(30_000), max_page_objects=10_000)
    assert "shall pay within 30 days" in load(hostile.drawing_operators_pdf(30_000)).text  # within the default


def test_one_pass_extraction_gives_what_pdfiums_rectangles_give():
    import pypdfium2 as pdfium

    pytest.importorskip("reportlab")
    hyphenated = hostile.pdf_from_lines([[(320, 700, "year from the Effective Date and re-"), (320, 686, "news each year.")]])
    pages = 0
    for data in (hostile.markdown_to_pdf(REFERENCE.read_text()), hyphenated):
        for page in pdfium.PdfDocument(data):
            textpage = page.get_textpage()
            by_rectangle = [Run(*textpage.get_rect(i), textpage.get_text_bounded(*textpage.get_rect(i)))
                            for i in range(textpage.count_rects())]
            assert _shown(text_runs(textpage)) == _shown(by_rectangle)
            pages += 1
    assert pages >= 4


def test_many_text_objects_on_a_page_are_all_read():
    text = load(hostile.text_objects_pdf(4_000)).text
    assert all(f"w{k}" in text.split() for k in range(0, 4_000, 397))


def _shown(runs: list[Run]) -> list[tuple]:
    return [(round(r.x0, 2), round(r.y0, 2), round(r.x1, 2), round(r.y1, 2), " ".join(r.text.split()))
            for r in runs if r.text.strip()]


@pytest.mark.slow
def test_the_cli_refuses_hostile_pdfs_in_one_line(tmp_path):
    cases = {"bomb.pdf": (hostile.flate_bomb_pdf(1_000_000_000), "limits.max_unpacked_bytes"),
             "loop.pdf": (hostile.page_tree_loop_pdf(), "page tree that loops"),
             "pages.pdf": (hostile.shared_stream_pdf(100_000), "limits.max_pages")}
    for name, (data, fragment) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        proc = subprocess.run([sys.executable, "-m", "conflictkit", "compare", str(REFERENCE), str(path), "--config", "fast",
                               "--no-cache"], capture_output=True, text=True, timeout=300)
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1 and fragment in lines[0], proc.stderr
