"""Markdown block structure from markdown-it-py, as blocks of the normalized text.

markdown-it parses the original text (normalization strips the indentation that nests lists) and
says, by source line, where each heading, paragraph, list item, table row, quote and code block
is: a heading inside a list item (``1. ## Service``), a setext heading, a lazy continuation line,
a table row are what CommonMark says they are, not what a line looks like. Inside a paragraph a
line break is soft: a line starts a new block only where it opens with a numbering label
("(a)", "2.1"), a field ("Name:") or follows a title line, as :class:`~.blocks.Paragraphs` decides
with a soft layout. Positions are mapped to the normalized text once, for all lines together.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from conflictkit.model import Document
from conflictkit.segmenters.blocks import (
    Block,
    Layout,
    Line,
    Paragraphs,
    front_matter_end,
    label_of,
    mark_titles_and_artefacts,
)
from conflictkit.segmenters.labels import Label

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_QUOTE_PREFIX = re.compile(r"[ \t]*(?:>[ \t]?)*")
_ORDERED_MARKER = re.compile(r"[ \t]*(?:>[ \t]?)*[ \t]*\d{1,9}[.)](?:[ \t]+|$)")
_BULLET_MARKER = re.compile(r"[ \t]*(?:>[ \t]?)*[ \t]*[-*+](?:[ \t]+|$)")
_ATX_MARKS = re.compile(r"[ \t]*#{1,6}(?:[ \t]+|$)")
_SOFT = Layout(wrapped=True, width=80, soft=True)
MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd", ".mkdn")
_MARKDOWN_SIGNS = re.compile(r"^(?:#{1,6}[ \t]+\S|[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*\|)", re.MULTILINE)


def is_markdown(document: Document) -> bool:
    """Whether to read ``document`` as Markdown: by its file suffix, or, without one, by ATX headings or tables."""
    path = document.path.lower()
    if path.endswith(MARKDOWN_SUFFIXES):
        return True
    if path.endswith((".txt", ".text")):
        return False
    return _MARKDOWN_SIGNS.search(document.original, 0, 200_000) is not None


@cache
def _parser():
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark", {"html": True}).enable("table")
    parser.core.ruler.disable(["inline", "text_join"])  # only block structure is read: inline is 60% of the time
    return parser


@dataclass
class _Source:
    """The original text cut into lines, and the map from original offsets to normalized ones."""

    document: Document
    starts: list[int] = field(default_factory=list)  # original offset of each line
    ends: list[int] = field(default_factory=list)  # original offset of each line's end (before its break)

    def __post_init__(self) -> None:
        original = self.document.original
        pos = 0
        for m in _LINE_BREAK.finditer(original):
            self.starts.append(pos)
            self.ends.append(m.start())
            pos = m.end()
        self.starts.append(pos)
        self.ends.append(len(original))

    def line(self, i: int) -> str:
        return self.document.original[self.starts[i]:self.ends[i]]


@dataclass
class _Raw:
    """A line of a block before mapping: original offsets of its content and of a list marker."""

    line: int
    content: int  # where the content starts
    end: int  # where the content ends, trailing spaces trimmed
    indent: int  # columns before the list marker, or before the content
    content_indent: int  # columns before the content (past a list marker)
    marker: Label | None = None
    marker_start: int = 0


@dataclass
class _Item:
    """An open list item: its rendered label, until its first block takes it."""

    label: Label
    pending: bool = True


@dataclass
class _Unit:
    """One markdown block: a heading, a table row, code, or a paragraph (lines to group)."""

    kind: str  # "heading", "row", "code", "para"
    lines: list[_Raw]
    level: int = 0
    header: bool = False
    marker: Label | None = None


class _Walker:
    """Walks markdown-it's tokens and collects units, tracking open lists, items and quotes."""

    def __init__(self, source: _Source) -> None:
        self.source = source
        self.units: list[_Unit] = []
        self.lists: list[list[int]] = []  # per open list: [next number, ordered (1) or bullet (0)]
        self.items: list[_Item] = []
        self.in_head = False
        self.skip_until = 0

    def walk(self, tokens) -> list[_Unit]:
        for i, token in enumerate(tokens):
            handler = getattr(self, "_" + token.type, None)
            if handler is not None:
                handler(token, tokens, i)
        return self.units

    # -- containers -------------------------------------------------------------------------
    def _ordered_list_open(self, token, tokens, i) -> None:
        start = token.attrGet("start")
        first = int(start) if start is not None else 1
        self.lists.append([first, 1, first])

    def _bullet_list_open(self, token, tokens, i) -> None:
        self.lists.append([0, 0, 0])

    def _ordered_list_close(self, token, tokens, i) -> None:
        self.lists.pop()

    _bullet_list_close = _ordered_list_close

    def _list_item_open(self, token, tokens, i) -> None:
        number, ordered, first = self.lists[-1]
        if ordered:
            self.lists[-1][0] += 1
            # The number as written is the clause's number (cross-references cite it, and a deleted
            # clause must not renumber the rest), except in lazy lists that repeat the first number
            # ("1. 1. 1."), which Markdown renders 1, 2, 3: there the rendered number is the label.
            written = int(token.info) if token.info.isdigit() else None
            if written is not None and not (written == first and number != first):
                number = written
            label = Label(text=str(number), end=0, kind="decimal", parts=(number,))
        else:
            label = Label(text=token.markup, end=0, kind="bullet")
        self.items.append(_Item(label))

    def _list_item_close(self, token, tokens, i) -> None:
        self.items.pop()

    def _thead_open(self, token, tokens, i) -> None:
        self.in_head = True

    def _thead_close(self, token, tokens, i) -> None:
        self.in_head = False

    def _take_marker(self) -> Label | None:
        """The list marker of the innermost item when this is its first block (enclosing items lose theirs)."""
        label = self.items[-1].label if self.items and self.items[-1].pending else None
        for item in self.items:
            item.pending = False
        return label

    # -- blocks -----------------------------------------------------------------------------
    def _heading_open(self, token, tokens, i) -> None:
        first, last = token.map
        setext = token.markup[:1] in ("=", "-")
        if setext:
            last -= 1  # the underline is markup
        marker = self._take_marker()
        lines = [self._raw(n, marker if n == first else None, atx=not setext and n == first)
                 for n in range(first, max(last, first + 1))]
        self.units.append(_Unit("heading", lines, level=int(token.tag[1]), marker=marker))

    def _paragraph_open(self, token, tokens, i) -> None:
        first, last = token.map
        marker = self._take_marker()
        lines = [self._raw(n, marker if n == first else None) for n in range(first, last)]
        self.units.append(_Unit("para", lines))

    def _tr_open(self, token, tokens, i) -> None:
        if token.map is None:
            return
        first, last = token.map
        self._take_marker()
        self.units.append(_Unit("row", [self._raw(n) for n in range(first, last)], header=self.in_head))

    def _fence(self, token, tokens, i) -> None:
        first, last = token.map
        self._take_marker()
        body = range(first + 1, last - 1 if last - first > 1 and self._closes_fence(last - 1) else last)
        if len(body):
            self.units.append(_Unit("code", [self._raw(n) for n in body]))

    def _code_block(self, token, tokens, i) -> None:
        self._lines_as_paragraph(token)

    def _html_block(self, token, tokens, i) -> None:
        self._lines_as_paragraph(token)

    def _lines_as_paragraph(self, token) -> None:
        first, last = token.map
        marker = self._take_marker()
        self.units.append(_Unit("para", [self._raw(n, marker if n == first else None) for n in range(first, last)]))

    def _closes_fence(self, n: int) -> bool:
        stripped = _QUOTE_PREFIX.sub("", self.source.line(n), count=1).strip()
        return stripped.startswith(("```", "~~~"))

    # -- lines ------------------------------------------------------------------------------
    def _raw(self, n: int, marker: Label | None = None, atx: bool = False) -> _Raw:
        """Line ``n`` past its container prefix: quote marks and indentation, the list marker, the ATX marks."""
        text = self.source.line(n)
        base = self.source.starts[n]
        pos = marker_pos = _QUOTE_PREFIX.match(text).end()
        indent = _columns(text[:pos])
        if marker is not None:
            pattern = _ORDERED_MARKER if marker.kind == "decimal" else _BULLET_MARKER
            m = pattern.match(text)
            if m is not None:
                pos = m.end()
        content_indent = indent if pos == marker_pos else _columns(text[:pos])
        if atx:
            m = _ATX_MARKS.match(text, pos)
            if m is not None:
                pos = m.end()
        end = len(text.rstrip(" \t"))
        return _Raw(n, base + min(pos, end), base + end, indent, content_indent, marker, base + marker_pos)


