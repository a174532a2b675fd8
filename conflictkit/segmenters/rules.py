"""The ``rules`` segmenter: markdown and plain-text contracts into clauses, without any model.

Pipeline, one linear pass each: :func:`~conflictkit.segmenters.blocks.scan` cuts the normalized
text into blocks (headings, numbered items, paragraphs, table rows; hard-wrapped lines joined);
:class:`~conflictkit.segmenters.tree.SectionTree` nests them (parents, section numbers, headings in
force); this module turns each block into a :class:`~conflictkit.model.Clause` with its own text
(markup stripped) and its span in the original text, and tells its kind.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re

from pydantic import Field

from conflictkit.model import Clause, ClauseKind, Document
from conflictkit.segmenters.blocks import Block, scan
from conflictkit.segmenters.cut import cut_long
from conflictkit.segmenters.kinds import (
    inline_title,
    is_boilerplate,
    is_definition,
    is_signature_field,
    is_title,
    opens_signatures,
)
from conflictkit.segmenters.markdown import is_markdown, markdown_blocks
from conflictkit.segmenters.markup import drop_quote_marks, strip_markup
from conflictkit.segmenters.words import reading, words
from conflictkit.segmenters.tree import Node, SectionTree
from conflictkit.stages import Options, Segmenter

_STRIP = " \n\t"


def _flat(normalized: str) -> str:
    """``conflictkit.normalize.flat`` for text that is already normalized (only " " and "\\n" remain), in O(n)."""
    return " ".join(normalized.split())


class RulesSegmenterOptions(Options):
    """Options of the rules segmenter."""

    min_chars: int = Field(1, ge=1, description="drop clauses whose cleaned text is shorter than this")
    split_list_items: bool = Field(True, description="one clause per list item; false keeps a list in its lead-in")
    max_chars: int = Field(
        10_000, ge=200,
        description="a paragraph longer than this is cut into clauses at its sentence ends (between words where a "
        "sentence is longer): a judge's work on a pair grows faster than the length of its clauses",
    )


_PLAIN_TITLE = 7  # Block.level of a plain-text title line
_INDENTATION = re.compile(r"^[ \t>]+", re.MULTILINE)


class _SignatureRegion:
    """Tracks the signature block that follows "IN WITNESS WHEREOF" or a first "By:" line."""

    def __init__(self) -> None:
        self.open = False

    def kind(self, text: str, block: Block) -> bool:
        """Whether this block is part of a signature block (opening or closing the region as it goes)."""
        label = block.label
        if (block.kind == "heading" and 0 < block.level < _PLAIN_TITLE) or (label is not None and label.kind == "top") \
                or (block.kind == "heading" and words().attachments.search(text)):
            self.open = False  # a new part of the document (an exhibit, a schedule) starts here
            return False
        if opens_signatures(text):
            self.open = True
            return True
        if not self.open:
            return False
        modals = words().modals
        short = len(text) <= 100 and not any(w.lower().strip(".,;:") in modals for w in text.split())
        if is_signature_field(text) or short:
            return True
        self.open = False
        return False


class RulesSegmenter(Segmenter):
    """Segments markdown and plain-text contracts by headings, numbering, lists and paragraphs.

    Each clause holds only its own text: a numbered clause's lead-in ends where its first child
    starts. Spans index ``document.original`` and exclude numbering labels and heading marks.
    """

    name = "rules"
    Options = RulesSegmenterOptions
    version = "2"  # 2: Markdown read with markdown-it; soft line breaks never end a clause
    reads_words = True

    def segment(self, document: Document) -> list[Clause]:
        """Split ``document`` into clauses in document order (ids c0001, c0002, ...), reading the words
        (titles, definitions, numbering keywords) of the pack it was handed."""
        with reading(self.language):
            return _Run(document, self.options).clauses()

    def reading_key(self, document: Document) -> str:
        """Markdown or plain text, and the original's indentation, which nests lists in both."""
        indentation = hashlib.sha256("\n".join(_INDENTATION.findall(document.original)).encode()).hexdigest()[:16]
        return f"{'markdown' if is_markdown(document) else 'text'}:{indentation}"


