"""``report.docx``: the input document as a Word redline of the reference, with a comment per finding.

The difference between the two documents as a reader sees them (:mod:`conflictkit.report.docdiff`)
is written into the input as tracked changes by "conflictkit": the input's own text that the
reference lacks as insertions, the reference's text that the input lacks as deletions, a paragraph
moved unchanged as a move (``w:moveFrom``/``w:moveTo``; a table row, which Word cannot move, as a
deletion and an insertion with a comment naming the move). Accepting every change gives the
input's text, rejecting every change the reference's. With ``changes="findings"`` only the changes
of findings are tracked (the judge's substantive edits where it gave edits) and the rest is shown
as the input has it. Each finding gets one Word comment, anchored on its tracked changes: its
severity, kind, P(conflict), its reasons in words and the rule that set its severity, where it is,
and the reference text; a comment on the document's first words lists the findings by severity.

A .docx input keeps its own package (styles, numbering, tables, headers, footers; its own tracked
changes accepted first, so every change in the redline is conflictkit's); any other input is
typeset as a new Word document (:mod:`conflictkit_docx.typeset`).
"""

from __future__ import annotations

import copy
import sys
from dataclasses import dataclass, field

from conflictkit.errors import BackendError
from conflictkit.report.docdiff import Change, DocumentDiff, Step, Unit, units_of
from conflictkit.report.doctext import RenderedDocument, render_document
from conflictkit.report.view import ReportView, describe_reason, section_title
from conflictkit.report.order import counts_phrase
from conflictkit_docx.package import w
from conflictkit_docx.tracked import AUTHOR, TrackedDocument, accept_revisions
from conflictkit_docx.typeset import el, heading_style, is_header_row, make_run, paragraph, row, table, text_runs, typeset

_MOVE_KINDS = {"moved-from": "moveFrom", "moved-to": "moveTo"}


@dataclass
class Layout:
    """The input as written into Word: its rendered text, units, and each unit's element (``w:p`` or ``w:tr``)."""

    document: RenderedDocument
    units: list[Unit]
    elements: dict[int, object]
    docx: object  # the WordFile
    native: bool  # a .docx input (its own package), not a typeset one
    labelled: set[int] = field(default_factory=set)  # units whose label is a run (not Word's automatic numbering)

    def to_rendered(self, start: int, end: int) -> tuple[int, int]:
        return self.document.range_of(start, end)

    def unit_at(self, position: int) -> int | None:
        for k, unit in enumerate(self.units):
            if unit.start <= position <= unit.end:
                return k
        return None

    def unit_range(self, position: int) -> tuple[int, int]:
        k = self.unit_at(position)
        return (self.units[k].start, self.units[k].end) if k is not None else (position, position)

    def paragraph_at(self, position: int):
        k = self.unit_at(position)
        return self.elements.get(k) if k is not None else None


def open_input(data: bytes | None, text: str, fmt: str, *, blocks=None, author: str = AUTHOR,
               date: str | None = None) -> tuple[TrackedDocument, Layout]:
    """The input as a Word document to write revisions into, with its runs in rendered offsets.

    ``data`` is the .docx file for a Word input (``fmt == "docx"``); any other input is typeset
    from ``text`` read as ``fmt``.
    """
    from conflictkit_docx.wordfile import WordFile

    if fmt == "docx" and data is not None:
        from conflictkit.config import Limits
        from conflictkit_docx.loader import read_docx

        document = WordFile(data, "input.docx")
        accept_revisions(document.body)
        # read within the comparison's limits already: this second reading only anchors runs, it refuses nothing
        unbounded = Limits(max_paragraphs=sys.maxsize, max_unpacked_bytes=sys.maxsize)
        assembled, _ = read_docx(data, "input", "accepted", body_root=document.document, limits=unbounded)
        if assembled.text != text:
            raise BackendError("report.docx: the input .docx reads differently now than when it was compared; compare it again")
        rendered = render_document(text, "docx", blocks if blocks is not None else assembled.blocks)
        runs = []
        for start, end, run in assembled.runs:
            a, b = rendered.range_of(start, end)
            if b > a:
                runs.append((a, b, run))
        units = units_of(rendered)
        layout = Layout(rendered, units, _unit_elements(units, runs), document, native=True)
        layout.labelled = {k for k, u in enumerate(units) if any(a < u.label[1] and b > u.label[0] for a, b, _ in runs)}
    else:
        document = WordFile.blank()
        rendered = render_document(text, fmt)
        units = units_of(rendered)
        laid = typeset(document, rendered, units)
        runs = laid.runs
        layout = Layout(rendered, units, laid.elements, document, native=False, labelled=set(range(len(units))))
    return TrackedDocument(document, runs, author=author, date=date), layout


