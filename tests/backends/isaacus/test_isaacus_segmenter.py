"""Enricher segments to clauses: own text only, labels dropped, exact spans, definitions, headings, filtering."""

from __future__ import annotations

from pathlib import Path

from conflictkit.loaders import document_from_text, read_document
from conflictkit.normalize import flat
from conflictkit_isaacus.ilgs import clauses_from_ilgs
from conflictkit_isaacus.segmenter import IsaacusSegmenter

REFERENCE = Path(__file__).resolve().parents[3] / "samples" / "reference-saas-agreement.md"


def _by_section(clauses):
    return {c.section: c for c in clauses if c.section}


def test_sample_clauses_are_grounded_in_the_original(make):
    doc = read_document(REFERENCE)
    clauses = make(IsaacusSegmenter).segment(doc)
    assert len(clauses) > 60
    for c in clauses:
        assert flat(doc.original[c.span.start : c.span.end]) == c.text
    assert [c.order for c in clauses] == list(range(len(clauses)))
    assert len({c.id for c in clauses}) == len(clauses)


def test_codes_titles_and_children_are_cut_out(make):
    clauses = _by_section(make(IsaacusSegmenter).segment(read_document(REFERENCE)))
    grant = clauses["2.1"]
    assert grant.text.startswith("Subject to the terms") and "Grant of access" not in grant.text
    assert grant.heading == "Access and Use"  # the nearest titled ancestor
    restrictions = clauses["2.3"]
    assert restrictions.text == "Customer shall not, and shall not permit any User to:"  # items (a)-(e) cut out
    item = clauses["(a)"]
    assert item.parent == restrictions.id and item.text.startswith("sell, resell")


def test_definitions_and_non_operative_categories(make):
    clauses = make(IsaacusSegmenter).segment(read_document(REFERENCE))
    sections = _by_section(clauses)
    assert sections["1.1"].kind == "definition" and sections["1.1"].filtered is None
    assert sections["2.1"].kind == "clause"
    front = [c for c in clauses if c.filtered == "enricher: front_matter"]
    assert any(c.text.startswith("This Software-as-a-Service Subscription Agreement") for c in front)
    signatures = [c for c in clauses if c.kind == "signature"]
    assert signatures and all(c.filtered == "enricher: back_matter" for c in signatures)


def test_spans_map_through_normalization_to_the_original(make):
    text = "## 4. Fees\r\n\r\n4.1 \u201cFees\u201d means the amounts\u00a0in an Order Form.\r\n\r\n4.2 Customer shall pay within thirty (30) days.\r\n"
    doc = document_from_text(text, "crlf.md")
    clauses = make(IsaacusSegmenter).segment(doc)
    fees = _by_section(clauses)["4.1"]
    assert fees.kind == "definition"
    assert doc.original[fees.span.start : fees.span.end] == "\u201cFees\u201d means the amounts\u00a0in an Order Form."
    pay = _by_section(clauses)["4.2"]
    assert doc.original[pay.span.start : pay.span.end] == "Customer shall pay within thirty (30) days."


def test_the_enrichment_is_cached_by_normalized_text(make, fake):
    segmenter = make(IsaacusSegmenter)
    segmenter.segment(document_from_text("1. The Customer shall pay.\n", "a.md"))
    segmenter.segment(document_from_text("1.  The Customer shall pay.\r\n", "b.md"))  # same normalized text
    assert fake.count("/enrichments") == 1
    assert segmenter.usage()["models"]["kanon-2-enricher"]["cached_texts"] == 1


def test_blank_document_sends_nothing(make, fake):
    assert make(IsaacusSegmenter).segment(document_from_text("   \n", "blank.md")) == []
    assert fake.count(None, status=None) == 0


# ---- the rules, on a hand-written enrichment (independent of the fake) -------------------

TEXT = (
    "# Master Agreement\n"
    "Section 7 Payment\n"
    "7.1 Customer shall pay:\n"
    "(a) the fees; and\n"
    "(b) the expenses,\n"
    "provided that disputed amounts may be withheld.\n"
    "Page 3 of 9\n"
    "Note. Figures exclude tax."
)


def _span(text, piece, start=0):
    s = TEXT.index(piece, start)
    return {"start": s, "end": s + len(piece)}


def _seg(id, kind, span, parent=None, children=(), category="main", code=None, title=None, type_name=None, type=None, level=0):
    return {"id": id, "kind": kind, "type": type, "category": category, "type_name": type_name, "code": code,
            "title": title, "parent": parent, "children": list(children), "level": level, "span": span}


def _ilgs():
    sec_start = TEXT.index("Section 7")
    sec = {"start": sec_start, "end": TEXT.index("withheld.") + len("withheld.")}
    unit = {"start": TEXT.index("7.1"), "end": sec["end"]}
    note = _span(TEXT, "Note. Figures exclude tax.")
    return {
        "text": TEXT,
        "title": _span(TEXT, "Master Agreement"),
        "segments": [
            _seg("seg:0", "container", sec, children=["seg:1"], code=_span(TEXT, "7"), title=_span(TEXT, "Payment"),
                 type_name=_span(TEXT, "Section"), type="section"),
            _seg("seg:1", "unit", unit, parent="seg:0", children=["seg:2", "seg:3"], code=_span(TEXT, "7.1"), level=1),
            _seg("seg:2", "item", _span(TEXT, "(a) the fees; and"), parent="seg:1", code=_span(TEXT, "(a)"), level=2),
            _seg("seg:3", "item", _span(TEXT, "(b) the expenses,"), parent="seg:1", code=_span(TEXT, "(b)"), level=2),
            _seg("seg:4", "unit", note, category="annotation", title=_span(TEXT, "Note"), type="note"),
        ],
        "terms": [],
        "headings": [],
        "junk": [_span(TEXT, "Page 3 of 9")],
    }


def test_label_only_segments_yield_no_clause_and_lend_their_title():
    doc = document_from_text(TEXT, "x.md")
    clauses = clauses_from_ilgs(_ilgs(), doc)
    assert [c.id for c in clauses] == ["seg:1", "seg:2", "seg:3", "seg:1#2", "seg:4"]
    assert all(c.heading == "Payment" for c in clauses[:4])


def test_text_after_the_children_is_its_own_grounded_clause():
    doc = document_from_text(TEXT, "x.md")
    lead, _, _, tail, note = clauses_from_ilgs(_ilgs(), doc)
    assert lead.text == "Customer shall pay:" and lead.section == "7.1"
    assert tail.text == "provided that disputed amounts may be withheld." and tail.section == "7.1"
    assert doc.original[tail.span.start : tail.span.end] == tail.text
    assert "Page 3" not in tail.text  # junk is not body
    assert note.text == "Figures exclude tax." and note.heading == "Note" and note.filtered == "enricher: annotation"


def test_a_definition_in_front_matter_is_never_filtered():
    text = 'WHEREAS "Supplier" means Acme Ltd.'
    ilgs = {"text": text, "segments": [_seg("seg:0", "unit", {"start": 0, "end": len(text)}, category="front_matter")],
            "terms": [{"id": "term:0", "name": {"start": 9, "end": 17}, "meaning": {"start": 19, "end": len(text)}, "mentions": []}],
            "headings": [], "junk": []}
    (clause,) = clauses_from_ilgs(ilgs, document_from_text(text, "w.md"))
    assert clause.kind == "clause"  # the term is not at the start: "WHEREAS" comes first
    ilgs["segments"][0]["span"] = {"start": 8, "end": len(text)}
    (clause,) = clauses_from_ilgs(ilgs, document_from_text(text, "w.md"))
    assert clause.kind == "definition" and clause.filtered is None
