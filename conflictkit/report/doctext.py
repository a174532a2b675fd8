"""What a reader sees of a document: its text rendered once, for every view.

Every view (the terminal, report.md, the HTML report and the review app, the Word redline and its
comments, ``--format redline``) shows a document's *rendered* text: Markdown emphasis as marks,
inline HTML tags dropped, entities and escapes decoded, list labels as the reader sees them
("4.", "•"), headings without their ``#``, tables as cells. :func:`render_document` renders a
document text once into a :class:`RenderedDocument` whose every character knows the offset in the
document text it came from, so a view can show any cited span (``[start, end)`` of the document
text, as report.json gives it) as rendered text, and every highlight still indexes the original.

Markdown is read by markdown-it-py (CommonMark with tables and strikethrough), the same parser
the segmenter reads block structure with. The text extracted from Word, HTML and PDF files is
literal (a ``*`` in a Word paragraph is an asterisk), with the structure the loaders write into
it: ``#`` headings, numbering labels, ``| cell |`` table rows, blank lines between paragraphs.
"""

from __future__ import annotations

import hashlib
import re
import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

MARKS = ("bold", "italic", "strike", "code")
_MARK_OF = {"strong": "bold", "em": "italic", "s": "strike"}
_BULLET = "\u2022"
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_HEADING = re.compile(r"(#{1,6})[ \t]+")
_TAG = re.compile(r"<!--.*?-->|</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>", re.DOTALL)
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_TAG_OR_ENTITY = re.compile(f"{_TAG.pattern}|{_ENTITY.pattern}", re.DOTALL)
_DELIMITER_ROW = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")
_WHITESPACE = re.compile(r"\s+")
MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd", ".mkdn")
_MARKDOWN_SIGNS = re.compile(r"^(?:#{1,6}[ \t]+\S|[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*\|)", re.MULTILINE)


@dataclass(frozen=True)
class Container:
    """A block that holds leaves: a list (``ol``, ``ul``), an item (``li``), a quote, a table, a row.

    ``value`` is an ordered item's number as written ("4"), or an ordered list's first number.
    """

    id: int
    tag: str
    value: str = ""


@dataclass(frozen=True)
class Leaf:
    """One block of inline text: a heading, a paragraph, a table cell (``th``/``td``) or code.

    ``[start, end)`` is its range of the rendered text, its label included: ``[start, label_end)``
    is the label a reader sees ("4.", "(b)", "•") and the space after it. ``role`` is "body", or
    where a loader says non-operative text came from (a header, a footnote).
    """

    kind: str
    start: int
    end: int
    label_end: int
    level: int = 0
    containers: tuple[Container, ...] = ()
    role: str = "body"
    marker: bool = False  # the label is its list item's marker (a list draws it), not text typed in the leaf

    @property
    def row(self) -> Container | None:
        """The table row of a cell, None for any other leaf."""
        return next((c for c in reversed(self.containers) if c.tag == "tr"), None)


@dataclass
class RenderedDocument:
    """A document's rendered text, the offset in the document text of each character, marks and leaves.

    ``offsets`` has one entry per rendered character plus one (the document's length) and never
    decreases; a character the renderer adds (a bullet, the line break between leaves) takes the
    offset of the text it stands for. ``marks`` are ``(start, end, mark)`` ranges of the rendered
    text, ``mark`` one of :data:`MARKS`.
    """

    text: str
    offsets: np.ndarray
    marks: list[tuple[int, int, str]]
    leaves: list[Leaf]
    format: str
    _starts: list[int] = field(default_factory=list, repr=False)
    _mark_starts: list[int] = field(default_factory=list, repr=False)
    _longest_mark: int = 0

    def __post_init__(self) -> None:
        self._starts = [leaf.start for leaf in self.leaves]
        self._mark_starts = [s for s, _, _ in self.marks]
        self._longest_mark = max((e - s for s, e, _ in self.marks), default=0)

    def range_of(self, start: int, end: int) -> tuple[int, int]:
        """The rendered range ``[a, b)`` holding what the reader sees of ``[start, end)`` of the document text."""
        a = int(np.searchsorted(self.offsets[:-1], start, side="left"))
        b = int(np.searchsorted(self.offsets[:-1], end, side="left"))
        return a, max(a, b)

    def text_of(self, start: int, end: int) -> str:
        """What the reader sees of ``[start, end)`` of the document text, every whitespace run one space."""
        a, b = self.range_of(start, end)
        return _WHITESPACE.sub(" ", self.text[a:b]).strip()

    def leaf_at(self, position: int) -> int:
        """The index of the leaf holding rendered ``position`` (or the last leaf starting before it)."""
        return max(0, bisect_right(self._starts, position) - 1)

    def marks_in(self, a: int, b: int) -> list[tuple[int, int, str]]:
        """The marks overlapping ``[a, b)``, clipped to it."""
        first = bisect_right(self._mark_starts, a - self._longest_mark)
        last = bisect_right(self._mark_starts, b)
        return [(max(a, s), min(b, e), m) for s, e, m in self.marks[first:last] if s < b and e > a]


