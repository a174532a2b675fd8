"""A review for people: the terminal view (``review``'s default output) and review.md.

Positions are listed by subject in the playbook's order. A position within the playbook's
positions (standard, a fallback) takes one line; one that is not (not acceptable, missing) shows
where it is, the change from the nearest accepted text in context, the red lines it hits, the
judge's reasons and the guidance. Document text is sanitized for the terminal and escaped for
Markdown, as in ``compare``'s views.
"""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.text import Text

from conflictkit.playbook.verdicts import ABSENT, MISSING, NOT_ACCEPTABLE
from conflictkit.report.escape import escape_cell, sanitize_controls
from conflictkit.report.escape import escape_markdown as md
from conflictkit.report.terminal import CONTEXT_WORDS, REASONS_SHOWN, Indented, change_text, uses_colour
from conflictkit.report.view import ReportView, describe_reason, in_context, settle

QUIET, NORMAL, VERBOSE = -1, 0, 1
VERDICT_STYLES = {"standard": "green", "fallback": "cyan", NOT_ACCEPTABLE: "bold red", MISSING: "bold yellow", ABSENT: "dim"}
P_VERDICT_HELP = ("P is the probability of the verdict: that the input says what the preferred text (standard) or a "
                  "fallback says, or neither (not acceptable), from the judge's verdicts against every text of the position")


def needs_attention(position: dict) -> bool:
    return position["verdict"] in (NOT_ACCEPTABLE, MISSING)


def view_entries(review: dict) -> list[dict]:
    """A review as a view's entries: each position (kind = its verdict), then each uncovered input clause (``uncovered``)."""
    entries = [{**p, "kind": p["verdict"], "p_conflict": p["p_verdict"]} for p in review.get("positions") or []]
    for u in review.get("uncovered") or []:
        where = f"matches template clause {u['template']}, which has no position" if u.get("template") else "not in the playbook"
        entries.append({**u, "kind": "uncovered", "label": "uncovered", "title": (u["input"].get("heading") or "input clause"),
                        "p_verdict": u.get("p_same") or 0.0, "p_conflict": 0.0, "reference": None,
                        "reasons": [{"type": "uncovered", "detail": where}]})
    return entries


def review_view(review: dict, texts: dict[str, str] | None = None) -> ReportView:
    """The review as every view reads a report: its entries as findings, the rendered playbook as the reference."""
    playbook = {"path": f"playbook {review['playbook']['path']}", "source": {"format": "markdown"}}  # playbook.md
    report = {"findings": view_entries(review), "reference": playbook, "input": review["input"]}
    return ReportView(report, texts)


def summary_line(review: dict) -> str:
    """``4 standard, 2 fallback, 1 not acceptable, 1 missing; 80 input clauses no position covers; ...``."""
    s = review["summary"]
    parts = [f"{s['standard']} standard", f"{s['fallback']} fallback", f"{s['not-acceptable']} not acceptable",
             f"{s['missing']} missing"] + ([f"{s['absent']} absent (optional)"] if s.get("absent") else [])
    uncovered, new = s["uncovered"], s.get("uncovered_not_in_template")
    of_which = f" ({new} not in the template either)" if new is not None else ""
    return (f"{', '.join(parts)} of {s['positions']} position{'s' * (s['positions'] != 1)}; "
            f"{uncovered} input clause{'s' * (uncovered != 1)} no position covers{of_which}; "
            f"{s['judged_pairs']} pairs judged; {s['spans_checked']} spans grounded")


def _clean(text: str) -> str:
    return sanitize_controls(" ".join(text.split()))


def position_block(view: ReportView, position: dict, colour: bool, verbosity: int) -> RenderableType:
    """One position: the verdict line, and for one that needs attention (or with -v) its evidence."""
    title = Text("  ")
    title.append(f"{position['label'].upper():<15}", style=VERDICT_STYLES.get(position["verdict"], "") if colour else "")
    title.append(f" P {position['p_verdict']:.2f}  {position['severity']:<6}  ")
    title.append(_clean(position["title"]), style="bold" if colour else "")
    if not needs_attention(position) and verbosity < VERBOSE:
        return title
    body: list[Text] = []
    where = [f"position {position['id']}"]
    if position.get("input"):
        compared = f"compared with {position['nearest']}" if position["verdict"] == NOT_ACCEPTABLE else f"matches {position['nearest']}"
        if position["verdict"] in (MISSING, ABSENT):
            compared = "the nearest clause"
        where += [f"input {view.place(position['input'], 'input')}", compared]
    body.append(Text(_clean(" · ".join(where)), style="dim" if colour else ""))
    pieces = view.pieces(position) if position.get("input") else None
    if pieces and any(piece.op != "equal" for piece in pieces):
        words = CONTEXT_WORDS * (2 if verbosity >= VERBOSE else 1)
        body.append(change_text(in_context(settle(pieces, verbosity >= VERBOSE), words), colour))
    reasons = position.get("reasons") or []
    shown = reasons if verbosity >= VERBOSE else reasons[:REASONS_SHOWN]
    body.extend(Text(f"- {_clean(describe_reason(r))}") for r in shown)
    if len(shown) < len(reasons):
        body.append(Text(f"  and {len(reasons) - len(shown)} more (-v shows all)", style="dim" if colour else ""))
    if position.get("guidance"):
        body.append(Text(f"Guidance: {_clean(position['guidance'])}", style="italic" if colour else ""))
    if verbosity >= VERBOSE:
        probabilities = ", ".join(f"{k} {v:.2f}" for k, v in position["probabilities"].items())
        same = f" · P(same matter) {position['p_same']:.2f}" if position.get("p_same") is not None else ""
        body.append(Text(_clean(f"{probabilities}{same}"), style="dim" if colour else ""))
    return Group(title, Indented(body, indent=6))


