"""Places as a reader finds them, in every view: the page of a PDF, the numbered clause or paragraph of
a Word file, the line of a text file."""

from __future__ import annotations

import re

import pytest

from conflictkit.engine import Engine
from conflictkit.stages import Rendering
from tests.conftest import INPUT, REFERENCE


def views(result) -> dict[str, str]:
    from conflictkit.registry import get_registry

    rendering = Rendering.of_result(result)
    out = {}
    for name in ("text", "md", "html", "redline"):
        out[name] = get_registry().renderer(name)().render(rendering)
    return out


def test_a_pdf_input_is_found_by_page_in_every_view(tmp_path, fast_config):
    pdf = pytest.importorskip("conflictkit_pdf.testing")
    pytest.importorskip("reportlab")
    path = tmp_path / "draft.pdf"
    path.write_bytes(pdf.markdown_to_pdf(INPUT.read_text(encoding="utf-8")))
    result = Engine(fast_config).compare(str(REFERENCE), str(path))
    shown = views(result)
    assert "input 5.3, page 2" in shown["text"]
    assert "Input (5.3 Termination for cause, page 2)" in shown["md"]
    assert re.search(r'<span class="side">in</span> 5\.3 Termination for cause, page 2', shown["html"])
    assert re.search(r"input 5\.3, page 2", shown["redline"])
    for name, text in shown.items():
        assert not re.search(r"input (\S+, )?lines? \d", text), name  # never a line of the extracted text


def test_a_word_input_is_found_by_clause_or_paragraph(tmp_path, fast_config):
    testing = pytest.importorskip("conflictkit_docx.testing")
    path = tmp_path / "draft.docx"
    path.write_bytes(testing.rendered_to_docx(INPUT.read_text(encoding="utf-8")))
    result = Engine(fast_config).compare(str(REFERENCE), str(path))
    shown = views(result)
    assert "input 5.3 ·" in shown["text"] or "input 5.3\n" in shown["text"]
    assert not re.search(r"input (\S+, )?lines? \d", shown["text"] + shown["redline"] + shown["md"])
    untitled = [f for f in result.report["findings"] if f.get("input") and not f["input"].get("section")]
    for finding in untitled:  # no clause number: its paragraph in the file
        assert f"input paragraph {finding['input']['location']['paragraph'] + 1}" in shown["text"]