class _Builder:
    """Collects rendered characters with their offsets, marks and leaves."""

    def __init__(self, source: str, fmt: str) -> None:
        self.source = source
        self.format = fmt
        self.parts: list[str] = []
        self.offsets: list[int] = []
        self.length = 0
        self.marks: list[tuple[int, int, str]] = []
        self.open_marks: dict[str, int] = {}
        self.leaves: list[Leaf] = []
        self.leaf: dict | None = None

    def add(self, text: str, offsets: Sequence[int] | int) -> None:
        if not text:
            return
        self.parts.append(text)
        if isinstance(offsets, int):
            self.offsets.extend([offsets] * len(text))
        else:
            self.offsets.extend(offsets)
        self.length += len(text)

    def open_leaf(self, kind: str, at: int, containers: tuple[Container, ...], level: int = 0, role: str = "body") -> None:
        if self.leaves or self.leaf is not None:
            self.close_leaf()
            self.add("\n", self._after_last(at))
        self.leaf = {"kind": kind, "start": self.length, "label_end": self.length, "level": level,
                     "containers": containers, "role": role, "marker": False}

    def _after_last(self, at: int) -> int:
        return min(at, self.offsets[-1] + 1) if self.offsets else at

    def label(self, text: str, at: int, written: bool) -> None:
        """The leaf's label (a list marker as the reader sees it) and the space after it.

        ``written``: the label is the source's own characters from ``at`` on ("4."), not a bullet glyph.
        """
        self.add(text, list(range(at, at + len(text))) if written else at)
        self.add(" ", at + len(text) if written else at)
        if self.leaf is not None:
            self.leaf["label_end"] = self.length
            self.leaf["marker"] = True

    def close_leaf(self) -> None:
        if self.leaf is None:
            return
        for mark in list(self.open_marks):  # emphasis never runs past its block
            self.close_mark(mark)
        if self.leaf["label_end"] == self.leaf["start"] and self.leaf["kind"] in ("paragraph", "heading"):
            self.leaf["label_end"] = self._written_label_end(self.leaf["start"])
        self.leaves.append(Leaf(end=self.length, **self.leaf))
        self.leaf = None

    def _written_label_end(self, start: int) -> int:
        """Where a numbering label typed at the start of a leaf ("1.1", "(a)", "Section 4") ends, spaces included."""
        from conflictkit.segmenters.labels import parse_label

        text = "".join(self.parts)[start:] if len(self.parts) < 64 else self._tail(start)
        label = parse_label(text[:80])
        if label is None or label.kind == "bullet":
            return start
        end = label.end
        while end < len(text) and text[end] in " \t":
            end += 1
        return start + end

    def _tail(self, start: int) -> str:
        """The rendered text from ``start`` on (the current leaf), without joining everything before it."""
        out, length = [], self.length
        for part in reversed(self.parts):
            out.append(part)
            length -= len(part)
            if length <= start:
                break
        return "".join(reversed(out))[start - length:]

    def open_mark(self, mark: str) -> None:
        self.open_marks.setdefault(mark, self.length)

    def close_mark(self, mark: str) -> None:
        start = self.open_marks.pop(mark, None)
        if start is not None and self.length > start:
            self.marks.append((start, self.length, mark))

    def build(self) -> RenderedDocument:
        self.close_leaf()
        offsets = np.fromiter(self.offsets, dtype=np.int64, count=len(self.offsets))
        offsets = np.append(np.maximum.accumulate(offsets) if len(offsets) else offsets, len(self.source))
        self.marks.sort()
        return RenderedDocument("".join(self.parts), offsets, self.marks, self.leaves, self.format)


class _Unmappable(Exception):
    """A piece of rendered text could not be found in the source (falls back to the literal reading)."""


# -- Markdown ------------------------------------------------------------------------------------


