"""The one renderer of document text: what a reader sees, each character mapped to the document text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conflictkit.report.doctext import render_document, render_fragment, text_format
from tests.conftest import CORPUS, INPUT, REFERENCE, SAMPLES

ADDED = {"\n", " ", "\u2022"}  # what the renderer writes itself: leaf breaks, spaces after labels, bullets


def assert_mapped(source: str, fmt: str = "markdown"):
    """Every rendered character comes from the document text (or is one the renderer adds) and offsets never fall."""
    document = render_document(source, fmt)
    assert len(document.offsets) == len(document.text) + 1
    assert all(a <= b for a, b in zip(document.offsets, document.offsets[1:], strict=False))
    for i, ch in enumerate(document.text):
        if ch in ADDED or ch.isspace():
            continue
        assert source[document.offsets[i]] == ch or ch in "&<>\"'*\\" or not source[document.offsets[i]].isalnum(), (i, ch)
    return document


PIECES = st.sampled_from([
    "# Title", "## 2. Fees", "1. ", "4. ", "- ", "    1. ", "> ", "**bold**", "*it*", "_u_", "`code`", "~~gone~~",
    '<span class="x">Customer</span>', "&amp;", "&rsquo;", "\\*", "[link](http://x.test)", "![alt](i.png)",
    "| a | b |\n|---|---|\n| c | d |", "word", "Provider", " ", "\n", "\n\n", "\t", "(a)", "30", "days.", "<br>",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=30))
def test_any_markdown_renders_with_each_character_mapped(pieces):
    assert_mapped("".join(pieces))


def test_structure_marks_and_labels():
    source = ('# Agreement\n\n1. <span class="h">Fees.</span> Customer &amp; **its Affiliates** pay.\n'
              '\n    2. Nested *item*\n\n- a bullet\n\n| Term | Value |\n|---|---|\n| Fee | $10 |\n')
    document = render_document(source)
    kinds = [(leaf.kind, document.text[leaf.start:leaf.label_end]) for leaf in document.leaves]
    assert kinds == [("heading", ""), ("paragraph", "1. "), ("paragraph", "2. "), ("paragraph", "\u2022 "),
                     ("th", ""), ("th", ""), ("td", ""), ("td", "")]
    assert document.text.splitlines()[1] == "1. Fees. Customer & its Affiliates pay."
    bold = [document.text[s:e] for s, e, m in document.marks if m == "bold"]
    assert bold == ["its Affiliates"] and [document.text[s:e] for s, e, m in document.marks if m == "italic"] == ["item"]
    start = source.index("Customer")
    assert document.text_of(start, source.index("pay.") + 4) == "Customer & its Affiliates pay."
    assert document.leaves[4].row is not None and document.leaves[4].row == document.leaves[5].row


def test_word_and_html_text_is_literal_with_the_loaders_structure():
    text = "# Services\n\n5.4 The Customer shall pay *all* Fees.\n\n| Fee | Due |\n|---|---|\n| $10 | monthly |"
    document = render_document(text, "docx")
    assert [leaf.kind for leaf in document.leaves] == ["heading", "paragraph", "td", "td", "td", "td"]
    assert document.text.splitlines()[:2] == ["Services", "5.4 The Customer shall pay *all* Fees."]
    assert document.text[document.leaves[1].start:document.leaves[1].label_end] == "5.4 "
    assert document.marks == []
    assert render_document("A wrapped\nline of text.\n\nNext.", "text").text == "A wrapped line of text.\nNext."


def test_format_is_the_loaders_else_markdown_by_suffix_or_signs():
    assert text_format("x.pdf", "pdf") == "pdf"
    assert text_format("x.md", None) == "markdown" and text_format("x.txt", None) == "text"
    assert text_format(None, None, "# Heading\n\ntext") == "markdown" and text_format(None, None, "plain") == "text"


def test_a_fragment_renders_on_one_line():
    assert render_fragment("**1.1 Fees.** Customer\n  pays &amp; <b>Provider</b> invoices.") == "1.1 Fees. Customer pays & Provider invoices."


MARKUP = re.compile(r"\*\*|<span|&amp;|\\[!-/:-@\[-`{-~]")


def _documents():
    paths = [REFERENCE, INPUT, SAMPLES / "nda-reference.txt", SAMPLES / "nda-input.txt"]
    paths += sorted((CORPUS / "commonpaper").glob("*/*.md"))
    return paths


@pytest.mark.corpus
@pytest.mark.parametrize("path", _documents(), ids=lambda p: p.name)
def test_no_markup_in_the_rendered_text_of_the_samples_and_common_paper(path):
    if not path.exists():
        pytest.skip("corpus not available")
    source = path.read_text(encoding="utf-8")
    document = assert_mapped(source, text_format(str(path), None, source))
    assert not MARKUP.search(document.text), MARKUP.search(document.text)
