"""A playbook as a Markdown document for lawyers, and as the reference document a review quotes.

:func:`render_playbook` writes each position under its subject: severity, whether it is required,
the preferred text, the fallbacks in order, the red lines (texts and rules) and the guidance. Every
text stands verbatim as its own block, so a review's playbook quotes are offsets into this
Markdown (``PlaybookDocument.spans``), checked like any other quote; everything else on the page
(titles, notes, guidance) is escaped, so only the texts themselves render as written.
"""

from __future__ import annotations

from dataclasses import dataclass

from conflictkit.loaders import document_from_text
from conflictkit.model import Clause, Document, IndexedDocument, Span
from conflictkit.playbook.load import Playbook, PositionText, ResolvedPosition
from conflictkit.report.escape import escape_markdown as md
from conflictkit.segmenters.kinds import is_definition
from conflictkit.segmenters.markup import clause_text


@dataclass(frozen=True)
class PlaybookDocument:
    """The rendered playbook and where each text of each position is in it (by text id)."""

    text: str
    spans: dict[str, tuple[int, int]]

    def document(self, path: str) -> Document:
        return document_from_text(self.text, path)


class _Writer:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.spans: dict[str, tuple[int, int]] = {}

    def add(self, *lines: str) -> None:
        for line in lines:
            self.parts.append(line + "\n")
            self.size += len(line) + 1

    def text(self, text: PositionText) -> None:
        self.spans[text.id] = (self.size, self.size + len(text.text))
        self.add(text.text, "")


def render_playbook(playbook: Playbook) -> PlaybookDocument:
    """The playbook as Markdown, with the span of every text."""
    out = _Writer()
    count = len(playbook.positions)
    out.add(f"# {md(playbook.title)}", "",
            f"Playbook {md(playbook.path)}: {count} position{'s' * (count != 1)} in {len(playbook.subjects)} "
            f"subject{'s' * (len(playbook.subjects) != 1)}." + (f" Template: {md(playbook.template)}." if playbook.template else ""), "")
    for subject in playbook.subjects:
        out.add(f"## {md(subject)}", "")
        if subject in playbook.subject_guidance:
            out.add(md(playbook.subject_guidance[subject]), "")
        for position in (p for p in playbook.positions if p.subject == subject):
            _position(out, position)
    return PlaybookDocument("".join(out.parts), out.spans)


def _position(out: _Writer, position: ResolvedPosition) -> None:
    needed = "required" if position.required else "optional (its absence is accepted)"
    out.add(f"### {md(position.title)}", "", f"Position {md(position.id)} · severity **{position.severity}** · {needed}", "")
    for text in position.accepted:
        out.add(_heading(text, "Preferred" if text.role == "preferred" else f"Fallback {text.rank}"), "")
        out.text(text)
    for red in sorted([*position.red_texts, *position.rules], key=lambda red: red.rank):
        rank = red.rank
        if isinstance(red, PositionText):
            out.add(_heading(red, f"Red line {rank} (never accepted)"), "")
            out.text(red)
        else:
            note = f" ({md(red.note)})" if red.note else ""
            out.add(f"**Red line {rank} (never accepted):** {md(red.rule.describe())}{note}", "")
    if position.guidance:
        out.add(f"**Guidance.** {md(position.guidance)}", "")


def _heading(text: PositionText, name: str) -> str:
    extras = [x for x in (text.note, None if text.origin == "written" else f"from {text.origin}") if x]
    return f"**{name}**" + (f" ({'; '.join(md(x) for x in extras)})" if extras else "")


CONTEXT_HEADING = "Template clauses the playbook takes no position on"


def with_context(rendered: PlaybookDocument, clauses: list[Clause]) -> PlaybookDocument:
    """The rendered playbook with the template's other clauses after it, each as its own block (id ``template:<clause id>``).

    A review matches them too, so an input clause that is one of them is never taken for a position's clause.
    """
    if not clauses:
        return rendered
    out = _Writer()
    out.parts, out.size, out.spans = [rendered.text], len(rendered.text), dict(rendered.spans)
    out.add(f"## {CONTEXT_HEADING}", "")
    for clause in clauses:
        out.add(f"**{md(clause.section or clause.id)}**", "")
        out.spans[context_id(clause)] = (out.size, out.size + len(clause.text))
        out.add(clause.text, "")
    return PlaybookDocument("".join(out.parts), out.spans)


def context_id(clause: Clause) -> str:
    return f"template:{clause.id}"


def text_clauses(playbook: Playbook, rendered: PlaybookDocument) -> list[Clause]:
    """One clause per text of every position (accepted and red-line), as a review compares them."""
    clauses = []
    for position in playbook.positions:
        for text in position.texts:
            start, end = rendered.spans[text.id]
            compared = clause_text(rendered.text[start:end])
            clauses.append(Clause(id=text.id, text=compared, span=Span(start=start, end=end), heading=position.title,
                                  kind="definition" if is_definition(compared) else "clause", order=len(clauses)))
    return clauses


def indexed_texts(playbook: Playbook, rendered: PlaybookDocument, document: Document) -> IndexedDocument:
    """The rendered playbook with one clause per text (no vectors: the engine adds what it needs)."""
    return IndexedDocument(document=document, clauses=text_clauses(playbook, rendered))
