"""The terminal view of a report (``compare``'s default output), drawn with rich.

Each finding shows its section, where it is in both files (section number and lines), the changed
words in context and its reasons. On a colour terminal deletions are red and struck through and
insertions green and underlined; piped, or with ``NO_COLOR`` set, they are written
``[-old-]{+new+}`` (wdiff's markers), so the change is visible in a log as well. Every piece of
document text passes :func:`~conflictkit.report.escape.sanitize_controls` first.
"""

from __future__ import annotations

import io

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from conflictkit.report.escape import sanitize_controls
from conflictkit.report.view import (
    P_CONFLICT_HELP,
    P_SAME_HELP,
    Piece,
    ReportView,
    describe_reason,
    in_context,
    settle,
    summary_line,
)
from conflictkit.report.order import counts_phrase

SORT_HELP = {
    "severity": "listed by severity, then document order (--sort document: document order)",
    "document": "listed in document order (--sort severity: by severity)",
    "kind": "listed by kind, then document order",
}
QUIET, NORMAL, VERBOSE = -1, 0, 1
REASONS_SHOWN = 3
"""Reasons listed per finding without ``-v``."""
CONTEXT_WORDS = 4
GAP_WORDS = 30
"""Words of a missing or added clause shown without ``-v``."""

KIND_STYLES = {"deviation": "bold yellow", "missing": "bold red", "added": "bold green"}
SEVERITY_STYLES = {"high": "bold white on red", "medium": "bold yellow", "low": "dim"}
MARKERS = {"delete": ("[-", "-]"), "insert": ("{+", "+}")}
EDITORIAL_MARKERS = {"delete": ("[~", "~]"), "insert": ("{~", "~}")}
STYLES = {"delete": "red strike", "insert": "green underline", "cut": "dim"}
EDITORIAL_STYLES = {"delete": "dim strike", "insert": "dim underline"}


class Indented:
    """Lines of text wrapped to the console and indented, continuation lines too, with no trailing padding."""

    def __init__(self, lines: list[Text], indent: int = 4) -> None:
        self.lines, self.indent = lines, indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(options.max_width - self.indent, 20)
        for text in self.lines:
            for line in text.wrap(console, width):
                line.rstrip()
                yield Text(" " * self.indent).append_text(line)


def make_console(file=None, *, width: int | None = None) -> Console:
    """A console that prints text as given: no markup, emoji or number highlighting is applied to it."""
    console = Console(file=file, highlight=False, markup=False, emoji=False, width=width, soft_wrap=False)
    if not console.is_terminal and width is None:
        console.width = 100  # the width click's help uses when piped
    return console


def uses_colour(console: Console) -> bool:
    """Colour only on a terminal, and never with ``NO_COLOR`` (rich reads it) or ``TERM=dumb``."""
    return console.is_terminal and not console.no_color and not console.is_dumb_terminal


def _clean(text: str) -> str:
    return sanitize_controls(" ".join(text.split()))


def change_text(pieces: list[Piece], colour: bool) -> Text:
    """Redline pieces (from :func:`in_context`) as one line, coloured or with markers.

    Editorial and same-effect edits (a judge's verdict) are dim on a colour terminal and marked
    ``[~old~]{~new~}`` otherwise, so they never read as a change that matters.
    """
    line = Text()
    previous = ""
    for piece in pieces:
        text = sanitize_controls(piece.text)
        editorial = piece.op in MARKERS and not piece.marked
        if piece.op == "insert" and previous == "delete" and piece.spaced:
            line.append(" ")
        if piece.op in MARKERS and not colour:
            start, end = (EDITORIAL_MARKERS if editorial else MARKERS)[piece.op]
            line.append(f"{start}{text}{end}")
        else:
            style = (EDITORIAL_STYLES if editorial else STYLES).get(piece.op, "")
            line.append(text, style=style if colour else "")
        previous = piece.op
    return line


def _gap_pieces(text: str, op: str, verbosity: int) -> list[Piece]:
    words = text.split()
    if verbosity < VERBOSE and len(words) > GAP_WORDS:
        return [Piece(op, " ".join(words[:GAP_WORDS])), Piece("cut", " …")]
    return [Piece(op, " ".join(words))]


