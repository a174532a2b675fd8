"""Tracked changes and comments written into a Word document, at offsets of its text.

A :class:`TrackedDocument` holds a Word package (:class:`~conflictkit_docx.wordfile.WordFile`) and its runs, each with the range of text
it holds (``(start, end, w:r)``: offsets into the document text a loader read, or into a rendered
text). It marks a range of existing text as inserted, deleted or moved (``w:ins``, ``w:del``,
``w:moveTo``, ``w:moveFrom``, runs split where a range starts or ends inside them), adds new text at
a point as inserted or deleted, marks whole paragraphs and table rows (their paragraph marks and
row properties too, so accepting or rejecting them leaves no empty paragraph behind), and anchors
comments on ranges. Every revision carries ``author`` and ``date``.

:func:`tracked_changes_docx` is the public entry point for other features (a conforming redline
from a playbook): the document with a list of :class:`Replacement` applied as tracked changes.
"""

from __future__ import annotations

import copy
import datetime as dt
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from conflictkit_docx.package import w
from conflictkit_docx.typeset import el, make_run

AUTHOR, INITIALS = "conflictkit", "CK"
_CHAR_CHILDREN = frozenset(w(t) for t in ("t", "delText", "tab", "br", "cr", "noBreakHyphen"))
_REVISIONS = frozenset(w(t) for t in ("ins", "del", "moveTo", "moveFrom"))
_RANGE_MARKS = frozenset(w(t) for t in ("moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd"))
_PROPERTY_CHANGES = frozenset(w(t) for t in ("rPrChange", "pPrChange", "tblPrChange", "trPrChange", "tcPrChange",
                                             "sectPrChange", "tblGridChange", "numberingChange"))


