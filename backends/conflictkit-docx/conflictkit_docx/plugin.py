"""Registers the ``docx`` loader (entry point group ``conflictkit``)."""

from __future__ import annotations

from conflictkit import hookimpl
from conflictkit_docx.loader import DocxLoader


@hookimpl
def register_loaders(register):
    register(DocxLoader)