@cache
def markdown_parser():
    """markdown-it as every view reads a Markdown document: CommonMark, tables, strikethrough, inline HTML."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    parser.core.ruler.disable(["text_join"])  # escapes and entities stay apart, so their source is known
    return parser


class _MarkdownReader:
    """Walks markdown-it's tokens, mapping each rendered character to the source through a forward cursor."""

    def __init__(self, source: str, builder: _Builder) -> None:
        self.source = source
        self.out = builder
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", source)]
        self.cursor = 0
        self.stack: list[Container] = []
        self.ids = 0
        self.kind = "paragraph"
        self.level = 0
        self.pending_label: tuple[str, int] | None = None
        self.autolink = False

    def line_start(self, token) -> int:
        return self.line_starts[token.map[0]] if token.map and token.map[0] < len(self.line_starts) else self.cursor

    def read(self) -> None:
        for token in markdown_parser().parse(self.source):
            self.token(token)

    def push(self, tag: str, value: str = "") -> None:
        self.ids += 1
        self.stack.append(Container(self.ids, tag, value))

    def token(self, token) -> None:
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            self.push("ul" if kind[0] == "b" else "ol", token.attrGet("start") or ("1" if kind[0] == "o" else ""))
        elif kind == "list_item_open":
            self.push("li", token.info)
            marker = self._marker(token)
            label = f"{token.info}{token.markup}" if token.info else _BULLET
            self.pending_label = (label, marker)
        elif kind in ("blockquote_open", "table_open", "tr_open"):
            self.push({"blockquote_open": "blockquote", "table_open": "table", "tr_open": "tr"}[kind])
        elif kind.endswith("_close") and kind[:-6] in ("bullet_list", "ordered_list", "list_item", "blockquote", "table", "tr"):
            if self.stack:
                self.stack.pop()
            if kind == "list_item_close":
                self.pending_label = None
        elif kind in ("paragraph_open", "heading_open", "th_open", "td_open"):
            self.kind = {"paragraph_open": "paragraph", "heading_open": "heading"}.get(kind, kind[:2])
            self.level = int(token.tag[1:]) if kind == "heading_open" else 0
        elif kind == "inline":
            self.inline(token)
        elif kind in ("fence", "code_block"):
            self.literal(token, "code")
        elif kind == "html_block":
            self.literal(token, "html")

    def _marker(self, token) -> int:
        """The offset of a list item's marker ("4." or "-") in the source, and the cursor moved past it."""
        start = max(self.cursor, self.line_start(token))
        line_end = self.source.find("\n", start)
        line_end = len(self.source) if line_end < 0 else line_end
        wanted = f"{token.info}{token.markup}"
        found = self.source.find(wanted, start, line_end)
        if found < 0:
            return start
        self.cursor = found + len(wanted)
        return found

    def open_leaf(self, at: int) -> None:
        self.out.open_leaf(self.kind, at, tuple(self.stack), self.level)
        if self.pending_label is not None:  # the first leaf of a list item shows its label
            label, marker = self.pending_label
            self.out.label(label, marker, written=label != _BULLET)
            self.pending_label = None

    def inline(self, token) -> None:
        content = token.content
        base = max(self.cursor, self.line_start(token))
        offsets = self.locate(content, base)
        self.open_leaf(int(offsets[0]) if len(content) else base)
        try:
            self.children(token.children or [], content, offsets, 0)
        except _Unmappable:
            self.out.add(_TAG.sub("", content), int(offsets[0]))  # a reading the cursor could not follow: literal
        self.cursor = max(self.cursor, int(offsets[-1]))
        self.kind, self.level = "paragraph", 0

    def children(self, children, content: str, offsets: np.ndarray, c: int) -> int:
        out = self.out
        for child in children:
            kind = child.type
            if kind == "text":
                if child.content:
                    i = _find(content, child.content, c)
                    out.add(child.content, offsets[i : i + len(child.content)].tolist())
                    c = i + len(child.content)
            elif kind == "text_special":
                i = _find(content, child.markup or child.content, c)
                out.add(child.content, int(offsets[i]))
                c = i + len(child.markup or child.content)
            elif kind in ("softbreak", "hardbreak"):
                i = _find(content, "\n", c)
                out.add(" " if kind == "softbreak" else "\n", int(offsets[i]))
                c = i + 1
            elif kind == "code_inline":
                i = _find(content, child.markup, c) + len(child.markup)
                j = content.find(child.content, i)
                out.open_mark("code")
                if j >= 0:
                    out.add(child.content, offsets[j : j + len(child.content)].tolist())
                    c = j + len(child.content)
                else:  # line breaks inside a code span read as spaces: take the text as the source has it
                    end = _find(content, child.markup, i)
                    out.add(_WHITESPACE.sub(" ", content[i:end]).strip(), int(offsets[i]))
                    c = end
                out.close_mark("code")
                c = _find(content, child.markup, c) + len(child.markup)
            elif kind.endswith("_open") and kind[:-5] in _MARK_OF:
                c = _find(content, child.markup, c) + len(child.markup)
                out.open_mark(_MARK_OF[kind[:-5]])
            elif kind.endswith("_close") and kind[:-6] in _MARK_OF:
                c = _find(content, child.markup, c) + len(child.markup)
                out.close_mark(_MARK_OF[kind[:-6]])
            elif kind == "link_open":
                c = _find(content, "<" if child.markup == "autolink" else "[", c) + 1
                self.autolink = child.markup == "autolink"
            elif kind == "link_close":
                c = _find(content, ">", c) + 1 if self.autolink else _link_tail(content, c)
            elif kind == "image":
                c = _find(content, "![", c) + 2
                c = self.children(child.children or [], content, offsets, c)
                c = _link_tail(content, c)
            elif kind == "html_inline":
                c = _find(content, child.content, c) + len(child.content)
        return c

    def literal(self, token, kind: str) -> None:
        """A code block or raw HTML between paragraphs: its text without tags (entities decoded in HTML).

        An indented block in a contract is nearly always an indentation accident, not code: its
        inline tags are dropped as everywhere else, so no view shows them.
        """
        import html as html_module

        content = token.content.rstrip("\n")
        offsets = self.locate(content, max(self.cursor, self.line_start(token)))
        pattern = _TAG_OR_ENTITY if kind == "html" else _TAG
        pieces: list[tuple[str, int | list[int]]] = []
        pos = 0
        for m in pattern.finditer(content):
            if m.start() > pos:
                pieces.append((content[pos : m.start()], offsets[pos : m.start()].tolist()))
            if m.group().startswith("&"):
                pieces.append((html_module.unescape(m.group()), int(offsets[m.start()])))
            pos = m.end()
        pieces.append((content[pos:], offsets[pos : len(content)].tolist()))
        self.cursor = max(self.cursor, int(offsets[-1]))
        if not "".join(text for text, _ in pieces).strip():
            return
        self.kind = "code" if kind == "code" else "paragraph"
        self.open_leaf(int(offsets[0]))
        for text, where in pieces:
            self.out.add(text, where)
        self.kind = "paragraph"

    def locate(self, content: str, base: int) -> np.ndarray:
        """The source offset of each character of a block's ``content`` (indentation and quote marks taken out)."""
        source = self.source
        result = np.empty(len(content) + 1, dtype=np.int64)
        pos, ci = base, 0
        for k, piece in enumerate(content.split("\n")):
            if k:
                newline = source.find("\n", pos)
                newline = len(source) if newline < 0 else newline
                result[ci] = min(newline, len(source) - 1) if source else 0
                ci += 1
                pos = newline + 1
            if not piece:
                continue
            found = source.find(piece, pos)
            line_end = source.find("\n", pos)
            if found >= 0 and (line_end < 0 or found <= line_end):
                result[ci : ci + len(piece)] = np.arange(found, found + len(piece))
                pos = found + len(piece)
            else:  # tabs read as spaces: match character by character, any whitespace for whitespace
                for ch in piece:
                    while pos < len(source) and not (source[pos] == ch or (ch.isspace() and source[pos].isspace())):
                        pos += 1
                    result[ci] = min(pos, max(0, len(source) - 1))
                    ci += 1
                    pos += 1
                continue
            ci += len(piece)
        result[len(content)] = min(pos, len(source))
        if len(content) == 0:
            result[0] = min(base, len(source))
        return result


