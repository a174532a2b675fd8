"""The html loader: block structure as paragraphs, scripts and styles dropped, labels kept, and the
samples as HTML giving the Markdown originals' findings."""

from __future__ import annotations

import pytest

from conflictkit.engine import Engine
from conflictkit.errors import InputError
from conflictkit.formats.html import HtmlLoader, html_text, list_label
from conflictkit.loaders import document_from_bytes, loader_for, read_document
from conflictkit.registry import get_registry
from conflictkit.testing.formats import finding_signature, markdown_to_html
from tests.conftest import INPUT, REFERENCE, SAMPLES


def test_blocks_become_paragraphs_and_headings():
    text, blocks, dropped = html_text(
        "<html><head><style>p{}</style><script>var s = '<p>x</p>';</script></head><body>"
        "<h2>5. Fees</h2><p>The  Customer\nshall pay &amp; comply.<br>Next line</p>"
        "<table><tr><th>Term</th><td>Meaning</td></tr></table><div hidden>secret</div></body></html>"
    )
    assert text == "## 5. Fees\n\nThe Customer shall pay & comply.\nNext line\n\n| Term | Meaning |\n|---|---|"
    assert dropped == 2
    assert [text[b.start:b.end] for b in blocks] == ["## 5. Fees", "The Customer shall pay & comply.\nNext line", "| Term | Meaning |\n|---|---|"]
    assert blocks[1].location["line"] == 1 and blocks[1].location["offset"] > 0


def test_tables_are_markdown_rows_one_block_per_row_cells_flattened():
    text, blocks, _ = html_text("<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td><p>one</p><p>two</p>"
                                "</td><td>3</td></tr><tr><td>4<td>5</table><table><tr><td>next</td></tr></table><p>after</p>")
    assert text == "| A | B |\n|---|---|\n| one two | 3 |\n| 4 | 5 |\n\n| next |\n|---|\n\nafter"
    assert len(blocks) == 5


def test_ordered_lists_keep_the_numbers_a_browser_shows():
    text, _, _ = html_text('<ol type="a"><li>first<li value="4">fourth</ol><ol start="3"><li>three</li></ol>'
                           '<ol type="i"><li>one</li><li>two</li></ol><ul><li>bullet</li></ul>')
    assert text.split("\n\n") == ["(a) first", "(d) fourth", "3. three", "(i) one", "(ii) two", "bullet"]
    assert list_label(28, "a") == "(ab)" and list_label(9, "I") == "(IX)"
    nested, _, _ = html_text("<ol><li><p>Fees.</p><ol type='a'><li><p>monthly;</p></li><li>yearly.</li></ol></li></ol>")
    assert nested.split("\n\n") == ["1. Fees.", "(a) monthly;", "(b) yearly."]
    assert html_text("<h2></h2><p>Plain text.</p>")[0] == "Plain text."


def test_a_page_of_scripts_is_refused():
    data = b"<!doctype html><html><head><script>alert(1)</script><style>b{}</style></head><body></body></html>"
    with pytest.raises(InputError, match="HTML page with no text outside its 2 script and style elements"):
        HtmlLoader().load(data, "page.html")


def test_html_is_picked_by_extension_or_by_content_but_markdown_stays_markdown():
    page = b"<!DOCTYPE html><html><body><p>The Customer shall pay.</p></body></html>"
    loaders = get_registry().loaders()
    assert loader_for("a.html", page, loaders).name == "html"
    assert loader_for("download", page, loaders).name == "html"
    assert loader_for("a.md", b"<span class='x'>1.</span> The Customer shall pay.", loaders).name == "markdown"
    assert document_from_bytes(page, "download").original == "The Customer shall pay."


def test_declared_charset_is_honoured():
    data = '<html><head><meta charset="windows-1252"></head><body><p>Caf\u00e9 terms</p></body></html>'.encode("cp1252")
    assert HtmlLoader().load(data, "a.html").text == "Caf\u00e9 terms"


@pytest.mark.parametrize("pair", [(REFERENCE, INPUT), (SAMPLES / "nda-reference.txt", SAMPLES / "nda-input.txt")],
                         ids=["saas-markdown", "nda-text"])
def test_samples_as_html_give_the_markdown_findings(tmp_path, fast_config, pair):
    paths = []
    for source in pair:
        path = tmp_path / (source.stem + ".html")
        path.write_text(markdown_to_html(source.read_text(encoding="utf-8")), encoding="utf-8")
        paths.append(path)
    engine = Engine(fast_config)
    markdown = engine.compare(*map(str, pair))
    as_html = engine.compare(*map(str, paths))
    assert as_html.report["summary"]["deviation"] == markdown.report["summary"]["deviation"] > 0
    assert finding_signature(as_html.report) == finding_signature(markdown.report)
    assert as_html.report["input"]["source"]["format"] == "html"
    document = read_document(paths[1])
    for clause in as_html.input.clauses:
        assert "<" not in clause.text and "twice" not in clause.text
    for finding in as_html.report["findings"]:
        quote = finding["input"] or finding["reference"]
        side = as_html.input if finding["input"] else as_html.reference
        assert side.document.original[quote["start"]:quote["end"]] == quote["text"]
        assert quote["location"]["paragraph"] >= 0
    assert document.source.format == "html"
