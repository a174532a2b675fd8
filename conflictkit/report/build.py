"""From an alignment to findings with grounded quotes, and to the report and pairs documents."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from itertools import accumulate

from conflictkit.align import Alignment, Gap, Link
from conflictkit.errors import GroundingError
from conflictkit.model import CandidatePair, ClauseSpan, Finding, IndexedDocument, Judgement, Quote, Reason
from conflictkit.report import PAIRS_SCHEMA, REPORT_SCHEMA
from conflictkit.report.order import ordered, severity_counts
from conflictkit.report.severity import SeverityTable

FINDING_KINDS = ("deviation", "missing", "added", "moved")


def quote_of(document: IndexedDocument, clause_id: str) -> Quote:
    """The cited span of a clause: offsets into the original text and the text found there."""
    return quote_of_run(document, (clause_id,))


def quote_of_run(document: IndexedDocument, clause_ids: tuple[str, ...]) -> Quote:
    """The cited span of consecutive clauses: their hull, with each clause's span when there are several."""
    clauses = [document.clause(cid) for cid in clause_ids]
    start, end = clauses[0].span.start, max(c.span.end for c in clauses)
    spans = [ClauseSpan(start=c.span.start, end=c.span.end, clause_id=c.id) for c in clauses] if len(clauses) > 1 else None
    source = document.document.source
    return Quote(
        start=start,
        end=end,
        text=document.document.original[start:end],
        heading=clauses[0].heading,
        section=clauses[0].section,
        clause_id=clauses[0].id,
        spans=spans,
        location=source.locate(start, end) if source is not None else None,
    )


def _gap_reason(kind: str, gap: Gap) -> Reason:
    side = "input" if kind == "missing" else "reference"
    what = "definition" if gap.definition else "counterpart"
    return Reason(type=kind, detail=f"no same-matter {what} in the {side} (best P(same matter) {gap.best_p_same:.2f})")


def _moved_reason(reference: Quote, input: Quote) -> Reason:
    def where(q: Quote) -> str:
        return f"section {q.section}" if q.section else f"offset {q.start}"

    return Reason(type="moved", reference=where(reference), input=where(input),
                  detail=f"moved from {where(reference)} of the reference to {where(input)} of the input")


def redline_record(reference_text: str, input_text: str, pack=None) -> dict:
    """A finding's ``redline``: the word-level ops between two quotes' texts (the words of ``pack`` that
    may reverse meaning marked), and their Markdown."""
    from conflictkit.grounding import redline

    changes = redline(reference_text, input_text, pack)
    return {**changes.to_dict(), "markdown": changes.to_markdown()}


def _deviation(link: Link, reference: IndexedDocument, input: IndexedDocument, pack=None) -> dict:
    ref_quote, inp_quote = quote_of_run(reference, link.reference), quote_of_run(input, link.input)
    judgement = link.judgement
    reasons = list(judgement.reasons) + ([_moved_reason(ref_quote, inp_quote)] if link.moved else [])
    return {
        "kind": "deviation", "p_conflict": round(judgement.p_conflict, 4), "p_same": round(judgement.p_same, 4),
        "reference": ref_quote, "input": inp_quote, "reasons": reasons, "judge": judgement.judge, "moved": link.moved,
        "redline": redline_record(ref_quote.text, inp_quote.text, pack), "edits": judgement.edits,
    }


def _move(block: list[Link], reference: IndexedDocument, input: IndexedDocument) -> dict:
    ref_ids = tuple(cid for link in block for cid in link.reference)
    inp_ids = tuple(cid for link in block for cid in link.input)
    ref_quote, inp_quote = quote_of_run(reference, ref_ids), quote_of_run(input, inp_ids)
    judges = {link.judgement.judge for link in block if link.judgement is not None}
    return {
        "kind": "moved", "p_conflict": max(round(link.p_conflict, 4) for link in block),
        "p_same": round(min(link.p_same for link in block), 4), "reference": ref_quote, "input": inp_quote,
        "reasons": [_moved_reason(ref_quote, inp_quote)], "judge": ", ".join(sorted(judges)) or None, "moved": True,
    }