def _unit_elements(units: list[Unit], runs: list[tuple[int, int, object]]) -> dict[int, object]:
    """Each unit's paragraph (``w:p``) or table row (``w:tr``), found from the runs it holds."""
    out: dict[int, object] = {}
    k = 0
    for index, unit in enumerate(units):
        while k < len(runs) and runs[k][1] <= unit.start:
            k += 1
        if k < len(runs) and runs[k][0] < unit.end:
            tag = w("tr") if unit.kind == "row" else w("p")
            element = next((a for a in runs[k][2].iterancestors() if a.tag == tag), None)
            if element is not None:
                out[index] = element
    return out


def report_docx(rendering, date: str | None = None) -> bytes:
    """The bytes of report.docx for a finished comparison (a :class:`~conflictkit.stages.Rendering`)."""
    view = rendering.view
    source = rendering.input.source
    fmt = view.format("input")
    if fmt == "docx" and rendering.input.data is None:
        raise BackendError("report.docx: the input .docx file's bytes are not at hand; compare the file again")
    tracked, layout = open_input(rendering.input.data, rendering.input.original, fmt,
                                 blocks=source.blocks if source is not None else None, date=date)
    diff = view.diff()
    if [u.key for u in layout.units] != [u.key for u in diff.input_units]:
        raise BackendError("report.docx: the input reads differently in Word than in the comparison; compare it again")
    writer = _Writer(tracked, layout, diff, view, rendering.changes)
    writer.write()
    return tracked.save()


