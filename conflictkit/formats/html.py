"""The ``html`` loader: an HTML page's text, its block structure kept as paragraph breaks.

Tags are stripped; headings (h1-h6) become Markdown headings, and every block element (p, li, div,
table row, blockquote...) ends a paragraph, so the rules segmenter cuts where the page does.
Ordered-list items get the number a browser would show ("3." or "(b)"). Scripts, styles,
templates and hidden elements are dropped. Each paragraph keeps its line and character offset in
the HTML source (``location``).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import ClassVar

from conflictkit.errors import InputError
from conflictkit.formats.numerals import roman
from conflictkit.loaders import decode_text
from conflictkit.model import DocumentSource, SourceBlock
from conflictkit.stages import LoadedText, Loader, Revision

_BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "caption", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "thead", "tfoot", "tr", "ul",
})
_DROPPED = frozenset({"script", "style", "noscript", "template", "head", "svg", "math", "iframe", "object", "select"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
_SPACES = re.compile(r"[ \t\r\n\f]+")
_CHARSET = re.compile(rb"<meta[^>]+charset=[\"']?([A-Za-z0-9_-]+)", re.IGNORECASE)
_SNIFF = re.compile(rb"\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html[\s>])", re.IGNORECASE | re.DOTALL)


def list_label(number: int, kind: str) -> str:
    """The label a browser shows for item ``number`` of an ``<ol type=kind>``."""
    if kind in ("a", "A"):
        letters = ""
        while number > 0:
            number, rem = divmod(number - 1, 26)
            letters = chr(ord("a") + rem) + letters
        return f"({letters if kind == 'a' else letters.upper()})"
    if kind in ("i", "I"):
        return f"({roman(number) if kind == 'i' else roman(number).upper()})"
    return f"{number}."


class _Extractor(HTMLParser):
    """One pass over the page: text of each block, with the source position where the block began."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", source)]
        self.parts: list[str] = []
        self.blocks: list[SourceBlock] = []
        self.length = 0
        self.buffer: list[str] = []
        self.prefix = ""
        self.block_pos: tuple[int, int] = (1, 0)
        self.skip: list[str] = []
        self.lists: list[list] = []  # [tag, next number, type]
        self.pre = 0
        self.dropped = 0
        self.tables: list[list[int]] = []  # [id, rows read so far] of each open table
        self.table_count = 0
        self.row_cells = 0
        self.in_row = False
        self.row_depth = 0
        self.last_table: int | None = None  # the id of the table the last block was a row of

    # -- helpers --------------------------------------------------------------------------------

    def _flush(self, row_of: int | None = None) -> None:
        text = "\n".join(" ".join(line.split()) for line in "".join(self.buffer).split("\n")).strip()
        text = re.sub(r"\n{2,}", "\n", text)
        if row_of is not None:
            text = text.replace("\n", " ")
        if text:
            if self.parts:
                gap = "\n" if row_of is not None and row_of == self.last_table else "\n\n"  # rows of one table stay one table
                self.parts.append(gap)
                self.length += len(gap)
            body = self.prefix + text
            if row_of is not None:
                body += " |"
                self.tables[-1][1] += 1
                if self.tables[-1][1] == 1:
                    body += "\n|" + "---|" * (self.row_cells or 1)
            self.last_table = row_of
            line, col = self.block_pos
            start = self.length
            self.parts.append(body)
            self.length += len(body)
            self.blocks.append(SourceBlock(start=start, end=self.length, location={
                "paragraph": len(self.blocks), "line": line, "offset": self.line_starts[line - 1] + col,
            }))
        self.buffer, self.prefix = [], ""
        self.block_pos = self.getpos()

    def _start_block(self, prefix: str = "") -> None:
        if not "".join(self.buffer).strip():
            # <li><p>text: the item's number stays with its text; an empty heading is no heading
            self.prefix = prefix if self.prefix.startswith("#") else self.prefix + prefix
            self.buffer = []
            return
        self._flush()
        self.prefix = prefix

    # -- parser callbacks -----------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if self.skip or tag in _DROPPED or "hidden" in attributes \
                or re.search(r"display\s*:\s*none", attributes.get("style") or ""):
            if tag not in _VOID:
                self.skip.append(tag)
                self.dropped += tag in ("script", "style")
            return
        if tag == "br":
            self.buffer.append("\n")
            return
        if self.in_row:  # inside a cell, blocks (even a nested table) are only spaces
            if tag in ("td", "th") and self.tables and len(self.tables) == self.row_depth:
                if self.row_cells:
                    self.buffer.append(" | ")
                self.row_cells += 1
            elif tag in _BLOCKS or tag in ("td", "th"):
                self.buffer.append(" ")
            return
        if tag == "table":
            self._flush()
            self.table_count += 1
            self.tables.append([self.table_count, 0])
            return
        if tag == "tr" and self.tables:
            self._flush()
            self.prefix, self.row_cells, self.in_row, self.row_depth = "| ", 0, True, len(self.tables)
            return
        if tag == "pre":
            self.pre += 1
        if tag in ("ol", "ul"):
            start = attributes.get("start") or "1"
            self.lists.append([tag, int(start) if start.isdigit() else 1, attributes.get("type") or "1"])
        if tag in _BLOCKS:
            prefix = ""
            if tag[0] == "h" and tag[1:].isdigit():
                prefix = "#" * int(tag[1:]) + " "
            elif tag == "li" and self.lists and self.lists[-1][0] == "ol":
                current = self.lists[-1]
                value = attributes.get("value")
                if value and value.isdigit():
                    current[1] = int(value)
                prefix = list_label(current[1], current[2]) + " "
                current[1] += 1
            self._start_block(prefix)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" and not self.skip:
            self.buffer.append("\n")
        elif tag in _BLOCKS and not self.skip:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            if tag == self.skip[-1]:
                self.skip.pop()
            elif tag in self.skip:  # unclosed children inside a dropped element
                del self.skip[self.skip.index(tag):]
            return
        if tag == "pre":
            self.pre = max(0, self.pre - 1)
        if tag in ("ol", "ul") and self.lists:
            self.lists.pop()
        if self.in_row:
            if tag == "tr":
                self._flush(row_of=self.tables[-1][0])
                self.row_cells, self.in_row = 0, False
            elif tag == "table" and len(self.tables) == self.row_depth:  # a row left open
                self._flush(row_of=self.tables[-1][0])
                self.row_cells, self.in_row = 0, False
                self.tables.pop()
            return
        if tag == "table" and self.tables:
            self._flush()
            self.tables.pop()
        elif tag in _BLOCKS:
            self._flush()

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if not "".join(self.buffer).strip() and not self.prefix and not self.buffer:
            self.block_pos = self.getpos()
        self.buffer.append(data if self.pre else _SPACES.sub(" ", data))

    def close(self) -> None:
        super().close()
        self._flush()


