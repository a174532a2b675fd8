"""A review as a file: the report with each finding's decision, as JSON, Markdown or HTML."""

from __future__ import annotations

import json
import time

from conflictkit.report.escape import escape_cell, escape_markdown
from conflictkit.report.html import render_html
from conflictkit.report.render import editorial_note, markdown_redline
from conflictkit.report.view import ReportView, describe_reason
from conflictkit.web.playbooks import is_review
from conflictkit.web.reviews import Comparison

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
    findings = report.get("findings") or []
    summary = report.get("summary") or {}
    view = ReportView(report, {"reference": comparison.reference_text, "input": comparison.input_text})
    md = escape_markdown
    out = [
        f"# Review: {md(comparison.reference_name)} -> {md(comparison.input_name)}", "",
        f"Compared {time.strftime('%Y-%m-%d %H:%M', time.localtime(comparison.created))}; "
        + ", ".join(f"{k} {summary.get(k, 0)}" for k in ("deviation", "missing", "added", "moved", "covered")) + ".", "",
    ]
    if findings:
        out += ["| Finding | Kind | Section | P(conflict) | Decision | Note |", "|---|---|---|---|---|---|"]
    for f in findings:
        d = _decision(decisions, f)
        out.append(f"| {escape_cell(f['id'])} | {f['kind']} | {escape_cell(view.title(f))} | {100 * f['p_conflict']:.0f}% "
                   f"| {d['status'] or 'undecided'} | {escape_cell(d['note'])} |")
    for f in findings:
        out += ["", f"## {md(f['id'])} {f['kind']}: {md(view.title(f)) or 'untitled clause'} ({100 * f['p_conflict']:.0f}%)", ""]
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
