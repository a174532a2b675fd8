"""The ``docx`` report format: ``--format docx --out DIR`` writes report.docx, the input as a Word redline."""

from __future__ import annotations

from typing import ClassVar

from conflictkit.stages import Renderer, Rendering


class DocxRenderer(Renderer):
    """report.docx: the input with the reference's differences as tracked changes and a Word comment per finding."""

    name = "docx"
    filename: ClassVar[str | None] = "report.docx"
    printable: ClassVar[bool] = False

    def render(self, rendering: Rendering) -> bytes:
        from conflictkit_docx.redline import report_docx

        return report_docx(rendering)
