"""Human-readable renderings of a report: a terminal table and Markdown."""

from __future__ import annotations

import textwrap

from conflictkit.report.explanations import explanation_lines


def _short(text: str | None, width: int) -> str:
    if not text:
        return ""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def describe_reason(reason: dict) -> str:
    """One reason as a phrase: ``number: thirty (30) days -> sixty (60) days``."""
    kind = reason.get("type", "")
    ref, inp, detail = reason.get("reference"), reason.get("input"), reason.get("detail")
    if ref is not None or inp is not None:
        text = f"{kind}: {ref if ref is not None else '(none)'} -> {inp if inp is not None else '(none)'}"
    else:
        text = kind
    return f"{text} ({detail})" if detail and (ref is not None or inp is not None) else (detail or text)


def summary_line(report: dict) -> str:
    s = report["summary"]
    return (
        f"{s['deviation']} deviation{'s' * (s['deviation'] != 1)}, {s['missing']} missing, {s['added']} added; "
        f"{s['covered']} covered, {s['filtered']['reference'] + s['filtered']['input']} non-operative filtered; "
        f"{s['judged_pairs']} pairs judged of {s['all_pairs']} possible; {s['spans_checked']} spans grounded"
    )


def render_text(report: dict, width: int = 100) -> str:
    """The default terminal output: one block per finding, then the summary line."""
    lines = [f"reference: {report['reference']['path']}", f"input:     {report['input']['path']}", ""]
    for f in report["findings"]:
        side = f["input"] or f["reference"]
        heading = side.get("heading") or side.get("section") or ""
        lines.append(f"{f['id']}  {f['kind'].upper():<9} p={f['p_conflict']:.2f}  {_short(heading, 50)}")
        for label, quote in (("ref", f["reference"]), ("inp", f["input"])):
            if quote:
                lines.append(f"    {label} [{quote['start']}:{quote['end']}] {_short(quote['text'], width - 22)}")
        for reason in f["reasons"]:
            lines.extend(textwrap.wrap(describe_reason(reason), width - 6, initial_indent="    - ", subsequent_indent="      "))
        for line in explanation_lines(report, f["id"]):
            lines.extend(textwrap.wrap(line, width - 4, initial_indent="    ", subsequent_indent="      "))
        lines.append("")
    if not report["findings"]:
        lines.append("No findings.")
        lines.append("")
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def _md_escape(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def render_markdown(report: dict) -> str:
    """report.md: a summary, a findings table, then each finding with full quotes and reasons."""
    out = [
        "# conflictkit report",
        "",
        f"- Reference: `{report['reference']['path']}` (sha256 `{report['reference']['sha256'][:12]}`)",
        f"- Input: `{report['input']['path']}` (sha256 `{report['input']['sha256'][:12]}`)",
        f"- {summary_line(report)}",
        "",
        "| # | kind | P(conflict) | section | reasons |",
        "|---|---|---|---|---|",
    ]
    for f in report["findings"]:
        side = f["input"] or f["reference"]
        where = _md_escape(" ".join(x for x in (side.get("section"), side.get("heading")) if x))
        reasons = _md_escape("; ".join(describe_reason(r) for r in f["reasons"]))
        out.append(f"| {f['id']} | {f['kind']} | {f['p_conflict']:.2f} | {where} | {reasons} |")
    for f in report["findings"]:
        out += ["", f"## {f['id']} {f['kind']}", ""]
        for label, quote in (("Reference", f["reference"]), ("Input", f["input"])):
            if quote:
                out.append(f"**{label}** [{quote['start']}, {quote['end']}): > {_md_escape(quote['text'])}")
                out.append("")
        if f.get("redline"):
            out += [f"**Redline:** {f['redline']['markdown']}", ""]
        for reason in f["reasons"]:
            out.append(f"- {describe_reason(reason)}")
        explained = explanation_lines(report, f["id"])
        if explained:
            out += [""] + [f"- *{_md_escape(line)}*" for line in explained]
    return "\n".join(out) + "\n"
