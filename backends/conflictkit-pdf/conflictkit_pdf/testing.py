"""Building PDFs in tests: with reportlab, contracts set in two columns over several pages, with a
running header, a running footer with page numbers, and words hyphenated at line ends; byte by byte,
hostile files (a Flate bomb, a page tree that loops, 100,000 pages) that no library would write."""

from __future__ import annotations

import io
import re
import zlib
from xml.sax.saxutils import escape

HEADER = "Harbor & Pine / Larkspur - CONFIDENTIAL DRAFT"


def markdown_to_pdf(markdown: str, columns: int = 2, header: str = HEADER) -> bytes:
    """A PDF typeset from a Markdown contract: headings bold, tables as "cell | cell" lines, the
    body in ``columns`` columns, a running header and a "Page N of M"-style footer on every page."""
    from reportlab.lib.pagesizes import LETTER
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph

    width, height = LETTER
    margin, gap = 54, 18
    column = (width - 2 * margin - gap * (columns - 1)) / columns
    frames = [Frame(margin + i * (column + gap), margin, column, height - 2 * margin, id=f"c{i}") for i in range(columns)]

    def running(canvas, doc) -> None:
        canvas.setFont("Helvetica", 8)
        canvas.drawString(margin, height - 30, header)
        canvas.drawCentredString(width / 2, 24, f"Page {doc.page}")

    buffer = io.BytesIO()
    doc = BaseDocTemplate(buffer, pagesize=LETTER, pageTemplates=[PageTemplate(frames=frames, onPage=running)])
    body = ParagraphStyle("body", fontName="Helvetica", fontSize=9, leading=11, spaceAfter=6)
    heading = ParagraphStyle("heading", parent=body, fontName="Helvetica-Bold", fontSize=10, spaceBefore=4)
    story = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        lines = [line.strip() for line in block.strip().splitlines()]
        if all(line.startswith("|") for line in lines):
            for line in lines:
                if not re.fullmatch(r"[|\s:-]+", line):
                    story.append(Paragraph(escape(" | ".join(c.strip() for c in line.strip("|").split("|"))), body))
            continue
        text = " ".join(lines)
        match = re.fullmatch(r"#{1,6} +(.*)", text)
        inline = escape(match.group(1) if match else text)
        inline = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", inline)
        story.append(Paragraph(inline, heading if match else body))
    doc.build(story)
    return buffer.getvalue()


def pdf_from_lines(pages: list[list[tuple[float, float, str]]]) -> bytes:
    """A PDF with each string drawn at (x, y) points on its page: layouts set by hand."""
    from reportlab.lib.pagesizes import LETTER
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=LETTER)
    for page in pages:
        pdf.setFont("Helvetica", 10)
        for x, y, text in page:
            pdf.drawString(x, y, text)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


# -- hostile PDFs, written byte by byte (no reportlab): what the loader must refuse or read within its limits --

_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


class RawPdf:
    """A PDF assembled from object bodies, with a correct cross-reference table: for files no
    typesetting library would write (a page tree that loops, a stream that inflates to gigabytes)."""

    def __init__(self) -> None:
        self.objects: list[bytes | None] = []

    def add(self, body: bytes | None = None) -> int:
        """Add an object (None: a number reserved, its body set later with :meth:`set`); its number."""
        self.objects.append(body)
        return len(self.objects)

    def set(self, number: int, body: bytes) -> None:
        self.objects[number - 1] = body

    def stream(self, data: bytes, compress: bool = True) -> int:
        """A stream object holding ``data`` (Flate-compressed unless ``compress`` is False); its number."""
        if compress:
            data = zlib.compress(data)
        return self.flate(data) if compress else self.add(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(data), data))

    def flate(self, compressed: bytes) -> int:
        """A stream object of data already Flate-compressed; its number."""
        return self.add(b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(compressed), compressed))

    def build(self, root: int) -> bytes:
        out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number, body in enumerate(self.objects, 1):
            offsets.append(len(out))
            out += b"%d 0 obj\n%s\nendobj\n" % (number, body or b"null")
        xref = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(self.objects) + 1)
        out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
        out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(self.objects) + 1, root, xref)
        return bytes(out)


