"""Word paragraphs, list items and table rows typeset from a document's rendered text.

A Markdown, HTML, PDF or text input becomes a real Word document: headings in heading styles,
list items indented with their label and a tab, bold, italic and struck text as run properties,
tables as tables. The same builders make the paragraphs and rows of reference text a redline
shows as deleted. Every run remembers the range of the rendered text it holds, so tracked
changes and comments can be placed on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from conflictkit.report.docdiff import Unit
from conflictkit.report.doctext import RenderedDocument
from conflictkit_docx.package import w

INDENT_TWIPS = 360  # a quarter inch per list level
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_RUN_PROPS = {"bold": "b", "italic": "i", "strike": "strike"}
_BREAKS = re.compile(r"(\t|\n)")


def xml_safe(text: str) -> str:
    """``text`` with the characters XML cannot hold replaced one for one (offsets stay valid)."""
    return _NOT_XML.sub("\ufffd", text) if _NOT_XML.search(text) else text


def el(tag: str, **attrs: str):
    """A WordprocessingML element: ``el("pStyle", val="Heading1")``."""
    return etree.Element(w(tag), {w(key): value for key, value in attrs.items()} if attrs else None)


@dataclass
class Typeset:
    """What was typeset: runs as ``(start, end, w:r)`` in rendered offsets, and each unit's element."""

    runs: list[tuple[int, int, object]] = field(default_factory=list)
    elements: dict[int, object] = field(default_factory=dict)  # unit index -> w:p, or w:tr for a row


def text_runs(document: RenderedDocument, start: int, end: int, base_props=None) -> list[tuple[int, int, object]]:
    """Runs holding ``document.text[start:end]``, cut where its marks (bold, italic...) change."""
    marks = document.marks_in(start, end)
    cuts = sorted({start, end} | {x for s, e, _ in marks for x in (s, e)})
    runs = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        styles = {m for s, e, m in marks if s <= a and e >= b}
        runs.append((a, b, make_run(document.text[a:b], styles, base_props)))
    return runs


def make_run(text: str, styles: set[str] = frozenset(), base_props=None, deleted: bool = False):
    """A ``w:r`` holding ``text`` (tabs and line breaks as Word writes them; ``w:delText`` when ``deleted``)."""
    import copy

    run = el("r")
    props = copy.deepcopy(base_props) if base_props is not None else None
    if styles:
        props = props if props is not None else el("rPr")
        for style in ("bold", "italic", "strike"):
            if style in styles and props.find(w(_RUN_PROPS[style])) is None:
                props.append(el(_RUN_PROPS[style]))
        if "code" in styles and props.find(w("rFonts")) is None:
            props.insert(0, el("rFonts", ascii="Courier New", hAnsi="Courier New", cs="Courier New"))
    if props is not None and len(props):
        run.append(props)
    text = xml_safe(text)
    for piece in _BREAKS.split(text) if ("\t" in text or "\n" in text) else (text,):
        if piece == "\t":
            run.append(el("tab"))
        elif piece == "\n":
            run.append(el("br"))
        elif piece:
            t = el("delText" if deleted else "t")
            t.text = piece
            t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
            run.append(t)
    return run


def list_depth(document: RenderedDocument, unit: Unit) -> int:
    """How deep a unit's first leaf sits in lists (0 outside any list)."""
    leaf = document.leaves[unit.leaves[0]]
    return sum(1 for c in leaf.containers if c.tag == "li")