def _columns(prefix: str) -> int:
    """Columns of whitespace and markers in a line's prefix (a tab counts 4; quote marks count 0)."""
    return sum(4 if c == "\t" else 1 for c in prefix if c != ">")


def markdown_blocks(document: Document) -> list[Block]:
    """The blocks of a Markdown ``document`` in document order, offsets into ``document.normalized``."""
    source = _Source(document)
    lines_for_front = [Line(0, 0, 0, 0, source.line(n).strip()) for n in range(min(len(source.starts), 400))]
    skip = front_matter_end(lines_for_front)
    text = document.original
    if skip:  # YAML front matter is file metadata: parse what follows it, line numbers kept
        text = "\n" * skip + text[source.starts[skip]:] if skip < len(source.starts) else ""
    units = _Walker(source).walk(_parser().parse(text))
    positions = np.array([p for unit in units for raw in unit.lines for p in (raw.marker_start, raw.content, raw.end)],
                         dtype=np.int64)
    mapped = iter(np.searchsorted(document.offsets, positions, side="left").tolist())
    normalized = document.normalized
    blocks: list[Block] = []
    for unit in units:
        lines = []
        for raw in unit.lines:
            marker_start, start, end = next(mapped), next(mapped), next(mapped)
            lines.append((raw, marker_start, Line(start, end, raw.content_indent, start, normalized[start:end])))
        _emit(unit, lines, blocks, normalized)
    mark_titles_and_artefacts(blocks, normalized)
    return blocks


