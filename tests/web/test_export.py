"""The review's Markdown export: valid CommonMark, document text and notes escaped, no Python None."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from conflictkit.testing.reports import make_report
from conflictkit.web.export import review_markdown

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])

REF = "1. Notices. <script>alert(1)</script> go to ![logo](http://attacker.test/p.png) the **address** above.\n"
INP = "1. Notices. <img src=x onerror=alert(1)> go to [here](javascript:alert(1)) the **address** below.\n"


def test_markdown_export_escapes_documents_and_notes(reviews):
    report = make_report(REF, INP, [("deviation", REF[3:-1], INP[3:-1],
                                     [{"type": "scope", "reference": "above", "input": None, "detail": None}]),
                                    ("missing", REF[3:-1], None, [])])
    cid = reviews.add("<script>r</script>.md", "i.md", REF, INP, report, "")
    reviews.decide(cid, "F0001", "accepted", "see <img src=http://a.test/x> | ok", set_status=True)
    md = review_markdown(reviews.get(cid), reviews.decisions(cid))
    html = MD.render(md)
    for tag in ("<script", "<img", "<a ", "<strong"):
        assert tag not in html, tag
    assert "None" not in md and "(none)" in md  # a reason with one side names the missing side in words
    assert "Decision: accepted. Note: see" in md and "Decision: undecided" in md
    assert "Reference (1, line 1):" in md
    rows = [t for t in MD.parse(md) if t.type == "tr_open"]
    assert len(rows) == 3  # header + two findings: the note's "|" did not split a cell


def test_markdown_export_holds_no_tag_for_any_markdown_dialect(reviews):
    # Markdown.pl and Python-Markdown do not honour "\<": a tag must not be there at all, escaped or not
    hostile = ("1. Terms. <svg onload=alert(1)> <iframe src=javascript:alert(2)></iframe> <img src=x onerror=alert(3)> "
               "<SCRIPT>alert(4)</SCRIPT> apply.\n")
    report = make_report(REF, hostile, [("deviation", REF[3:-1], hostile[3:-1], [
        {"type": "content", "reference": "<script>", "input": "<svg onload=alert(5)>", "detail": "<iframe>"}])])
    cid = reviews.add("<svg onload=alert(6)>.md", "<img src=x onerror=alert(7)>.docx", REF, hostile, report, "")
    reviews.decide(cid, "F0001", "accepted", "<script>alert(8)</script>", set_status=True)
    md = review_markdown(reviews.get(cid), reviews.decisions(cid))
    assert "alert(8)" in md and "svg onload" in md  # the text is there...
    assert not re.search(r"<\s*/?\s*(script|img|svg|iframe)", md, re.IGNORECASE), md  # ...and no tag
