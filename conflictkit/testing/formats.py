"""Documents in other formats built from Markdown, and what "the same findings" means across them.

A test converts ``samples/*.md`` to HTML (here), DOCX (``conflictkit_docx.testing``) or PDF
(``conflictkit_pdf.testing``), compares the converted pair, and checks :func:`finding_signature`
against the Markdown pair's: the same kinds on the same clauses with the same reasons.
"""

from __future__ import annotations

import html
import re


def markdown_to_html(markdown: str) -> str:
    """An HTML page of a Markdown contract: headings as h1-h6, paragraphs as p, tables as tables,
    ``**bold**`` as b, plus a style sheet and a script that must never reach the text."""
    out = ["<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>Agreement</title>",
           "<style>p { margin: 0 } .x::before { content: '<p>not text</p>' }</style>",
           "<script>document.write('<p>Customer shall pay twice.</p>')</script></head><body>"]
    for block in re.split(r"\n\s*\n", markdown.strip()):
        lines = [line.strip() for line in block.strip().splitlines()]
        if all(line.startswith("|") for line in lines):
            rows = [line for line in lines if not re.fullmatch(r"[|\s:-]+", line)]
            out.append("<table>" + "".join(
                "<tr>" + "".join(f"<td>{html.escape(c.strip())}</td>" for c in row.strip("|").split("|")) + "</tr>"
                for row in rows) + "</table>")
            continue
        text = " ".join(lines)
        heading = re.fullmatch(r"(#{1,6}) +(.*)", text)
        if heading:
            level = len(heading.group(1))
            out.append(f"<h{level}>{html.escape(heading.group(2))}</h{level}>")
        else:
            out.append("<p>" + re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(text)) + "</p>")
    return "\n".join(out) + "\n</body></html>\n"


def _words(text: str | None) -> str:
    return " ".join(re.sub(r"[*_#|]", " ", text or "").split())


def finding_signature(report: dict) -> list[tuple]:
    """Each finding as (kind, reference section, input section, reason types, first words of each
    side), markup and line wrapping ignored: what must not change when only the file format does."""
    rows = []
    for f in report["findings"]:
        ref, inp = f.get("reference") or {}, f.get("input") or {}
        rows.append((f["kind"], ref.get("section"), inp.get("section"),
                     tuple(sorted(r["type"] for r in f["reasons"])),
                     _words(ref.get("text"))[:60], _words(inp.get("text"))[:60]))
    return sorted(rows, key=repr)