def _emit(unit: _Unit, lines: list[tuple[_Raw, int, Line]], blocks: list[Block], normalized: str) -> None:
    """Append the blocks of one markdown unit."""
    text_lines = [(raw, marker_start, line) for raw, marker_start, line in lines if line.content]
    if not text_lines:
        return
    raw, marker_start, first = text_lines[0]
    end = text_lines[-1][2].content_start + len(text_lines[-1][2].content)
    if unit.kind == "heading":
        label, offset = label_of(first.content)
        if label is not None and label.kind == "bullet":
            label, offset = None, 0
        if unit.marker is not None:  # "1. ## Service": the list number is the heading's section
            label, offset, start = unit.marker, 0, marker_start
        else:
            start = first.content_start
        blocks.append(Block(start, end, first.content_start + offset, raw.indent, "heading", label, unit.level,
                            lines=len(text_lines), soft=True))
    elif unit.kind == "row":
        previous = blocks[-1] if blocks else None
        if previous is not None and previous.kind == "row" and normalized.startswith("|", previous.start) \
                and not first.content.startswith("|"):
            blocks[-1].end = end  # a cell hard-wrapped onto the next line is part of its row
            return
        blocks.append(Block(first.content_start, end, first.content_start, raw.indent, "row", header=unit.header))
    elif unit.kind == "code":
        blocks.append(Block(first.content_start, end, first.content_start, raw.indent, "para"))
    else:
        paragraphs = Paragraphs(_SOFT, blocks)
        for raw, marker_start, line in text_lines:
            if raw.marker is not None:
                paragraphs.add(line, raw.marker, marker_start, raw.indent)
            else:
                paragraphs.add(line)
        paragraphs.close()

