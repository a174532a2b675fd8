"""A review as a file: the report with each finding's decision, as JSON, Markdown or HTML."""

from __future__ import annotations

import json
import time

from conflictkit.errors import UserError
from conflictkit.report.escape import escape_cell, escape_markdown
from conflictkit.report.html import render_html
from conflictkit.report.render import editorial_note, markdown_redline
from conflictkit.report.view import ReportView, describe_reason
from conflictkit.web.playbooks import is_review
from conflictkit.web.reviews import MAX_NOTE, STATUSES, Comparison

REVIEW_SCHEMA = "conflictkit.review/1"


def _decision(decisions: dict, finding: dict) -> dict:
    d = decisions.get(finding.get("id")) or {}
    return {"status": d.get("status"), "note": d.get("note") or "", "updated": d.get("updated")}


def review_json(comparison: Comparison, decisions: dict) -> str:
    """The report with a ``review`` on every finding (a playbook review: on every position and uncovered clause),
    and where the comparison came from."""
    report = json.loads(json.dumps(comparison.report))
    for finding in [*report.get("findings", []), *report.get("positions", []), *report.get("uncovered", [])]:
        finding["review"] = _decision(decisions, finding)
    data = {
        "schema": REVIEW_SCHEMA,
        "comparison": {
            "id": comparison.id, "created": comparison.created,
            "reference_name": comparison.reference_name, "input_name": comparison.input_name,
            "config": comparison.config,
        },
        "report": report,
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def review_markdown(comparison: Comparison, decisions: dict) -> str:
    """The review for people: a table of findings with decisions, then each finding in full.

    Valid CommonMark; document text, names and notes are escaped, so nothing from a document
    renders as markup or fetches anything in a Markdown viewer.
    """
    report = comparison.report
    if is_review(report):
        return _playbook_review_markdown(report, {"reference": comparison.reference_text, "input": comparison.input_text},
                                         decisions)
    summary = report.get("summary") or {}
    view = ReportView(report, {"reference": comparison.reference_text, "input": comparison.input_text})
    findings = view.findings  # by severity, then document order, as every view lists them
    md = escape_markdown
    out = [
        f"# Review: {md(comparison.reference_name)} -> {md(comparison.input_name)}", "",
        f"Compared {time.strftime('%Y-%m-%d %H:%M', time.localtime(comparison.created))}; "
        + ", ".join(f"{k} {summary.get(k, 0)}" for k in ("deviation", "missing", "added", "moved", "covered")) + ".", "",
    ]
    if findings:
        out += ["| Finding | Severity | Kind | Section | P(conflict) | Decision | Note |", "|---|---|---|---|---|---|---|"]
    for f in findings:
        d = _decision(decisions, f)
        out.append(f"| {escape_cell(f['id'])} | {f.get('severity') or ''} | {f['kind']} | {escape_cell(view.title(f))} "
                   f"| {100 * f['p_conflict']:.0f}% | {d['status'] or 'undecided'} | {escape_cell(d['note'])} |")
    for f in findings:
        severity = f"{f['severity']} " if f.get("severity") else ""
        out += ["", f"## {md(f['id'])} {severity}{f['kind']}: {md(view.title(f)) or 'untitled clause'} ({100 * f['p_conflict']:.0f}%)", ""]
        if f.get("severity_rule"):
            out += [f"Severity {f['severity']}: {md(f['severity_rule'])}", ""]
        for side in ("reference", "input"):
            quote = f.get(side)
            if quote:
                out += [f"{side.capitalize()} ({md(view.located(quote, side))}):", "", f"> {md(view.quote_text(quote, side))}", ""]
        redline = markdown_redline(view, f)
        if redline:
            out += [f"Redline: {redline}", ""]
        note = editorial_note(view, f)
        if note:
            out += [f"*{md(note)}*", ""]
        for reason in f.get("reasons") or []:
            out.append(f"- {md(describe_reason(reason))}")
        d = _decision(decisions, f)
        out += ["", f"Decision: {d['status'] or 'undecided'}" + (f". Note: {md(d['note'])}" if d["note"] else "")]
    return "\n".join(out) + "\n"


def _playbook_review_markdown(review: dict, texts: dict, decisions: dict) -> str:
    """review.md of a playbook review, then every reviewer's decision."""
    from conflictkit.playbook.render import render_review_markdown

    lines = [render_review_markdown(review, texts).rstrip("\n"), "", "## Decisions", "",
             "| Entry | Verdict | Decision | Note |", "|---|---|---|---|"]
    for entry in [*review.get("positions", []), *review.get("uncovered", [])]:
        d = _decision(decisions, entry)
        lines.append(f"| {escape_cell(entry['id'])} | {entry.get('label', 'uncovered')} | {d['status'] or 'undecided'} "
                     f"| {escape_cell(d['note'])} |")
    return "\n".join(lines) + "\n"


def review_html(comparison: Comparison, decisions: dict) -> str:
    """The self-contained HTML report with the decisions and notes shown on each finding."""
    if is_review(comparison.report):
        from conflictkit.playbook.html import render_review_html

        return render_review_html(comparison.report, comparison.reference_text, comparison.input_text, decisions)
    return render_html(comparison.report, comparison.reference_text, comparison.input_text, decisions)


def imported_decisions(data: object, comparison: Comparison) -> tuple[dict[str, dict], list[str]]:
    """The decisions of a review file (``conflictkit.review/1``: exported here or from a report.html) that
    belong to ``comparison``: ``({finding id: {"status", "note"}}, [why each other finding was skipped])``.

    The file must be of the same two documents (their sha256); a finding is taken only where the
    comparison has one with the same id, kind and spans, and only when it holds a decision or a note.
    """
    report = data.get("report") if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("schema") != REVIEW_SCHEMA or not isinstance(report, dict) \
            or not isinstance(report.get("findings"), list):
        raise UserError(f"not a review file: expected JSON with schema {REVIEW_SCHEMA!r} and report.findings "
                        "(Export review in report.html or here)")
    for side in ("reference", "input"):
        theirs = (report.get(side) or {}).get("sha256") if isinstance(report.get(side), dict) else None
        ours = (comparison.report.get(side) or {}).get("sha256")
        if theirs != ours:
            raise UserError(f"this review is of another {side} document ({(report.get(side) or {}).get('path') or 'unnamed'}); "
                            "import it into the comparison of the same two documents")
    ours = {f.get("id"): f for f in comparison.report.get("findings") or []}
    decisions: dict[str, dict] = {}
    skipped: list[str] = []
    for finding in report["findings"]:
        if not isinstance(finding, dict):
            continue
        fid, review = str(finding.get("id")), finding.get("review") if isinstance(finding.get("review"), dict) else {}
        status, note = review.get("status"), review.get("note") or ""
        if status is None and not note:
            continue
        mine = ours.get(fid)
        if mine is None or mine.get("kind") != finding.get("kind") or any(
                _span(finding.get(side)) not in (None, _span(mine.get(side))) for side in ("reference", "input")):
            skipped.append(f"{fid}: no such finding in this comparison")
            continue
        if status not in (None, *STATUSES) or not isinstance(note, str) or len(note) > MAX_NOTE:
            skipped.append(f"{fid}: not a decision (status {status!r}, a note of at most {MAX_NOTE} characters)")
            continue
        decisions[fid] = {"status": status, "note": note}
    return decisions, skipped


def _span(quote: object) -> tuple[int, int] | None:
    if not isinstance(quote, dict) or not isinstance(quote.get("start"), int) or not isinstance(quote.get("end"), int):
        return None
    return quote["start"], quote["end"]