def timestamp(when: dt.datetime | None = None) -> str:
    """A revision date as Word writes it (UTC, to the second)."""
    when = when or dt.datetime.now(dt.timezone.utc)
    return when.astimezone(dt.timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Replacement:
    """Replace ``[start, end)`` of a document's text by ``text`` as a tracked change (``start == end``
    inserts, an empty ``text`` deletes), with an optional comment on it."""

    start: int
    end: int
    text: str
    comment: str | None = None


class TrackedDocument:
    """A Word document whose runs are known by text offsets, and the revisions written into it."""

    def __init__(self, document, runs: list[tuple[int, int, object]], author: str = AUTHOR, date: str | None = None) -> None:
        self.document = document  # a WordFile
        self.author, self.date = author, date or timestamp()
        self.runs: list[list] = [[s, e, r] for s, e, r in sorted(runs, key=lambda x: (x[0], x[1])) if e > s]
        self._starts = [r[0] for r in self.runs]
        self._ids = _largest_id(document.document) + 1
        self.moves = 0

    # -- revision elements ------------------------------------------------------------------------

    def next_id(self) -> str:
        self._ids += 1
        return str(self._ids)

    def revision(self, kind: str):
        """A ``w:ins``/``w:del``/``w:moveTo``/``w:moveFrom`` element with an id, the author and the date."""
        return el(kind, id=self.next_id(), author=self.author, date=self.date)

    def mark_paragraph(self, p, kind: str) -> None:
        """Mark a paragraph's mark as inserted, deleted or moved, so accepting or rejecting removes it with its text."""
        ppr = p.find(w("pPr"))
        if ppr is None:
            ppr = el("pPr")
            p.insert(0, ppr)
        rpr = ppr.find(w("rPr"))
        if rpr is None:
            rpr = el("rPr")
            ppr.append(rpr)
        rpr.append(self.revision(kind))

    def mark_row(self, tr, kind: str) -> None:
        """Mark a table row as inserted or deleted (Word moves no rows: a move is both)."""
        trpr = tr.find(w("trPr"))
        if trpr is None:
            trpr = el("trPr")
            tr.insert(0 if tr.find(w("tblPrEx")) is None else 1, trpr)
        trpr.append(self.revision(kind))

    # -- runs by offset -------------------------------------------------------------------------------

    def _split_at(self, position: int) -> None:
        """Make ``position`` a run boundary (split the run holding it in two)."""
        k = bisect_right(self._starts, position) - 1
        if k < 0:
            return
        start, end, run = self.runs[k]
        if not start < position < end:
            return
        second = _split_run(run, position - start)
        self.runs[k][1] = position
        self.runs.insert(k + 1, [position, end, second])
        self._starts.insert(k + 1, position)

    def runs_in(self, start: int, end: int) -> list:
        """The run elements holding ``[start, end)``, split at both ends."""
        if end <= start:
            return []
        self._split_at(start)
        self._split_at(end)
        found = []
        for k in range(bisect_left(self._starts, start), len(self.runs)):
            s, e, run = self.runs[k]
            if s >= end:
                break
            if e > start:
                found.append(run)
        return found

    def mark(self, start: int, end: int, kind: str) -> list:
        """Mark the existing text ``[start, end)`` as ``kind`` (ins, del, moveTo, moveFrom); return the wrappers."""
        wrappers = []
        for run in self.runs_in(start, end):
            if run.getparent() is not None and run.getparent().tag in _REVISIONS:
                continue  # already marked
            wrapper = self.revision(kind)
            run.addprevious(wrapper)
            wrapper.append(run)
            if kind in ("del", "moveFrom"):
                for t in run.iter(w("t")):
                    t.tag = w("delText")
            wrappers.append(wrapper)
        return wrappers

    def point(self, position: int, within: tuple[int, int]):
        """Where new text at ``position`` goes: ``("before", element)`` or ``("after", element)``, inside ``within``."""
        self._split_at(position)
        k = bisect_left(self._starts, position)
        if k < len(self.runs) and self.runs[k][0] == position and position < within[1]:
            return "before", _outermost(self.runs[k][2])
        if k > 0 and self.runs[k - 1][1] > within[0]:
            return "after", _outermost(self.runs[k - 1][2])
        if k < len(self.runs) and self.runs[k][0] < within[1]:
            return "before", _outermost(self.runs[k][2])
        return None

    def add(self, position: int, within: tuple[int, int], runs: list, kind: str, paragraph=None):
        """Add new ``runs`` at ``position`` (inside the unit ``within``) wrapped in one ``kind`` revision; return it.

        ``paragraph`` receives them at its end when the unit has no run to stand beside.
        """
        wrapper = self.revision(kind)
        for run in runs:
            wrapper.append(run)
        where = self.point(position, within)
        if where is None:
            if paragraph is None:
                return None
            paragraph.append(wrapper)
        elif where[0] == "before":
            where[1].addprevious(wrapper)
        else:
            where[1].addnext(wrapper)
        return wrapper

    def props_at(self, position: int):
        """The run properties of the text at (or just before) ``position``, revision marks left out."""
        k = max(0, bisect_right(self._starts, position) - 1)
        if not self.runs:
            return None
        props = self.runs[min(k, len(self.runs) - 1)][2].find(w("rPr"))
        if props is None:
            return None
        props = copy.deepcopy(props)
        for child in list(props):
            if child.tag in _REVISIONS or child.tag in _PROPERTY_CHANGES:
                props.remove(child)
        return props

    # -- comments -------------------------------------------------------------------------------------

    def comment(self, first, last, lines: list[str]) -> None:
        """A comment from ``first`` to ``last`` (elements in the body: runs or revision wrappers)."""
        cid = self.document.add_comment(lines, self.author, INITIALS, self.date)
        start, end = _outermost(first), _outermost(last)
        start.addprevious(el("commentRangeStart", id=cid))
        marker = el("commentRangeEnd", id=cid)
        end.addnext(marker)
        reference = el("r")
        reference.append(el("commentReference", id=cid))
        marker.addnext(reference)

    def save(self) -> bytes:
        return self.document.save()


def _outermost(element):
    """The element as it stands in its paragraph: a run, or the revision wrapper around it."""
    while element.getparent() is not None and element.getparent().tag in _REVISIONS:
        element = element.getparent()
    return element


def _largest_id(root) -> int:
    """The largest ``w:id`` in a part (revisions, comments and bookmarks share Word's id space here)."""
    values = root.xpath("//@w:id", namespaces={"w": w("")[1:-1]})
    return max((int(v) for v in values if v.lstrip("-").isdigit()), default=0)


def _chars(child) -> int:
    if child.tag in (w("t"), w("delText")):
        return len(child.text or "")
    return 1 if child.tag in _CHAR_CHILDREN else 0


def _split_run(run, at: int):
    """Split ``run`` after ``at`` characters of its text; returns the new second run (placed after it)."""
    second = el("r")
    for key, value in run.attrib.items():
        second.set(key, value)
    props = run.find(w("rPr"))
    if props is not None:
        second.append(copy.deepcopy(props))
    count = 0
    moving = False
    for child in list(run):
        if child.tag == w("rPr"):
            continue
        if moving:
            second.append(child)
            continue
        size = _chars(child)
        if count + size <= at:
            count += size
            if count == at and size:
                moving = True
            continue
        # a w:t that holds the split point: cut its text in two
        cut = at - count
        tail = copy.deepcopy(child)
        child.text, tail.text = (child.text or "")[:cut], (child.text or "")[cut:]
        for t in (child, tail):
            t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        second.append(tail)
        moving = True
        count = at
    run.addnext(second)
    return second


def accept_revisions(body) -> int:
    """Accept every tracked change already in ``body`` (a document's own revisions), as Word's Accept All does.

    A redline's tracked changes are then all conflictkit's: rejecting them gives the reference,
    accepting them the input as it was read (with its own changes accepted). Returns how many there were.
    """
    count = 0
    for element in list(body.iter(w("del"), w("moveFrom"))):
        parent = element.getparent()
        if parent is None:
            continue
        count += 1
        if parent.tag == w("rPr") and parent.getparent() is not None and parent.getparent().tag == w("pPr"):
            _join_with_next(parent.getparent().getparent())
            parent.remove(element)
        elif parent.tag == w("trPr"):
            row = parent.getparent()
            if row.getparent() is not None:
                row.getparent().remove(row)
        elif parent.tag == w("rPr"):
            parent.remove(element)
        else:
            parent.remove(element)
    for element in list(body.iter(w("ins"), w("moveTo"))):
        parent = element.getparent()
        if parent is None:
            continue
        count += 1
        if parent.tag in (w("rPr"), w("trPr")):
            parent.remove(element)
            continue
        for child in list(element):
            element.addprevious(child)
        parent.remove(element)
    for element in list(body.iter(*_RANGE_MARKS, *_PROPERTY_CHANGES)):
        element.getparent().remove(element)
    return count


def _join_with_next(p) -> None:
    """A paragraph whose mark was deleted: its content joins the next paragraph, which keeps its own mark."""
    following = p.getnext()
    while following is not None and following.tag != w("p"):
        following = following.getnext()
    content = [child for child in p if child.tag != w("pPr")]
    if following is None:
        return
    anchor = following.find(w("pPr"))
    for child in content:
        if anchor is not None:
            anchor.addnext(child)
            anchor = child
        else:
            following.insert(0, child)
            anchor = child
    p.getparent().remove(p)


def tracked_changes_docx(data: bytes | None, text: str, replacements: list[Replacement], *, runs=None,
                         author: str = AUTHOR, date: str | None = None) -> bytes:
    """A Word document with ``replacements`` of its text made as tracked changes, each with its comment.

    ``data`` is a .docx file whose text (as the ``docx`` loader reads it, its own revisions
    accepted) is ``text``; with ``data=None``, ``text`` (Markdown) is typeset as a new document.
    Accepting every change gives the replaced text, rejecting every change gives ``text``.
    ``runs`` (rendered-offset runs of a document already built) is for callers that built it.
    """
    from conflictkit_docx.redline import open_input

    tracked, units = open_input(data, text, "docx" if data is not None else "markdown", author=author, date=date)
    for replacement in sorted(replacements, key=lambda r: (r.start, r.end), reverse=True):
        a, b = units.to_rendered(replacement.start, replacement.end)
        within = units.unit_range(a)
        marked = tracked.mark(a, b, "del")
        added = None
        if replacement.text:
            added = tracked.add(b, within, [make_run(replacement.text, base_props=tracked.props_at(a))], "ins",
                                units.paragraph_at(a))
        if replacement.comment:
            anchors = marked + ([added] if added is not None else [])
            if anchors:
                tracked.comment(anchors[0], anchors[-1], replacement.comment.splitlines())
    return tracked.save()
