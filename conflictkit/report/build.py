"""From an alignment to findings with grounded quotes, and to the report and pairs documents."""

from __future__ import annotations

from collections.abc import Sequence

from conflictkit.align import Alignment, Gap, Link
from conflictkit.errors import GroundingError
from conflictkit.model import CandidatePair, ClauseSpan, Finding, IndexedDocument, Judgement, Quote, Reason
from conflictkit.report import PAIRS_SCHEMA, REPORT_SCHEMA

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
    """Deviations in reference order, then moves, missing (reference order), added (input order); the
    redline of a deviation marks the words of ``pack`` (the comparison's language) that may reverse meaning."""
    findings: list[Finding] = []

    def add(fields: dict) -> None:
        findings.append(Finding(id=f"F{len(findings) + 1:04d}", **fields))

    for link in alignment.deviations:
        add(_deviation(link, reference, input, pack))
    for block in alignment.moves:
        add(_move(block, reference, input))
    for gap in alignment.missing:
        add({"kind": "missing", "p_conflict": round(1.0 - gap.best_p_same, 4), "p_same": round(gap.best_p_same, 4),
                 "reference": quote_of(reference, gap.clause_id), "reasons": [_gap_reason("missing", gap)],
                 "definition": gap.definition})
    for gap in alignment.added:
        add({"kind": "added", "p_conflict": round(1.0 - gap.best_p_same, 4), "p_same": round(gap.best_p_same, 4),
                 "input": quote_of(input, gap.clause_id), "reasons": [_gap_reason("added", gap)], "definition": gap.definition})
    return findings


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