class _Run:
    """One segmentation of one document."""

    def __init__(self, document: Document, options: RulesSegmenterOptions) -> None:
        self.document = document
        self.options = options
        self.tree = SectionTree()
        self.signatures = _SignatureRegion()
        self.out: list[Clause] = []

    def clauses(self) -> list[Clause]:
        text = self.document.normalized
        if is_markdown(self.document):
            blocks = markdown_blocks(self.document)
        else:
            blocks = scan(text, self.document.original, self.document.offsets)
        if not self.options.split_list_items:
            blocks = _merge_lists(blocks)
        for block in blocks:
            for piece in cut_long(block, text, self.options.max_chars):
                self._emit(piece, text)
        return self.out

    def _trimmed(self, block: Block, text: str) -> tuple[int, int]:
        start, end = block.body, block.end
        while start < end and text[start] in _STRIP:
            start += 1
        while end > start and text[end - 1] in _STRIP:
            end -= 1
        return start, end

    def _emit(self, block: Block, text: str) -> None:
        start, end = self._trimmed(block, text)
        body = strip_markup(_flat(drop_quote_marks(text[start:end]))) if end > start else ""
        title, title_only = self._title(block, body, text)
        if title_only and block.label is not None and block.label.kind == "enum":
            # "II. PAYMENT" is a top-level part of the document, not the next item of an open list
            block.label = dataclasses.replace(block.label, kind="top", text=block.label.token)
        if block.label is not None and block.label.kind == "top":
            self.signatures.open = False  # "EXHIBIT A" starts a new part even when alone on its line
        long_enough = len(body) >= self.options.min_chars
        adopts = block.kind == "para" or (block.kind == "heading" and block.level == _PLAIN_TITLE)
        pending = self.tree.pending() if long_enough and adopts else None
        if pending is not None:  # "Section 5." or "EXHIBIT A" alone on its line: this block is its text or title
            node: Node | None = pending
            pending.heading = title or pending.heading
            section, heading, parent = pending.section, pending.heading, self._parent_above(pending)
        else:
            placement = self.tree.place(block, title, lead_in=block.kind == "para" and body.endswith(":"),
                                        heads_section=title_only and block.kind == "item")
            node = placement.node
            section, heading, parent = placement.section, placement.heading, placement.parent
            if node is None and title:
                heading = title  # a paragraph's run-in title ("**Payment.** ...") is its own heading
        if not long_enough:
            return  # a bare label ("Section 5.") or pure markup: the next paragraph takes its place
        kind = self._kind(block, body, title, title_only)
        clause_id = f"c{len(self.out) + 1:04d}"
        if node is not None and node.clause_id is None:
            node.clause_id = clause_id
        span = self.document.to_original(start, end)
        self.out.append(Clause.model_construct(id=clause_id, text=body, span=span, kind=kind, heading=heading, section=section,
                                               parent=parent, order=len(self.out)))

    def _parent_above(self, node: Node) -> str | None:
        stack = self.tree.stack
        index = stack.index(node) if node in stack else len(stack)
        for above in reversed(stack[:index]):
            if above.clause_id is not None:
                return above.clause_id
        return None

    def _title(self, block: Block, body: str, text: str) -> tuple[str | None, bool]:
        """The block's own title, and whether the block is nothing but that title."""
        if block.kind == "heading":
            return (body.rstrip(".:") or None), True
        label = block.label
        if block.kind == "item" and label is not None and is_title(body) \
                and (label.kind in ("decimal", "top") or (label.kind == "enum" and body.isupper())):
            # "4. Fees" and "II. DEFINITIONS" head sections; "- Apache License 2.0" is list content
            return body.rstrip(".:"), True
        bold = _bold_title(text, block)
        if bold is not None:
            return bold, bold == body.rstrip(".:")
        if block.kind == "item" or (block.kind == "para" and block.single):
            return inline_title(body, sentence_case=block.kind == "item"), False
        return None, False

    def _kind(self, block: Block, body: str, title: str | None, title_only: bool) -> ClauseKind:
        if block.kind == "artefact":
            return "boilerplate"
        if self.signatures.kind(body, block):
            return "signature"
        if is_definition(body) or (title and not title_only and is_definition(_after_title(body, title))):
            return "definition"  # '2. Confidential Information. "Confidential Information" means ...' too
        if block.kind == "heading" or (title_only and block.kind == "item") or block.header:
            return "heading"
        if title_only and block.kind == "para" and block.single and len(body) <= 60 and body.isupper():
            return "heading"
        if is_boilerplate(body):
            return "boilerplate"
        return "clause"


def _after_title(body: str, title: str) -> str:
    """The text after a run-in title: "Fees. Customer pays" -> "Customer pays"."""
    return body[len(title):].lstrip(" .:-") if body.startswith(title) else body


def _merge_lists(blocks: list[Block]) -> list[Block]:
    """Fold lettered and bulleted list items into the block before them (one clause per list)."""
    merged: list[Block] = []
    for block in blocks:
        label = block.label
        is_list = block.kind == "item" and label is not None and label.kind in ("enum", "bullet")
        if is_list and merged and merged[-1].kind in ("item", "para"):
            merged[-1].end = block.end
            merged[-1].lines += block.lines
            continue
        merged.append(block)
    return merged


def _bold_title(text: str, block: Block) -> str | None:
    """The bold run-in title of "**Payment.** Customer...", "**1.2 Fees**. ..." or "1. **Fees.** ..." (no markup)."""
    for origin in (block.start, block.body):  # bold around the label, or after it
        raw = text[origin : min(block.end, origin + 200)]
        for mark in ("**", "__"):
            if not raw.startswith(mark):
                continue
            close = raw.find(mark, len(mark))
            inner_start = max(block.body - origin, len(mark))
            if close <= len(mark) or inner_start >= close:
                return None
            title = strip_markup(_flat(raw[inner_start:close])).rstrip(".:")
            return title or None
    return None
