"""The difference between two documents as a reader sees it: what Word's Compare shows, block by block.

Both documents are compared in their rendered text (:mod:`conflictkit.report.doctext`), after the
engine's typographic normalization: typography is never a change, while every word, number,
punctuation mark and list label is. Paragraphs, headings and table rows (*units*) are matched
first, by their text without its label (a sequence match over all units, so the cost grows with
the number of paragraphs, not with the square of the words); units left over between two matches
are paired by the words they share; each pair is then compared word by word. A unit deleted in one
place and inserted unchanged in another is a move. Text outside the documents' body (running
headers, footnotes) is left out.

Each change is classified by the findings it falls in: a change inside a deviation takes the
verdict of the judge's edit it overlaps (``substantive``, ``same-effect``, ``editorial``), or is
``substantive`` when the finding has no edits; a deleted unit of a missing finding and an inserted
unit of an added one are ``substantive``; a move of a ``moved`` finding is a move; anything else,
a change the engine found no conflict in (renumbering, a heading, a typo), is ``editorial``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from conflictkit.grounding.tokens import Tokens, tokenize
from conflictkit.normalize import flat_key
from conflictkit.report.doctext import RenderedDocument

MOVE_WORDS = 4
"""A unit moves only when it holds at least this many words (a repeated "Reserved." is no move)."""
PAIR_SIMILARITY = 0.5
"""The share of words two left-over units must have in common to be compared word by word."""
MAX_PAIRING = 250_000
"""Left-over units whose product exceeds this are not paired (deleted and inserted whole)."""
_WORDS = re.compile(r"\w+")


@dataclass(frozen=True)
class Unit:
    """A paragraph, heading or table row of one rendered document: its leaves and rendered ranges."""

    leaves: tuple[int, ...]
    start: int
    end: int
    label: tuple[int, int]  # the label's rendered range, without the space after it (empty when none)
    cells: tuple[tuple[int, int], ...]  # each leaf's text after the label
    kind: str  # "row" for a table row, else the leaf's kind (heading, paragraph, code)
    level: int
    key: str

    @property
    def label_text_range(self) -> tuple[int, int]:
        return self.label


@dataclass
class Change:
    """One change: an inline edit of a matched unit, or a whole unit deleted, inserted or moved.

    ``reference`` and ``input`` are rendered ranges (an empty range is where the text would go);
    an inline range starts after the last unchanged word, so it carries the space before the
    change. ``step`` indexes :attr:`DocumentDiff.steps`. ``move`` names the move a unit belongs to.
    """

    op: str  # "replace", "delete", "insert" (inline); "deleted", "inserted", "moved-from", "moved-to" (units)
    step: int
    reference: tuple[int, int]
    input: tuple[int, int]
    cell: int = 0
    label: bool = False
    verdict: str = "editorial"
    kind: str = ""
    finding: str | None = None
    move: int | None = None

    @property
    def inline(self) -> bool:
        return self.op in ("replace", "delete", "insert")

    @property
    def tracked_in_findings_view(self) -> bool:
        """Whether the change stays a tracked change when only the findings' edits are shown."""
        return self.finding is not None and (self.verdict == "substantive" or self.kind == "moved")


@dataclass
class Step:
    """One unit of the redline in reading order: ``same``, ``changed``, ``deleted``, ``inserted``,
    ``moved-from`` or ``moved-to``, with the reference and input units it stands for."""

    status: str
    reference: int | None
    input: int | None
    changes: list[Change] = field(default_factory=list)
    move: int | None = None


@dataclass
class DocumentDiff:
    """The steps of a redline of ``input`` against ``reference``, and their changes in reading order."""

    reference: RenderedDocument
    input: RenderedDocument
    reference_units: list[Unit]
    input_units: list[Unit]
    steps: list[Step]

    @property
    def changes(self) -> list[Change]:
        return [c for step in self.steps for c in step.changes]

    def moves(self) -> dict[int, list[Step]]:
        """Each move's steps (its moved-from and moved-to units) by move id."""
        out: dict[int, list[Step]] = {}
        for step in self.steps:
            if step.move is not None:
                out.setdefault(step.move, []).append(step)
        return out


