"""The terminal view: section, lines and the changed words in context; colour or plain markers; -q/-v."""

from __future__ import annotations

import re

from conflictkit.report.terminal import QUIET, VERBOSE, render_text
from conflictkit.report.view import Piece, in_context
from conflictkit.testing.reports import make_report

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def texts_of(reference: str, input: str) -> dict[str, str]:
    return {"reference": reference, "input": input}


def test_plain_output_marks_the_change_in_context(small_report):
    report, ref, inp = small_report
    out = render_text(report, texts_of(ref, inp))
    assert "\x1b" not in out
    assert "… pay each invoice within [-thirty-] {+sixty+} ([-30-]{+60+}) days of receipt." in out
    assert "reference 1, line 3 · input 1, line 3" in out
    assert "P(conflict) 0.51" in out and "P(conflict) is the judge's probability" in out
    assert "[-Customer may audit Provider once per year on prior written notice.-]" in out
    assert "{+Provider may name Customer in its marketing.+}" in out
    assert "no counterpart in the input" in out and "no counterpart in the reference" in out
    assert not any(line.endswith(" ") for line in out.splitlines())
    assert out.rstrip().splitlines()[-1].startswith("2 deviations, 1 missing, 1 added")


def test_colour_output_styles_instead_of_markers(small_report):
    report, ref, inp = small_report
    out = render_text(report, texts_of(ref, inp), colour=True)
    assert "[-" not in out and "{+" not in out
    assert "\x1b[9;31mthirty" in out  # struck through, red
    assert "\x1b[4;32msixty" in out  # underlined, green
    assert "[-" not in ANSI.sub("", out)


def test_quiet_and_verbose(small_report):
    report, ref, inp = small_report
    assert render_text(report, verbosity=QUIET).strip() == "2 deviations, 1 missing, 1 added; 0 covered, 0 non-operative " \
        "filtered; 0 pairs judged of 16 possible; 6 spans grounded"
    verbose = render_text(report, texts_of(ref, inp), verbosity=VERBOSE)
    assert "P(same matter) 0.800" in verbose and "decided by fixed" in verbose and "P(same matter) the probability" in verbose


def test_reasons_beyond_three_are_counted_not_dropped():
    reasons = [{"type": f"number{i}", "reference": str(i), "input": str(i + 1)} for i in range(5)]
    report = make_report("pay 1 2 3 4 5", "pay 2 3 4 5 6", [("deviation", "pay 1 2 3 4 5", "pay 2 3 4 5 6", reasons)])
    assert "and 2 more (-v shows all)" in render_text(report)
    assert "number4: 4 -> 5" in render_text(report, verbosity=VERBOSE)


def test_document_text_cannot_drive_the_terminal():
    ref, inp = "Fees \x1b]0;owned\x07are due \x1b[2J now.", "Fees \x1b]0;owned\x07are due \x9b31m later."
    report = make_report(ref, inp, [("deviation", ref, inp, [{"type": "x\x1b[31m", "reference": "\x1b[2J", "input": None}])],
                         reference_name="r\x1b[2J.md")
    plain = render_text(report, texts_of(ref, inp))
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", plain)
    assert "\\x1b[2J" in plain  # shown, so a reader sees something was there
    coloured = render_text(report, texts_of(ref, inp), colour=True)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", ANSI.sub("", coloured))


def test_context_keeps_a_few_words_either_side():
    pieces = [
        Piece("equal", "one two three four five six seven "),
        Piece("delete", "eight", reversing=True),
        Piece("insert", "EIGHT", reversing=True, spaced=True),
        Piece("equal", " nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "),
        Piece("insert", "end"),
    ]
    shown = in_context(pieces, words=2)
    assert "".join(p.text for p in shown) == "… six seven eightEIGHT nine ten … sixteen seventeen end"
    assert [p.op for p in shown] == ["cut", "equal", "delete", "insert", "equal", "cut", "equal", "insert"]