def build_findings(alignment: Alignment, reference: IndexedDocument, input: IndexedDocument, pack=None) -> list[Finding]:
    """Every finding, numbered in document order: the input's order, a missing clause where it would stand
    (after the input counterpart of the reference clause before it); the redline of a deviation marks the
    words of ``pack`` (the comparison's language) that may reverse meaning."""
    found: list[dict] = []
    for link in alignment.deviations:
        found.append(_deviation(link, reference, input, pack))
    for block in alignment.moves:
        found.append(_move(block, reference, input))
    for gap in alignment.missing:
        found.append({"kind": "missing", "p_conflict": round(1.0 - gap.best_p_same, 4), "p_same": round(gap.best_p_same, 4),
                      "reference": quote_of(reference, gap.clause_id), "reasons": [_gap_reason("missing", gap)],
                      "definition": gap.definition})
    for gap in alignment.added:
        found.append({"kind": "added", "p_conflict": round(1.0 - gap.best_p_same, 4), "p_same": round(gap.best_p_same, 4),
                      "input": quote_of(input, gap.clause_id), "reasons": [_gap_reason("added", gap)],
                      "definition": gap.definition})
    place = _places(alignment, reference, input)
    found.sort(key=place)
    return [Finding(id=f"F{n:04d}", **fields) for n, fields in enumerate(found, 1)]


def _places(alignment: Alignment, reference: IndexedDocument, input: IndexedDocument):
    """A finding's place in document order: ``(input offset, reference offset)``; a missing clause stands
    at the end of the input clause linked to the nearest reference clause before it (the start without one)."""
    anchors = sorted((reference.position(link.reference[-1]), max(input.clause(c).span.end for c in link.input))
                     for link in [*alignment.deviations, *alignment.covered] if not link.moved)
    positions = [a for a, _ in anchors]
    ends = list(accumulate((e for _, e in anchors), max))  # links are monotone but for runs: never go back

    def place(fields: dict) -> tuple[int, int]:
        ref, inp = fields.get("reference"), fields.get("input")
        if inp is not None:
            return inp.start, ref.start if ref is not None else -1
        k = bisect.bisect_left(positions, reference.position(ref.clause_id)) - 1
        return (ends[k] if k >= 0 else 0), ref.start

    return place


def section_headings(document: IndexedDocument, clause_id: str) -> list[str]:
    """A clause's heading, then the headings of the sections holding it, nearest first (the title last)."""
    out: list[str] = []
    clause, seen = document.clause(clause_id), set()
    while clause is not None and clause.id not in seen:
        seen.add(clause.id)
        heading = clause.heading or (clause.text if clause.kind == "heading" else None)
        if heading and heading not in out:
            out.append(heading)
        try:
            clause = document.clause(clause.parent) if clause.parent else None
        except KeyError:
            clause = None
    return out


def assess_findings(findings: list[Finding], table: SeverityTable, reference: IndexedDocument, input: IndexedDocument) -> list[Finding]:
    """Each finding with its severity, subject and the rule that set them, listed by severity then document order."""
    for finding in findings:
        sides = [(q, d) for q, d in ((finding.input, input), (finding.reference, reference)) if q is not None]
        edits = [e.kind for e in finding.edits if e.verdict == "substantive"] if finding.edits else None
        assessment = table.assess(finding.kind, edits, [r.type for r in finding.reasons],
                                  [section_headings(d, q.clause_id) for q, d in sides], [q.text for q, _ in sides])
        finding.severity, finding.subject, finding.severity_rule = assessment.severity, assessment.subject, assessment.rule
    rank = {f["id"]: n for n, f in enumerate(ordered([{"id": f.id, "severity": f.severity} for f in findings]))}
    return sorted(findings, key=lambda f: rank[f.id])


