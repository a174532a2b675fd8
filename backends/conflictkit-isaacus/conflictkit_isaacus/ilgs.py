"""From an enriched ILGS v1 document (a dict) to conflictkit clauses.

One clause per segment, holding only the segment's own text: its children's spans are cut out,
and bare labels (type name such as "Section", code, title, markdown heading lines, headings and
junk the enricher found) are not a body. A segment whose own text is only labels yields no
clause (its title becomes its descendants' heading). When children split a segment's own text in
two (a lead-in, a list, then "provided that..."), each part is a clause of its own (``seg:N``,
``seg:N#2``) so that every clause keeps one contiguous, exact span.

The enricher was sent ``document.normalized``; its spans are mapped to the original with
``document.to_original``.
"""

from __future__ import annotations

import bisect
import re

import numpy as np

from conflictkit.model import Clause, Document
from conflictkit.normalize import flat

NON_OPERATIVE_CATEGORIES = frozenset({"front_matter", "back_matter", "annotation"})
_MD_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+(.*?)[ \t#]*$", re.MULTILINE)
_OPENING = set("\"'([{\u201c\u2018*_")
_CLOSING = set("\"')]}.,;:!?\u201d\u2019*_%")


def _range(span: dict | None) -> tuple[int, int] | None:
    return None if span is None else (int(span["start"]), int(span["end"]))


def _label_mask(text: str, ilgs: dict) -> np.ndarray:
    """True for every code point that belongs to a label rather than a body."""
    mask = np.zeros(len(text) + 1, dtype=bool)
    spans = [s for seg in ilgs["segments"] for s in (seg.get("type_name"), seg.get("code"), seg.get("title"))]
    spans += list(ilgs.get("headings") or []) + list(ilgs.get("junk") or []) + [ilgs.get("title"), ilgs.get("subtitle")]
    for span in spans:
        r = _range(span)
        if r:
            mask[r[0] : r[1]] = True
    for m in _MD_HEADING.finditer(text):
        mask[m.start() : m.end()] = True
    return mask


def _own_ranges(seg: dict, by_id: dict[str, dict]) -> list[tuple[int, int]]:
    """The segment's span with its children's spans cut out."""
    start, end = _range(seg["span"])
    children = sorted(_range(by_id[c]["span"]) for c in seg.get("children", []) if c in by_id)
    ranges, pos = [], start
    for c_start, c_end in children:
        if c_start > pos:
            ranges.append((pos, c_start))
        pos = max(pos, c_end)
    if pos < end:
        ranges.append((pos, end))
    return ranges


def _body(text: str, mask: np.ndarray, start: int, end: int) -> tuple[int, int] | None:
    """The body inside ``[start, end)``: first to last non-label alphanumeric, with adjoining quotes and stops."""
    body = [i for i in range(start, end) if not mask[i] and text[i].isalnum()]
    if not body:
        return None
    s, e = body[0], body[-1] + 1
    while s > start and not mask[s - 1] and text[s - 1] in _OPENING:
        s -= 1
    while e < end and not mask[e] and text[e] in _CLOSING:
        e += 1
    return s, e


class _Context:
    """Lookups shared by every segment of one document."""

    def __init__(self, ilgs: dict, text: str) -> None:
        self.text = text
        self.by_id = {seg["id"]: seg for seg in ilgs["segments"]}
        self.mask = _label_mask(text, ilgs)
        self.term_starts = sorted(int(t["name"]["start"]) for t in ilgs.get("terms") or [])
        self.md_headings = [(m.start(), flat(m.group(1))) for m in _MD_HEADING.finditer(text) if m.group(1).strip()]
        self.md_starts = [p for p, _ in self.md_headings]

    def decode(self, span: dict | None) -> str | None:
        r = _range(span)
        value = flat(self.text[r[0] : r[1]]).strip(" .:*_") if r else ""
        return value or None

    def heading(self, seg: dict, at: int) -> str | None:
        """Nearest titled ancestor's title, else the segment's own title, else the markdown heading above."""
        parent = self.by_id.get(seg.get("parent") or "")
        while parent is not None:
            title = self.decode(parent.get("title"))
            if title:
                return title
            parent = self.by_id.get(parent.get("parent") or "")
        own = self.decode(seg.get("title"))
        if own:
            return own
        k = bisect.bisect_right(self.md_starts, at) - 1
        return self.md_headings[k][1] if k >= 0 else None

    def opens_with_term(self, start: int, end: int) -> bool:
        """A term the enricher found is named at the very start of the body (after quotes)."""
        k = bisect.bisect_left(self.term_starts, start)
        if k == len(self.term_starts) or self.term_starts[k] >= end:
            return False
        lead = self.text[start : self.term_starts[k]]
        return all(ch in _OPENING or ch.isspace() for ch in lead)


def _kind(seg: dict, ctx: _Context, start: int, end: int) -> str:
    if ctx.opens_with_term(start, end):
        return "definition"
    if seg.get("type") == "signature":
        return "signature"
    return "clause"


def clauses_from_ilgs(ilgs: dict, document: Document) -> list[Clause]:
    """The clauses of ``document`` given the enrichment of ``document.normalized``."""
    text = document.normalized
    if ilgs.get("text", text) != text:
        raise ValueError("the enrichment is of another text than the document's normalized text")
    ctx = _Context(ilgs, text)
    clause_of: dict[str, str] = {}
    placed: list[tuple[int, Clause]] = []
    for seg in sorted(ilgs["segments"], key=lambda s: (s["span"]["start"], -s["span"]["end"])):
        bodies = [b for r in _own_ranges(seg, ctx.by_id) if (b := _body(text, ctx.mask, *r))]
        for n, (start, end) in enumerate(bodies):
            clause = _clause(seg, ctx, document, start, end, n, clause_of)
            clause_of.setdefault(seg["id"], clause.id)
            placed.append((start, clause))
    clauses = [clause for _, clause in sorted(placed, key=lambda item: item[0])]  # reading order
    for order, clause in enumerate(clauses):
        clause.order = order
    return clauses


def _clause(seg: dict, ctx: _Context, document: Document, start: int, end: int, n: int, clause_of: dict[str, str]) -> Clause:
    kind = _kind(seg, ctx, start, end)
    category = seg.get("category")
    filtered = f"enricher: {category}" if category in NON_OPERATIVE_CATEGORIES and kind != "definition" else None
    return Clause(
        id=seg["id"] if n == 0 else f"{seg['id']}#{n + 1}",
        text=flat(ctx.text[start:end]),
        span=document.to_original(start, end),
        kind=kind,
        heading=ctx.heading(seg, start),
        section=ctx.decode(seg.get("code")),
        parent=_parent_clause(seg, ctx, clause_of),
        filtered=filtered,
    )


def _parent_clause(seg: dict, ctx: _Context, clause_of: dict[str, str]) -> str | None:
    parent = ctx.by_id.get(seg.get("parent") or "")
    while parent is not None:
        if parent["id"] in clause_of:
            return clause_of[parent["id"]]
        parent = ctx.by_id.get(parent.get("parent") or "")
    return None
