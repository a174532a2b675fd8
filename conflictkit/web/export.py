"""A review as a file: the report with each finding's decision, as JSON, Markdown or HTML."""

from __future__ import annotations

import json
import time

from conflictkit.report.html import render_html
from conflictkit.web.reviews import Comparison

REVIEW_SCHEMA = "conflictkit.review/1"


def _decision(decisions: dict, finding: dict) -> dict:
    d = decisions.get(finding.get("id")) or {}
    return {"status": d.get("status"), "note": d.get("note") or "", "updated": d.get("updated")}


def review_json(comparison: Comparison, decisions: dict) -> str:
    """The report with a ``review`` on every finding, and where the comparison came from."""
    report = json.loads(json.dumps(comparison.report))
    for finding in report.get("findings", []):
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


def _md(text: str) -> str:
    """One line of quoted clause text, safe inside a Markdown blockquote."""
    return " ".join(text.split()).replace("\\", "\\\\").replace("<", "\\<").replace("`", "\\`")


def review_markdown(comparison: Comparison, decisions: dict) -> str:
    """The review for people: a table of findings with decisions, then each finding in full."""
    report = comparison.report
    findings = report.get("findings") or []
    summary = report.get("summary") or {}
    lines = [
        f"# Review: {_md(comparison.input_name)} vs {_md(comparison.reference_name)}", "",
        f"Compared {time.strftime('%Y-%m-%d %H:%M', time.localtime(comparison.created))}; "
        + ", ".join(f"{k} {summary.get(k, 0)}" for k in ("deviation", "missing", "added", "moved", "covered")) + ".", "",
        "| Finding | Kind | P(conflict) | Decision | Note |", "|---|---|---|---|---|",
    ]
    for f in findings:
        d = _decision(decisions, f)
        note = _md(d["note"]).replace("|", "\\|")
        lines.append(f"| {f['id']} | {f['kind']} | {100 * f['p_conflict']:.0f}% | {d['status'] or 'undecided'} | {note} |")
    for f in findings:
        lines += ["", f"## {f['id']}: {f['kind']} ({100 * f['p_conflict']:.0f}%)", ""]
        for side in ("reference", "input"):
            quote = f.get(side)
            if quote:
                where = " ".join(x for x in (quote.get("section"), quote.get("heading")) if x)
                lines.append(f"> **{side}** {_md(where)} [{quote['start']}:{quote['end']}]: {_md(quote['text'])}")
                lines.append(">")
        if lines[-1] == ">":
            lines.pop()
        if f.get("reference") and f.get("input"):
            markdown = (f.get("redline") or {}).get("markdown")  # the engine stores it with each deviation
            if markdown is None:
                from conflictkit.grounding.redline import redline

                markdown = redline(f["reference"]["text"], f["input"]["text"]).to_markdown()
            lines += ["", "Redline: " + markdown]
        for reason in f.get("reasons") or []:
            change = f": {reason.get('reference')} → {reason.get('input')}" if reason.get("reference") or reason.get("input") else ""
            detail = f" ({reason['detail']})" if reason.get("detail") else ""
            lines.append(f"- {_md(reason['type'])}{_md(change)}{_md(detail)}")
        d = _decision(decisions, f)
        lines += ["", f"Decision: **{d['status'] or 'undecided'}**" + (f". Note: {_md(d['note'])}" if d["note"] else "")]
    return "\n".join(lines) + "\n"


def review_html(comparison: Comparison, decisions: dict) -> str:
    """The self-contained HTML report with the decisions and notes shown on each finding."""
    return render_html(comparison.report, comparison.reference_text, comparison.input_text, decisions)