def _decode(data: bytes, name: str) -> str:
    declared = _CHARSET.search(data[:4096])
    charset = declared.group(1).decode("ascii").lower() if declared else "utf-8"
    if charset in ("utf-8", "utf8"):
        return decode_text(data, name)
    try:
        return data.decode(charset)
    except (LookupError, UnicodeDecodeError) as exc:
        raise InputError(f"{name} declares charset {charset!r} but cannot be decoded with it ({exc}); "
                         "save the page as UTF-8") from None


def html_text(source: str) -> tuple[str, list[SourceBlock], int]:
    """The document text of an HTML page, its blocks, and how many scripts and styles were dropped."""
    parser = _Extractor(source)
    parser.feed(source)
    parser.close()
    return "".join(parser.parts), parser.blocks, parser.dropped


class HtmlLoader(Loader):
    """HTML pages: tags stripped, blocks (h1-h6, p, li, table rows) as paragraphs, scripts and styles dropped."""

    name = "html"
    extensions: ClassVar[tuple[str, ...]] = (".html", ".htm", ".xhtml")

    @classmethod
    def sniff(cls, data: bytes) -> bool:
        return _SNIFF.match(data[:2048].lstrip(b"\xef\xbb\xbf")) is not None

    def load(self, data: bytes, name: str, revision: Revision = "accepted") -> LoadedText:
        text, blocks, dropped = html_text(_decode(data, name))
        if not text.strip():
            what = f" outside its {dropped} script and style elements" if dropped else ""
            raise InputError(f"{name} is an HTML page with no text{what}; save the rendered page as text or PDF and compare that")
        details = {"paragraphs": len(blocks), "scripts_and_styles_dropped": dropped}
        return LoadedText(text=text, source=DocumentSource(format="html", loader=self.name, blocks=blocks, details=details))