def text_operators(lines: list[tuple[float, float, str]]) -> bytes:
    """A content stream drawing each string at (x, y) in 10 pt Helvetica (font /F1)."""
    def literal(text: str) -> bytes:
        return text.encode("latin-1").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")

    return b"".join(b"BT /F1 10 Tf %.2f %.2f Td (%s) Tj ET\n" % (x, y, literal(text)) for x, y, text in lines)


def raw_pdf(pages: list[list[int]], pdf: RawPdf | None = None) -> bytes:
    """A PDF whose pages show the given content streams (object numbers in ``pdf``), under one page tree node."""
    pdf = pdf or RawPdf()
    catalog, tree, font = pdf.add(), pdf.add(), pdf.add(_FONT)
    kids = [pdf.add(_page(tree, contents, font)) for contents in pages]
    pdf.set(catalog, b"<< /Type /Catalog /Pages %d 0 R >>" % tree)
    pdf.set(tree, b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids)))
    return pdf.build(catalog)


def _page(parent: int, contents: list[int], font: int) -> bytes:
    refs = b" ".join(b"%d 0 R" % c for c in contents)
    return (b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents [%s] /Resources << /Font << /F1 %d 0 R >> >> >>"
            % (parent, refs, font))


def _clause_page(pdf: RawPdf, first: int = 1, count: int = 40) -> int:
    return pdf.stream(text_operators([(72, 740 - 16 * k, f"{first + k}. The Customer shall pay invoice {first + k} within 30 days.")
                                      for k in range(count)]))


def flate_bomb_pdf(unpacked: int) -> bytes:
    """One page of text plus a content stream that inflates to ``unpacked`` bytes of no-op operators."""
    from conflictkit.testing.hostile import deflate_bomb

    pdf = RawPdf()
    text = _clause_page(pdf, count=3)
    bomb = pdf.flate(deflate_bomb(unpacked)[0])
    return raw_pdf([[text, bomb]], pdf)


def page_tree_loop_pdf() -> bytes:
    """A page tree whose root lists itself among its kids."""
    pdf = RawPdf()
    catalog, tree, font = pdf.add(), pdf.add(), pdf.add(_FONT)
    page = pdf.add(_page(tree, [_clause_page(pdf, count=2)], font))
    pdf.set(catalog, b"<< /Type /Catalog /Pages %d 0 R >>" % tree)
    pdf.set(tree, b"<< /Type /Pages /Kids [%d 0 R %d 0 R] /Count 2 >>" % (page, tree))
    return pdf.build(catalog)


def deep_page_tree_pdf(depth: int) -> bytes:
    """One page under ``depth`` nested page tree nodes."""
    pdf = RawPdf()
    catalog, font = pdf.add(), pdf.add(_FONT)
    nodes = [pdf.add() for _ in range(depth)]
    page = pdf.add(_page(nodes[-1], [_clause_page(pdf, count=2)], font))
    for level, node in enumerate(nodes):
        kid = nodes[level + 1] if level + 1 < depth else page
        parent = b"/Parent %d 0 R " % nodes[level - 1] if level else b""
        pdf.set(node, b"<< /Type /Pages %s/Kids [%d 0 R] /Count 1 >>" % (parent, kid))
    pdf.set(catalog, b"<< /Type /Catalog /Pages %d 0 R >>" % nodes[0])
    return pdf.build(catalog)


def shared_stream_pdf(pages: int) -> bytes:
    """``pages`` pages that all show one content stream of 40 clauses (a file of ~160 bytes a page)."""
    pdf = RawPdf()
    shared = _clause_page(pdf)
    return raw_pdf([[shared]] * pages, pdf)


def drawing_operators_pdf(operators: int) -> bytes:
    """One page with a line of text and ``operators`` filled rectangles (each its own path object)."""
    pdf = RawPdf()
    ops = text_operators([(72, 740, "The Customer shall pay within 30 days.")])
    ops += b"".join(b"%d %d 2 2 re f\n" % (k % 600, (k // 600) % 700) for k in range(operators))
    return raw_pdf([[pdf.stream(ops)]], pdf)


def text_objects_pdf(objects: int, per_line: int = 10) -> bytes:
    """One page with ``objects`` text objects, one word each, ``per_line`` to a line."""
    pdf = RawPdf()
    words = [(40 + (k % per_line) * 52, 760 - 11 * ((k // per_line) % 68), f"w{k}") for k in range(objects)]
    return raw_pdf([[pdf.stream(text_operators(words))]], pdf)