def ground_findings(findings: Sequence[Finding], reference: IndexedDocument, input: IndexedDocument) -> int:
    """Check every cited span against its source before anything is written; return how many were checked.

    Anything with a finding's ``id``, ``reference`` and ``input`` quotes and ``grounded`` flag is
    checked the same way (a playbook review's verdicts are).

    A span that does not hold is an engine bug: it raises, naming the clause, and is never
    corrected or dropped silently.
    """
    from conflictkit.grounding import Verifier

    verifiers = {"reference": Verifier(reference.document.original), "input": Verifier(input.document.original)}
    checked = 0
    for finding in findings:
        for side in ("reference", "input"):
            quote: Quote | None = getattr(finding, side, None)
            if quote is None:
                continue
            # a run's clause spans must lie inside its hull and hold text of the file, like the hull
            cited = [(quote.clause_id, quote.start, quote.end, quote.text)]
            cited += [(s.clause_id, s.start, s.end, quote.text[s.start - quote.start : s.end - quote.start])
                      for s in quote.spans or []]
            for clause_id, start, end, text in cited:
                result = verifiers[side].verify(text, start=start, end=end, label=finding.id)
                checked += 1
                if result.status != "grounded":
                    raise GroundingError(
                        f"finding {finding.id} cites {side} clause {clause_id} at [{start}, {end}) "
                        f"but verification says {result.status}: {result.detail}"
                    )
        for n, edit in enumerate(getattr(finding, "edits", ())):
            for side in ("reference", "input"):
                cited_edit = getattr(edit, side)
                original = (reference if side == "reference" else input).document.original
                if original[cited_edit.start:cited_edit.end] != cited_edit.text:
                    raise GroundingError(f"finding {finding.id} edit {n + 1} cites {side} [{cited_edit.start}, "
                                         f"{cited_edit.end}) but the file holds other text there")
                checked += 1
        finding.grounded = True
    return checked


def document_summary(document: IndexedDocument) -> dict:
    return {
        "path": document.document.path,
        "sha256": document.document.sha256,
        "clauses": len(document.clauses),
        "filtered": sum(1 for c in document.clauses if c.filtered is not None),
        "source": document.document.source.summary() if document.document.source is not None else None,
    }


def build_report(
    reference: IndexedDocument,
    input: IndexedDocument,
    findings: list[Finding],
    alignment: Alignment,
    pairs: list[CandidatePair],
    judgements: list[Judgement],
    spans_checked: int,
    thresholds: dict,
) -> dict:
    """The report.json document (schema ``conflictkit.report/1``)."""
    counts = {kind: sum(1 for f in findings if f.kind == kind) for kind in FINDING_KINDS}
    ref_summary, inp_summary = document_summary(reference), document_summary(input)
    summary = {
        **counts,
        "covered": len(alignment.covered),
        "filtered": {"reference": ref_summary["filtered"], "input": inp_summary["filtered"]},
        "clauses": {"reference": ref_summary["clauses"], "input": inp_summary["clauses"]},
        "all_pairs": len(reference.clauses) * len(input.clauses),
        "candidate_pairs": len(pairs),
        "judged_pairs": len(judgements),
        "judged_runs": alignment.judged_runs,
        "spans_checked": spans_checked,
        "severity": severity_counts(f.model_dump(include={"severity"}) for f in findings),
    }
    return {
        "schema": REPORT_SCHEMA,
        "reference": ref_summary,
        "input": inp_summary,
        "thresholds": thresholds,
        "summary": summary,
        "findings": [f.model_dump(mode="json") for f in findings],
    }


def build_pairs(pairs: list[CandidatePair], judgements: list[Judgement], alignment: Alignment) -> dict:
    """The pairs.json document: every candidate pair with its retrieval signals and judgement."""
    by_key = {(j.reference_id, j.input_id): j for j in judgements}
    deviations = alignment.deviating
    picked = alignment.picked
    rows = []
    for pair in pairs:
        key = (pair.reference_id, pair.input_id)
        judgement = by_key.get(key)
        status = "deviation" if key in deviations else "covered" if key in picked else "not picked"
        rows.append({
            **pair.model_dump(mode="json"),
            "status": status,
            "judgement": judgement.model_dump(mode="json", exclude={"reference_id", "input_id"}) if judgement else None,
        })
    return {"schema": PAIRS_SCHEMA, "pairs": rows}
