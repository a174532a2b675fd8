"""Real clauses for grounding tests: sentences of Common Paper and Bonterms agreements read from
../shared/corpus (never copied here), or of the project's samples when the corpus is absent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conflictkit.grounding import Verifier

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"
# A sentence: starts a word with a capital, has no line break, ends with a full stop.
SENTENCE = re.compile(r"(?<!\w)[A-Z][^.\r\n]{30,300}\.")


def _sources() -> list[Path]:
    found = sorted((CORPUS / "commonpaper").glob("*/*.md")) + sorted((CORPUS / "bonterms").glob("*_v*.md"))
    if found:
        return found
    return sorted((ROOT / "samples").glob("*.md")) + sorted((ROOT / "samples").glob("*.txt"))


class Source:
    """A document, its sentences (original spans) and a verifier built once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.text = path.read_bytes().decode("utf-8")
        self.spans = [m.span() for m in SENTENCE.finditer(self.text)]
        self.verifier = Verifier(self.text)


@pytest.fixture(scope="session")
def sources() -> list[Source]:
    """Every source with at least one sentence; skips when neither corpus nor samples exist."""
    loaded = [s for s in (Source(p) for p in _sources()) if s.spans]
    if not loaded:
        pytest.skip("no ../shared/corpus and no samples/: nothing to take clauses from")
    return loaded