class _Writer:
    def __init__(self, tracked: TrackedDocument, layout: Layout, diff: DocumentDiff, view: ReportView, changes: str) -> None:
        self.tracked, self.layout, self.diff, self.view = tracked, layout, diff, view
        self.all = changes == "all"
        self.anchors: dict[str, list] = {}
        self.last_input: int | None = None
        self.move_names: dict[int, str] = {}
        self.numbered: list[tuple[object, str]] = []  # (w:p Word numbers, the label the reference has there)

    def tracked_change(self, change: Change) -> bool:
        return self.all or change.tracked_in_findings_view

    def anchor(self, change: Change, elements: list) -> None:
        if change.finding is not None and elements and (change.verdict == "substantive" or change.kind == "moved"):
            self.anchors.setdefault(change.finding, []).extend(elements)

    def write(self) -> None:
        pending: list[Step] = []
        for step in self.diff.steps:
            if step.input is None:
                pending.append(step)
                continue
            if pending:
                self.removed(pending, before=step.input)
                pending = []
            if step.status in ("inserted", "moved-to"):
                self.added(step)
            else:
                if step.changes:
                    self.inline(step)
                self._expect_label(step)
            self.last_input = step.input
        if pending:
            self.removed(pending, before=None)
        if self.layout.native:
            self.settle_numbering()
        self.comments()

    # -- words changed inside a paragraph ------------------------------------------------------------

    def inline(self, step: Step) -> None:
        unit = self.layout.units[step.input]
        within = (unit.start, unit.end)
        for change in step.changes:
            if not self.tracked_change(change):
                continue
            if change.label and step.input not in self.layout.labelled:
                continue  # Word numbers the paragraph itself: rejecting the changes numbers it as the reference did
            made = []
            a, b = change.reference
            if b > a:
                props = self.tracked.props_at(change.input[0])
                runs = [make_run(self.diff.reference.text[x:y], _styles(self.diff.reference, x, y), props, deleted=True)
                        for x, y, _ in text_runs(self.diff.reference, a, b)]
                deletion = self.tracked.add(change.input[0], within, runs, "del", self.layout.elements.get(step.input))
                if deletion is not None:
                    made.append(deletion)
            if change.input[1] > change.input[0]:
                made += self.tracked.mark(change.input[0], change.input[1], "ins")
            self.anchor(change, made)

    def _expect_label(self, step: Step) -> None:
        """Remember the label the reference has for an input paragraph Word numbers (checked once all is written)."""
        element = self.layout.elements.get(step.input)
        if not self.layout.native or step.input in self.layout.labelled or element is None or element.tag != w("p"):
            return
        if any(c.label and not self.tracked_change(c) for c in step.changes):
            return  # the renumbering is shown as the input has it
        ref = self.diff.reference_units[step.reference]
        self.numbered.append((element, self.diff.reference.text[ref.label[0]:ref.label[1]]))

    def settle_numbering(self, rounds: int = 3) -> None:
        """Make rejecting every change number each paragraph as the reference does.

        Word numbers paragraphs itself, so a deleted numbered paragraph put back renumbers those after
        it, which is usually what the reference reads. Where a paragraph still reads another number
        with the changes rejected, its numbering becomes a tracked formatting change (``w:pPrChange``
        to no numbering) and the reference's label deleted text, as Word's Compare records it.
        """
        from conflictkit.normalize import flat
        from conflictkit_docx.numbering import Numbering
        from conflictkit_docx.reader import BodyReader, read_styles

        word = self.layout.docx
        styles = read_styles(word.styles)
        for _ in range(rounds):
            paragraphs = BodyReader(styles, Numbering(word.numbering), "original").body(word.body)
            shown = {id(p.element): p.label for p in paragraphs if p.element is not None}
            wrong = [(p, label) for p, label in self.numbered if id(p) in shown and flat(shown[id(p)]) != flat(label)]
            if not wrong:
                return
            for p, label in wrong:
                self._unnumber_when_rejected(p, label)
            self.numbered = [(p, label) for p, label in self.numbered if (p, label) not in wrong]

    def _unnumber_when_rejected(self, p, label: str) -> None:
        ppr = p.find(w("pPr"))
        if ppr is None:
            ppr = el("pPr")
            p.insert(0, ppr)
        old = copy.deepcopy(ppr)
        for child in list(old):
            if child.tag in (w("rPr"), w("pPrChange"), w("sectPr"), w("numPr")):
                old.remove(child)
        numpr = el("numPr")
        numpr.append(el("numId", val="0"))
        old.append(numpr)
        change = el("pPrChange", id=self.tracked.next_id(), author=self.tracked.author, date=self.tracked.date)
        change.append(old)
        ppr.append(change)
        if label:
            first = next((child for child in p if child.tag != w("pPr")), None)
            deleted = self.tracked.revision("del")
            deleted.append(make_run(label + " ", deleted=True))
            if first is not None:
                first.addprevious(deleted)
            else:
                p.append(deleted)

    # -- whole paragraphs and rows -------------------------------------------------------------------

    def added(self, step: Step) -> None:
        """An input unit the reference lacks (inserted), or that stands elsewhere there (moved-to)."""
        change = step.changes[0]
        if not self.tracked_change(change):
            return
        unit = self.layout.units[step.input]
        element = self.layout.elements.get(step.input)
        is_row = unit.kind == "row"
        kind = "ins" if step.status == "inserted" or is_row else "moveTo"
        made = self.tracked.mark(unit.start, unit.end, kind)
        if element is not None:
            if is_row:
                self.tracked.mark_row(element, "ins")
            else:
                self.tracked.mark_paragraph(element, kind)
                if kind == "moveTo":
                    self._move_range(element, step.move, "moveTo")
        self.anchor(change, made or ([element] if element is not None else []))
        if step.status == "moved-to" and is_row and made:
            self.anchors.setdefault(f"move:{step.move}", []).extend(made)

    def removed(self, steps: list[Step], before: int | None) -> None:
        """Reference units the input lacks (deleted) or has elsewhere (moved-from), placed before input unit ``before``."""
        steps = [s for s in steps if self.tracked_change(s.changes[0])]
        if not steps:
            return
        target = self.layout.elements.get(before) if before is not None else None
        previous = self.layout.elements.get(self.last_input) if self.last_input is not None else None
        new_table = None
        for step in steps:
            ref_unit = self.diff.reference_units[step.reference]
            change = step.changes[0]
            if ref_unit.kind == "row":
                element, runs = row(self.diff.reference, ref_unit, is_header_row(self.diff.reference, ref_unit))
                self._delete_runs(element, "del")
                self.tracked.mark_row(element, "del")
                if target is not None and target.tag == w("tr"):
                    target.addprevious(element)
                elif previous is not None and previous.tag == w("tr") and new_table is None:
                    previous.addnext(element)
                    previous = element
                else:
                    if new_table is None:
                        new_table = table(len(ref_unit.cells))
                        self._place_block(new_table, target, previous)
                    new_table.append(element)
            else:
                new_table = None
                kind = "moveFrom" if step.status == "moved-from" else "del"
                element = self._removed_paragraph(ref_unit, target, previous, kind, before)
                if element.find(f"{w('pPr')}/{w('numPr')}") is not None:
                    self.numbered.append((element, reference_label(self.diff.reference, ref_unit)))
                self._place_block(element, target, previous)
                previous = element
                if kind == "moveFrom":
                    self._move_range(element, step.move, "moveFrom")
            self.anchor(change, [element])

    def _near(self, before: int | None) -> list[int]:
        """Input units by distance from where a removed paragraph goes: the ones before it first."""
        at = before if before is not None else len(self.layout.units)
        backward = list(range(at - 1, max(-1, at - 40), -1))
        forward = list(range(at, min(len(self.layout.units), at + 40)))
        return backward + forward

    def _removed_paragraph(self, ref_unit: Unit, target, previous, kind: str, before: int | None):
        """A reference paragraph as deleted (or moved-from) text, in the input's styles and numbering where they fit."""
        reference = self.diff.reference
        style = heading_style(self.layout.docx, ref_unit.level) if ref_unit.kind == "heading" else None
        props = None
        skip_label = False
        if self.layout.native:
            neighbour = _paragraph_near(target, previous)
            props, skip_label = _props_for(neighbour, ref_unit, reference, self.layout, style, self._near(before))
        if skip_label:
            leaf = reference.leaves[ref_unit.leaves[0]]
            element = el("p")
            if props is not None:
                element.append(props)
            for _, _, run in text_runs(reference, leaf.label_end, ref_unit.end):
                element.append(run)
        else:
            element, _ = paragraph(reference, ref_unit, style, props)
        self._delete_runs(element, kind)
        self.tracked.mark_paragraph(element, kind)
        return element

    def _delete_runs(self, element, kind: str) -> None:
        """Every run of a new paragraph or row as deleted (or moved-from) text, in one revision per paragraph."""
        for p in [element] if element.tag == w("p") else list(element.iter(w("p"))):
            runs = [r for r in p if r.tag == w("r")]
            if not runs:
                continue
            wrapper = self.tracked.revision(kind)
            runs[0].addprevious(wrapper)
            for run in runs:
                wrapper.append(run)
                for t in run.iter(w("t")):
                    t.tag = w("delText")

    def _place_block(self, element, target, previous) -> None:
        """Put a new paragraph or table before the block of ``target``, else after ``previous``'s, else at the end."""
        if target is not None:
            _block_of(target).addprevious(element)
        elif previous is not None:
            _block_of(previous).addnext(element)
        else:
            body = self.layout.docx.body
            sect = body.find(w("sectPr"))
            if sect is not None:
                sect.addprevious(element)
            else:
                body.append(element)

    def _move_range(self, p, move: int | None, kind: str) -> None:
        """The named range Word pairs a move's two ends by (``moveFromRangeStart``... ``moveToRangeEnd``)."""
        name = self.move_names.setdefault(move or 0, f"conflictkit-move-{move}")
        rid = self.tracked.next_id()
        start = el(f"{kind}RangeStart", id=rid, name=name, author=self.tracked.author, date=self.tracked.date)
        ppr = p.find(w("pPr"))
        if ppr is not None:
            ppr.addnext(start)
        else:
            p.insert(0, start)
        p.append(el(f"{kind}RangeEnd", id=rid))

    # -- comments ------------------------------------------------------------------------------------

    def comments(self) -> None:
        if len(self.view.findings) > 1 and self.tracked.runs:  # what matters first, at the top of the document
            first = self.tracked.runs[0][2]
            self.tracked.comment(first, first, index_lines(self.view))
        for finding in self.view.findings:
            elements = self.anchors.get(finding["id"]) or self._fallback_anchor(finding)
            if not elements:
                continue
            self.tracked.comment(elements[0], elements[-1], comment_lines(self.view, finding))
        for key, elements in self.anchors.items():
            if key.startswith("move:") and elements:
                self.tracked.comment(elements[0], elements[-1], ["conflictkit: moved (Word cannot track a moved table row: "
                                                                 "shown as deleted where it was and inserted here)"])

    def _fallback_anchor(self, finding: dict) -> list:
        """The runs of the finding's input span, or of the input paragraph next to where a missing clause was."""
        quote = finding.get("input")
        if quote is not None:
            a, b = self.layout.to_rendered(quote["start"], quote["end"])
            runs = self.tracked.runs_in(a, b)
            if runs:
                return runs
        reference = finding.get("reference")
        if reference is None or not self.tracked.runs:
            return []
        a, _ = self.diff.reference.range_of(reference["start"], reference["end"])
        position = self._input_position_of(a)
        runs = self.tracked.runs_in(position, position + 1) or [self.tracked.runs[-1][2]]
        return runs[:1]

    def _input_position_of(self, reference_position: int) -> int:
        """Where a reference position falls in the input: the start of the input unit after it in the redline."""
        for step in self.diff.steps:
            if step.input is not None and step.reference is not None:
                if self.diff.reference_units[step.reference].start >= reference_position:
                    return self.layout.units[step.input].start
        return self.layout.units[-1].start if self.layout.units else 0


