"""Document text made harmless: control characters shown not obeyed, Markdown syntax shown not rendered."""

from __future__ import annotations

import html
import json
import re

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from conflictkit.report.escape import (
    escape_markdown,
    json_for_terminal,
    sanitize_controls,
)

# Everything a viewer might enable: raw HTML is on in CommonMark; tables and strikethrough from GFM.
MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])

HOSTILE = [
    "<script>alert(1)</script>",
    "![x](http://attacker.test/pixel.png)",
    "[click](javascript:alert(1))",
    "**bold** _it_ `code` ~~gone~~",
    "# Heading",
    "1. first",
    "- item",
    "> quoted",
    "&lt;script&gt; &amp; &#x3C;",
    "a | b | c",
    "<http://autolink.test>",
    "trailing backslash \\",
    "{+fake insert+} [-fake delete-]",
]


def rendered_text(markdown: str) -> str:
    """The text a viewer shows for one paragraph, failing if it rendered anything but a paragraph."""
    out = MD.render(markdown).strip()
    assert out.startswith("<p>") and out.endswith("</p>"), out
    inner = out[3:-4]
    assert "<" not in inner, out  # no element at all: no script, image, link, emphasis
    return html.unescape(inner)


def test_hostile_markdown_renders_as_its_own_text():
    for text in HOSTILE:
        assert rendered_text(escape_markdown(text)) == text


def test_no_angle_bracket_opens_a_tag_in_any_markdown_dialect():
    # CommonMark honours "\<"; Markdown.pl and Python-Markdown do not, and pass "\<script>" on as a tag
    for text in HOSTILE + ["<svg onload=alert(1)>", "<iframe src=x>", "<img src=x onerror=alert(1)>"]:
        assert "<" not in escape_markdown(text)


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7e), min_size=1))
def test_any_printable_text_renders_literally(text):
    flat = " ".join(text.split())
    if flat:
        assert rendered_text(escape_markdown(text)) == flat


def test_plain_prose_stays_readable():
    assert escape_markdown("Section 2.1: within thirty (30) days -> sixty.") == "Section 2.1: within thirty (30) days -> sixty."


def test_controls_are_shown_not_obeyed():
    hostile = "A\x1b]0;pwned\x07B\x1b[2JC\x9b31mD\u202eE\tF\nG"
    clean = sanitize_controls(hostile)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]", clean)
    assert clean == "A\\x1b]0;pwned\\x07B\\x1b[2JC\\x9b31mD\\u202eE\tF\nG"


def test_json_for_terminal_keeps_the_value_exact():
    value = {"text": "a\x1b[2Jb\x9bc\u202ed\x7f"}
    dumped = json_for_terminal(json.dumps(value, ensure_ascii=False))
    assert not re.search("[\x00-\x1f\x7f-\x9f\u202e]", dumped)
    assert json.loads(dumped) == value
