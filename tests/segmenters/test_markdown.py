"""Markdown read with markdown-it, and segmentation that does not depend on how lines are wrapped."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conflictkit.engine import Engine
from conflictkit.loaders import document_from_text
from conflictkit.model import Clause
from conflictkit.segmenters.markdown import is_markdown
from conflictkit.segmenters.rules import RulesSegmenter
from tests.conftest import CORPUS, REFERENCE, SAMPLES
from tests.segmenters.test_rules import assert_spans, find

SENTENCE_BREAK = re.compile(r"(?<=[a-z)]\.) (?=[A-Z])")  # the re-wrap of issue 11: one sentence per line


def segment(text: str, name: str = "agreement.md") -> list[Clause]:
    document = document_from_text(text, name)
    clauses = RulesSegmenter().segment(document)
    assert_spans(document, clauses)
    return clauses


def shape(clauses: list[Clause]) -> list[tuple]:
    """What comparison sees of each clause: its text, kind, heading, section and parent."""
    return [(c.text, c.kind, c.heading, c.section, c.parent) for c in clauses]


def one_sentence_per_line(text: str) -> str:
    """Issue 11's re-wrap, except right after a lone label ("a. The ..."), where it would change the Markdown."""
    def cut(m: re.Match[str]) -> str:
        head = text[text.rfind("\n", 0, m.start()) + 1 : m.start()].strip()
        return m.group() if " " not in head else "\n"

    return SENTENCE_BREAK.sub(cut, text)


def test_markdown_is_told_by_suffix_or_by_its_headings():
    assert is_markdown(document_from_text("Plain words.", "a.md"))
    assert not is_markdown(document_from_text("# Looks like a heading", "a.txt"))
    assert is_markdown(document_from_text("Intro.\n\n## 1. Fees\n", "<stdin>"))
    assert not is_markdown(document_from_text("1. Fees. Customer pays.\n", "<stdin>"))


def test_a_heading_inside_a_list_item_heads_its_section():
    text = ("# Cloud Service Agreement\n\n## USING THIS AGREEMENT\n\nCapitalized words have the meanings given.\n\n"
            "1. ## Service  \n\n"
            '    1.1 <span class="header_3">Access and Use.</span>  Customer may access the Cloud Service.\n\n'
            '    1.2 <span class="header_3">Support.</span> Provider will provide Technical Support.\n\n'
            "2. ## Restrictions & Obligations\n\n    2.1 Customer will not resell the Product.\n")
    clauses = segment(text)
    service, restrictions = find(clauses, "Service"), find(clauses, "Restrictions & Obligations")
    assert (service.kind, service.section, service.heading) == ("heading", "1", "Service")
    assert (restrictions.kind, restrictions.section) == ("heading", "2")
    access = find(clauses, "Access and Use.")
    assert (access.section, access.heading, access.parent) == ("1.1", "Access and Use", service.id)
    assert access.text == "Access and Use. Customer may access the Cloud Service."
    assert find(clauses, "Customer will not resell").parent == restrictions.id
    assert not any(c.text.startswith("#") for c in clauses)


def test_setext_headings_and_thematic_breaks():
    text = ("Master Agreement\n================\n\nFees\n----\n\nCustomer shall pay\nthe fees monthly.\n\n"
            "---\n\nTerm\n----\n\nOne year.\n")
    clauses = segment(text)
    assert [(c.kind, c.text) for c in clauses] == [
        ("heading", "Master Agreement"), ("heading", "Fees"), ("clause", "Customer shall pay the fees monthly."),
        ("heading", "Term"), ("clause", "One year."),
    ]
    assert clauses[2].heading == "Fees" and clauses[2].parent == clauses[1].id
    assert clauses[4].heading == "Term" and clauses[3].parent == clauses[0].id


def test_tables_rows_and_a_cell_wrapped_onto_the_next_line():
    text = ("| Field | Value |\n|---|---|\n| Fees | $10 per month |\n| Order Form | Order Form No.\n"
            "HP-2027-004 |\n")
    clauses = segment(text)
    assert [(c.kind, c.text) for c in clauses] == [
        ("heading", "Field | Value"), ("clause", "Fees | $10 per month"),
        ("clause", "Order Form | Order Form No. HP-2027-004"),
    ]


