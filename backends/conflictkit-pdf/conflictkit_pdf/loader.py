"""The ``pdf`` loader: the text layer of a PDF in reading order, each line with its page and box.

pypdfium2 (PDFium, Apache-2.0/BSD-3) over pdfplumber (pdfminer.six, MIT): both are permissive;
PDFium is the engine Chrome renders PDFs with, reads a 50-page contract several times faster, and
gives text runs with boxes directly (``get_rect``), which is all reading order needs.
"""

from __future__ import annotations

import ctypes
import threading
from typing import ClassVar

from conflictkit.config import Limits
from conflictkit.errors import InputError, over_limit
from conflictkit.loaders import describe_binary, plugin_extension
from conflictkit.model import DocumentSource, SourceBlock
from conflictkit.stages import LoadedText, Loader, Revision
from conflictkit_pdf.budget import check_unpacked
from conflictkit_pdf.layout import Line, Run, breaks, reading_order, strip_running

# PDFium is not thread-safe: one page at a time in a process (the web app reads each upload in a
# process of its own, so one slow file holds up no other).
_PDFIUM = threading.Lock()


def _open(data: bytes, name: str):
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise InputError(f"{name} is an encrypted PDF (it needs a password); save an unprotected copy and compare that") from None
        raise InputError(f"{name} is not a readable PDF ({exc}); export it from its application again") from None


def page_lines(data: bytes, name: str, limits: Limits | None = None) -> tuple[list[list[Line]], list[float], int]:
    """Each page's lines in reading order, the page heights, and the pages with no text layer.

    Read within ``limits``: the streams' unpacked size and the page count are checked before any page
    is read, the objects on the pages as each one is.
    """
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    limits = limits or Limits()
    check_unpacked(data, name, limits.max_unpacked_bytes)
    with _PDFIUM:
        pdf = _open(data, name)
        try:
            count = len(pdf)
            if count > limits.max_pages:
                raise over_limit(name, f"{count:,} pages", "max_pages", f"{limits.max_pages:,}")
            pages, heights, empty, objects = [], [], 0, 0
            for number in range(count):
                try:
                    page = pdf[number]
                except pdfium.PdfiumError:
                    raise InputError(f"{name}: PDFium cannot load page {number + 1} (a page tree that loops or nests too "
                                     "deep?); export it from its application again") from None
                objects += raw.FPDFPage_CountObjects(page.raw)
                if objects > limits.max_page_objects:
                    raise over_limit(name, f"over {limits.max_page_objects:,} objects (text runs, paths, images) on its "
                                     f"first {number + 1:,} pages", "max_page_objects", f"{limits.max_page_objects:,}")
                width, height = page.get_size()
                textpage = page.get_textpage()
                runs = text_runs(textpage)
                empty += textpage.count_chars() == 0
                pages.append(reading_order(runs, number + 1, width))
                heights.append(height)
                textpage.close()
                page.close()
            return pages, heights, empty
        finally:
            pdf.close()


def _text_object_function():
    import pypdfium2.raw as raw

    # the same C function, answering a plain address rather than a ctypes pointer object: runs compare them
    address = ctypes.cast(raw.FPDFText_GetTextObject, ctypes.c_void_p).value
    return ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)(address)


def text_runs(textpage) -> list[Run]:
    """The page's text as runs, one per text object (PDFium's own rectangles), in one pass over its characters.

    A run's box is the union of its characters' boxes, spaces aside; its text every character from its
    first to its last, with the spaces PDFium generates between them. (Asking PDFium for the text inside
    each rectangle instead scans the whole page per rectangle: 40,000 text objects on a page took 69 s.)
    """
    import pypdfium2.raw as raw

    handle = textpage.raw
    address = ctypes.cast(handle, ctypes.c_void_p)
    text_object, generated, char_box = _text_object_function(), raw.FPDFText_IsGenerated, raw.FPDFText_GetCharBox
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    box_of = (ctypes.byref(left), ctypes.byref(right), ctypes.byref(bottom), ctypes.byref(top))
    runs: list[Run] = []
    current, chars = None, []
    x0 = y0 = float("inf")
    x1 = y1 = float("-inf")
    for index, char in enumerate(_page_text(handle)):
        if generated(handle, index):
            if current is not None:
                chars.append(char)
            continue
        owner = text_object(address, index)
        if owner != current:
            if x0 <= x1:
                runs.append(Run(x0, y0, x1, y1, "".join(chars)))
            current, chars = owner, []
            x0 = y0 = float("inf")
            x1 = y1 = float("-inf")
        chars.append(char)
        if char.isspace():
            continue
        char_box(handle, index, *box_of)
        for x in (left.value, right.value):
            x0, x1 = min(x0, x), max(x1, x)
        for y in (bottom.value, top.value):
            y0, y1 = min(y0, y), max(y1, y)
    if x0 <= x1:
        runs.append(Run(x0, y0, x1, y1, "".join(chars)))
    return runs


def _page_text(handle) -> str:
    """Every character of a text page, one per index, as ``FPDFText_GetUnicode`` gives it: in one call,
    or one by one where UTF-16 pairs (characters outside the BMP) would shift the indexes."""
    import pypdfium2.raw as raw

    count = raw.FPDFText_CountChars(handle)
    buffer = (ctypes.c_ushort * (count + 1))()
    written = raw.FPDFText_GetText(handle, 0, count, buffer)
    text = bytes(buffer)[: 2 * max(0, written - 1)].decode("utf-16-le", "replace")
    if len(text) == count:
        return text.replace("\ufffe", "\x02")  # the line-end hyphen mark, written differently by GetText
    return "".join(chr(raw.FPDFText_GetUnicode(handle, index)) for index in range(count))


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
        pages, heights, empty = page_lines(data, name, self.limits)
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
