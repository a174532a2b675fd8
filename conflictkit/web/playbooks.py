"""Playbook reviews in the review app: an uploaded .yaml reference is a playbook, and its job a review.

An uploaded playbook names no file on the server, so it must hold its texts itself (a playbook
that cites its template is refused on the upload page, saying how to write it out), and its review
has no template to match the rest of the draft with. The stored "reference text" is the playbook
rendered as Markdown, which the review's playbook quotes index.
"""

from __future__ import annotations

from conflictkit.model import Document
from conflictkit.report.schemas import PLAYBOOK_REVIEW_SCHEMA

PLAYBOOK_EXTENSIONS = (".yaml", ".yml")


def is_playbook(name: str) -> bool:
    """Whether an uploaded reference is a playbook (by its extension)."""
    return name.lower().endswith(PLAYBOOK_EXTENSIONS)


def is_review(report: dict) -> bool:
    """Whether a stored result is a playbook review (else a comparison's report)."""
    return report.get("schema") == PLAYBOOK_REVIEW_SCHEMA


def entry_ids(report: dict) -> set[str]:
    """The ids a reviewer can decide on: a comparison's findings, or a review's positions and uncovered clauses."""
    if is_review(report):
        return {e["id"] for key in ("positions", "uncovered") for e in report.get(key) or []}
    return {f.get("id") for f in report.get("findings", [])}


def check_playbook(document: Document) -> None:
    """Refuse an uploaded playbook that cannot be reviewed with, before any job starts (PlaybookError, one line)."""
    from conflictkit.playbook.load import playbook_from_bytes

    playbook_from_bytes(document.original.encode("utf-8"), document.path, None, None)


def review_job(engine, reference: Document, input: Document) -> tuple[str, dict]:
    """Review ``input`` against the uploaded playbook: (the rendered playbook, the review document)."""
    from conflictkit.playbook.load import playbook_from_bytes
    from conflictkit.playbook.review import review

    playbook = playbook_from_bytes(reference.original.encode("utf-8"), reference.path, None, engine.clauses)
    result = review(engine, playbook, input)
    return result.rendered.text, result.review