def test_block_quotes_lose_their_marks_and_keep_their_lists():
    text = "> The Customer shall pay\n> all fees when due:\n>\n> (a) in dollars; and\n> (b) on time.\n"
    clauses = segment(text)
    assert [(c.text, c.section) for c in clauses] == [
        ("The Customer shall pay all fees when due:", None), ("in dollars; and", "(a)"), ("on time.", "(b)"),
    ]
    assert clauses[1].parent == clauses[0].id


def test_inline_html_and_entities_are_not_compared_but_spans_keep_them():
    text = ('1. <span class="header_3" id="1.1">Fees.</span>  <span class="keyterms_link">Customer</span> pays '
            "within thirty&nbsp;(30) days &amp; in full.\n\n## Terms &amp; Conditions\n\nIt applies.\n")
    document = document_from_text(text, "a.md")
    clauses = RulesSegmenter().segment(document)
    assert_spans(document, clauses)
    fees = clauses[0]
    assert fees.text == "Fees. Customer pays within thirty (30) days & in full."
    assert fees.heading == "Fees" and "<" not in fees.text
    assert document.original[fees.span.start:fees.span.end].startswith('<span class="header_3"')
    assert clauses[1].text == "Terms & Conditions" and clauses[2].heading == "Terms & Conditions"


def test_numbering_labels_still_split_a_markdown_paragraph():
    text = ('The Customer shall:\n(a) pay the fees;\n(b) keep records.\n\n"Affiliate" means a controlled entity.\n'
            '"Customer" means the buyer.\n\nBy: ________\nName:\nTitle:\n')
    clauses = segment(text)
    assert [c.section for c in clauses[:3]] == [None, "(a)", "(b)"]
    assert [c.kind for c in clauses[3:5]] == ["definition", "definition"]
    assert [c.text for c in clauses[5:]] == ["By: ________", "Name:", "Title:"]


def test_a_heading_in_a_blank_separated_text_stays_a_heading():
    clauses = segment("MUTUAL NDA\n\nThe parties agree.\nThey sign it.\n\n1. Purpose. To evaluate.\n", "a.txt")
    assert [(c.kind, c.text) for c in clauses] == [
        ("heading", "MUTUAL NDA"), ("clause", "The parties agree. They sign it."), ("clause", "Purpose. To evaluate."),
    ]


@pytest.mark.parametrize("path", [REFERENCE, SAMPLES / "nda-reference.txt", SAMPLES / "input-vendor-draft.md"])
def test_one_sentence_per_line_segments_as_the_original(path):
    text = path.read_text(encoding="utf-8")
    rewrapped = SENTENCE_BREAK.sub("\n", text)
    assert rewrapped.count("\n") >= text.count("\n") + 10
    assert shape(segment(rewrapped, path.name)) == shape(segment(text, path.name))


@pytest.mark.parametrize("separator", ["\u2028", "\x85", "\x0b", "\x0c", "\n"])
def test_line_separators_inside_a_paragraph_do_not_end_a_clause(separator):
    text = REFERENCE.read_text(encoding="utf-8")
    assert shape(segment(SENTENCE_BREAK.sub(separator, text))) == shape(segment(text))


def test_a_word_manual_line_break_in_text_with_one_paragraph_per_line():
    paragraphs = [
        ("The Supplier shall deliver the Goods to the Customer's premises on the dates set out in the Order.\x0b"
         "The Supplier shall bear all costs of carriage and insurance until delivery is complete."),
        ("Risk in the Goods passes to the Customer on delivery, and title passes when the Customer has paid "
         "the price in full, including any interest that has accrued on late payment."),
    ]
    clauses = segment("\r\n".join(paragraphs) + "\r\n", "a.txt")  # how Word saves text: VT inside, CRLF between
    assert [c.text for c in clauses] == [p.replace("\x0b", " ") for p in paragraphs]


def test_bullets_added_in_front_of_unchanged_paragraphs_change_nothing_compared():
    text = REFERENCE.read_text(encoding="utf-8")
    starts = ("This Software-as", "Neither party may assign", "All notices under", "(a) sell", "(c) use the")
    bulleted = "\n".join(("* " + line if line.startswith(starts) else line) for line in text.split("\n"))
    assert bulleted.count("\n* ") == len(starts)
    assert shape(segment(bulleted)) == shape(segment(text))
    plus = "\n".join(("+ " + line if line.startswith(starts) else line) for line in text.split("\n"))
    assert shape(segment(plus)) == shape(segment(text))


