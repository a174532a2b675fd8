"""The files of a review, written as one set (like a comparison's report set).

``review.json`` (the verdicts), ``params.json`` (the resolved config and backends), ``playbook.md``
(the playbook rendered as Markdown: the document the review's playbook quotes index) and
``review.md`` always; ``review.html`` with ``--format html``; ``review.docx`` with ``--format docx`` (the
conforming redline, :mod:`conflictkit.playbook.conform`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from conflictkit.playbook.review import ReviewResult
from conflictkit.report.writer import to_json, write_set

REVIEW_FILES = frozenset({"review.json", "params.json", "playbook.md", "review.md", "review.html", "review.docx"})


def render_review_files(result: ReviewResult, formats: Iterable[str]) -> dict[str, str | bytes]:
    """File name -> content for a review."""
    from conflictkit.playbook.render import render_review_markdown

    texts = {"reference": result.rendered.text, "input": result.input.document.original}
    files: dict[str, str | bytes] = {
        "review.json": to_json(result.review),
        "params.json": to_json(result.params),
        "playbook.md": result.rendered.text,
        "review.md": render_review_markdown(result.review, texts),
    }
    formats = set(formats)
    if "html" in formats:
        from conflictkit.playbook.html import render_review_html

        files["review.html"] = render_review_html(result.review, result.rendered.text, result.input.document.original)
    if "docx" in formats:
        from conflictkit.playbook.conform import conforming_docx

        files["review.docx"] = conforming_docx(result)
    return files


def write_review(result: ReviewResult, out_dir: str | os.PathLike[str], formats: Iterable[str] = ()) -> list[Path]:
    """Render everything, then write it as the whole content of ``out_dir`` (a folder holding other files is refused)."""
    return write_set(out_dir, render_review_files(result, formats), lambda name: name in REVIEW_FILES)
