"""Registers the ``pdf`` loader (entry point group ``conflictkit``)."""

from __future__ import annotations

from conflictkit import hookimpl


@hookimpl
def register_loaders(register):
    from conflictkit_pdf.loader import PdfLoader

    register(PdfLoader)
