"""The self-contained HTML report: highlights match the cited spans, text is escaped, nothing loads."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from html.parser import HTMLParser

import pytest

from conflictkit.errors import GroundingError
from conflictkit.report.html import render_html, render_view, review_key
from conflictkit.testing.reports import make_report


class DocReader(HTMLParser):
    """Reads back the document panes: the whole text of each, and the text marked for each finding."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.side: str | None = None
        self.depth = 0
        self.marks: list[list[str]] = []
        self.text = {"reference": "", "input": ""}
        self.marked: dict[tuple[str, str], str] = {}
        self.anchors: dict[str, str] = {}
        self.tags_in_docs: list[str] = []
        self.gaps: dict[str, str] = {}  # gap marker id -> its label
        self.changed: dict[tuple[str, str], list[str]] = {}  # (side, "del"/"ins") -> changed words shown
        self.in_gap: str | None = None
        self.in_change: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "div" and attrs.get("id", "").startswith("doc-"):
            self.side, self.depth = attrs["id"][4:], 0
            return
        if self.side is None:
            return
        self.depth += 1
        self.tags_in_docs.append(tag)
        if tag == "mark":
            self.marks.append(attrs["data-f"].split())
        if tag == "span" and attrs.get("class") == "anchor":
            self.anchors[attrs["id"]] = len(self.text[self.side])  # where in the text it stands
        if tag == "span" and attrs.get("class", "").startswith("gap "):
            self.in_gap = attrs["id"]
            self.gaps[attrs["id"]] = ""
        if tag == "span" and attrs.get("class") in ("w-del", "w-ins"):
            self.in_change = attrs["class"][2:]

    def handle_endtag(self, tag):
        if self.side is None:
            return
        if self.depth == 0:
            self.side = None
            return
        self.depth -= 1
        if tag == "mark":
            self.marks.pop()
        if tag == "span":
            self.in_gap = self.in_change = None

    def handle_data(self, data):
        if self.side is None:
            return
        if self.in_gap is not None:  # a marker we add, not document text
            self.gaps[self.in_gap] += data
            return
        if self.in_change is not None:
            self.changed.setdefault((self.side, self.in_change), []).append(data)
        self.text[self.side] += data
        for index in {i for m in self.marks for i in m}:
            key = (self.side, index)
            self.marked[key] = self.marked.get(key, "") + data


def read(page: str) -> DocReader:
    reader = DocReader()
    reader.feed(page)
    return reader


def rendered(text: str) -> str:
    """What a reader sees of a document with nothing highlighted: the text the panes must show."""
    from conflictkit.report.doctext import render_document
    from conflictkit.report.docview import render_document_html

    reader = read(f'<div id="doc-reference">{render_document_html(render_document(text), [], [])}</div>')
    return reader.text["reference"]


def test_every_finding_is_highlighted_exactly_in_both_documents(small_report):
    report, ref, inp = small_report
    page = render_html(report, ref, inp)
    reader = read(page)
    assert page.count('class="doc md"') == 2  # formatted: the numbered clauses are an ordered list
    assert reader.text == {"reference": rendered(ref), "input": rendered(inp)}  # highlights add and lose no text
    assert "<li value=\"4\">" in page  # the document's own numbering, not the list's count
    for i, finding in enumerate(report["findings"]):
        for side in ("reference", "input"):
            quote = finding[side]
            if quote is None:
                assert (side, str(i)) not in reader.marked
            else:
                assert reader.marked[(side, str(i))] == quote["text"]
                assert reader.text[side][reader.anchors[f"{side}-f{i}"]:].startswith(quote["text"])
    # The changed words are marked inside both documents, not only in the finding's card.
    assert reader.changed[("reference", "del")] == ["thirty", "30", "not"]
    assert reader.changed[("input", "ins")] == ["sixty", "60"]
    # The missing clause leaves a marker in the input where it would be: after clause 2, before clause 4.
    assert reader.gaps == {"input-f2": "F0003 missing here: 3", "reference-f3": "F0004 added here (not in the reference): 4"}
    assert page.index('id="input-f2"') < page.index('id="input-f3"')
    assert page.index('id="input-f1"') < page.index('id="input-f2"')