def test_the_sample_rewrapped_one_sentence_per_line_has_no_findings(fast_config):
    text = REFERENCE.read_text(encoding="utf-8")
    result = Engine(fast_config).compare_documents(document_from_text(text, "reference.md"),
                                                   document_from_text(SENTENCE_BREAK.sub("\n", text), "input.md"))
    assert result.report["findings"] == []
    assert result.report["summary"]["covered"] > 50


# before a lower-case word: never a label, a field or a Markdown marker
_WRAP_BEFORE = re.compile(r"(?<=\S) (?=[a-z]{2,}\b(?![.):]))")
_BREAKS = ["\n", "\r\n", "\n    ", "\u2028", "\x85", "\x0b", "\x0c"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rate=st.floats(0.05, 0.6),
       breaks=st.lists(st.sampled_from(_BREAKS), min_size=1, max_size=4, unique=True))
@pytest.mark.parametrize("path", [REFERENCE, SAMPLES / "nda-reference.txt"])
def test_random_wrapping_never_changes_what_is_compared(path, seed, rate, breaks):
    text = path.read_text(encoding="utf-8")
    markdown = path.suffix == ".md"
    rng = random.Random(seed)

    def wrap(line: str) -> str:
        if markdown and line.lstrip().startswith(("#", "|")):
            return line  # a line break ends a heading or a table row: that is Markdown, not wrapping
        return _WRAP_BEFORE.sub(lambda m: rng.choice(breaks) if rng.random() < rate else m.group(), line)

    wrapped = "\n".join(wrap(line) for line in text.split("\n"))
    assert shape(segment(wrapped, path.name)) == shape(segment(text, path.name))


def _corpus_agreements() -> list:
    if not CORPUS.is_dir():
        return []
    families = ("commonpaper", "bonterms", "openagreements", "basecamp", "licenses")
    return sorted(p for family in families for p in (CORPUS / family).rglob("*")
                  if p.suffix in (".md", ".txt") and p.name != "README.md")


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_corpus_agreements_one_sentence_per_line_segment_as_the_originals():
    files = _corpus_agreements()
    assert len(files) > 200
    changed = [p.name for p in files
               if shape(segment(one_sentence_per_line(t := p.read_text(encoding="utf-8-sig")), p.name))
               != shape(segment(t, p.name))]
    assert changed == []


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_common_paper_csa_versions_have_no_bare_headings_and_no_markup_in_findings(fast_config):
    csa = CORPUS / "commonpaper" / "csa"
    result = Engine(fast_config).compare(str(csa / "CSA_v1.1.md"), str(csa / "CSA_v2.0.md"))
    findings = result.report["findings"]
    assert findings
    sides = {"reference": result.reference, "input": result.input}
    for finding in findings:
        for side, indexed in sides.items():
            quote = finding[side]
            if quote is not None:
                clause = indexed.clause(quote["clause_id"])
                assert clause.kind != "heading" and not clause.text.startswith("#"), finding["id"]
        shown = json.dumps([finding["reasons"], finding.get("redline")])
        assert not re.search(r"</?span|class=|&[a-z]+;", shown), finding["id"]
    # every clause is headed by its own section: only the preamble's own paragraphs by the first heading
    numbered = [q for f in findings for q in (f["reference"], f["input"]) if q and q["section"]]
    assert numbered and all(q["heading"] != "USING THIS AGREEMENT" for q in numbered)


_MARKDOWN_PIECES = ["1. ", "1. ## ", "    ", "\t", "- ", "* ", "+ ", "> ", "# ", "## ", "===", "---", "| a | b |",
                    "|---|---|", "```", "~~~", "<span class=\"x\">", "</span>", "<div>", "&amp;", "&nbsp;", "**",
                    "(a) ", "1.1 ", "Name:", '"Term" means ', "Fees. ", "shall pay", "\n", "\n\n", "\r\n", "\u2028",
                    "\x0b", "\x0c", "\u2029", "---\ntitle: x\n---\n", "x" * 20]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_MARKDOWN_PIECES) | st.text(max_size=6), max_size=50))
def test_any_markdown_segments_with_exact_spans(pieces):
    clauses = segment("".join(pieces), "any.md")
    ids = {c.id for c in clauses}
    assert all(c.text and (c.parent is None or c.parent in ids) for c in clauses)
