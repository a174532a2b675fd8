"""No markup in anything a person reads: the Common Paper version pairs and the samples in every format
show the documents' rendered text, never ``**``, ``<span``, ``&amp;`` or a backslash escape.

Markdown files are read both ways: as a viewer shows them (none of the four), and as their source
(no ``**``, tag or entity; a backslash only where a character would otherwise be syntax, such as
the first underscore of a ``______`` blank)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from conflictkit.engine import Engine
from conflictkit.registry import get_registry
from conflictkit.stages import Rendering
from tests.conftest import CORPUS, INPUT, REFERENCE, SAMPLES

MARKUP = re.compile(r"\*\*|<span|&amp;|\\[!-/:-@\[-`{-~]")
SOURCE_MARKUP = re.compile(r"\*\*|<span|&amp;|\\\*")
MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
CP = CORPUS / "commonpaper"
PAIRS = [(REFERENCE, INPUT), (SAMPLES / "nda-reference.txt", SAMPLES / "nda-input.txt")] + [
    (CP / a, CP / b) for a, b in (("csa/CSA_v1.0.md", "csa/CSA_v1.1.md"), ("csa/CSA_v1.1.md", "csa/CSA_v2.0.md"),
                                  ("csa/CSA_v2.0.md", "csa/CSA_v2.1.md"), ("dpa/DPA_v1.0.md", "dpa/DPA_v1.1.md"),
                                  ("psa/PSA_v1.0.md", "psa/PSA_v1.1.md"), ("mnda/Mutual-NDA_v0.1.md", "mnda/Mutual-NDA_v1.0.md"))]


def visible(page: str) -> str:
    """The text a browser shows of an HTML page (scripts and styles left out)."""
    body = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.DOTALL)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.mark.corpus
@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: Path(p[1]).stem)
def test_every_format_shows_rendered_text(fast_config, pair):
    if not pair[0].exists():
        pytest.skip("corpus not available")
    result = Engine(fast_config).compare(str(pair[0]), str(pair[1]))
    rendering = Rendering.of_result(result, verbosity=1)
    registry = get_registry()
    shown = {}
    for name in ("text", "md", "html", "redline"):
        content = registry.renderer(name)().render(rendering)
        shown[name] = content
        if name in ("md", "redline"):
            shown[f"{name} as rendered"] = visible(MD.render(content))
        if name == "html":
            shown[name] = visible(content)
    for name, text in shown.items():
        found = (SOURCE_MARKUP if name in ("md", "redline") else MARKUP).search(text)
        assert found is None, (name, text[max(0, found.start() - 80):found.end() + 80])
