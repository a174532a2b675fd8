"""report.md, and the phrases every human-readable rendering shares (reasons, places, the summary).

The terminal view is :mod:`conflictkit.report.terminal`; the HTML view :mod:`conflictkit.report.html`.
"""

from __future__ import annotations

from bisect import bisect_right

from conflictkit.report.changes import redline_ops
from conflictkit.report.escape import escape_markdown
from conflictkit.report.explanations import explanation_lines

P_CONFLICT_HELP = "P(conflict) is the judge's probability that the input clause changes the legal effect of the reference clause"
P_SAME_HELP = "P(same matter) the probability that the two clauses deal with the same matter"


def describe_reason(reason: dict) -> str:
    """One reason as a phrase: ``number: thirty (30) days -> sixty (60) days``."""
    kind = reason.get("type") or ""
    ref, inp, detail = reason.get("reference"), reason.get("input"), reason.get("detail")
    if ref is not None or inp is not None:
        text = f"{kind}: {ref if ref is not None else '(none)'} -> {inp if inp is not None else '(none)'}"
    else:
        text = kind
    return f"{text} ({detail})" if detail and (ref is not None or inp is not None) else (detail or text)


def summary_line(report: dict) -> str:
    """``16 deviations, 4 missing, 4 added; 64 covered, ...``: the counts of a report in one line."""
    s = report["summary"]
    return (
        f"{s['deviation']} deviation{'s' * (s['deviation'] != 1)}, {s['missing']} missing, {s['added']} added"
        f"{f', {moved} moved' if (moved := s.get('moved')) else ''}; "
        f"{s['covered']} covered, {s['filtered']['reference'] + s['filtered']['input']} non-operative filtered; "
        f"{s['judged_pairs']} pairs judged of {s['all_pairs']} possible; {s['spans_checked']} spans grounded"
    )


class LineIndex:
    """1-based line numbers of offsets into one document's original text."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def line(self, offset: int) -> int:
        return bisect_right(self._starts, offset)

    def lines(self, start: int, end: int) -> str:
        """``line 24`` or ``lines 24-26`` for the half-open span ``[start, end)``."""
        first, last = self.line(start), self.line(max(start, end - 1))
        return f"line {first}" if first == last else f"lines {first}-{last}"


def line_indexes(texts: dict[str, str] | None) -> dict[str, LineIndex]:
    """A :class:`LineIndex` per side of ``texts`` (``{"reference": ..., "input": ...}``); empty without texts."""
    return {side: LineIndex(text) for side, text in (texts or {}).items()}


def section_title(quote: dict) -> str:
    """``2.1 Grant of access``: a quote's section number and heading, whichever it has."""
    return " ".join(x for x in (quote.get("section"), quote.get("heading")) if x)


def located(quote: dict, side: str, lines: dict[str, LineIndex]) -> str:
    """``2.1 Grant of access, line 24``: a quote's section and lines (lines only with the document's text)."""
    index = lines.get(side)
    at = index.lines(quote["start"], quote["end"]) if index is not None else ""
    return ", ".join(x for x in (section_title(quote) or quote.get("clause_id"), at) if x)


def place(quote: dict, side: str, lines: dict[str, LineIndex]) -> str:
    """Where a quote is, for people: ``reference 2.1, line 24`` (the clause id when it has no number)."""
    where = quote.get("section") or quote.get("clause_id") or ""
    index = lines.get(side)
    at = f", {index.lines(quote['start'], quote['end'])}" if index is not None else ""
    return f"{side} {where}{at}".rstrip()


def finding_title(finding: dict) -> str:
    """The section of a finding as people name it: the input's, else the reference's."""
    side = finding.get("input") or finding.get("reference") or {}
    return section_title(side)


def markdown_redline(finding: dict) -> str | None:
    """A deviation's redline in Markdown: ``~~deleted~~``, ``{+inserted+}``, ``⚠`` after a reversing run.

    Built from the report's ops over the clauses' original text, every run escaped; None for a
    finding with one side only.
    """
    from conflictkit.grounding.redline import REVERSING_MARK

    ops = redline_ops(finding)
    if ops is None:
        return None
    parts = []
    for op in ops:
        text = escape_markdown(op["text"])
        if op["op"] == "delete":
            text = f"~~{text}~~"
        elif op["op"] == "insert":
            text = f"{{+{text}+}}"
        gap = op["gap"]
        gap = " " if gap.isspace() else f" {escape_markdown(gap)} " if gap else ""
        parts.append(gap + text + (REVERSING_MARK if op["reversing"] else ""))
    return "".join(parts)


def _md_cell(text: str) -> str:
    return escape_markdown(text) or " "


def render_markdown(report: dict, texts: dict[str, str] | None = None) -> str:
    """report.md: a summary, a findings table, then each finding with its quotes, redline and reasons.

    Valid CommonMark; every piece of document text is escaped (:func:`escape_markdown`), so the
    report renders what the documents say, never their markup. ``texts`` (the two original
    documents) add line numbers.
    """
    lines = line_indexes(texts)
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
    findings = report["findings"]
    if findings:
        out += ["| # | kind | P(conflict) | section | reasons |", "|---|---|---|---|---|"]
    for f in findings:
        reasons = "; ".join(describe_reason(r) for r in f["reasons"])
        out.append(f"| {f['id']} | {f['kind']} | {f['p_conflict']:.2f} | {_md_cell(finding_title(f))} | {_md_cell(reasons)} |")
    for f in findings:
        out += ["", f"## {f['id']} {f['kind']}: {escape_markdown(finding_title(f)) or 'untitled clause'}", ""]
        p_same = "" if f.get("p_same") is None else f" · P(same matter) {f['p_same']:.2f}"
        judge = f" · judge {escape_markdown(f['judge'])}" if f.get("judge") else ""
        out += [f"P(conflict) {f['p_conflict']:.2f}{p_same}{judge}", ""]
        for side in ("reference", "input"):
            quote = f.get(side)
            if quote:
                out += [f"{side.capitalize()} ({escape_markdown(located(quote, side, lines))}):", "",
                        f"> {escape_markdown(quote['text'])}", ""]
        redline = markdown_redline(f)
        if redline:
            out += [f"Redline: {redline}", ""]
        for reason in f["reasons"]:
            out.append(f"- {escape_markdown(describe_reason(reason))}")
        explained = explanation_lines(report, f["id"])
        if explained:
            out += [""] + [f"- *{escape_markdown(line)}*" for line in explained]
    return "\n".join(out) + "\n"
