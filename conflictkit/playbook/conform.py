"""The conforming redline: the draft brought back within the playbook, as tracked changes in Word.

For each ``not acceptable`` position with a passage in the draft, the accepted text closest to the
draft's own wording (the preferred text or a fallback: the one whose word-level redline against the
passage changes the fewest characters, the more preferred on a tie) is proposed in its place: only
the words that differ become tracked changes, so the draft stays the other side's where it conforms.
The first change of each position carries a comment: the verdict, the text proposed, the red lines
hit and the guidance. Nothing here needs a model; the Word file is written by the ``conflictkit-docx``
plugin's tracked-changes writer (:func:`conflictkit_docx.tracked.tracked_changes_docx`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from conflictkit.errors import MissingDependencyError, plugin_install_hint
from conflictkit.grounding import redline
from conflictkit.playbook.load import PositionText
from conflictkit.playbook.review import ReviewResult
from conflictkit.playbook.verdicts import NOT_ACCEPTABLE


_ONE_LINE = re.compile(r"[ \t]*\n\s*")


@dataclass(frozen=True)
class Proposal:
    """Replace ``[start, end)`` of the draft's text by ``text`` (an insertion when empty, a deletion when ``text`` is)."""

    start: int
    end: int
    text: str
    comment: str | None = None


def proposals(result: ReviewResult) -> list[Proposal]:
    """Every change the conforming redline makes, in the draft's text offsets, in document order."""
    out: list[Proposal] = []
    for verdict in result.review["positions"]:
        passage = verdict.get("input")
        if verdict["verdict"] != NOT_ACCEPTABLE or passage is None:
            continue
        position = result.playbook.position(verdict["id"])
        text = closest_accepted(position.accepted, passage["text"])
        changes = _changes(text.text, passage["text"], passage["start"])
        if changes:
            first = changes[0]
            out.append(Proposal(first.start, first.end, first.text, _comment(verdict, text)))
            out += changes[1:]
    return sorted(out, key=lambda p: (p.start, p.end))


def conformed_text(text: str, changes: list[Proposal]) -> str:
    """``text`` (the draft's) with every change made: what accepting every tracked change of review.docx reads."""
    for change in sorted(changes, key=lambda p: (p.start, p.end), reverse=True):
        text = text[: change.start] + change.text + text[change.end:]
    return text


def closest_accepted(texts: tuple[PositionText, ...], passage: str) -> PositionText:
    """The accepted text whose redline against ``passage`` changes the fewest characters (ties: the more preferred)."""
    def changed(text: PositionText) -> int:
        return sum(len(op.text) for op in redline(text.text, passage).ops if op.op != "equal")

    return min(texts, key=lambda t: (changed(t), t.rank))


def _changes(accepted: str, passage: str, offset: int) -> list[Proposal]:
    """The passage turned into ``accepted``: each run of changed words one replacement, in draft offsets."""
    out: list[Proposal] = []
    group: list = []
    for op in [*redline(accepted, passage).ops, None]:
        if op is not None and op.op != "equal":
            group.append(op)
            continue
        if group:
            out.append(_replacement(group, accepted, passage, offset))
            group = []
    return out


def _replacement(group: list, accepted: str, passage: str, offset: int) -> Proposal:
    """One run of changed words: the passage's words (its inserted ops) replaced by the accepted text's (its deleted ops).

    A side with no words of its own is a point: where the other side's words go, a space before them
    when the accepted text has one there and the passage does not.
    """
    deleted, inserted = [o for o in group if o.op == "delete"], [o for o in group if o.op == "insert"]
    a0, a1 = ((min(o.a_start for o in deleted), max(o.a_end for o in deleted)) if deleted
              else (inserted[0].a_start, inserted[0].a_start))
    b0, b1 = ((min(o.b_start for o in inserted), max(o.b_end for o in inserted)) if inserted
              else (deleted[0].b_start, deleted[0].b_start))
    text = _ONE_LINE.sub(" ", accepted[a0:a1])  # a paragraph break of the playbook's text stays inside the draft's paragraph
    if not inserted and a0 > 0 and accepted[a0 - 1].isspace() and b0 > 0 and not passage[b0 - 1].isspace():
        text = " " + text
    return Proposal(offset + b0, offset + b1, text)


def _comment(verdict: dict, text: PositionText) -> str:
    lines = [f"Playbook: {verdict['title']} ({verdict['subject']}, severity {verdict['severity']}): not acceptable "
             f"(P {verdict['p_verdict']:.2f}). Proposed: the {text.label} text."]
    lines += [f"{hit['red_line']}: {hit['detail']}" for hit in verdict.get("red_lines") or []]
    if verdict.get("guidance"):
        lines.append(f"Guidance: {verdict['guidance']}")
    return "\n".join(lines)


def conforming_docx(result: ReviewResult) -> bytes:
    """review.docx: the draft with every proposal as a tracked change (a .docx draft keeps its own formatting)."""
    try:
        from conflictkit_docx.tracked import Replacement, tracked_changes_docx
    except ModuleNotFoundError:
        raise MissingDependencyError("--format docx writes review.docx with the conflictkit-docx plugin: "
                                     + plugin_install_hint("conflictkit-docx")) from None
    draft = result.input.document
    replacements = [Replacement(p.start, p.end, p.text, p.comment) for p in proposals(result)]
    return tracked_changes_docx(draft.data if _is_docx(draft) else None, draft.original, replacements)


def _is_docx(document) -> bool:
    return document.data is not None and document.source is not None and document.source.format == "docx"