def review_renderables(review: dict, texts: dict[str, str] | None = None, *, colour: bool = False,
                       verbosity: int = NORMAL) -> list[RenderableType]:
    """What ``review`` prints: the playbook and input, each subject with its positions, the summary line last."""
    summary = Text(summary_line(review), style="bold" if colour else "")
    if verbosity <= QUIET:
        return [summary]
    view = review_view(review, texts)
    entries = {e["id"]: e for e in view.findings}
    out: list[RenderableType] = [
        Text(f"playbook: {_clean(review['playbook']['path'])} ({_clean(review['playbook']['title'])})"),
        Text(f"input:    {_clean(review['input']['path'])}"), Text(""),
    ]
    subjects = list(dict.fromkeys(p["subject"] for p in review["positions"]))
    for subject in subjects:
        out.append(Text(_clean(subject), style="bold underline" if colour else ""))
        out.extend(position_block(view, entries[p["id"]], colour, verbosity) for p in review["positions"] if p["subject"] == subject)
        out.append(Text(""))
    if verbosity >= VERBOSE and review["uncovered"]:
        out.append(Text("Input clauses no position covers", style="bold underline" if colour else ""))
        out.extend(Text(_clean(f"  input {view.place(u['input'], 'input')}: {view.quote_text(u['input'], 'input')[:90]}"))
                   for u in review["uncovered"])
        out.append(Text(""))
    legend = f"{P_VERDICT_HELP}." + ("" if verbosity >= VERBOSE else " -v shows every position's evidence; -q only the summary.")
    out += [Indented([Text(legend, style="dim" if colour else "")], indent=0), summary]
    return out


def print_review(console: Console, review: dict, texts: dict[str, str] | None = None, *, verbosity: int = NORMAL) -> None:
    colour = uses_colour(console)
    *body, summary = review_renderables(review, texts, colour=colour, verbosity=verbosity)
    for renderable in body:
        console.print(renderable)
    console.print(summary, soft_wrap=True)


def render_review_markdown(review: dict, texts: dict[str, str] | None = None) -> str:
    """review.md: the summary, a table of every position's verdict, then each position that needs attention in full.

    Quotes of the playbook index the rendered playbook (``playbook.md`` beside it); every piece of
    document text is escaped.
    """
    from conflictkit.report.render import markdown_redline

    view = review_view(review, texts)
    entries = {e["id"]: e for e in view.findings}
    out = ["# conflictkit playbook review", "",
           f"- Playbook: {md(review['playbook']['title'])} ({md(review['playbook']['path'])})",
           f"- Input: {md(review['input']['path'])} (sha256 {review['input']['sha256'][:12]})",
           f"- {md(summary_line(review))}", f"- {P_VERDICT_HELP}.", "",
           "| Position | Subject | Verdict | P | Severity | Input |", "|---|---|---|---|---|---|"]
    for p in review["positions"]:
        where = escape_cell(view.located(p["input"], "input")) if p.get("input") else "—"
        out.append(f"| {escape_cell(p['title'])} ({escape_cell(p['id'])}) | {escape_cell(p['subject'])} | {p['label']} "
                   f"| {p['p_verdict']:.2f} | {p['severity']} | {where} |")
    for p in (p for p in review["positions"] if needs_attention(p)):
        out += ["", f"## {md(p['title'])}: {p['label']} ({p['p_verdict']:.2f})", ""]
        reference = p.get("reference")
        if reference:
            out += [f"Playbook, {md(p['nearest'] or '')}:", "", f"> {md(view.quote_text(reference, 'reference'))}", ""]
        if p.get("input"):
            out += [f"Input ({md(view.located(p['input'], 'input'))}):", "", f"> {md(view.quote_text(p['input'], 'input'))}", ""]
            redline = markdown_redline(view, entries[p["id"]])
            if redline:
                out += [f"Redline: {redline}", ""]
        out += [f"- {md(describe_reason(r))}" for r in p["reasons"]]
        if p.get("guidance"):
            out += ["", f"Guidance: {md(p['guidance'])}"]
    if review["uncovered"]:
        out += ["", f"## Input clauses no position covers ({len(review['uncovered'])})", ""]
        out += [f"- {md(view.located(u['input'], 'input'))}: {md(_clean(view.quote_text(u['input'], 'input'))[:120])}"
                for u in review["uncovered"]]
    return "\n".join(out) + "\n"
