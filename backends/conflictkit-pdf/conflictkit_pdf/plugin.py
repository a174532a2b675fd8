"""Registers the ``pdf`` loader (entry point group ``conflictkit``)."""

from __future__ import annotations

from conflictkit import hookimpl
from conflictkit_pdf.loader import PdfLoader


@hookimpl
def register_loaders(register):
    register(PdfLoader)
