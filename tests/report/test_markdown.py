"""report.md: valid CommonMark with the expected structure; document text as the reader sees it, escaped."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from conflictkit.report.render import render_markdown
from conflictkit.testing.reports import make_report

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def block_types(markdown: str) -> list[str]:
    return [t.type for t in MD.parse(markdown) if t.nesting == 1 and t.level == 0]


def test_structure_is_what_a_reader_expects(small_report):
    report, ref, inp = small_report
    md = render_markdown(report, {"reference": ref, "input": inp})
    tokens = MD.parse(md)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings == ["conflictkit report", "F0001 deviation: 1", "F0002 deviation: 2",
                        "F0003 missing: 3", "F0004 added: 4"]
    assert block_types(md).count("table_open") == 1
    assert block_types(md).count("blockquote_open") == 6  # one per quote: 2 + 2 + 1 + 1
    html = MD.render(md)
    assert "<s>thirty</s>\u26a0 {+sixty+}\u26a0" in html  # deletions struck, insertions plain markers, never bold
    assert "<strong>" not in html
    assert "Reference (1, line 3):" in md and "[" not in md.split("## F0001")[1].split("Redline")[0]
    assert "None" not in md
    quotes = [line for line in md.splitlines() if line.startswith("> ")]
    assert len(quotes) == 6 and ": > " not in md  # a quote opens its own line, never mid-line


def test_quotes_never_open_a_block_mid_line():
    ref = "1. Fees. A > B and C\n\n> quoted\n"
    report = make_report(ref, ref.replace("A", "Z"), [("deviation", "Fees. A > B and C", "Fees. Z > B and C", [])])
    md = render_markdown(report)
    assert block_types(md).count("blockquote_open") == 2
    assert "Fees. A > B and C" in MD.render(md).replace("&gt;", ">")


def test_document_markup_is_shown_not_rendered():
    ref = "Notices. <script>alert(1)</script> go ![logo](http://attacker.test/p.png) **here**."
    inp = "Notices. <img src=x onerror=alert(1)> go [there](javascript:alert(1)) **now**."
    report = make_report(ref, inp, [("deviation", ref, inp, [{"type": "<b>x</b>", "reference": "![](http://a.test/x)", "input": None}])],
                         reference_name="<script>r</script>.md")
    html = MD.render(render_markdown(report))
    for tag in ("<script", "<img", "<a ", "<strong", "<b>"):
        assert tag not in html, tag
    assert "&lt;script&gt;r&lt;/script&gt;.md" in html  # a name is shown as written
    assert "> Notices. alert(1) go logo here." in render_markdown(report)  # a document's tags are markup: dropped


def test_the_samples_report_md_has_one_section_and_one_quote_per_cited_clause():
    from conflictkit.config import resolve
    from conflictkit.engine import Engine
    from tests.conftest import FAST_CONFIG, INPUT, REFERENCE

    result = Engine(resolve(FAST_CONFIG)).compare(str(REFERENCE), str(INPUT))
    texts = {"reference": REFERENCE.read_text(encoding="utf-8"), "input": INPUT.read_text(encoding="utf-8")}
    md = render_markdown(result.report, texts)
    findings = result.report["findings"]
    assert block_types(md).count("heading_open") == len(findings) + 1
    assert block_types(md).count("blockquote_open") == sum((f["reference"] is not None) + (f["input"] is not None) for f in findings)
    html = MD.render(md)
    assert "<strong>" not in html  # the contracts' own **bold** shows as written
    # the only emphasis is the tool's own note on a finding's editorial edits
    assert all(note.startswith(("1 editorial edit", f"{note.split()[0]} editorial edits")) for note in re.findall(r"<em>(.*?)</em>", html))
    assert html.count("<s>") >= sum(1 for f in findings if f["kind"] == "deviation")
    assert "[6021" not in md and "line 84" in md  # lines, not offsets