def _find(content: str, part: str, start: int) -> int:
    found = content.find(part, start)
    if found < 0:
        raise _Unmappable(part)
    return found


def _link_tail(content: str, c: int) -> int:
    """Past the ``](destination "title")``, ``][label]`` or ``]`` that closes a link's text."""
    i = _find(content, "]", c) + 1
    if content.startswith("(", i):
        depth, j = 0, i
        while j < len(content):
            ch = content[j]
            if ch == "\\":
                j += 2
                continue
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        raise _Unmappable("(")
    if content.startswith("[", i):
        return _find(content, "]", i) + 1
    return i


# -- Text extracted from Word, HTML and PDF files; plain text --------------------------------------


def _paragraphs(text: str, blocks: Sequence | None) -> list[tuple[int, int, str]]:
    """``(start, end, role)`` of each paragraph: the loader's blocks where it gave them, else blank-line separated."""
    if blocks:
        return [(b.start, b.end, getattr(b, "role", "body")) for b in blocks if b.end > b.start]
    out, pos = [], 0
    for m in _PARAGRAPH_BREAK.finditer(text):
        out.append((pos, m.start(), "body"))
        pos = m.end()
    out.append((pos, len(text), "body"))
    return [(s, e, r) for s, e, r in out if text[s:e].strip()]


