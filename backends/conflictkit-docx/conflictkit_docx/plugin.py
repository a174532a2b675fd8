"""Registers the ``docx`` loader and the ``docx`` report format (entry point group ``conflictkit``)."""

from __future__ import annotations

from conflictkit import hookimpl
from conflictkit_docx.loader import DocxLoader
from conflictkit_docx.renderer import DocxRenderer


@hookimpl
def register_loaders(register):
    register(DocxLoader)


@hookimpl
def register_renderers(register):
    register(DocxRenderer)
