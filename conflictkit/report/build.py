"""From a partition to findings with grounded quotes, and to the report and pairs documents."""

from __future__ import annotations

from conflictkit.errors import GroundingError
from conflictkit.model import CandidatePair, Finding, IndexedDocument, Judgement, Quote, Reason
from conflictkit.partition import Partition
from conflictkit.report import PAIRS_SCHEMA, REPORT_SCHEMA


def quote_of(document: IndexedDocument, clause_id: str) -> Quote:
    """The cited span of a clause: offsets into the original text and the text found there."""
    clause = document.clause(clause_id)
    start, end = clause.span.start, clause.span.end
    source = document.document.source
    return Quote(
        start=start,
        end=end,
        text=document.document.original[start:end],
        heading=clause.heading,
        section=clause.section,
        clause_id=clause.id,
        location=source.locate(start, end) if source is not None else None,
    )


def _gap_reason(kind: str, best_p_same: float) -> Reason:
    side = "input" if kind == "missing" else "reference"
    return Reason(type=kind, detail=f"no same-matter counterpart in the {side} (best P(same matter) {best_p_same:.2f})")


def build_findings(partition: Partition, reference: IndexedDocument, input: IndexedDocument) -> list[Finding]:
    """Deviations in reference order, then missing (reference order), then added (input order)."""
    findings: list[Finding] = []

    def add(**kwargs) -> None:
        findings.append(Finding(id=f"F{len(findings) + 1:04d}", **kwargs))

    from conflictkit.grounding import redline

    for j in partition.deviations:
        ref_quote, inp_quote = quote_of(reference, j.reference_id), quote_of(input, j.input_id)
        changes = redline(ref_quote.text, inp_quote.text)
        add(
            kind="deviation",
            p_conflict=round(j.p_conflict, 4),
            p_same=round(j.p_same, 4),
            reference=ref_quote,
            input=inp_quote,
            reasons=j.reasons,
            judge=j.judge,
            redline={**changes.to_dict(), "markdown": changes.to_markdown()},
        )
    for clause_id, best in partition.missing:
        add(kind="missing", p_conflict=round(1.0 - best, 4), p_same=round(best, 4),
            reference=quote_of(reference, clause_id), reasons=[_gap_reason("missing", best)])
    for clause_id, best in partition.added:
        add(kind="added", p_conflict=round(1.0 - best, 4), p_same=round(best, 4),
            input=quote_of(input, clause_id), reasons=[_gap_reason("added", best)])
    return findings


def ground_findings(findings: list[Finding], reference: IndexedDocument, input: IndexedDocument) -> int:
    """Check every cited span against its source before anything is written; return how many were checked.

    A span that does not hold is an engine bug: it raises, naming the clause, and is never
    corrected or dropped silently.
    """
    from conflictkit.grounding import Verifier

    verifiers = {"reference": Verifier(reference.document.original), "input": Verifier(input.document.original)}
    checked = 0
    for finding in findings:
        for side in ("reference", "input"):
            quote: Quote | None = getattr(finding, side)
            if quote is None:
                continue
            result = verifiers[side].verify(quote.text, start=quote.start, end=quote.end, label=finding.id)
            checked += 1
            if result.status != "grounded":
                raise GroundingError(
                    f"finding {finding.id} cites {side} clause {quote.clause_id} at [{quote.start}, {quote.end}) "
                    f"but verification says {result.status}: {result.detail}"
                )
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
    partition: Partition,
    pairs: list[CandidatePair],
    judgements: list[Judgement],
    spans_checked: int,
    thresholds: dict,
) -> dict:
    """The report.json document (schema ``conflictkit.report/1``)."""
    counts = {kind: sum(1 for f in findings if f.kind == kind) for kind in ("deviation", "missing", "added")}
    ref_summary, inp_summary = document_summary(reference), document_summary(input)
    summary = {
        **counts,
        "covered": len(partition.covered),
        "filtered": {"reference": ref_summary["filtered"], "input": inp_summary["filtered"]},
        "clauses": {"reference": ref_summary["clauses"], "input": inp_summary["clauses"]},
        "all_pairs": len(reference.clauses) * len(input.clauses),
        "candidate_pairs": len(pairs),
        "judged_pairs": len(judgements),
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


def build_pairs(pairs: list[CandidatePair], judgements: list[Judgement], partition: Partition) -> dict:
    """The pairs.json document: every candidate pair with its retrieval signals and judgement."""
    by_key = {(j.reference_id, j.input_id): j for j in judgements}
    deviations = {(j.reference_id, j.input_id) for j in partition.deviations}
    rows = []
    for pair in pairs:
        key = (pair.reference_id, pair.input_id)
        judgement = by_key.get(key)
        status = "deviation" if key in deviations else "covered" if key in partition.picked else "not picked"
        rows.append({
            **pair.model_dump(mode="json"),
            "status": status,
            "judgement": judgement.model_dump(mode="json", exclude={"reference_id", "input_id"}) if judgement else None,
        })
    return {"schema": PAIRS_SCHEMA, "pairs": rows}
