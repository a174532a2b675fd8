"""The ``text`` and ``markdown`` loaders: the file's UTF-8 text is the document text, unchanged."""

from __future__ import annotations

from typing import ClassVar

from conflictkit.loaders import decode_text
from conflictkit.model import DocumentSource
from conflictkit.stages import LoadedText, Loader, Revision


class TextLoader(Loader):
    """Plain text (UTF-8): the text as it is; also the fallback for unknown extensions."""

    name = "text"
    extensions: ClassVar[tuple[str, ...]] = (".txt", ".text")
    format: ClassVar[str] = "text"

    def load(self, data: bytes, name: str, revision: Revision = "accepted") -> LoadedText:
        text = decode_text(data, name)
        return LoadedText(text=text, source=DocumentSource(format=self.format, loader=self.name))


class MarkdownLoader(TextLoader):
    """Markdown (UTF-8), inline HTML included: the text as it is; the segmenter reads its structure."""

    name = "markdown"
    extensions: ClassVar[tuple[str, ...]] = (".md", ".markdown", ".mdown", ".mkd")
    format: ClassVar[str] = "markdown"
