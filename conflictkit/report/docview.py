"""A document as formatted HTML (headings, lists, bold, tables) with findings highlighted inside it.

The document is the rendered text of :mod:`conflictkit.report.doctext` (the one every view reads):
its leaves become headings, paragraphs, list items and table cells, its marks bold and italic,
and each highlight, whose offsets index the document text, is placed at the rendered character
that text became. Highlights are opened and closed inside each run of text, so they never
straddle a tag and the HTML stays well formed; no text is added or lost, whatever the markup.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

import numpy as np

from conflictkit.report.doctext import Container, Leaf, RenderedDocument

_MARK_TAGS = {"bold": "strong", "italic": "em", "strike": "s", "code": "code"}
_LEAF_TAGS = {"paragraph": "p", "th": "th", "td": "td", "code": "pre"}


VIEW_KINDS = ("deviation", "missing", "added", "moved", "not-acceptable", "fallback", "standard", "absent", "uncovered")
"""Every kind a highlighted entry may have (a comparison's findings, a playbook review's verdicts), in the
order a highlight shared by several takes its colour from."""


@dataclass(order=True)
class Event:
    """Something to insert at ``offset`` of the document text; ``rank`` orders events at one offset.

    Kinds: ``open``/``close`` a finding's mark, ``change``/``unchange`` a run of changed words
    (``op`` is ``delete`` or ``insert``, ``verdict`` an edit's verdict or empty), ``anchor`` (a
    finding's scroll target), ``gap`` (where a clause the other document has is missing: ``label``
    says which), ``sync`` (the start of a paragraph the other document matches: ``target`` numbers
    the pair, the same in both documents, so a script can bring them level).
    """

    offset: int
    rank: int
    kind: str = field(compare=False)
    finding: int = field(compare=False)
    op: str = field(default="", compare=False)
    target: str = field(default="", compare=False)
    label: str = field(default="", compare=False)
    css_kind: str = field(default="", compare=False)
    verdict: str = field(default="", compare=False)


# At one offset: close what ends there before opening what starts there.
RANKS = {"unchange": 0, "close": 1, "gap": 2, "sync": 3, "anchor": 4, "open": 5, "change": 6}


def event(offset: int, kind: str, finding: int, **extra) -> Event:
    return Event(offset, RANKS[kind], kind, finding, **extra)


def _esc(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def render_document_html(document: RenderedDocument, events: list[Event], mark_kinds: list[str]) -> str:
    """The rendered ``document`` as HTML with ``events`` (offsets into the document text) placed in it.

    ``mark_kinds[i]`` is the CSS kind (deviation, missing, added, moved) of finding ``i``.
    """
    return _Writer(document, events, mark_kinds).write()


class _Writer:
    def __init__(self, document: RenderedDocument, events: list[Event], mark_kinds: list[str]) -> None:
        self.doc = document
        self.mark_kinds = mark_kinds
        self.out: list[str] = []
        self.stack: list[Container] = []
        self.marks: set[int] = set()
        self.changes: dict[int, tuple[str, str]] = {}
        self.events = self._placed(events)
        self.next = 0

    def _placed(self, events: list[Event]) -> list[tuple[int, Event]]:
        """Each event at a rendered position inside a leaf (one between leaves goes to the end of the leaf before)."""
        doc = self.doc
        if not doc.leaves:
            return []
        offsets = doc.offsets[:-1]
        placed = []
        for e in sorted(events):
            pos = int(np.searchsorted(offsets, e.offset, side="left")) if len(offsets) else 0
            leaf = doc.leaves[doc.leaf_at(pos)]
            pos = min(max(pos, self._text_start(leaf)), leaf.end)
            placed.append((pos, e))
        placed.sort(key=lambda item: (item[0], item[1].rank))
        return _without_empty(placed)

    def _text_start(self, leaf: Leaf) -> int:
        """Where a leaf's shown text starts: after a list item's label, which the list shows itself."""
        return leaf.label_end if self._label_hidden(leaf) else leaf.start

    @staticmethod
    def _label_hidden(leaf: Leaf) -> bool:
        return leaf.marker and len(leaf.containers) >= 2 and leaf.containers[-1].tag == "li"

    def write(self) -> str:
        for leaf in self.doc.leaves:
            self._enter(leaf.containers, leaf)
            self._leaf(leaf)
        self._apply_until(None)
        self._enter((), None)
        return "".join(self.out)

    def _enter(self, containers: tuple[Container, ...], leaf: Leaf | None) -> None:
        keep = 0
        while keep < min(len(self.stack), len(containers)) and self.stack[keep].id == containers[keep].id:
            keep += 1
        for container in reversed(self.stack[keep:]):
            self.out.append(f"</{container.tag}>")
        del self.stack[keep:]
        for k, container in enumerate(containers[keep:], keep):
            if container.tag == "li" and container.value and k and containers[k - 1].tag == "ol":
                self.out.append(f'<li value="{_esc(container.value)}">')
            elif container.tag == "ol" and container.value and container.value != "1":
                self.out.append(f'<ol start="{_esc(container.value)}">')
            else:
                self.out.append(f"<{container.tag}>")
            self.stack.append(container)

    def _leaf(self, leaf: Leaf) -> None:
        tag = f"h{leaf.level}" if leaf.kind == "heading" else _LEAF_TAGS.get(leaf.kind, "p")
        self.out.append(f"<{tag}>")
        start = self._text_start(leaf)
        self._apply_until(start)
        cuts = sorted({start, leaf.end} | {p for p, _ in self.events[self.next:] if start < p < leaf.end}
                      | {x for s, e, _ in self.doc.marks_in(start, leaf.end) for x in (s, e)})
        marks = self.doc.marks_in(start, leaf.end)
        for a, b in zip(cuts, cuts[1:], strict=False):
            self._apply_until(a)
            self._text(self.doc.text[a:b], {m for s, e, m in marks if s <= a and e >= b})
        self._apply_until(leaf.end)
        self.out.append(f"</{tag}>")

    def _apply_until(self, position: int | None) -> None:
        """Apply every event placed at or before ``position`` (all of them with None)."""
        while self.next < len(self.events):
            pos, e = self.events[self.next]
            if position is not None and pos > position:
                break
            self.out.append(self._apply(e))
            self.next += 1

    def _apply(self, e: Event) -> str:
        if e.kind == "open":
            self.marks.add(e.finding)
        elif e.kind == "close":
            self.marks.discard(e.finding)
        elif e.kind == "change":
            self.changes[e.finding] = (e.op, e.verdict)
        elif e.kind == "unchange":
            self.changes.pop(e.finding, None)
        elif e.kind == "anchor":
            return f'<span class="anchor" id="{_esc(e.target)}"></span>'
        elif e.kind == "sync":
            return f'<span class="sync" data-s="{_esc(e.target)}"></span>'
        elif e.kind == "gap":
            return (f'<span class="gap k-{_esc(e.css_kind)}" data-f="{e.finding}" id="{_esc(e.target)}"'
                    f' title="{_esc(e.label)}">{_esc(e.label)}</span>')
        return ""

    def _text(self, text: str, styles: set[str]) -> None:
        if not text:
            return
        piece = "<br>".join(_esc(line) for line in text.split("\n"))
        for mark in ("code", "strike", "italic", "bold"):
            if mark in styles:
                tag = _MARK_TAGS[mark]
                piece = f"<{tag}>{piece}</{tag}>"
        if self.marks and not text.isspace():
            piece = self._wrap(piece)
        self.out.append(piece)

    def _wrap(self, piece: str) -> str:
        active = sorted(self.marks)
        kinds = {self.mark_kinds[i] for i in active}
        kind = next((k for k in VIEW_KINDS if k in kinds), "other")
        multi = " multi" if len(active) > 1 else ""
        changed = [self.changes[i] for i in active if i in self.changes]
        if changed:
            op = "del" if any(c[0] == "delete" for c in changed) else "ins"
            editorial = all(c[1] in ("editorial", "same-effect") for c in changed)
            piece = f'<span class="w-{op}{" ed" if editorial else ""}">{piece}</span>'
        return f'<mark class="hl k-{kind}{multi}" data-f="{" ".join(map(str, active))}">{piece}</mark>'


_ENDS = {"close": "open", "unchange": "change"}


def _without_empty(placed: list[tuple[int, Event]]) -> list[tuple[int, Event]]:
    """Placed events without highlights that hold no rendered text (a span of markup only): their end
    would sort before their start."""
    began: dict[tuple[int, str], list[int]] = {}
    for k, (_, e) in enumerate(placed):
        if e.kind in _ENDS.values():
            began.setdefault((e.finding, e.kind), []).append(k)
    dropped: set[int] = set()
    ends: dict[tuple[int, str], int] = {}
    for k, (pos, e) in enumerate(placed):
        if e.kind not in _ENDS:
            continue
        key = (e.finding, _ENDS[e.kind])
        n = ends.get(key, 0)
        ends[key] = n + 1
        starts = began.get(key, [])
        if n < len(starts) and placed[starts[n]][0] >= pos:
            dropped.update((k, starts[n]))
    return [item for k, item in enumerate(placed) if k not in dropped]


_BLOCK_END = re.compile(r"<br>|</(?:p|td|th|li|h[1-6]|pre|tr|blockquote)>")


def plain_text_of(rendered: str) -> str:
    """The text a reader sees in rendered HTML, a line break after each block (for tests and search)."""
    return html.unescape(re.sub(r"<[^>]+>", "", _BLOCK_END.sub(lambda m: m.group() + "\n", rendered)))