def test_overlapping_spans_are_cut_and_both_findings_keep_their_text():
    text = "alpha beta gamma delta"
    findings = [
        {"id": "F1", "kind": "deviation", "reference": {"start": 0, "end": 10, "text": "alpha beta"}, "input": None, "reasons": []},
        {"id": "F2", "kind": "missing", "reference": {"start": 6, "end": 16, "text": "beta gamma"}, "input": None, "reasons": []},
    ]
    report = make_report(text, text, [])
    report["findings"] = findings
    reader = read(render_html(report, text, text))
    assert reader.marked[("reference", "0")] == "alpha beta"
    assert reader.marked[("reference", "1")] == "beta gamma"
    assert reader.text["reference"].strip() == text
    # Two findings starting at one offset both get their anchor.
    report["findings"] = [{**findings[0], "reference": {"start": 6, "end": 10, "text": "beta"}}, findings[1]]
    reader = read(render_html(report, text, text))
    assert reader.anchors["reference-f0"] == reader.anchors["reference-f1"] == 6


def test_markup_is_rendered_and_highlights_hold_what_the_reader_sees():
    ref = '1. <span class="header_3">Fees.</span> Customer &amp; its Affiliates pay **within thirty days**.\n'
    inp = '1. <span class="header_3">Fees.</span> Customer &amp; its Affiliates pay **within sixty days**.\n'
    report = make_report(ref, inp, [("deviation", ref.strip(), inp.strip(), [])])
    page = render_html(report, ref, inp)
    reader = read(page)
    assert "<span class" not in reader.text["input"] and "&amp;" not in page.split('id="doc-input"')[1].replace("&amp; its", "")
    assert reader.marked[("input", "0")].split() == "1. Fees. Customer & its Affiliates pay within sixty days.".split()[1:]
    assert reader.changed[("input", "ins")] == ["sixty"]
    assert "<strong>" in page


def test_findings_list_has_kind_probability_reasons_and_redline(small_report):
    report, ref, inp = small_report
    page = render_html(report, ref, inp)
    items = re.findall(r'<li class="finding k-(\w+)"[^>]*data-p="([0-9.]+)" data-fid="(\w+)"[^>]*data-pos="(\d+)"', page)
    # A report without severities (made before them) is listed by id, which is its document order.
    assert [(k, float(p), fid) for k, p, fid, _ in items] == [(f["kind"], f["p_conflict"], f["id"]) for f in report["findings"]]
    assert [int(pos) for *_, pos in items] == [0, 1, 2, 3]
    assert "thirty (30) days</q> → <q class=\"i\">sixty (60) days" in page
    # The dropped "not" is a deletion marked as meaning-reversing; the number change too.
    assert re.search(r'<del class="rev" title="[^"]*negator[^"]*">not</del>', page)
    assert re.search(r'within <del class="rev"[^>]*>thirty</del> <ins class="rev"[^>]*>sixty</ins> '
                     r'\(<del class="rev"[^>]*>30</del><ins class="rev"[^>]*>60</ins>\) days of receipt', page)
    # A missing clause's redline is the whole clause deleted; an added one, inserted.
    assert "<del>Customer may audit Provider once per year on prior written notice.</del>" in page
    assert "<ins>Provider may name Customer in its marketing.</ins>" in page


def test_document_text_and_report_fields_are_escaped(xss_report):
    report, ref, inp = xss_report
    page = render_html(report, ref, inp)
    reader = read(page)
    # A document's tags are markup: never an element, never shown (their text is)
    assert "window.__xss = 1; alert(1) Notices" in reader.text["reference"] and "<script" not in reader.text["reference"]
    assert "onerror" not in reader.text["reference"] and "Fees are payable" in " ".join(reader.text["reference"].split())
    assert "payable yearly" in reader.text["input"] and "onmouseover" not in reader.text["input"]
    assert set(reader.tags_in_docs) <= {"mark", "span", "p", "ol", "li"}  # no element came from the documents
    assert all(id.startswith(("reference-f", "input-f")) for id in reader.anchors)
    body = page.split("<body", 1)[1]
    scripts = re.findall(r"<script\b", body)
    assert len(scripts) == 1  # ours only
    assert "<img" not in page and "<b id=" not in page and "<b onmouseover" not in page
    assert "&lt;script&gt;window.__xss=5" in page  # a reason's own text is shown as written, escaped
    # A document containing a placeholder does not get the script spliced into it.
    assert page.count("window.conflictkitSelect = select") == 1
    assert reader.text["reference"].count("{{ js }}") == 1


