"""Documents as formatted text with highlights: well-formed HTML, no text added or lost, exact fallback."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from conflictkit.report.docview import (
    _markdown,
    event,
    plain_text_of,
    render_markdown_document,
)
from conflictkit.report.html import render_html
from tests.conftest import INPUT, REFERENCE

VOID = {"br", "hr", "img", "input", "meta", "link"}


class Nesting(HTMLParser):
    """Fails on a close tag that does not match the open one (a mark straddling a cell or a paragraph)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.parents: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.parents.append((self.stack[-1] if self.stack else "", tag))
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):  # <hr />, <br />
        pass

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (self.stack, tag)
        self.stack.pop()


def assert_well_formed(html: str) -> None:
    checker = Nesting()
    checker.feed(html)
    assert checker.stack == []
    # A mark only ever sits where text may: never directly in a table row, a list or a table.
    assert not any(tag == "mark" and parent in ("tr", "tbody", "thead", "table", "ul", "ol") for parent, tag in checker.parents)


LINES = st.sampled_from([
    "# Heading one", "## 2. Fees", "1. Customer shall pay within thirty (30) days.", "4. **Audit.** Provider may audit.",
    "- a bullet with **bold** words", "  - nested bullet", "| a | b |\n|---|---|\n| one | **two** |", "> quoted text here",
    "Plain paragraph text with several words.", "```\ncode block\n```", "---", "Setext heading\n===", "",
])


@settings(max_examples=150, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=12), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)), max_size=5))
def test_any_highlights_give_well_formed_html_with_the_same_text(lines, spans):
    text = "\n\n".join(lines) + "\n"
    events = []
    for i, (a, b) in enumerate(spans):
        start, end = sorted((a % (len(text) + 1), b % (len(text) + 1)))
        events += [event(start, "anchor", i, target=f"reference-f{i}"), event(start, "open", i), event(end, "close", i)]
    out = render_markdown_document(text, events, ["deviation"] * len(spans))
    if out is None:
        return  # the caller shows the exact plain view instead
    assert_well_formed(out)
    # The same words in the same order (a sentinel left alone on a line can add an empty paragraph).
    assert plain_text_of(out).split() == plain_text_of(_markdown().render(text)).split()


def test_the_samples_render_formatted_with_every_finding_highlighted(tmp_path):
    from conflictkit.config import resolve
    from conflictkit.engine import Engine
    from tests.conftest import FAST_CONFIG

    result = Engine(resolve(FAST_CONFIG)).compare(str(REFERENCE), str(INPUT))
    ref, inp = REFERENCE.read_text(encoding="utf-8"), INPUT.read_text(encoding="utf-8")
    page = render_html(result.report, ref, inp)
    assert page.count('class="doc md"') == 2 and 'class="doc plain"' not in page
    assert "<h2>" in page and "<strong>" in page  # headings and bold, not ** and ##
    findings = result.report["findings"]
    for i, finding in enumerate(findings):
        for side in ("reference", "input"):
            target = f'id="{side}-f{i}"'
            assert target in page, (finding["id"], side)  # a highlight's anchor, or the gap marker of a missing/added clause
    assert page.count('class="gap ') == sum(1 for f in findings if f["kind"] != "deviation")
    assert page.count('class="w-del"') > 10 and page.count('class="w-ins"') > 10
    json.dumps(result.report)