def _read_structured(source: str, out: _Builder, blocks: Sequence | None, soft_lines: bool) -> None:
    """Literal text in paragraphs; ``#`` headings, labels and ``| cell |`` rows as the loaders write them."""
    ids = 0
    table: Container | None = None
    for start, end, role in _paragraphs(source, blocks):
        chunk = source[start:end]
        lines = chunk.split("\n")
        if all(line.strip().startswith("|") for line in lines):
            if table is None:
                ids += 1
                table = Container(ids, "table")
            for k, line in enumerate(lines):
                line_start = start + sum(len(x) + 1 for x in lines[:k])
                if _DELIMITER_ROW.fullmatch(line):
                    continue
                ids += 1
                row = Container(ids, "tr")
                _cells(source, line, line_start, out, (table, row), role)
            continue
        table = None
        heading = _HEADING.match(chunk)
        kind, level, body = "paragraph", 0, start
        if heading and out.format in ("docx", "html"):
            kind, level, body = "heading", len(heading.group(1)), start + heading.end()
        while body < end and source[body] in " \t":
            body += 1
        out.open_leaf(kind, body, (), level, role)
        _literal(source, body, end, out, soft_lines)


def _cells(source: str, line: str, line_start: int, out: _Builder, containers: tuple[Container, ...], role: str) -> None:
    inner_start = line.index("|") + 1
    inner_end = line.rstrip().rfind("|")
    inner_end = len(line) if inner_end < inner_start else inner_end
    pos = inner_start
    for piece in line[inner_start:inner_end].split(" | ") if " | " in line[inner_start:inner_end] else [line[inner_start:inner_end]]:
        cell_start = line_start + pos
        stripped_lead = len(piece) - len(piece.lstrip())
        text = piece.strip()
        at = cell_start + stripped_lead
        out.open_leaf("td", at, containers, 0, role)
        out.add(text, list(range(at, at + len(text))))
        pos += len(piece) + 3


def _literal(source: str, start: int, end: int, out: _Builder, soft_lines: bool) -> None:
    text = source[start:end].rstrip()
    if soft_lines:
        text = text.replace("\n", " ")
    out.add(text, list(range(start, start + len(text))))


# -- Entry points --------------------------------------------------------------------------------


def text_format(path: str | None, source_format: str | None, text: str = "") -> str:
    """How to read a document text: its loader's format, else Markdown by suffix or by its headings and tables."""
    if source_format:
        return source_format
    lower = (path or "").lower()
    if lower.endswith(MARKDOWN_SUFFIXES):
        return "markdown"
    if lower.endswith((".txt", ".text")):
        return "text"
    return "markdown" if _MARKDOWN_SIGNS.search(text, 0, 200_000) else "text"


_CACHE: OrderedDict[tuple[str, str, int], RenderedDocument] = OrderedDict()
_CACHE_SIZE = 8
_CACHE_LOCK = threading.Lock()


def render_document(text: str, fmt: str = "markdown", blocks: Sequence | None = None, cache: bool = True) -> RenderedDocument:
    """``text`` (a document text as a loader gave it) rendered as a reader sees it, read as ``fmt``.

    ``fmt`` is a loader's format: "markdown" reads CommonMark; "docx" and "html" read the
    structure their loaders write (``#`` headings, labels, ``|`` rows); "pdf" and "text" read
    paragraphs separated by blank lines, a single line break being a wrapped line. ``blocks`` (the
    loader's source blocks) give Word and HTML paragraphs exactly. The last few whole documents are
    cached (``cache=False`` for a piece of one).
    """
    use_blocks = blocks if fmt in ("docx", "html") else None
    if not cache:
        return _render(text, fmt, use_blocks)
    key = (hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), fmt, len(use_blocks or ()))
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    rendered = _render(text, fmt, use_blocks)
    with _CACHE_LOCK:
        _CACHE[key] = rendered
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return rendered


def _render(text: str, fmt: str, blocks: Sequence | None) -> RenderedDocument:
    builder = _Builder(text, fmt)
    if fmt == "markdown":
        _MarkdownReader(text, builder).read()
    else:
        _read_structured(text, builder, blocks, soft_lines=fmt in ("pdf", "text"))
    return builder.build()


def render_fragment(text: str, fmt: str = "markdown") -> str:
    """A piece of document text (a quote) as the reader sees it, on one line."""
    return render_document(text, fmt, cache=False).text_of(0, len(text))
