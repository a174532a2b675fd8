"""The ``pdf`` loader: the text layer of a PDF in reading order, each line with its page and box.

pypdfium2 (PDFium, Apache-2.0/BSD-3) over pdfplumber (pdfminer.six, MIT): both are permissive;
PDFium is the engine Chrome renders PDFs with, reads a 50-page contract several times faster, and
gives text runs with boxes directly (``get_rect``), which is all reading order needs.
"""

from __future__ import annotations

import threading
from typing import ClassVar

from conflictkit.errors import InputError
from conflictkit.loaders import describe_binary, plugin_extension
from conflictkit.model import DocumentSource, SourceBlock
from conflictkit.stages import LoadedText, Loader, Revision
from conflictkit_pdf.layout import Line, Run, breaks, reading_order, strip_running

# PDFium is not thread-safe; the web app loads uploads in a thread pool.
_PDFIUM = threading.Lock()


def _open(data: bytes, name: str):
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise InputError(f"{name} is an encrypted PDF (it needs a password); save an unprotected copy and compare that") from None
        raise InputError(f"{name} is not a readable PDF ({exc}); export it from its application again") from None


def page_lines(data: bytes, name: str) -> tuple[list[list[Line]], list[float], int]:
    """Each page's lines in reading order, the page heights, and the pages with no text layer."""
    with _PDFIUM:
        pdf = _open(data, name)
        try:
            pages, heights, empty = [], [], 0
            for number in range(len(pdf)):
                page = pdf[number]
                width, height = page.get_size()
                textpage = page.get_textpage()
                runs = []
                for i in range(textpage.count_rects()):
                    box = textpage.get_rect(i)
                    runs.append(Run(*box, textpage.get_text_bounded(*box)))
                empty += textpage.count_chars() == 0
                pages.append(reading_order(runs, number + 1, width))
                heights.append(height)
                textpage.close()
                page.close()
            return pages, heights, empty
        finally:
            pdf.close()


def assemble(lines: list[Line]) -> tuple[str, list[SourceBlock]]:
    """The document text of lines in reading order, one source block per line."""
    parts, blocks, length = [], [], 0
    gaps = breaks(lines) + [""]
    for line, gap in zip(lines, gaps, strict=True):
        text = line.text[:-1] if gap == "" and line is not lines[-1] else line.text  # the hyphen of a split word
        blocks.append(SourceBlock(start=length, end=length + len(text), location={"page": line.page, "bbox": line.bbox}))
        parts += [text, gap]
        length += len(text) + len(gap)
    return "".join(parts), blocks


class PdfLoader(Loader):
    """PDF text layers: reading order, hyphenation undone, running headers/footers and page numbers removed."""

    name = "pdf"
    extensions: ClassVar[tuple[str, ...]] = (".pdf",)

    @classmethod
    def sniff(cls, data: bytes) -> bool:
        return plugin_extension(data) == ".pdf"

    def load(self, data: bytes, name: str, revision: Revision = "accepted") -> LoadedText:
        if plugin_extension(data) != ".pdf":
            raise InputError(f"{name} is not a PDF: it looks like {describe_binary(data) or 'a text file'}; "
                             "give a real .pdf or rename it to its own extension")
        pages, heights, empty = page_lines(data, name)
        if not any(pages):
            raise InputError(f"{name} has no text layer (a scan?): it needs OCR first (e.g. ocrmypdf {name} out.pdf)")
        kept, running, numbers = strip_running(pages, heights)
        text, blocks = assemble([line for page in kept for line in page])
        details = {"pages": len(pages), "pages_without_text": empty, "running_lines_removed": running,
                   "page_numbers_removed": numbers}
        notes = [f"{name}: {empty} of {len(pages)} pages have no text layer (scanned?); their text is missing: OCR them first"] \
            if empty else []
        return LoadedText(text=text, source=DocumentSource(format="pdf", loader=self.name, blocks=blocks,
                                                           details=details, notes=notes))