def test_page_loads_nothing_and_pins_its_own_style_and_script(small_report):
    report, ref, inp = small_report
    page = render_html(report, ref, inp)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "@import" not in page and "url(" not in page.replace("data:,", "")
    csp = html.unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1))
    assert "default-src 'none'" in csp
    for tag in ("style", "script"):
        source = re.search(rf"<{tag}>(.*?)</{tag}>", page, re.S).group(1)
        digest = base64.b64encode(hashlib.sha256(source.encode()).digest()).decode()
        assert f"{tag}-src 'sha256-{digest}'" in csp


def test_decisions_are_shown_with_their_notes(small_report):
    report, ref, inp = small_report
    decisions = {"F0002": {"status": "dismissed", "note": "accepted risk <ok>"}, "F0001": {"status": "accepted", "note": ""}}
    page = render_html(report, ref, inp, decisions)
    assert re.search(r'data-fid="F0002" data-status="dismissed"[^>]*>.*?<span class="status">dismissed</span>', page)
    assert 'placeholder="Note (n): saved as you type" aria-label="Note">accepted risk &lt;ok&gt;</textarea>' in page
    assert "Review: 2 of 4 findings decided." in page
    read_only = render_view(report, ref, inp, decisions)
    assert '<p class="note">accepted risk &lt;ok&gt;</p>' in read_only and "<textarea" not in read_only


def test_review_controls_kept_by_the_browser_in_report_html_by_the_server_in_the_app(small_report):
    report, ref, inp = small_report
    static = render_html(report, ref, inp)
    assert static.count('data-action="dismissed"') == len(report["findings"])
    assert 'data-review="local"' in static and 'id="ck-export"' in static
    assert f'data-review-key="{review_key(report)}"' in static and f'data-input-sha256="{report["input"]["sha256"]}"' in static
    app = render_view(report, ref, inp, review="server")
    assert app.count('data-action="dismissed"') == len(report["findings"]) and 'data-review="server"' in app
    assert 'id="ck-export"' not in app
    assert "data-action" not in render_view(report, ref, inp) and "data-review" not in render_view(report, ref, inp)
    with pytest.raises(ValueError):
        render_view(report, ref, inp, review="cloud")
    other = json.loads(json.dumps(report))
    other["findings"][0]["input"]["start"] += 1
    assert review_key(other) != review_key(report)  # a review is never applied to another report


def test_a_report_rendered_against_other_text_is_refused(small_report):
    report, ref, inp = small_report
    with pytest.raises(GroundingError, match="does not match the input text"):
        render_html(report, ref, inp.replace("sixty", "fifty"))


def test_no_findings_page_says_so():
    report = make_report("a", "b", [])
    assert "No findings" in render_html(report, "a", "b")


def test_stored_redlines_render_the_same_as_computed_ones(small_report):
    """The engine stores each deviation's redline in the report; rendering it equals computing it."""
    from conflictkit.grounding import redline

    report, ref, inp = small_report
    stored = {**report, "findings": [
        {**f, "redline": redline(f["reference"]["text"], f["input"]["text"]).to_dict()} if f.get("reference") and f.get("input") else f
        for f in report["findings"]
    ]}
    assert [f.get("redline") is not None for f in stored["findings"]] == [True, True, False, False]
    assert "redline" not in report["findings"][0]  # the original is left alone
    assert render_html(stored, ref, inp) == render_html(report, ref, inp)


def test_rendered_documents_are_reused_only_for_the_same_report_and_texts(small_report):
    from conflictkit.report.html import render_panes

    report, ref, inp = small_report
    texts = {"reference": ref, "input": inp}
    first = render_panes(report, texts)
    assert render_panes(report, texts) is first  # kept: the documents do not depend on decisions
    fewer = {**report, "findings": report["findings"][:1]}
    assert render_panes(fewer, texts).count('class="hl ') < first.count('class="hl ')
    renamed = {**report, "reference": {**report["reference"], "path": "other.md"}}
    assert "other.md" in render_panes(renamed, texts)