def reference_label(document: RenderedDocument, unit: Unit) -> str:
    return document.text[unit.label[0]:unit.label[1]]


def _styles(document: RenderedDocument, a: int, b: int) -> set[str]:
    return {m for s, e, m in document.marks_in(a, b) if s <= a and e >= b}


def _block_of(element):
    """The body-level block an element stands in: a paragraph, or the table of a row."""
    if element.tag == w("tr"):
        return next((a for a in element.iterancestors() if a.tag == w("tbl")), element)
    return element


def _paragraph_near(target, previous):
    for candidate in (target, previous):
        if candidate is not None and candidate.tag == w("p"):
            return candidate
    return None


def _label_shape(label: str) -> tuple | None:
    """What kind of number a label is ("10." and "9." alike, "10.1" not, "(a)" and "(b)" alike)."""
    from conflictkit.segmenters.labels import parse_label

    parsed = parse_label(label.strip() + " ") if label.strip() else None
    if parsed is None or parsed.kind == "bullet":
        return None
    token = parsed.token
    style = "digit" if token.isdigit() else "lower" if token.islower() else "upper" if token.isupper() else ""
    return parsed.kind, len(parsed.parts), parsed.wrap, style, parsed.keyword


def _props_for(neighbour, ref_unit: Unit, reference: RenderedDocument, layout: Layout, style: str | None, near: list[int]):
    """Paragraph properties for a reference paragraph placed in a Word input, and whether its label is Word's numbering.

    A numbered reference paragraph takes the numbering of the nearest input paragraph Word numbers
    with a label of the same shape ("10." like "9.", "(c)" like "(b)"), so its label is Word's and
    rejecting the changes renumbers what follows as the reference reads; otherwise it keeps its
    label as text. A heading takes the input's heading style; any other paragraph its neighbour's look.
    """
    props = el("pPr")
    if style:
        props.append(el("pStyle", val=style))
    elif neighbour is not None and neighbour.find(w("pPr")) is not None:
        props = copy.deepcopy(neighbour.find(w("pPr")))
        for child in list(props):
            if child.tag in (w("rPr"), w("pPrChange"), w("sectPr"), w("numPr")) or (
                    child.tag == w("pStyle") and _is_heading_style(child, layout)):
                props.remove(child)
    shape = _label_shape(reference.text[ref_unit.label[0]:ref_unit.label[1]])
    if shape is not None:
        for k in near:
            unit, element = layout.units[k], layout.elements.get(k)
            if k in layout.labelled or element is None or element.tag != w("p"):
                continue
            numpr = element.find(f"{w('pPr')}/{w('numPr')}")
            if numpr is not None and _label_shape(layout.document.text[unit.label[0]:unit.label[1]]) == shape:
                props.append(copy.deepcopy(numpr))
                return props, True
    return (props if len(props) else None), False


