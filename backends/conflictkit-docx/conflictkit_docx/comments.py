"""``report.docx``: the input document with one Word comment per finding.

A DOCX input keeps its own formatting: its document.xml is read again (through python-docx) with
the loader's reader, which gives each run's offset in the document text, and each comment is
anchored on the runs covering the finding's span. Any other input is typeset as a new document,
paragraph by paragraph, with runs cut at the findings' boundaries. A missing clause (no span in
the input) is anchored at the end of the input clause that matches the reference clause before it.
"""

from __future__ import annotations

import io
import re
from bisect import bisect_right
from itertools import pairwise
from typing import TYPE_CHECKING

from conflictkit.errors import BackendError
from conflictkit.report.explanations import explanation_lines
from conflictkit.report.view import describe_reason

if TYPE_CHECKING:
    from conflictkit.engine import ComparisonResult

AUTHOR, INITIALS = "conflictkit", "CK"
_HEADING = re.compile(r"(#{1,6}) ")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` with the characters XML cannot hold replaced one for one (offsets stay valid)."""
    return _NOT_XML.sub("\ufffd", text)


def comment_lines(finding: dict, report: dict | None = None) -> list[str]:
    """What a finding's comment says: id, kind, probability, reasons, the reference text, and an explainer's lines."""
    lines = [f"{finding['id']} {finding['kind']}: P(conflict) {finding['p_conflict']:.2f}"
             + (f", P(same matter) {finding['p_same']:.2f}" if finding.get("p_same") is not None else "")]
    lines += [describe_reason(reason) for reason in finding.get("reasons", [])]
    reference = finding.get("reference")
    if reference:
        where = " ".join(x for x in (reference.get("section"), reference.get("heading")) if x)
        lines.append(f"Reference{' (' + where + ')' if where else ''}: {reference['text']}")
    if report is not None:
        lines += explanation_lines(report, finding["id"])
    return lines


def _anchors(result: ComparisonResult) -> list[tuple[int, int, dict]]:
    """(start, end, finding) in the input's text for every finding; a missing one gets an empty span."""
    matched = {row["reference_id"]: row["input_id"] for row in result.pairs.get("pairs", [])
               if row.get("status") in ("covered", "deviation")}
    order = [c.id for c in result.reference.clauses]
    out = []
    for finding in result.report["findings"]:
        quote = finding.get("input")
        if quote:
            out.append((quote["start"], quote["end"], finding))
            continue
        position = order.index(finding["reference"]["clause_id"])
        anchor = 0
        for earlier in reversed(order[:position]):
            if earlier in matched:
                anchor = result.input.clause(matched[earlier]).span.end
                break
        out.append((anchor, anchor, finding))
    return out


def _comment(document, runs: list, finding: dict, report: dict) -> None:
    lines = comment_lines(finding, report)
    comment = document.add_comment(runs, text=xml_safe(lines[0]), author=AUTHOR, initials=INITIALS)
    for line in lines[1:]:
        comment.add_paragraph(xml_safe(line))


def _covering(spans: list[tuple[int, int, object]], start: int, end: int) -> list:
    """The runs whose text overlaps ``[start, end)``; for an empty span, the run just before it."""
    starts = [s for s, _, _ in spans]
    first = max(0, bisect_right(starts, start) - 1)
    if end <= start:
        return [spans[min(first, len(spans) - 1)][2]]
    found = [run for s, e, run in spans[first:] if s < end and e > start]
    return found or [spans[min(first, len(spans) - 1)][2]]


def _from_docx(result: ComparisonResult, data: bytes):
    import docx
    from docx.text.paragraph import Paragraph
    from docx.text.run import Run

    from conflictkit_docx.loader import read_docx
    from conflictkit_docx.package import w

    document = docx.Document(io.BytesIO(data))
    assembled, _ = read_docx(data, result.input.document.path, "accepted", body_root=document.element)
    if assembled.text != result.input.document.original:
        raise BackendError("report.docx: the input .docx reads differently now than when it was compared; compare it again")
    def paragraph_of(run_element):
        return Paragraph(next(a for a in run_element.iterancestors() if a.tag == w("p")), document._body)

    spans = [(s, e, Run(r, paragraph_of(r))) for s, e, r in assembled.runs]
    return document, spans


def _typeset(text: str, boundaries: set[int]):
    """A new document from the input's text: one paragraph per block, runs cut at ``boundaries``."""
    import docx

    document = docx.Document()
    spans = []
    position = 0
    for block in text.split("\n\n"):
        start, body = position, block
        position += len(block) + 2
        if not block.strip():
            continue
        heading = _HEADING.match(block)
        if heading:
            paragraph = document.add_heading(level=len(heading.group(1)))
            start, body = start + heading.end(), block[heading.end():]
        else:
            paragraph = document.add_paragraph()
        cuts = sorted({0, len(body)} | {b - start for b in boundaries if start < b < start + len(body)})
        for a, b in pairwise(cuts):
            spans.append((start + a, start + b, paragraph.add_run(xml_safe(body[a:b]))))
    return document, spans


def report_docx(result: ComparisonResult, input_data: bytes | None = None) -> bytes:
    """The bytes of report.docx for a finished comparison (``input_data``: the input file, for a DOCX input)."""
    source = result.input.document.source
    anchors = _anchors(result)
    if source is not None and source.format == "docx" and input_data is not None:
        document, spans = _from_docx(result, input_data)
    else:
        document, spans = _typeset(result.input.document.original, {x for s, e, _ in anchors for x in (s, e)})
    if not spans:
        raise BackendError("report.docx: the input has no text to anchor comments on")
    for start, end, finding in anchors:
        _comment(document, _covering(spans, start, end), finding, result.report)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()
