"""The text of a Word document, paragraph by paragraph, with a map from text offsets to runs.

Headings (by style name or outline level) become Markdown headings; numbered paragraphs get the
label Word shows; tables become Markdown table rows; tracked changes are read as accepted or as
rejected, never mixed; comments, field codes and deleted text (when accepted) are never text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from conflictkit.model import SourceBlock, SourceRole
from conflictkit_docx.numbering import Numbering
from conflictkit_docx.package import decimal, w

_HEADING_NAME = re.compile(r"heading\s*([1-9])$", re.IGNORECASE)
# Containers whose runs are part of the paragraph's text (hyperlinks, content controls, fields...).
_TRANSPARENT = frozenset(w(t) for t in ("hyperlink", "smartTag", "sdt", "sdtContent", "fldSimple", "customXml", "bdo", "dir"))
_INSERTED = frozenset((w("ins"), w("moveTo")))
_DELETED = frozenset((w("del"), w("moveFrom")))


@dataclass
class Piece:
    """A stretch of a paragraph's text and the run element it came from (None for labels, separators)."""

    text: str
    run: object | None = None


@dataclass
class Paragraph:
    """A paragraph's text pieces, where it came from, and (for a writer checking its numbering) the
    ``w:p`` whose mark it ends with and the label Word shows for it."""

    pieces: list[Piece] = field(default_factory=list)
    role: SourceRole = "body"
    location: dict = field(default_factory=dict)
    element: object | None = None
    label: str = ""


@dataclass
class Style:
    name: str = ""
    based_on: str | None = None
    num_id: str | None = None
    ilvl: int | None = None
    outline: int | None = None


def read_styles(root) -> dict[str, Style]:
    """Paragraph styles by id: name, parent, numbering and outline level."""
    styles: dict[str, Style] = {}
    if root is None:
        return styles
    for element in root.iter(w("style")):
        if element.get(w("type")) not in (None, "paragraph"):
            continue
        style = Style()
        name = element.find(w("name"))
        style.name = name.get(w("val"), "") if name is not None else ""
        based = element.find(w("basedOn"))
        style.based_on = based.get(w("val")) if based is not None else None
        ppr = element.find(w("pPr"))
        if ppr is not None:
            style.num_id, style.ilvl = _num_pr(ppr)
            outline = ppr.find(w("outlineLvl"))
            if outline is not None:
                style.outline = decimal(outline.get(w("val")), low=0)
        styles[element.get(w("styleId"), "")] = style
    return styles


def _num_pr(ppr) -> tuple[str | None, int | None]:
    num_pr = ppr.find(w("numPr"))
    if num_pr is None:
        return None, None
    num_id = num_pr.find(w("numId"))
    ilvl = num_pr.find(w("ilvl"))
    level = decimal(ilvl.get(w("val")), low=0) if ilvl is not None else None
    return (num_id.get(w("val")) if num_id is not None else None), level


