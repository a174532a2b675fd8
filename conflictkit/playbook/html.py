"""The HTML view of a playbook review: a playbook column (position, verdict, guidance) beside both documents.

The column lists every position in the playbook's order, each with its verdict, probability,
severity, guidance, the red lines it hits, the judge's reasons and the change from the playbook's
text, and after them the input clauses no position covers; it filters by verdict. The two panes
are the playbook (``playbook.md``) and the input, each position's quotes highlighted in its
verdict's colour. It is :mod:`conflictkit.report.html`'s view with these entries: the same page,
script, keys and review controls, so the review app shows a review as it shows a comparison.
"""

from __future__ import annotations

from typing import Any

from conflictkit.playbook.render import review_view
from conflictkit.report.html import (
    VERDICTS,
    check_spans,
    decision_state,
    esc,
    finding_positions,
    list_item,
    quote_where,
    render_page,
    render_panes,
    render_reasons,
    render_redline,
    render_toolbar,
    review_controls,
    view_title,
)
from conflictkit.report.view import ReportView

LISTED = (("listed", "playbook order"),)


def _entry(view: ReportView, index: int, entry: dict, decision: dict | None, controls: bool, position: int) -> str:
    kind = entry["kind"] if entry["kind"] in VERDICTS or entry["kind"] == "missing" else "other"
    status, note = decision_state(decision)
    p = float(entry.get("p_verdict") or 0.0)
    head = (
        f'<div class="fhead"><span class="badge k-{kind}">{esc(entry.get("label") or kind)}</span>'
        f' <span class="fid">{esc(entry.get("title"))}</span>'
        f' <span class="p" title="P(verdict)">{100 * p:.0f}%</span><span class="status">{esc(status)}</span></div>'
    )
    subject = f'<div class="subject">{esc(entry["subject"])} · {esc(entry["severity"])}</div>' if entry.get("subject") else ""
    where = (f'<div class="wheres">{quote_where(view, entry.get("reference"), "reference", "playbook")}'
             f'{quote_where(view, entry.get("input"), "input", "in")}</div>')
    guidance = f'<p class="guidance">{esc(entry["guidance"])}</p>' if entry.get("guidance") else ""
    probabilities = " · ".join(f"{esc(k)} {100 * v:.0f}%" for k, v in (entry.get("probabilities") or {}).items())
    meta = f'<div class="meta">{probabilities}{" · grounded" if entry.get("grounded") else ""}</div>'
    redline = render_redline(view, entry) if entry.get("reference") and entry.get("input") else ""
    review = review_controls(note) if controls else (f'<p class="note">{esc(note)}</p>' if note else "")
    reasons = entry.get("reasons") or []
    body = f"{head}{subject}{where}{guidance}{render_reasons(reasons)}{meta}{redline}{review}"
    return list_item(index, kind, entry.get("id"), p, position, reasons, status, body)


def render_review_view(review: dict, playbook_text: str, input_text: str, decisions: dict | None = None, *,
                       controls: bool = False) -> str:
    """The view as an HTML fragment: the playbook column with its filters, and both documents."""
    texts = {"reference": playbook_text, "input": input_text}
    view = review_view(review, texts)
    entries = view.findings
    check_spans(view.report, texts)
    decisions = decisions or {}
    panes = render_panes(view.report, texts, view)  # first: the column then reads the rendered documents
    positions = finding_positions(entries, texts)
    items = "".join(_entry(view, i, e, decisions.get(e.get("id")), controls, positions[i]) for i, e in enumerate(entries))
    toolbar = render_toolbar(entries, decisions, sort=LISTED[0][0], review="server" if controls else None,
                             kinds=("not-acceptable", "missing", "fallback", "standard", "absent", "uncovered"), sorts=LISTED)
    return (
        f'<div class="ck-view"><aside class="side-list"><h2>Playbook: {esc(review["playbook"]["title"])}</h2>{toolbar}'
        f'<ol id="ck-findings">{items}</ol></aside><div class="panes">{panes}</div></div>'
    )


def render_review_summary(review: dict) -> str:
    """The counts line under the title."""
    s = review["summary"]
    keys = (("standard", "standard"), ("fallback", "fallback"), ("not-acceptable", "not acceptable"), ("missing", "missing"),
            ("absent", "absent"), ("uncovered", "uncovered"))
    parts = [f'<span class="k-{k}">{label}: {esc(s.get(k, 0))}</span>' for k, label in keys]
    return f'<p class="summary">{" · ".join(parts)}</p>'


def render_review_html(review: dict, playbook_text: str, input_text: str, decisions: dict[str, Any] | None = None) -> str:
    """One self-contained HTML page of a review (the report page, script and policy, with the playbook column)."""
    title = f"conflictkit review: {view_title(review['playbook']['path'], review['input']['path'])}"
    return render_page(title, render_review_summary(review), render_review_view(review, playbook_text, input_text, decisions))
