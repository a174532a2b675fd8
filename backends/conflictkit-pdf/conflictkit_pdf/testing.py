"""Building PDFs in tests with reportlab: contracts set in two columns over several pages, with a
running header, a running footer with page numbers, and words hyphenated at line ends."""

from __future__ import annotations

import io
import re
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