def paragraph(document: RenderedDocument, unit: Unit, heading_style: str | None = None, props=None):
    """A ``w:p`` for a heading, paragraph, list item or code block: ``(element, runs)``.

    ``heading_style`` is the style id for the unit's heading level (None: bold text); ``props``, a
    ``w:pPr`` to use as it is (a neighbour's, when the paragraph joins a Word document).
    """
    p = el("p")
    depth = list_depth(document, unit)
    leaf = document.leaves[unit.leaves[0]]
    in_item = depth > 0 and leaf.marker
    if props is not None:
        p.append(props)
    else:
        ppr = el("pPr")
        if unit.kind == "heading" and heading_style:
            ppr.append(el("pStyle", val=heading_style))
        quotes = sum(1 for c in leaf.containers if c.tag == "blockquote")
        if depth or quotes:
            left = INDENT_TWIPS * (depth + quotes)
            ppr.append(el("ind", left=str(left), hanging=str(INDENT_TWIPS) if in_item else "0"))
        if len(ppr):
            p.append(ppr)
    runs = []
    base = None
    if unit.kind == "heading" and not heading_style:
        base = el("rPr")
        base.append(el("b"))
    if in_item:
        label_end = unit.label[1]
        runs += text_runs(document, leaf.start, label_end, base)
        tab = el("r")
        tab.append(el("tab"))
        runs.append((label_end, label_end, tab))
        runs += text_runs(document, leaf.label_end, unit.end, base)
    else:
        runs += text_runs(document, unit.start, unit.end, base)
    if unit.kind == "code":
        runs = [(a, b, _monospace(r)) for a, b, r in runs]
    for _, _, run in runs:
        p.append(run)
    return p, [(a, b, r) for a, b, r in runs if b > a]


def _monospace(run):
    props = run.find(w("rPr"))
    if props is None:
        props = el("rPr")
        run.insert(0, props)
    if props.find(w("rFonts")) is None:
        props.insert(0, el("rFonts", ascii="Courier New", hAnsi="Courier New", cs="Courier New"))
    return run


def row(document: RenderedDocument, unit: Unit, header: bool = False):
    """A ``w:tr`` with one cell per cell of ``unit`` (bold in a header row): ``(element, runs)``."""
    tr = el("tr")
    runs = []
    for start, end in unit.cells:
        tc = el("tc")
        p = el("p")
        base = None
        if header:
            base = el("rPr")
            base.append(el("b"))
        cell_runs = text_runs(document, start, end, base)
        for _, _, run in cell_runs:
            p.append(run)
        tc.append(p)
        tr.append(tc)
        runs += [(a, b, r) for a, b, r in cell_runs if b > a]
    return tr, runs


def table(columns: int):
    """An empty ``w:tbl`` with a grid of ``columns`` and the Table Grid look."""
    tbl = el("tbl")
    props = el("tblPr")
    props.append(el("tblStyle", val="TableGrid"))
    props.append(el("tblW", w="0", type="auto"))
    tbl.append(props)
    grid = el("tblGrid")
    for _ in range(max(1, columns)):
        grid.append(el("gridCol", w=str(9000 // max(1, columns))))
    tbl.append(grid)
    return tbl


def heading_style(word, level: int) -> str | None:
    """The style id of Word's built-in "Heading N" in a :class:`~conflictkit_docx.wordfile.WordFile` (None when it has none)."""
    return word.style_id(f"heading {min(max(level, 1), 9)}")


def is_header_row(document: RenderedDocument, unit: Unit) -> bool:
    return unit.kind == "row" and document.leaves[unit.leaves[0]].kind == "th"


def typeset(word, document: RenderedDocument, units: list[Unit]) -> Typeset:
    """Every unit of ``document`` appended to the body of an empty :class:`~conflictkit_docx.wordfile.WordFile`, in order."""
    body = word.body
    sect = body.find(w("sectPr"))
    out = Typeset()
    current_table = None
    current_container = None
    for index, unit in enumerate(units):
        if unit.kind == "row":
            container = document.leaves[unit.leaves[0]].containers[-2] if len(document.leaves[unit.leaves[0]].containers) >= 2 else None
            if current_table is None or container != current_container:
                current_table = table(len(unit.cells))
                _append(body, current_table, sect)
                current_container = container
            element, runs = row(document, unit, is_header_row(document, unit))
            current_table.append(element)
        else:
            current_table = current_container = None
            element, runs = paragraph(document, unit, heading_style(word, unit.level) if unit.kind == "heading" else None)
            _append(body, element, sect)
        out.elements[index] = element
        out.runs += runs
    return out


def _append(body, element, sect) -> None:
    if sect is not None:
        sect.addprevious(element)
    else:
        body.append(element)
