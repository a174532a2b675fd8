"""Registers the ``docx`` loader and the ``docx`` report format (entry point group ``conflictkit``)."""

from __future__ import annotations

from conflictkit import hookimpl


@hookimpl
def register_loaders(register):
    from conflictkit_docx.loader import DocxLoader

    register(DocxLoader)


@hookimpl
def register_renderers(register):
    from conflictkit_docx.renderer import DocxRenderer

    register(DocxRenderer)