def units_of(document: RenderedDocument) -> list[Unit]:
    """The units of a rendered document's body: each leaf, table cells grouped by row."""
    units: list[Unit] = []
    leaves = document.leaves
    k = 0
    while k < len(leaves):
        leaf = leaves[k]
        if leaf.role != "body":
            k += 1
            continue
        row = leaf.row
        group = [k]
        if row is not None:
            while k + 1 < len(leaves) and leaves[k + 1].row == row:
                k += 1
                group.append(k)
        label_end = leaf.label_end
        label = (leaf.start, leaf.start + len(document.text[leaf.start:label_end].rstrip()))
        cells = tuple((leaves[i].label_end, leaves[i].end) for i in group)
        key = " | ".join(flat_key(document.text[a:b]) for a, b in cells)
        units.append(Unit(tuple(group), leaf.start, leaves[group[-1]].end, label, cells,
                          "row" if row is not None else leaf.kind, leaf.level, key))
        k += 1
    return [u for u in units if u.key.strip(" |") or u.label[1] > u.label[0]]


def diff_documents(reference: RenderedDocument, input: RenderedDocument) -> DocumentDiff:
    """The redline of ``input`` against ``reference``: matched, changed, deleted, inserted and moved units."""
    ref_units, inp_units = units_of(reference), units_of(input)
    steps: list[Step] = []
    matcher = SequenceMatcher(None, [u.key for u in ref_units], [u.key for u in inp_units], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            steps.extend(Step("same", i, j) for i, j in zip(range(i1, i2), range(j1, j2), strict=True))
        else:
            steps.extend(_region(ref_units, inp_units, i1, i2, j1, j2))
    steps = [part for step in steps for part in _split_misfits(step, ref_units, inp_units)]
    _find_moves(steps, ref_units, inp_units)
    diff = DocumentDiff(reference, input, ref_units, inp_units, steps)
    for index, step in enumerate(steps):
        step.changes = _changes(diff, index, step)
        if step.status == "changed" and not step.changes:
            step.status = "same"
    return diff


def _region(ref_units: list[Unit], inp_units: list[Unit], i1: int, i2: int, j1: int, j2: int) -> list[Step]:
    """Steps for units left over between two matches: similar ones paired in order, the rest deleted or inserted."""
    pairs = _pairs(ref_units[i1:i2], inp_units[j1:j2]) if (i2 - i1) * (j2 - j1) <= MAX_PAIRING else []
    steps: list[Step] = []
    i, j = i1, j1
    for a, b in pairs:
        steps.extend(Step("deleted", k, None) for k in range(i, i1 + a))
        steps.extend(Step("inserted", None, k) for k in range(j, j1 + b))
        steps.append(Step("changed", i1 + a, j1 + b))
        i, j = i1 + a + 1, j1 + b + 1
    steps.extend(Step("deleted", k, None) for k in range(i, i2))
    steps.extend(Step("inserted", None, k) for k in range(j, j2))
    return steps


def _pairs(refs: list[Unit], inps: list[Unit]) -> list[tuple[int, int]]:
    """The monotone pairing of two runs of units with the most shared words (pairs sharing at least half)."""
    words_a = [set(_WORDS.findall(u.key.lower())) for u in refs]
    words_b = [set(_WORDS.findall(u.key.lower())) for u in inps]
    n, m = len(refs), len(inps)
    score = [[0.0] * (m + 1) for _ in range(n + 1)]
    for a in range(n - 1, -1, -1):
        for b in range(m - 1, -1, -1):
            best = max(score[a + 1][b], score[a][b + 1])
            sim = _similarity(refs[a], inps[b], words_a[a], words_b[b])
            if sim >= PAIR_SIMILARITY:
                best = max(best, sim + score[a + 1][b + 1])
            score[a][b] = best
    pairs, a, b = [], 0, 0
    while a < n and b < m:
        sim = _similarity(refs[a], inps[b], words_a[a], words_b[b])
        if sim >= PAIR_SIMILARITY and abs(score[a][b] - (sim + score[a + 1][b + 1])) < 1e-9:
            pairs.append((a, b))
            a, b = a + 1, b + 1
        elif score[a][b] == score[a + 1][b]:
            a += 1
        else:
            b += 1
    return pairs


def _similarity(a: Unit, b: Unit, words_a: set[str], words_b: set[str]) -> float:
    if (a.kind == "row") != (b.kind == "row"):
        return 0.0
    if not words_a and not words_b:
        return 1.0 if a.key == b.key else 0.0
    return 2 * len(words_a & words_b) / (len(words_a) + len(words_b))


def _split_misfits(step: Step, ref_units: list[Unit], inp_units: list[Unit]) -> list[Step]:
    """A matched pair whose cells do not line up (a row that gained a column) is deleted and inserted whole."""
    if step.reference is None or step.input is None:
        return [step]
    if len(ref_units[step.reference].cells) == len(inp_units[step.input].cells):
        return [step]
    return [Step("deleted", step.reference, None), Step("inserted", None, step.input)]


def _find_moves(steps: list[Step], ref_units: list[Unit], inp_units: list[Unit]) -> None:
    """A deleted unit inserted elsewhere with the same text is a move; consecutive moved units are one move."""
    inserted: dict[str, list[int]] = {}
    for k, step in enumerate(steps):
        if step.status == "inserted" and len(inp_units[step.input].key.split()) >= MOVE_WORDS:
            inserted.setdefault(inp_units[step.input].key, []).append(k)
    partner: dict[int, int] = {}
    for k, step in enumerate(steps):
        if step.status == "deleted":
            candidates = inserted.get(ref_units[step.reference].key)
            if candidates:
                partner[k] = candidates.pop(0)
    move = 0
    previous: tuple[int, int] | None = None
    for k in sorted(partner):
        to = partner[k]
        if previous is None or not (k == previous[0] + 1 and to == previous[1] + 1):
            move += 1
        steps[k].status, steps[k].move = "moved-from", move
        steps[to].status, steps[to].move = "moved-to", move
        previous = (k, to)


def _changes(diff: DocumentDiff, index: int, step: Step) -> list[Change]:
    if step.status == "same":
        return _label_change(diff, index, step)
    if step.status != "changed":
        ref = diff.reference_units[step.reference] if step.reference is not None else None
        inp = diff.input_units[step.input] if step.input is not None else None
        return [Change(step.status, index, (ref.start, ref.end) if ref else (0, 0), (inp.start, inp.end) if inp else (0, 0),
                       kind="moved" if step.move is not None else "", move=step.move)]
    ref, inp = diff.reference_units[step.reference], diff.input_units[step.input]
    changes = _label_change(diff, index, step)
    for cell, ((a0, a1), (b0, b1)) in enumerate(zip(ref.cells, inp.cells, strict=True)):
        changes.extend(_words_changed(diff, index, cell, a0, a1, b0, b1))
    return changes


def _label_change(diff: DocumentDiff, index: int, step: Step) -> list[Change]:
    ref, inp = diff.reference_units[step.reference], diff.input_units[step.input]
    a = diff.reference.text[ref.label[0]:ref.label[1]]
    b = diff.input.text[inp.label[0]:inp.label[1]]
    if a == b or flat_key(a) == flat_key(b):
        return []
    op = "replace" if a and b else "delete" if a else "insert"
    return [Change(op, index, ref.label, inp.label, label=True, kind="renumbering")]


def _words_changed(diff: DocumentDiff, index: int, cell: int, a0: int, a1: int, b0: int, b1: int) -> list[Change]:
    text_a, text_b = diff.reference.text[a0:a1], diff.input.text[b0:b1]
    ta, tb = tokenize(text_a), tokenize(text_b)
    if ta.words == tb.words:
        return []
    out = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, ta.words, tb.words, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        (sa, ea), (sb, eb) = _between(ta, i1, i2, len(text_a)), _between(tb, j1, j2, len(text_b))
        while sa < ea and sb < eb and text_a[sa] == text_b[sb] and text_a[sa].isspace():
            sa, sb = sa + 1, sb + 1
        while ea > sa and eb > sb and text_a[ea - 1] == text_b[eb - 1] and text_a[ea - 1].isspace():
            ea, eb = ea - 1, eb - 1
        out.append(Change(tag, index, (a0 + sa, a0 + ea), (b0 + sb, b0 + eb), cell=cell))
    return out


def _between(tokens: Tokens, i: int, j: int, length: int) -> tuple[int, int]:
    """The text from the end of token ``i-1`` to the start of token ``j``: tokens ``i..j-1`` with the
    space around them, so replacing it in one document by the other's gives that document exactly."""
    start = tokens.original_span(i - 1, i)[1] if i > 0 else 0
    end = tokens.original_span(j, j + 1)[0] if j < len(tokens.words) else length
    return start, max(start, end)


# -- What the findings say about each change -----------------------------------------------------


def classify(diff: DocumentDiff, view) -> None:
    """Give each change its verdict, kind and finding from the report's findings (see the module docstring).

    ``view`` is the :class:`~conflictkit.report.view.ReportView` of the report whose documents
    ``diff`` compares.
    """
    areas = _finding_areas(diff, view)
    for change in diff.changes:
        if change.label:
            continue
        best = None
        for area in areas:
            if area.covers(change):
                best = area if best is None or area.rank(change) > best.rank(change) else best
        if best is not None:
            change.finding, change.verdict, change.kind = best.finding, *best.verdict_of(change)


@dataclass
class _Area:
    """Where a finding is in both rendered documents, and its edits there."""

    finding: str
    kind: str
    moved: bool
    reference: list[tuple[int, int]]
    input: list[tuple[int, int]]
    edits: list[tuple[tuple[int, int], tuple[int, int], str, str]]  # (ref range, input range, verdict, kind)

    def covers(self, change: Change) -> bool:
        return _touches(self.input, change.input) or _touches(self.reference, change.reference)

    def rank(self, change: Change) -> int:
        """Prefer the finding whose own kind fits the change (a move's moved finding, a deletion's missing one)."""
        fits = {"deleted": "missing", "inserted": "added", "moved-from": "moved", "moved-to": "moved"}.get(change.op)
        return 2 if fits == self.kind else 1

    def verdict_of(self, change: Change) -> tuple[str, str]:
        if change.op in ("moved-from", "moved-to"):
            return ("substantive", "moved") if self.kind == "deviation" else ("editorial", "moved")
        if not self.edits:
            return "substantive", self.kind
        order = {"substantive": 2, "same-effect": 1, "editorial": 0}
        found = [(v, k) for r, i, v, k in self.edits if _touches([i], change.input) or _touches([r], change.reference)]
        if not found:
            return "editorial", ""
        return max(found, key=lambda vk: order.get(vk[0], 0))


def _touches(ranges: list[tuple[int, int]], target: tuple[int, int]) -> bool:
    a, b = target
    for s, e in ranges:
        if a < b and s < b and a < e:
            return True
        if a == b and s <= a <= e and e > s:
            return True
    return False


def _finding_areas(diff: DocumentDiff, view) -> list[_Area]:
    areas = []
    for finding in view.findings:
        sides = {}
        for side, document in (("reference", diff.reference), ("input", diff.input)):
            quote = finding.get(side)
            pieces = [(s["start"], s["end"]) for s in (quote or {}).get("spans") or []] or ([(quote["start"], quote["end"])] if quote else [])
            sides[side] = [document.range_of(s, e) for s, e in pieces]
        edits = [(diff.reference.range_of(e["reference"]["start"], e["reference"]["end"]),
                  diff.input.range_of(e["input"]["start"], e["input"]["end"]), e.get("verdict", "editorial"), e.get("kind", ""))
                 for e in finding.get("edits") or []]
        areas.append(_Area(finding["id"], finding["kind"], bool(finding.get("moved")), sides["reference"], sides["input"], edits))
    return areas
