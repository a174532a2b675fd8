"""What an explainer added to a report (``summaries``, ``recommendations``), looked up per finding for renderers."""

from __future__ import annotations


def explanation_of(report: dict, finding_id: str) -> tuple[str | None, dict | None]:
    """The finding's summary text and recommendation, or None where the report has none."""
    summary = next((s["text"] for s in report.get("summaries") or [] if s.get("finding") == finding_id), None)
    recommendation = next((r for r in report.get("recommendations") or [] if r.get("finding") == finding_id), None)
    return summary, recommendation


def explanation_lines(report: dict, finding_id: str) -> list[str]:
    """Plain lines for text and Markdown output: the summary, the comment, what each party should do, the rewrite."""
    summary, rec = explanation_of(report, finding_id)
    lines = [f"summary: {summary}"] if summary else []
    if rec:
        if rec.get("comment"):
            lines.append(f"comment: {rec['comment']}")
        names = {p["id"]: p["name"] for p in (report.get("explainer") or {}).get("parties", [])}
        actions = [f"{names.get(p, p)}: {a or 'a commercial choice'}" for p, a in (rec.get("actions") or {}).items()]
        if actions:
            lines.append("actions: " + "; ".join(actions))
        if rec.get("rewrite"):
            lines.append(f"suggested rewrite: {rec['rewrite']}")
        if rec.get("insert"):
            lines.append(f"suggested insertion: {rec['insert']}")
    return lines
