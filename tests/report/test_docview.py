"""Documents as formatted HTML with highlights: well formed, no text added or lost, each highlight exact."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from conflictkit.report.doctext import render_document
from conflictkit.report.docview import event, plain_text_of, render_document_html
from conflictkit.report.html import render_html
from tests.conftest import INPUT, REFERENCE

VOID = {"br", "hr", "img", "input", "meta", "link"}


class Nesting(HTMLParser):
    """Fails on a close tag that does not match the open one; collects the text marked per finding."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.parents: list[tuple[str, str]] = []
        self.marks: list[list[str]] = []
        self.marked: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        self.parents.append((self.stack[-1] if self.stack else "", tag))
        self.stack.append(tag)
        if tag == "mark":
            self.marks.append(dict(attrs)["data-f"].split())

    def handle_startendtag(self, tag, attrs):  # <hr />, <br />
        pass

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (self.stack, tag)
        self.stack.pop()
        if tag == "mark":
            self.marks.pop()

    def handle_data(self, data):
        for index in {i for m in self.marks for i in m}:
            self.marked[index] = self.marked.get(index, "") + data


def assert_well_formed(html: str) -> Nesting:
    checker = Nesting()
    checker.feed(html)
    assert checker.stack == []
    # A mark only ever sits where text may: never directly in a table row, a list or a table.
    assert not any(tag == "mark" and parent in ("tr", "tbody", "thead", "table", "ul", "ol") for parent, tag in checker.parents)
    return checker


LINES = st.sampled_from([
    "# Heading one", "## 2. Fees", "1. Customer shall pay within thirty (30) days.", "4. **Audit.** Provider may audit.",
    "- a bullet with **bold** words", "  - nested bullet", "| a | b |\n|---|---|\n| one | **two** |", "> quoted text here",
    "Plain paragraph text with several words.", "```\ncode block\n```", "---", "Setext heading\n===", "",
    '1. <span class="header_2">Service</span> &amp; <b>support</b>', "A \\*literal\\* star and [a link](http://x.test).",
])


def _words(text: str) -> list[str]:
    return text.split()


@settings(max_examples=150, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=12), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)), max_size=5))
def test_any_highlights_give_well_formed_html_with_the_same_text(lines, spans):
    text = "\n\n".join(lines) + "\n"
    document = render_document(text, "markdown")
    events = []
    cut = []
    for i, (a, b) in enumerate(spans):
        start, end = sorted((a % (len(text) + 1), b % (len(text) + 1)))
        cut.append((start, end))
        events += [event(start, "anchor", i, target=f"reference-f{i}"), event(start, "open", i), event(end, "close", i)]
    out = render_document_html(document, events, ["deviation"] * len(spans))
    checker = assert_well_formed(out)
    plain = render_document_html(document, [], [])
    assert _words(plain_text_of(out)) == _words(plain_text_of(plain))  # highlights add and lose no text
    # A list item's label is drawn by the list (<li value>), not written as text.
    hidden = {k for leaf in document.leaves if leaf.marker for k in range(leaf.start, leaf.label_end)}
    for i, (start, end) in enumerate(cut):  # each highlight holds exactly what the reader sees of its span
        a, b = document.range_of(start, end)
        expected = "".join(ch for k, ch in enumerate(document.text[a:b], a) if k not in hidden and not ch.isspace())
        assert "".join(checker.marked.get(str(i), "").split()) == expected


def test_tags_entities_and_emphasis_are_rendered_not_shown():
    text = '1. <span class="header_2" id="1">Service</span> &amp; **Fees.** \\*\n\n| a | b |\n|---|---|\n| c | *d* |\n'
    out = render_document_html(render_document(text, "markdown"), [], [])
    assert "<span" not in plain_text_of(out) and "&amp;" not in plain_text_of(out) and "**" not in out
    assert "<strong>Fees.</strong>" in out and "<em>d</em>" in out and "<table>" in out and "<td>" in out
    assert plain_text_of(out).split() == ["Service", "&", "Fees.", "*", "a", "b", "c", "d"]


def test_the_samples_render_formatted_with_every_finding_highlighted(tmp_path):
    from conflictkit.config import resolve
    from conflictkit.engine import Engine
    from tests.conftest import FAST_CONFIG

    result = Engine(resolve(FAST_CONFIG)).compare(str(REFERENCE), str(INPUT))
    ref, inp = REFERENCE.read_text(encoding="utf-8"), INPUT.read_text(encoding="utf-8")
    page = render_html(result.report, ref, inp)
    assert page.count('class="doc md"') == 2
    assert "<h2>" in page and "<strong>" in page  # headings and bold, not ** and ##
    findings = result.report["findings"]
    for i, finding in enumerate(findings):
        for side in ("reference", "input"):
            target = f'id="{side}-f{i}"'
            assert target in page, (finding["id"], side)  # a highlight's anchor, or the gap marker of a missing/added clause
    assert page.count('class="gap ') == sum(1 for f in findings if f["kind"] != "deviation")
    assert page.count('class="w-del') > 10 and page.count('class="w-ins') > 10
    json.dumps(result.report)
