"""Cut normalized text into blocks: headings, numbered items, paragraphs, table rows.

One pass over the lines, linear in the text. A block ends at a blank line or where a line starts a
new block (a heading, a table row, a list marker, a numbering label, a signature field). A line
that merely continues a hard-wrapped paragraph is joined to it: a label-like token at the start of
a wrapped line ("... as set out in Section\\n4.2 of ...") starts a new block only when the line before
it is closed (ends in . : ; or "; and") or short, or is indented differently. Where blank lines
separate the paragraphs (a soft :class:`Layout`, and every Markdown paragraph), a line break alone
never ends a paragraph, so re-wrapping the text (one sentence per line) cannot change its blocks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from conflictkit.lexicon.regex import compile_pattern
from conflictkit.segmenters.kinds import is_definition
from conflictkit.segmenters.labels import Label, parse_label
from conflictkit.segmenters.markup import strip_markup
from conflictkit.segmenters.words import words

_ATX = re.compile(r"(#{1,6})(?:[ ]+|$)")
_SETEXT = re.compile(r"=+|-+")
_RULE = re.compile(r"([-*_])(?:[ ]*\1){2,}|\+[-=:+]{3,}\+")  # thematic breaks; grid-table borders
_TABLE_SEP = re.compile(r"\|?[ ]*:?-{2,}:?[ ]*(?:\|[ ]*:?-{2,}:?[ ]*)*\|?")
_FENCE = re.compile(r"```|~~~")
_LEAD_MARKUP = re.compile(r"(?:\*\*|__|[*_](?=\S)|<[A-Za-z][^<>]*>|[ ])+")
_FIELD = compile_pattern(r"(?:\p{Lu}[\w.'/&()\- ]{0,40}:(?:[ ]|$)|_{3,}|/s/|\[[^\]]{0,40}\]$)")
_CLOSED = re.compile(r"(?:[.:;!?]|[.:;!?][\"')\]]|[;,][ ]+(?:and|or|and/or))$")
_BOLD_LINE = re.compile(r"(?:\*\*|__)([^*_]+?)[.:]?(?:\*\*|__)[.:]?")
_FRONT_MATTER_END = re.compile(r"(?:---|\.\.\.)[ ]*")
_SENTENCE_END = re.compile(r"[.!?;:][\"')\]]?(?=[ ]|$)")
BLANK_GAPS_PER_SENTENCE = 0.05  # the corpus's blank-line documents have 0.07 to 1.0 (CUAD, licences)
SHORT_LINE = 45  # a hard-wrapped line is rarely shorter: a shorter line before a label ends its paragraph
RUN_ON_LINE = 1000  # longer lines may be whole pages run together: look inside them for headings


def page_artefact(pack=None) -> re.Pattern[str]:
    """A page number or page footer on a line of its own: "12", "- 3 -", "Page 3 of 10", "iv"."""
    return words(pack).page_artefact


@dataclass
class Block:
    """A run of lines of the normalized text that forms one unit.

    ``start``/``end`` delimit the block (trimmed); ``body`` is where its own text starts, past any
    heading marks and numbering label. ``kind`` is "heading", "item", "para" or "row"; ``level`` is
    the markdown heading level (1-6) or 7 for a plain-text title line.
    """

    start: int
    end: int
    body: int
    indent: int
    kind: str
    label: Label | None = None
    level: int = 0
    lines: int = 1
    header: bool = False  # a table's header row
    soft: bool = False  # its lines are soft-wrapped: however many there are, it reads as one line

    @property
    def single(self) -> bool:
        """Whether the block reads as one line (a title, a run-in title), wherever its source breaks lines."""
        return self.lines == 1 or self.soft


@dataclass
class Line:
    """One line of the normalized text: where it starts and ends, its indentation (columns in the
    original) and its content past indentation and quote marks."""

    start: int
    end: int
    indent: int
    content_start: int
    content: str


def _indent_in_original(original: str, pos: int) -> int:
    """Columns of whitespace before ``pos`` on its line of the original (tabs count 4)."""
    newline = original.rfind("\n", 0, pos)
    line_start = max(newline, original.rfind("\r", max(newline, 0), pos)) + 1  # bounded: stays linear
    return sum(4 if c == "\t" else 1 for c in original[line_start:pos] if c.isspace())


def _lines(text: str, original: str | None = None, offsets: Sequence[int] | None = None) -> list[Line]:
    """The lines of ``text``. Normalization strips indentation, so it is read back from the original."""
    out: list[Line] = []
    pos = 0
    n = len(text)
    while pos <= n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        raw = text[pos:end]
        body = raw.lstrip(" ")
        indent = len(raw) - len(body)
        cs = pos + indent
        while body.startswith(">"):  # blockquote markers are not content
            skip = 2 if body.startswith("> ") else 1
            body = body[skip:]
            cs += skip
        if original is not None and offsets is not None and end > pos:
            indent = _indent_in_original(original, int(offsets[pos]))
        out.append(Line(pos, end, indent, cs, body.rstrip(" ")))
        if nl < 0:
            break
        pos = nl + 1
    return out


def _split_run_ons(lines: list[Line], everywhere: bool) -> list[Line]:
    """Cut run-on lines before the numbered headings inside them: lines over ``RUN_ON_LINE``, or all lines
    ``everywhere`` (where line breaks are soft, a page run together and the same page re-wrapped must agree)."""
    out: list[Line] = []
    for line in lines:
        if line.content and (everywhere or len(line.content) > RUN_ON_LINE):
            pieces = _split_run_on(line.content_start, line.content, line.indent)
            out.extend(pieces if len(pieces) > 1 else [line])
        else:
            out.append(line)
    return out


def _split_run_on(start: int, content: str, indent: int) -> list[Line]:
    """Cut a run-on line (a whole page flattened by a converter) before each numbered heading in it.

    Only a label right after a sentence end and followed by a capitalised run-in title counts
    (". 3.2. Mutual Representations. Each party..."), never "(a)" inside a sentence or "Section 3.2"
    in a cross-reference.
    """
    cuts = [m.end() for m in words().run_on_heading.finditer(content)]
    pieces: list[Line] = []
    for a, b in zip([0, *cuts], [*cuts, len(content)], strict=True):
        piece = content[a:b].rstrip(" ")
        if piece:
            pieces.append(Line(start + a, start + a + len(piece), indent if a == 0 else 0, start + a, piece))
    return pieces


def front_matter_end(lines: list[Line]) -> int:
    """Index of the first line after a YAML front matter block (``---`` ... ``---``), or 0."""
    if not lines or lines[0].content != "---" or lines[0].indent:
        return 0
    for i in range(1, min(len(lines), 400)):
        if _FRONT_MATTER_END.fullmatch(lines[i].content) and not lines[i].indent:
            return i + 1
    return 0


def label_of(line_content: str) -> tuple[Label | None, int]:
    """The numbering label of a line, looking past leading emphasis or HTML tags ("**1. Fees**").

    Returns the label and the offset in ``line_content`` just past it (0 without a label).
    """
    label = parse_label(line_content)
    if label is not None:
        return label, label.end
    m = _LEAD_MARKUP.match(line_content)
    if m is None or m.end() == 0:
        return None, 0
    label = parse_label(line_content[m.end():])
    if label is None or label.kind == "bullet":
        return None, 0
    return label, m.end() + label.end


def _closed(content: str) -> bool:
    return _CLOSED.search(content) is not None


@dataclass(frozen=True)
class Layout:
    """How a document breaks its lines: hard-wrapped at ``width`` columns, or one paragraph per line.

    ``soft``: blank lines (or markup) separate its paragraphs, so a line break alone never ends one,
    however the lines are wrapped (one sentence per line, hard-wrapped, or not at all).
    """

    wrapped: bool
    width: int
    soft: bool = False

    @classmethod
    def of(cls, lines: list[Line]) -> Layout:
        lengths = sorted(len(line.content) for line in lines if line.content)
        if not lengths:
            return cls(True, 80)
        long_share = sum(1 for n in lengths if n > 100) / len(lengths)
        return cls(long_share < 0.05, lengths[int(0.9 * (len(lengths) - 1))], _blank_separated(lines))


def _blank_separated(lines: list[Line]) -> bool:
    """Whether blank lines separate the paragraphs: a count that re-wrapping the lines cannot change.

    Gaps (runs of blank lines between text) are compared with sentence ends: a document that puts a
    blank line between its paragraphs has at least one gap per few dozen sentences; one written a
    paragraph per line has none, or one per section.
    """
    gaps, ends, previous_blank = 0, 0, False
    for line in lines:
        if not line.content:
            previous_blank = True
            continue
        if previous_blank and ends:
            gaps += 1
        previous_blank = False
        ends += len(_SENTENCE_END.findall(line.content))
    return gaps >= 2 and gaps >= BLANK_GAPS_PER_SENTENCE * ends


def _starts_block(prev: Line, line: Line, label: Label | None, first: bool, layout: Layout, para: bool,
                  block: Block) -> bool:
    """Whether ``line``, right under ``prev`` in ``block`` (open), starts a new block.

    ``first``: ``prev`` is the first line of its block (only then can it be a title line);
    ``para``: the block so far is an unnumbered paragraph. Where line breaks are soft, what is short
    is the block so far, not its last line, and a line indented as the block's first is not indented
    differently: re-wrapping can shorten a line and drop its indentation.
    """
    closed = _closed(prev.content)
    short_or_closed = (block.end - block.start if layout.soft else len(prev.content)) < SHORT_LINE or closed
    if label is not None:
        if label.kind == "bullet":
            return True
        indented = line.indent != prev.indent and (not layout.soft or line.indent != block.indent)
        return short_or_closed or indented
    if line.content.startswith(": "):  # a definition-list value continues its term
        return False
    field = _FIELD.match(line.content)
    if field and (_FIELD.match(prev.content)
                  or (short_or_closed and (not layout.soft or _names_a_field(field.group())))):
        return True
    if first and is_title_line(prev.content) and not is_title_line(line.content):
        return True
    if closed and _opens_definition(line.content):
        return True
    if layout.soft:  # a line break inside a paragraph is only a line break
        return False
    if not layout.wrapped:  # one paragraph per line: a closed or short line ends its paragraph
        return short_or_closed
    # hard-wrapped: a closed line well short of the wrap width, or a first-line indent, starts a paragraph
    return closed and (len(prev.content) < 0.6 * layout.width or (para and line.indent > prev.indent))


def _opens_definition(content: str) -> bool:
    """A line that defines a term ('"Affiliate" means ...'): one per line is how definitions lists are written."""
    return content[:1] in "\"'*_<" and is_definition(strip_markup(content[:400]))


def _names_a_field(label: str) -> bool:
    """A form field's name ("Name:", "Effective Date:"), not words that end in a colon ("These rights include:").

    One word, or up to three capitalised ones: where line breaks are soft, a sentence can open any line.
    """
    tokens, w = label.rstrip(": ").split(), words()
    return len(tokens) == 1 or (len(tokens) <= 3 and all(t[:1].isupper() or t in w.field_small_words for t in tokens)
                                and not any(t.lower() in w.line_verbs for t in tokens))


def is_title_line(content: str) -> bool:
    """An ALL-CAPS line short enough to be a title ("CONFIDENTIALITY", "ARTICLE IV - PAYMENT").

    A short capitalised sentence ("THE SOFTWARE IS PROVIDED AS IS.") is operative text, not a title.
    """
    if len(content) > 90 or content.endswith((",", ";")):
        return False
    tokens = content.split()
    if len(tokens) > 12 or (content.endswith(".") and len(tokens) > 4):
        return False
    verbs = words().line_verbs
    if any(w.strip(".,;:()\"'").lower() in verbs for w in tokens):
        return False
    letters = [c for c in content if c.isalpha()]
    if len(letters) < 3:
        return False
    upper = sum(1 for c in letters if c.isupper())
    return upper >= 0.85 * len(letters)


def scan(text: str, original: str | None = None, offsets: Sequence[int] | None = None) -> list[Block]:
    """Split normalized text into blocks, in document order.

    With ``original`` and ``offsets`` (a Document's), indentation is taken from the original text,
    which is what nests markdown lists.
    """
    lines = _lines(text, original, offsets)
    lines = _split_run_ons(lines, everywhere=_blank_separated(lines))
    blocks: list[Block] = []
    paragraphs = Paragraphs(Layout.of(lines), blocks)
    in_fence = False
    for line in lines[front_matter_end(lines):]:
        content = line.content
        if not content:
            paragraphs.close()
            continue
        if _FENCE.match(content):
            paragraphs.close()
            in_fence = not in_fence
            continue
        end = line.content_start + len(content)
        current = paragraphs.current
        if in_fence:  # code is kept verbatim as one paragraph
            paragraphs.verbatim(line)
            continue
        if current is not None and current.kind == "para" and _SETEXT.fullmatch(content) and current.label is None:
            current.kind, current.level = "heading", 1 if content[0] == "=" else 2
            paragraphs.close()
            continue
        if "-" in content and "|" in content and _TABLE_SEP.fullmatch(content):
            paragraphs.close()
            if blocks and blocks[-1].kind == "row":
                blocks[-1].header = True
            continue
        if _RULE.fullmatch(content):
            paragraphs.close()
            continue
        atx = _ATX.match(content)
        if atx:
            paragraphs.close()
            label, offset = label_of(content[atx.end():])
            body = line.content_start + atx.end() + (offset if label is not None and label.kind != "bullet" else 0)
            blocks.append(Block(line.content_start, end, body, line.indent, "heading", label, len(atx.group(1))))
            continue
        if content.startswith("|"):
            paragraphs.close()
            blocks.append(Block(line.content_start, end, line.content_start, line.indent, "row"))
            continue
        paragraphs.add(line)
    paragraphs.close()
    mark_titles_and_artefacts(blocks, text)
    return blocks


class Paragraphs:
    """Groups text lines into paragraph and item blocks, appending each finished block to ``out``.

    A line continues the open block unless :func:`_starts_block` says it starts one (a numbering
    label, a field, the line after a title line; and, unless the layout is soft, a paragraph end).
    """

    def __init__(self, layout: Layout, out: list[Block]) -> None:
        self.layout = layout
        self.out = out
        self.current: Block | None = None
        self.prev: Line | None = None

    def close(self) -> None:
        """End the open block, if any."""
        if self.current is not None:
            self.out.append(self.current)
        self.current, self.prev = None, None

    def add(self, line: Line, marker: Label | None = None, marker_start: int = 0, marker_indent: int = 0) -> None:
        """Add a text line.

        ``marker``: a list marker already parsed, at ``marker_start`` and ``marker_indent`` columns
        (the line's content follows it).
        """
        end = line.content_start + len(line.content)
        current, prev = self.current, self.prev
        if marker is not None:
            self.close()
            label, offset = label_of(line.content) if marker.kind == "bullet" else (None, 0)
            if label is None or label.kind == "bullet":  # "* (a) sell ..." is item (a): a bullet adds nothing
                label, offset = marker, 0
            self._open(Block(marker_start, end, line.content_start + offset, marker_indent, "item", label))
        else:
            label, offset = label_of(line.content)
            if current is None or prev is None or current.kind not in ("para", "item") \
                    or _starts_block(prev, line, label, current.lines == 1, self.layout, current.kind == "para",
                                     current):
                self.close()
                kind = "item" if label is not None else "para"
                self._open(Block(line.content_start, end, line.content_start + offset, line.indent, kind, label))
            else:
                current.end = end
                current.lines += 1
        self.prev = line

    def verbatim(self, line: Line) -> None:
        """Add a line of code: kept with the open block, whatever it looks like."""
        end = line.content_start + len(line.content)
        if self.current is None:
            self._open(Block(line.content_start, end, line.content_start, line.indent, "para"))
        else:
            self.current.end = end
        self.prev = line

    def _open(self, block: Block) -> None:
        block.soft = self.layout.soft
        self.current = block


def mark_titles_and_artefacts(blocks: list[Block], text: str) -> None:
    """Re-kind one-line paragraphs that are page numbers ("artefact") or stand-alone titles (level 7)."""
    for block in blocks:
        if block.kind == "para" and block.single:
            line = text[block.start:block.end]
            if "\n" in line:  # soft-wrapped: read as the one line it is
                line = " ".join(line.split())
            if page_artefact().fullmatch(line):
                block.kind = "artefact"
            elif _standalone_title(line):
                block.kind, block.level = "heading", 7


def _standalone_title(line: str) -> bool:
    """A one-line paragraph that reads as a title: ALL CAPS, or a few Title Case words without a verb."""
    if is_title_line(line):
        return True
    bold = _BOLD_LINE.fullmatch(line)
    if bold is not None:  # "**Company template, version 3.2**" alone on its line heads what follows
        # a lead-in with a participle ("**When required under applicable law.**") heads what follows;
        # a bold sentence with a finite verb ("**Customer shall pay all fees.**") is a term
        tokens, finite = bold.group(1).split(), words().finite_verbs
        return len(tokens) <= 12 and not any(w.strip(".,;:()\"'").lower() in finite for w in tokens)
    from conflictkit.segmenters.kinds import is_title  # kinds works on cleaned text; a bare line is close enough

    if any(mark in line for mark in (":", "__", "[", "{", "|")):
        return False  # "Effective Date: ____" is a field, not a title
    return not line.endswith((".", ",", ";")) and len(line.split()) <= 8 and is_title(line)
