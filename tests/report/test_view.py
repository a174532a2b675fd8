"""One finding model for every view: a deviation's edits, when a judge gives them, decide what is marked."""

from __future__ import annotations

from conflictkit.report.html import render_html
from conflictkit.report.render import render_markdown
from conflictkit.report.terminal import VERBOSE, render_text
from conflictkit.report.view import ReportView
from conflictkit.testing.reports import make_report

REF = "1. **Fees.** The Customer shall pay within thirty (30) days.\n"
INP = "1. **Fees.** Customer shall pay within sixty (60) days.\n"


def report_with_edits() -> dict:
    report = make_report(REF, INP, [("deviation", REF.strip()[3:], INP.strip()[3:], [
        {"type": "number", "reference": "thirty (30) days", "input": "sixty (60) days", "detail": None}])])

    def side(text, part):
        start = text.index(part)
        return {"start": start, "end": start + len(part), "text": part}

    at = INP.index("Customer")
    report["findings"][0]["edits"] = [
        {"reference": side(REF, "The "), "input": {"start": at, "end": at, "text": ""}, "verdict": "editorial",
         "kind": "typography", "p_conflict": 0.0, "reasons": []},
        {"reference": side(REF, "thirty (30)"), "input": side(INP, "sixty (60)"), "verdict": "substantive",
         "kind": "number", "p_conflict": 0.95, "reasons": []},
    ]
    return report


def test_pieces_carry_the_edits_verdicts():
    view = ReportView(report_with_edits(), {"reference": REF, "input": INP})
    pieces = view.pieces(view.findings[0])
    changed = [(p.op, p.text, p.verdict, p.marked) for p in pieces if p.op != "equal"]
    # an edit is shown word by word inside it, each word with the edit's verdict
    assert changed == [("delete", "The", "editorial", False), ("delete", "thirty", "substantive", True),
                       ("insert", "sixty", "substantive", True), ("delete", "30", "substantive", True),
                       ("insert", "60", "substantive", True)]
    assert " ".join("".join(p.text for p in pieces if p.op != "delete").split()) == "Fees. Customer shall pay within sixty (60) days."


def test_the_terminal_marks_substantive_edits_and_shows_editorial_ones_with_v():
    texts = {"reference": REF, "input": INP}
    plain = render_text(report_with_edits(), texts)
    assert "[-thirty-] {+sixty+} ([-30-]{+60+})" in plain and "The" not in plain.split("P(conflict)")[1].split("\n")[2]
    assert "1 editorial edit not marked (-v marks them)" in plain
    verbose = render_text(report_with_edits(), texts, verbosity=VERBOSE)
    assert "[~The~]" in verbose and "[-thirty-] {+sixty+} ([-30-]{+60+})" in verbose


def test_markdown_and_html_show_editorial_edits_as_such():
    report = report_with_edits()
    md = render_markdown(report, {"reference": REF, "input": INP})
    assert "Redline: Fees. Customer shall pay within ~~thirty~~⚠ {+sixty+}⚠ (~~30~~⚠{+60+}⚠) days." in md
    assert "*1 editorial edit shown as the input has them (typography)*" in md
    page = render_html(report, REF, INP)
    assert '<del class="ed" title="editorial edit (typography)">The</del>' in page
    assert '<span class="w-del ed">The </span>' in page  # dimmed in the document pane too
    assert '<span class="w-ins">sixty (60)</span>' in page or '<span class="w-ins">sixty</span>' in page


def test_without_edits_every_redline_op_counts():
    report = make_report(REF, INP, [("deviation", REF.strip()[3:], INP.strip()[3:], [])])
    view = ReportView(report, {"reference": REF, "input": INP})
    pieces = view.pieces(view.findings[0])
    assert all(p.verdict is None and p.marked for p in pieces if p.op != "equal")
    assert [p.text for p in pieces if p.op == "delete"] == ["The", "thirty", "30"]
