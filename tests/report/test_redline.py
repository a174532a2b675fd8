"""--format redline and the document diff behind it: every change once, with context, verdict and place."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from conflictkit.engine import Engine
from conflictkit.report.docdiff import diff_documents
from conflictkit.report.doctext import render_document
from conflictkit.report.redline import render_redline_markdown
from conflictkit.stages import Rendering
from conflictkit.testing.reports import make_report
from conflictkit.report.view import ReportView
from tests.conftest import INPUT, REFERENCE

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def entries(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if re.match(r"\d+\. ", line)]


def test_every_change_of_the_samples_with_its_verdict_place_and_context(fast_config):
    result = Engine(fast_config).compare(str(REFERENCE), str(INPUT))
    markdown = render_redline_markdown(Rendering.of_result(result).view)
    lines = entries(markdown)
    assert len(lines) > 20
    number = next(line for line in lines if "F0008" in line)
    assert number.startswith(tuple(f"{n}. substantive (number), F0008 medium deviation, reference 5.3, line 84; input 5.3, line 88: "
                                   for n in range(1, 100)))  # the edit's kind, from the edit-level judge
    assert "the breach within ~~thirty~~ {+sixty+} (~~30~~ {+60+}) days after receiving notice" in number
    assert any(line.split(". ", 1)[1].startswith("editorial (renumbering)") and "~~4.6~~ {+4.5+}" in line for line in lines)
    assert any("substantive (missing), F0017 high missing" in line for line in lines)
    assert any("substantive (added), F0007 medium added" in line for line in lines)
    assert "  - High: F0006 (4.5 Disputed invoices), F0009 (5.4 Termination for convenience)" in markdown
    html = MD.render(markdown)
    assert "<s>thirty</s> {+sixty+}" in html and "<strong>" not in html and "<span" not in html


def test_only_the_findings_changes_when_asked(fast_config):
    result = Engine(fast_config).compare(str(REFERENCE), str(INPUT))
    view = Rendering.of_result(result).view
    every, only = entries(render_redline_markdown(view)), entries(render_redline_markdown(view, "findings"))
    assert 0 < len(only) < len(every)
    assert all(", F0" in line and line.split(". ", 1)[1].startswith("substantive") for line in only)


def test_a_moved_paragraph_is_listed_once_where_it_now_stands():
    paragraphs = [f"{n}. The party shall do thing number {word} under this agreement every month." for n, word in
                  enumerate(["one", "two", "three", "four"], 1)]
    reference = "\n\n".join(paragraphs)
    moved = "\n\n".join([paragraphs[0], paragraphs[2], paragraphs[3], paragraphs[1]])
    diff = diff_documents(render_document(reference), render_document(moved))
    assert [s.status for s in diff.steps].count("moved-from") == 1 and [s.status for s in diff.steps].count("moved-to") == 1
    report = make_report(reference, moved, [])
    markdown = render_redline_markdown(ReportView(report, {"reference": reference, "input": moved}))
    lines = entries(markdown)
    moves = [line for line in lines if "moved from" in line]
    assert len(moves) == 1 and "thing number two" in moves[0] and "reference 2, line 3" in moves[0]


def test_typography_and_spacing_are_no_change_but_every_word_and_label_is():
    reference = "1. Customer’s “Fees” are due — in  full.\n\n2. Provider shall invoice monthly.\n"
    input = "1. Customer's \"Fees\" are due - in full.\n\n3. Provider shall invoice quarterly.\n"
    diff = diff_documents(render_document(reference), render_document(input))
    changes = [(c.op, c.label, diff.reference.text[c.reference[0]:c.reference[1]].strip(),
                diff.input.text[c.input[0]:c.input[1]].strip()) for c in diff.changes]
    assert changes == [("replace", True, "2.", "3."), ("replace", False, "monthly", "quarterly")]


def test_changes_take_the_verdict_of_the_edit_they_fall_in():
    reference = "1. The Customer shall pay within thirty (30) days.\n"
    input = "1. Customer shall pay within sixty (60) days.\n"
    report = make_report(reference, input, [("deviation", reference.strip(), input.strip(), [])])
    finding = report["findings"][0]

    def side(text, part):
        start = text.index(part)
        return {"start": start, "end": start + len(part), "text": part}

    finding["edits"] = [
        {"reference": side(reference, "The "), "input": {"start": input.index("Customer"), "end": input.index("Customer"), "text": ""},
         "verdict": "editorial", "kind": "typography", "p_conflict": 0.0, "reasons": []},
        {"reference": side(reference, "thirty (30)"), "input": side(input, "sixty (60)"), "verdict": "substantive",
         "kind": "number", "p_conflict": 0.9, "reasons": []},
    ]
    view = ReportView(report, {"reference": reference, "input": input})
    verdicts = [(c.verdict, c.kind, c.finding) for c in view.diff().changes]
    assert ("editorial", "typography", "F0001") in verdicts
    assert ("substantive", "number", "F0001") in verdicts
    only = entries(render_redline_markdown(view, "findings"))
    assert len(only) == 1 and "~~thirty~~ {+sixty+}" in only[0] and "The" not in only[0]