def _is_heading_style(pstyle, layout: Layout) -> bool:
    return layout.docx.style_name(pstyle.get(w("val")) or "").startswith(("heading", "title"))


INDEXED = ("high", "medium")
"""The severities the index comment at the top of the document lists finding by finding."""


def index_lines(view: ReportView) -> list[str]:
    """The comment on the document's first words: the findings by severity, those that matter most by name."""
    findings = view.findings
    lines = [f"conflictkit: {len(findings)} finding{'s' * (len(findings) != 1)}"
             + (f" ({counts})" if (counts := counts_phrase(findings)) else "") + ", each in a comment where it is."]
    for severity in INDEXED:
        picked = [f for f in findings if f.get("severity") == severity]
        if picked:
            lines.append(f"{severity.capitalize()}: " + "; ".join(
                f"{f['id']} {f['kind']} {view.title(f)}".rstrip() for f in picked))
    return lines


def comment_lines(view: ReportView, finding: dict) -> list[str]:
    """A finding's Word comment: severity, kind and P(conflict), where it is, its reasons in words, the rule that set its
    severity, the reference text, an explainer's lines."""
    title = view.title(finding)
    severity = f"{finding['severity']} " if finding.get("severity") else ""
    lines = [f"{finding['id']} {severity}{finding['kind']}, P(conflict) {finding['p_conflict']:.2f}" + (f": {title}" if title else "")]
    places = [f"{side} {view.place(finding[side], side)}".rstrip() for side in ("reference", "input") if finding.get(side)]
    if places:
        lines.append("; ".join(places))
    lines += [describe_reason(reason) for reason in finding.get("reasons", [])]
    if finding.get("severity_rule"):
        lines.append(f"Severity {finding['severity']}: {finding['severity_rule']}")
    editorial = [e for e in view.edits(finding) if e.get("verdict") != "substantive"]
    if editorial:
        kinds = sorted({str(e.get("kind")) for e in editorial if e.get("kind")})
        lines.append(f"{len(editorial)} editorial edit{'s' * (len(editorial) != 1)} not flagged" + (f" ({', '.join(kinds)})" if kinds else ""))
    reference = finding.get("reference")
    if reference and finding["kind"] != "moved":
        where = section_title(reference)
        lines.append(f"Reference{' (' + where + ')' if where else ''}: {view.quote_text(reference, 'reference')}")
    lines += view.explained(finding)
    return lines
