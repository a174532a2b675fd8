"""report.md: a summary, a findings table, then each finding with its quotes, redline and reasons.

Every piece of document text is the rendered text a reader sees (:mod:`conflictkit.report.view`),
escaped only where it would otherwise read as Markdown syntax.
"""

from __future__ import annotations

from conflictkit.report.escape import escape_cell, escape_markdown
from conflictkit.report.view import (
    P_CONFLICT_HELP,
    P_SAME_HELP,
    Piece,
    ReportView,
    describe_reason,
    settle,
    summary_line,
)
from conflictkit.report.order import counts_phrase

ORDER_WORDS = {"severity": "by severity, then in document order", "document": "in document order",
               "kind": "by kind, then in document order"}
REVERSING_MARK = "\u26a0"
"""Written after a run that changes a meaning-reversing word."""


def markdown_redline(view: ReportView, finding: dict, editorial: bool = False) -> str | None:
    """A deviation's redline in Markdown: ``~~deleted~~``, ``{+inserted+}``, ``⚠`` after a reversing run.

    Editorial and same-effect edits are shown as the input has them unless ``editorial``; None
    for a finding with one side only.
    """
    pieces = view.pieces(finding)
    if pieces is None:
        return None
    return markdown_pieces(settle(pieces, editorial))


def markdown_pieces(pieces: list[Piece]) -> str:
    """Pieces as one line of Markdown: deletions struck, insertions in ``{+...+}`` (not bold: contracts bold their headings)."""
    parts: list[str] = []
    previous = ""
    for piece in pieces:
        text = escape_markdown(piece.text, midline=True) if piece.op != "cut" else "…"
        if piece.op == "equal":
            lead = " " if piece.text.startswith(" ") and text else ""
            tail = " " if piece.text.endswith(" ") and text else ""
            text = lead + text + tail if text else (" " if piece.text.isspace() else "")
        elif piece.op == "delete":
            text = f"~~{text}~~"
        elif piece.op == "insert":
            text = (" " if previous == "delete" and piece.spaced else "") + f"{{+{text}+}}"
        if piece.reversing and piece.op in ("delete", "insert"):
            text += REVERSING_MARK
        parts.append(text)
        previous = piece.op
    return "".join(parts).strip()


def editorial_note(view: ReportView, finding: dict) -> str | None:
    """``3 editorial edits not marked (typography, rename)`` when a deviation's edits include editorial ones."""
    edits = [e for e in view.edits(finding) if e.get("verdict") != "substantive"]
    if not edits:
        return None
    kinds = sorted({str(e.get("kind")) for e in edits if e.get("kind")})
    return f"{len(edits)} editorial edit{'s' * (len(edits) != 1)} shown as the input has them" + (f" ({', '.join(kinds)})" if kinds else "")


def render_markdown(report: dict, texts: dict[str, str] | None = None, view: ReportView | None = None) -> str:
    """report.md: valid CommonMark; every piece of document text is rendered and escaped (:func:`escape_markdown`).

    ``texts`` (the two document texts) add places (lines, pages, paragraphs) and render quotes in
    their documents' context.
    """
    view = view or ReportView(report, texts)
    ref, inp = report["reference"], report["input"]
    out = [
        "# conflictkit report",
        "",
        f"- Reference: {escape_markdown(ref['path'])} (sha256 {ref['sha256'][:12]})",
        f"- Input: {escape_markdown(inp['path'])} (sha256 {inp['sha256'][:12]})",
        f"- {summary_line(report)}",
        f"- {P_CONFLICT_HELP}; {P_SAME_HELP}.",
        "",
    ]
    findings = view.findings
    counts = counts_phrase(findings)
    if counts:
        out[-1:-1] = [f"- By severity: {counts}; listed {ORDER_WORDS[view.sort]}."]
    if findings:
        out += ["| # | severity | kind | P(conflict) | section | reasons |", "|---|---|---|---|---|---|"]
    for f in findings:
        reasons = "; ".join(describe_reason(r) for r in f["reasons"])
        out.append(f"| {f['id']} | {f.get('severity') or ''} | {f['kind']} | {f['p_conflict']:.2f} | {escape_cell(view.title(f))} "
                   f"| {escape_cell(reasons)} |")
    for f in findings:
        severity = f"{f['severity']} " if f.get("severity") else ""
        out += ["", f"## {f['id']} {severity}{f['kind']}: {escape_markdown(view.title(f)) or 'untitled clause'}", ""]
        p_same = "" if f.get("p_same") is None else f" · P(same matter) {f['p_same']:.2f}"
        judge = f" · judge {escape_markdown(f['judge'])}" if f.get("judge") else ""
        out += [f"P(conflict) {f['p_conflict']:.2f}{p_same}{judge}", ""]
        if f.get("severity_rule"):
            out += [f"Severity {f['severity']}: {escape_markdown(f['severity_rule'])}", ""]
        for side in ("reference", "input"):
            quote = f.get(side)
            if quote:
                out += [f"{side.capitalize()} ({escape_markdown(view.located(quote, side))}):", "",
                        f"> {escape_markdown(view.quote_text(quote, side))}", ""]
        redline = markdown_redline(view, f)
        if redline:
            out += [f"Redline: {redline}", ""]
        note = editorial_note(view, f)
        if note:
            out += [f"*{escape_markdown(note)}*", ""]
        for reason in f["reasons"]:
            out.append(f"- {escape_markdown(describe_reason(reason))}")
        explained = view.explained(f)
        if explained:
            out += [""] + [f"- *{escape_markdown(line)}*" for line in explained]
    return "\n".join(out) + "\n"