def finding_block(view: ReportView, finding: dict, colour: bool, verbosity: int = NORMAL) -> RenderableType:
    """One finding: title line, places, the change in context, reasons (all of them with ``-v``), an explainer's lines.

    Editorial edits are shown with ``-v`` only (as the input has them otherwise).
    """
    kind = finding["kind"]
    title = Text()
    title.append(sanitize_controls(finding["id"]) + "  ")
    severity = finding.get("severity")
    if severity:
        title.append(f"{severity:<6}", style=SEVERITY_STYLES.get(severity, "") if colour else "")
        title.append("  ")
    title.append(f"{kind:<9}", style=KIND_STYLES.get(kind, "") if colour else "")
    title.append(f"  P(conflict) {finding['p_conflict']:.2f}  ")
    title.append(_clean(view.title(finding)) or "(untitled clause)", style="bold" if colour else "")
    places = [f"{side} {view.place(finding[side], side)}".rstrip() for side in ("reference", "input") if finding.get(side)]
    if kind == "missing":
        places.append("no counterpart in the input")
    elif kind == "added":
        places.append("no counterpart in the reference")
    body: list[Text] = [Text(sanitize_controls(" · ".join(places)), style="dim" if colour else "")]
    pieces = view.pieces(finding)
    if pieces is not None:
        words = CONTEXT_WORDS * 2 if verbosity >= VERBOSE else CONTEXT_WORDS
        body.append(change_text(in_context(settle(pieces, verbosity >= VERBOSE), words), colour))
    else:
        quote = finding.get("reference") or finding.get("input")
        side = "reference" if finding.get("reference") else "input"
        body.append(change_text(_gap_pieces(view.quote_text(quote, side), "delete" if kind == "missing" else "insert",
                                            verbosity), colour))
    reasons = finding.get("reasons") or []
    shown = reasons if verbosity >= VERBOSE else reasons[:REASONS_SHOWN]
    body.extend(Text(f"- {_clean(describe_reason(r))}") for r in shown)
    if len(shown) < len(reasons):
        body.append(Text(f"  and {len(reasons) - len(shown)} more (-v shows all)", style="dim" if colour else ""))
    editorial = [e for e in view.edits(finding) if e.get("verdict") != "substantive"]
    if editorial and verbosity < VERBOSE:
        body.append(Text(f"  {len(editorial)} editorial edit{'s' * (len(editorial) != 1)} not marked (-v marks them)",
                         style="dim" if colour else ""))
    body.extend(Text(_clean(line), style="italic" if colour else "") for line in view.explained(finding))
    if finding.get("severity_rule"):
        body.append(Text(f"severity: {_clean(finding['severity_rule'])}", style="dim" if colour else ""))
    if verbosity >= VERBOSE:
        p_same = finding.get("p_same")
        facts = [f"P(conflict) {finding['p_conflict']:.3f}"]
        if p_same is not None:
            facts.append(f"P(same matter) {p_same:.3f}")
        if finding.get("judge"):
            facts.append(f"decided by {_clean(finding['judge'])}")
        facts.append("grounded" if finding.get("grounded") else "not grounded")
        body.append(Text(" · ".join(facts), style="dim" if colour else ""))
    return Group(title, Indented(body), Text(""))


def report_renderables(report: dict, texts: dict[str, str] | None = None, *, colour: bool = False,
                       verbosity: int = NORMAL, view: ReportView | None = None) -> list[RenderableType]:
    """What ``compare`` prints: the two files, each finding, a legend and, last, the summary line.

    ``texts`` (the two document texts) add places and render quotes in context; ``verbosity`` is :data:`QUIET`
    (summary only), :data:`NORMAL` or :data:`VERBOSE` (every reason, every probability).
    """
    summary = Text(summary_line(report), style="bold" if colour else "")
    if verbosity <= QUIET:
        return [summary]
    out: list[RenderableType] = [
        Text(f"reference: {_clean(report['reference']['path'])}"),
        Text(f"input:     {_clean(report['input']['path'])}"),
        Text(""),
    ]
    view = view or ReportView(report, texts)
    out.extend(finding_block(view, f, colour, verbosity) for f in view.findings)
    if not report["findings"]:
        out += [Text("No findings."), Text("")]
    legend = f"{P_CONFLICT_HELP}."
    counts = counts_phrase(view.findings)
    if counts:
        legend = f"By severity: {counts}; {SORT_HELP[view.sort]}. {legend}"
    if verbosity >= VERBOSE:
        legend += f" {P_SAME_HELP[0].upper()}{P_SAME_HELP[1:]}."
    elif report["findings"]:
        legend += " -v lists every reason and probability; -q prints only the summary."
    out += [Indented([Text(legend, style="dim" if colour else "")], indent=0), summary]
    return out


def render_text(report: dict, texts: dict[str, str] | None = None, *, colour: bool = False,
                verbosity: int = NORMAL, width: int = 100, view: ReportView | None = None) -> str:
    """The terminal view as a string (plain markers unless ``colour``, then ANSI styles)."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, highlight=False, markup=False, emoji=False,
                      force_terminal=colour, color_system="standard" if colour else None)
    print_report(console, report, texts, colour=colour, verbosity=verbosity, view=view)
    return buffer.getvalue()


def print_report(console: Console, report: dict, texts: dict[str, str] | None = None, *, colour: bool | None = None,
                 verbosity: int = NORMAL, view: ReportView | None = None) -> None:
    """Print the terminal view on ``console`` (coloured when it is a colour terminal, unless told)."""
    colour = uses_colour(console) if colour is None else colour
    *body, summary = report_renderables(report, texts, colour=colour, verbosity=verbosity, view=view)
    for renderable in body:
        console.print(renderable)
    console.print(summary, soft_wrap=True)  # one line however narrow the terminal: scripts grep it