class BodyReader:
    """Reads the paragraphs of one part (the body, a footnote, a header) in document order."""

    def __init__(self, styles: dict[str, Style], numbering: Numbering, revision: str) -> None:
        self.styles = styles
        self.numbering = numbering
        self.accepted = revision == "accepted"
        self.paragraphs: list[Paragraph] = []
        self.pending: Paragraph | None = None  # a paragraph whose mark the revision removes: joins the next
        self.rows = 0  # table rows read so far: the next table's key (counted, not searched for: 25,000 tables would be quadratic)

    # -- styles ---------------------------------------------------------------------------------

    def _style_chain(self, style_id: str | None):
        seen = set()
        while style_id and style_id in self.styles and style_id not in seen:
            seen.add(style_id)
            yield self.styles[style_id]
            style_id = self.styles[style_id].based_on

    def _heading_level(self, style_id: str | None, ppr) -> int:
        outline = ppr.find(w("outlineLvl")) if ppr is not None else None
        level = decimal(outline.get(w("val")), low=0, high=5) if outline is not None else None
        if level is not None:
            return level + 1
        for style in self._style_chain(style_id):
            match = _HEADING_NAME.match(style.name.strip())
            if match:
                return min(6, int(match.group(1)))
            if style.name.strip().lower() == "title":
                return 1
            if style.outline is not None and style.outline < 6:
                return style.outline + 1
        return 0

    def _numbering(self, style_id: str | None, ppr) -> tuple[str | None, int]:
        num_id, ilvl = _num_pr(ppr) if ppr is not None else (None, None)
        for style in self._style_chain(style_id):
            if num_id is None and style.num_id is not None:
                num_id = style.num_id
                ilvl = style.ilvl if ilvl is None else ilvl
        return num_id, ilvl or 0

    # -- text -----------------------------------------------------------------------------------

    def _runs(self, element, pieces: list[Piece], inserted: bool = False, deleted: bool = False) -> None:
        for child in element:
            tag = child.tag
            if tag == w("r"):
                if (self.accepted and not deleted) or (not self.accepted and not inserted):
                    self._run_text(child, pieces)
            elif tag in _INSERTED:
                self._runs(child, pieces, inserted=True, deleted=deleted)
            elif tag in _DELETED:
                self._runs(child, pieces, inserted=inserted, deleted=True)
            elif tag in _TRANSPARENT:
                self._runs(child, pieces, inserted, deleted)

    @staticmethod
    def _run_text(run, pieces: list[Piece]) -> None:
        parts = []
        for child in run:
            tag = child.tag
            if tag in (w("t"), w("delText")):
                parts.append(child.text or "")
            elif tag == w("tab"):
                parts.append("\t")
            elif tag in (w("br"), w("cr")):
                parts.append("\n")
            elif tag == w("noBreakHyphen"):
                parts.append("-")
        if parts:
            pieces.append(Piece("".join(parts), run))

    def _mark_removed(self, ppr) -> bool:
        """Whether the paragraph's mark is gone in this reading (deleted or moved away when accepted, inserted
        or moved here when rejected): its text then joins the next paragraph."""
        rpr = ppr.find(w("rPr")) if ppr is not None else None
        if rpr is None:
            return False
        tags = ("del", "moveFrom") if self.accepted else ("ins", "moveTo")
        return any(rpr.find(w(tag)) is not None for tag in tags)

    def _properties(self, p):
        ppr = p.find(w("pPr"))
        if ppr is not None and not self.accepted:
            change = ppr.find(w("pPrChange"))
            old = change.find(w("pPr")) if change is not None else None
            if old is not None:
                return ppr, old
        return ppr, ppr

    def paragraph(self, p, location: dict, role: SourceRole = "body") -> Paragraph | None:
        """Read one ``w:p``; returns it, or None while it waits to be joined to the next one.

        A paragraph whose mark is removed in this reading joins the next paragraph, and the joined
        paragraph has the next one's properties (its mark is the one that stays, as in Word): its
        style, its numbering, counted once.
        """
        ppr, props = self._properties(p)
        pieces: list[Piece] = []
        self._runs(p, pieces)
        if self._mark_removed(ppr):
            if self.pending is None:
                self.pending = Paragraph(pieces=pieces, role=role, location=location)
            else:
                self.pending.pieces.extend(pieces)
            return None
        joined = Paragraph(pieces=pieces, role=role, location=location, element=p)
        if self.pending is not None:
            joined = Paragraph(pieces=self.pending.pieces + pieces, role=role, location=self.pending.location, element=p)
            self.pending = None
        style = props.find(w("pStyle")) if props is not None else None
        style_id = style.get(w("val")) if style is not None else None
        num_id, ilvl = self._numbering(style_id, props)
        label = self.numbering.label(num_id, ilvl) if num_id else ""
        level = self._heading_level(style_id, props)
        prefix = ("#" * level + " " if level else "") + (label + " " if label else "")
        joined.label = label
        if prefix and "".join(piece.text for piece in joined.pieces).strip():
            joined.pieces.insert(0, Piece(prefix))
        return joined

    def body(self, root, role: SourceRole = "body") -> list[Paragraph]:
        """Every paragraph and table row under ``root`` (w:body, w:footnote, w:hdr...), in order."""
        self._blocks(root, role)
        if self.pending is not None:
            self.paragraphs.append(self.pending)
            self.pending = None
        return self.paragraphs

    def _blocks(self, root, role: SourceRole) -> None:
        for child in root:
            if child.tag == w("p"):
                para = self.paragraph(child, {"paragraph": len(self.paragraphs)}, role)
                if para is not None:
                    self.paragraphs.append(para)
            elif child.tag == w("tbl"):
                self._table(child, role)
            elif child.tag in (w("sdt"), w("sdtContent"), w("customXml")):
                self._blocks(child, role)

    def _row_removed(self, tr) -> bool:
        trpr = tr.find(w("trPr"))
        return trpr is not None and trpr.find(w("del" if self.accepted else "ins")) is not None

    def _table(self, tbl, role: SourceRole) -> None:
        table = self.rows
        rows = [tr for tr in tbl.iter(w("tr")) if tr.getparent() is tbl or tr.getparent().tag == w("sdtContent")]
        first = True
        for number, tr in enumerate(rows):
            if self._row_removed(tr):
                continue
            pieces: list[Piece] = [Piece("| ")]
            for i, tc in enumerate(c for c in tr if c.tag in (w("tc"), w("sdt"))):
                if i:
                    pieces.append(Piece(" | "))
                cell = BodyReader(self.styles, self.numbering, "accepted" if self.accepted else "original")
                for j, para in enumerate(cell.body(tc, role)):
                    if j and para.pieces:
                        pieces.append(Piece(" "))
                    pieces.extend(Piece(piece.text.replace("\n", " "), piece.run) for piece in para.pieces)
            pieces.append(Piece(" |"))
            if first:
                columns = sum(1 for piece in pieces if piece.text == " | ") + 1
                pieces.append(Piece("\n|" + "---|" * columns))
                first = False
            self.paragraphs.append(Paragraph(pieces=pieces, role=role, location={
                "paragraph": len(self.paragraphs), "table": table, "row": number}))
            self.rows += 1


@dataclass
class Assembled:
    """The document text, its source blocks, and (start, end, run) for every run's text in it."""

    text: str
    blocks: list[SourceBlock]
    runs: list[tuple[int, int, object]]


def assemble(paragraphs: list[Paragraph]) -> Assembled:
    """Join paragraphs with blank lines; keep each paragraph's span and each run's."""
    parts: list[str] = []
    blocks: list[SourceBlock] = []
    runs: list[tuple[int, int, object]] = []
    length = 0
    previous_table = None
    for para in paragraphs:
        if not "".join(piece.text for piece in para.pieces).strip():
            continue
        table = (para.role, para.location.get("table")) if "table" in para.location else None
        if parts:
            gap = "\n" if table is not None and table == previous_table else "\n\n"  # rows of one table stay one table
            parts.append(gap)
            length += len(gap)
        previous_table = table
        start = length
        for piece in para.pieces:
            if piece.run is not None and piece.text:
                runs.append((length, length + len(piece.text), piece.run))
            parts.append(piece.text)
            length += len(piece.text)
        blocks.append(SourceBlock(start=start, end=length, role=para.role, location=para.location))
    return Assembled(text="".join(parts), blocks=blocks, runs=runs)
