"""One model of a report for every human-readable view.

A :class:`ReportView` holds a report and its two documents rendered once
(:mod:`conflictkit.report.doctext`), and answers what every view asks: a quote as the reader sees
it, where it is as a reader finds it (the page of a PDF, the numbered clause or paragraph of a Word
file, the line of a text file), a deviation's changes as :class:`Piece` runs with their verdicts
(from the finding's edits when a judge gave them, else from its word-level redline ops), its reasons
in words and an explainer's lines. The terminal, report.md, the HTML report and review app, the
Word redline and ``--format redline`` all read findings through it, so they show the same thing.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property

from conflictkit.report.doctext import RenderedDocument, render_document, text_format
from conflictkit.report.explanations import explanation_lines
from conflictkit.report.order import ordered
from conflictkit.report.summary import summary_line  # noqa: F401 (read here by every view)

SIDES = ("reference", "input")
P_CONFLICT_HELP = "P(conflict) is the judge's probability that the input clause changes the legal effect of the reference clause"
P_SAME_HELP = "P(same matter) the probability that the two clauses deal with the same matter"
VERDICTS = ("substantive", "same-effect", "editorial")
WHOLE_DOCUMENT_CHARS = 20_000
"""Documents up to this size are rendered whole for any view; longer ones block by block for quotes."""
_NEWLINE = re.compile("\n")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_CONTEXT_LIMIT = 100_000
_SPACES = re.compile(r"\s+")
_WORDS = re.compile(r"\s*\S+")


@dataclass(frozen=True)
class Piece:
    """A run of a deviation's change: ``equal``, ``delete`` or ``insert``, as rendered text.

    ``verdict`` is the edit's (``substantive``, ``same-effect``, ``editorial``) when the finding
    carries edits, None when the run comes from the redline ops (every change then counts).
    ``reversing`` marks a run that changes a meaning-reversing word; ``kinds`` names them (or the
    edit's kind). ``spaced``: whitespace precedes the run in its own document (a view writes a
    space between a deletion and the insertion after it only then: "[-30-]{+60+}" in "(30)").
    """

    op: str
    text: str
    verdict: str | None = None
    reversing: bool = False
    kinds: tuple[str, ...] = ()
    spaced: bool = False

    @property
    def marked(self) -> bool:
        """A change a reviewer must see: every change without edits, a substantive one with them."""
        return self.op != "equal" and self.verdict in (None, "substantive")


def describe_reason(reason: dict) -> str:
    """One reason as a phrase: ``number: thirty (30) days -> sixty (60) days``."""
    kind = reason.get("type") or ""
    ref, inp, detail = reason.get("reference"), reason.get("input"), reason.get("detail")
    if ref is not None or inp is not None:
        text = f"{kind}: {ref if ref is not None else '(none)'} -> {inp if inp is not None else '(none)'}"
    else:
        text = kind
    return f"{text} ({detail})" if detail and (ref is not None or inp is not None) else (detail or text)


def section_title(quote: dict) -> str:
    """``2.1 Grant of access``: a quote's section number and heading, whichever it has."""
    return " ".join(x for x in (quote.get("section"), quote.get("heading")) if x)


def finding_title(finding: dict) -> str:
    """The section of a finding as people name it: the input's, else the reference's."""
    return section_title(finding.get("input") or finding.get("reference") or {})


class LineIndex:
    """1-based line numbers of offsets into one document's text."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]

    def line(self, offset: int) -> int:
        return bisect_right(self._starts, offset)

    def lines(self, start: int, end: int) -> str:
        """``line 24`` or ``lines 24-26`` for the half-open span ``[start, end)``."""
        first, last = self.line(start), self.line(max(start, end - 1))
        return f"line {first}" if first == last else f"lines {first}-{last}"


def where_in_file(quote: dict, fmt: str, lines: LineIndex | None) -> str:
    """Where a quote is in its file as a reader finds it: ``page 3`` (PDF), ``paragraph 42`` (Word, HTML), ``line 24``.

    Word and HTML quotes with a section number are found by it; their paragraph is said only without one.
    """
    location = quote.get("location") or {}
    if fmt == "pdf" and "page" in location:
        pages = location.get("pages") or [location["page"]]
        return f"page {pages[0]}" if len(pages) == 1 else f"pages {pages[0]}-{pages[-1]}"
    if fmt in ("docx", "html"):
        if quote.get("section") or "paragraph" not in location:
            return ""
        return f"paragraph {int(location['paragraph']) + 1}"
    if lines is not None:
        return lines.lines(quote["start"], quote["end"])
    return ""


def block_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The top-level blocks holding ``[start, end)``: each starts on a line at the margin after a blank line
    (or the text's start), so a nested list item is read inside its list, a table row inside its table."""
    line = text.rfind("\n", 0, start) + 1
    while line > 0 and start - line < _CONTEXT_LIMIT and not _block_starts(text, line):
        line = text.rfind("\n", 0, line - 1) + 1
    stop = end
    while stop - end < _CONTEXT_LIMIT:
        found = _BLANK_LINE.search(text, stop)
        if found is None:
            return line, len(text)
        stop = found.end()
        if _block_starts(text, stop):
            return line, found.start()
    return line, stop


def _block_starts(text: str, line: int) -> bool:
    """Whether a top-level block starts at ``line``: text at the margin after a blank line."""
    if line >= len(text) or text[line] in " \t\n":
        return False
    previous = text.rfind("\n", 0, line - 1) + 1
    return not text[previous:max(previous, line - 1)].strip()


class _Pieces:
    """Collects pieces: equal runs merged, a change's leading space moved into the text before it."""

    def __init__(self) -> None:
        self.items: list[Piece] = []
        self.trailing = False  # the last change ended with a space its text no longer shows

    def push(self, op: str, text: str, verdict: str | None = None, reversing: bool = False,
             kinds: tuple[str, ...] = (), spaced: bool = False) -> None:
        text = _SPACES.sub(" ", text)
        if op == "equal":
            if not text:
                return
            if self.trailing and not text.startswith(" ") and self.items and self.items[-1].op != "equal":
                text = " " + text
            self.trailing = False
            if self.items and self.items[-1].op == "equal":
                last = self.items.pop()
                text = last.text + (text[1:] if last.text.endswith(" ") and text.startswith(" ") else text)
            self.items.append(Piece("equal", text))
            return
        lead = text.startswith(" ")
        trailing = text.endswith(" ")
        text = text.strip()
        if not text:
            return
        if lead and self.items and self.items[-1].op == "equal" and not self.items[-1].text.endswith(" "):
            self.push("equal", " ")
        self.items.append(Piece(op, text, verdict, reversing, kinds, lead or spaced))
        self.trailing = trailing


class ReportView:
    """A report and its two documents, rendered once: what every human-readable view shows.

    ``texts`` are the two document texts the report's offsets index (``{"reference": ..., "input":
    ...}``); without them each quote is rendered on its own. ``blocks`` are the loaders' source
    blocks per side, where the caller has them (a Word file's exact paragraphs). ``sort`` is the
    order every view lists the findings in (:func:`conflictkit.report.order.ordered`: ``severity``,
    then document order, by default).
    """

    def __init__(self, report: dict, texts: dict[str, str] | None = None, sources: dict | None = None,
                 sort: str = "severity") -> None:
        self.report = report
        self.texts = texts or {}
        self.sources = sources or {}
        self.sort = sort
        self._ordered: tuple[int, list[dict]] | None = None
        self._documents: dict[str, RenderedDocument] = {}
        self._blocks: dict[tuple[str, int, int], RenderedDocument] = {}
        self._lines: dict[str, LineIndex] = {}
        self._diff = None

    @classmethod
    def of_result(cls, result) -> ReportView:
        """The view of a finished comparison (:class:`~conflictkit.engine.ComparisonResult`), with its loaders' maps."""
        documents = {side: getattr(result, side).document for side in SIDES}
        return cls(result.report, {side: d.original for side, d in documents.items()},
                   {side: d.source for side, d in documents.items() if d.source is not None})

    @property
    def findings(self) -> list[dict]:
        """The report's findings in the view's order (``sort``), the same in every view."""
        found = self.report.get("findings") or []
        if self._ordered is None or self._ordered[0] != id(found):
            self._ordered = (id(found), ordered(found, self.sort))
        return self._ordered[1]

    def format(self, side: str) -> str:
        """How the side's document text reads: its loader's format (markdown, text, html, docx, pdf)."""
        info = self.report.get(side) or {}
        return text_format(info.get("path"), (info.get("source") or {}).get("format"), self.texts.get(side, ""))

    def document(self, side: str) -> RenderedDocument | None:
        """The side's whole document, rendered (None without its text)."""
        if side not in self._documents and side in self.texts:
            source = self.sources.get(side)
            self._documents[side] = render_document(self.texts[side], self.format(side), source.blocks if source else None)
        return self._documents.get(side)

    def _rendering(self, quote: dict, side: str) -> tuple[RenderedDocument, int]:
        """The rendering that holds ``quote`` and the offset to subtract from document offsets to index it.

        The whole document when something has rendered it already (the panes, a redline) or it is
        short; otherwise only the top-level blocks around the quote, so a terminal showing a few
        findings of a long document renders what it shows, not the whole file.
        """
        text = self.texts.get(side)
        if side in self._documents or (text is not None and len(text) <= WHOLE_DOCUMENT_CHARS):
            return self.document(side), 0
        if text is None:
            return render_document(quote["text"], self.format(side), cache=False), quote["start"]
        start, end = block_around(text, quote["start"], quote["end"])
        key = (side, start, end)
        if key not in self._blocks:
            self._blocks[key] = render_document(text[start:end], self.format(side), cache=False)
        return self._blocks[key], start

    def rendered(self, quote: dict, side: str, start: int | None = None, end: int | None = None) -> str:
        """What the reader sees of ``[start, end)`` (default: the whole quote), whitespace runs as one space."""
        document, shift = self._rendering(quote, side)
        start = quote["start"] if start is None else start
        end = quote["end"] if end is None else end
        a, b = document.range_of(start - shift, end - shift)
        return _SPACES.sub(" ", document.text[a:b])

    def quote_text(self, quote: dict, side: str) -> str:
        """A quote as the reader sees it, on one line."""
        return self.rendered(quote, side).strip()

    def _where(self, quote: dict, side: str) -> str:
        fmt = self.format(side)
        if side not in self._lines and side in self.texts and fmt not in ("pdf", "docx", "html"):
            self._lines[side] = LineIndex(self.texts[side])
        return where_in_file(quote, fmt, self._lines.get(side))

    def place(self, quote: dict, side: str) -> str:
        """Where a quote is, as a reader finds it: ``2.1, line 24``, ``2.1, page 3``, ``paragraph 42``."""
        at = self._where(quote, side)
        where = quote.get("section") or ("" if at else quote.get("clause_id"))
        return ", ".join(x for x in (where, at) if x)

    def located(self, quote: dict, side: str) -> str:
        """A quote's heading and place, for a line that introduces it: ``2.1 Grant of access, line 24``."""
        at = self._where(quote, side)
        return ", ".join(x for x in (section_title(quote) or ("" if at else quote.get("clause_id")), at) if x)

    def place_at(self, side: str, start: int, end: int, section: str | None = None) -> str:
        """Where ``[start, end)`` of the side's document text is, as :meth:`place` says it for a quote."""
        source = self.sources.get(side)
        location = source.locate(start, end) if source is not None else None
        return self.place({"start": start, "end": end, "section": section, "location": location}, side)

    def diff(self):
        """The redline of the whole input against the whole reference (:mod:`conflictkit.report.docdiff`),
        each change classified by the findings; computed once."""
        if self._diff is None:
            from conflictkit.report.docdiff import classify, diff_documents

            self._diff = diff_documents(self.document("reference"), self.document("input"))
            classify(self._diff, self)
        return self._diff

    def title(self, finding: dict) -> str:
        return finding_title(finding)

    def explained(self, finding: dict) -> list[str]:
        return explanation_lines(self.report, finding.get("id", ""))

    def edits(self, finding: dict) -> list[dict]:
        """The finding's edits (empty unless its judge judged edit by edit), in document order."""
        return sorted(finding.get("edits") or [], key=lambda e: (e["input"]["start"], e["reference"]["start"]))

    def pieces(self, finding: dict) -> list[Piece] | None:
        """A deviation's change as runs of rendered text; None for a finding with one side (the whole clause is the change).

        From the finding's edits when it has them (each run with its verdict), else from its
        redline ops (computed by grounding when the report has none).
        """
        ref, inp = finding.get("reference"), finding.get("input")
        if ref is None or inp is None:
            return None
        edits = self.edits(finding)
        if edits:
            return self._from_edits(ref, inp, edits)
        ops = (finding.get("redline") or {}).get("ops")
        if ops is None:
            from conflictkit.grounding import redline

            ops = redline(ref["text"], inp["text"]).to_dict()["ops"]
        return self._from_ops(ref, inp, ops)

    def _from_ops(self, ref: dict, inp: dict, ops: list[dict]) -> list[Piece]:
        out = _Pieces()
        a0, b0 = ref["start"], inp["start"]
        last_a, last_b = a0, b0
        for op in ops:
            kinds = tuple(op.get("kinds") or ())
            if op["op"] == "equal":
                out.push("equal", self.rendered(inp, "input", last_b, b0 + op["b_end"]))
            elif op["op"] == "delete":
                out.push("delete", self.rendered(ref, "reference", last_a, a0 + op["a_end"]), None, bool(op.get("reversing")), kinds)
            else:
                out.push("insert", self.rendered(inp, "input", last_b, b0 + op["b_end"]), None, bool(op.get("reversing")), kinds)
            if op["op"] != "insert":
                last_a = max(last_a, a0 + op["a_end"])
            if op["op"] != "delete":
                last_b = max(last_b, b0 + op["b_end"])
        out.push("equal", self.rendered(inp, "input", last_b, inp["end"]))
        return out.items

    def _from_edits(self, ref: dict, inp: dict, edits: list[dict]) -> list[Piece]:
        out = _Pieces()
        last_b = inp["start"]
        for edit in edits:
            e_ref, e_inp = edit["reference"], edit["input"]
            start = min(max(e_inp["start"], last_b), inp["end"])
            verdict, kinds = edit.get("verdict"), (edit.get("kind"),) if edit.get("kind") else ()
            out.push("equal", self.rendered(inp, "input", last_b, start))
            self._push_edit(out, ref, inp, e_ref["start"], e_ref["end"], start, min(e_inp["end"], inp["end"]), verdict, kinds)
            last_b = max(last_b, min(e_inp["end"], inp["end"]))
        out.push("equal", self.rendered(inp, "input", last_b, inp["end"]))
        return out.items

    def _push_edit(self, out: _Pieces, ref: dict, inp: dict, a: int, a_end: int, b: int, b_end: int,
                   verdict: str | None, kinds: tuple) -> None:
        """One edit, word by word inside it: an edit joined from nearby changes ("thirty (30" -> "sixty (60")
        reads "[-thirty-] {+sixty+} ([-30-]{+60+})", the words it kept shown as they stand."""
        from conflictkit.grounding import redline

        substantive = verdict == "substantive"
        ops = redline(self._raw(ref, "reference", a, a_end), self._raw(inp, "input", b, b_end)).ops if a < a_end and b < b_end else None
        if not ops:
            deleted = self.rendered(ref, "reference", a, a_end)
            out.push("delete", deleted, verdict, substantive, kinds)
            # an edit's two sides replace each other: written apart, as "[-thirty-] {+sixty+}"
            out.push("insert", self.rendered(inp, "input", b, b_end), verdict, substantive, kinds, spaced=bool(deleted.strip()))
            return
        last_a, last_b, after_space = a, b, False
        for op in ops:
            if op.op == "equal":
                out.push("equal", self.rendered(inp, "input", last_b, b + op.b_end))
            elif op.op == "delete":
                deleted = self.rendered(ref, "reference", last_a, a + op.a_end)
                out.push("delete", deleted, verdict, substantive, kinds)
                # a replacement of a word that stands apart is written apart: "[-thirty-] {+sixty+}", "([-30-]{+60+})"
                before = a + op.a_start - ref["start"] - 1
                after_space = before < 0 or ref["text"][before].isspace()
            else:
                out.push("insert", self.rendered(inp, "input", last_b, b + op.b_end), verdict, substantive, kinds,
                         spaced=after_space)
                after_space = False
            if op.op != "insert":
                last_a = max(last_a, a + op.a_end)
            if op.op != "delete":
                last_b = max(last_b, b + op.b_end)

    def _raw(self, quote: dict, side: str, start: int, end: int) -> str:
        """The original text of ``[start, end)``, from the quote that holds it."""
        return quote["text"][start - quote["start"]:end - quote["start"]]

    def change_spans(self, finding: dict, side: str) -> list[tuple[int, int, str, str | None]]:
        """``(start, end, op, verdict)`` in the side's document text for each changed run of a deviation."""
        ref, inp = finding.get("reference"), finding.get("input")
        if ref is None or inp is None:
            return []
        op, key = ("delete", "reference") if side == "reference" else ("insert", "input")
        edits = self.edits(finding)
        if edits:
            return [(e[key]["start"], e[key]["end"], op, e.get("verdict")) for e in edits if e[key]["end"] > e[key]["start"]]
        ops = (finding.get("redline") or {}).get("ops")
        if ops is None:
            from conflictkit.grounding import redline

            ops = redline(ref["text"], inp["text"]).to_dict()["ops"]
        base = finding[side]["start"]
        a, b = ("a_start", "a_end") if side == "reference" else ("b_start", "b_end")
        return [(base + o[a], base + o[b], op, None) for o in ops if o["op"] == op and o[b] > o[a]]

    @cached_property
    def has_edits(self) -> bool:
        return any(f.get("edits") for f in self.findings)


def settle(pieces: list[Piece], editorial: bool) -> list[Piece]:
    """``pieces`` with editorial and same-effect changes accepted (shown as the input has them) unless ``editorial``."""
    if editorial:
        return pieces
    out = _Pieces()
    for piece in pieces:
        if piece.op == "equal" or piece.marked:
            if piece.op == "equal":
                out.push("equal", piece.text)
            else:
                out.items.append(piece)
        elif piece.op == "insert":
            out.push("equal", (" " if piece.spaced else "") + piece.text)
    return out.items


def in_context(pieces: list[Piece], words: int = 4) -> list[Piece]:
    """The changed runs with ``words`` words of unchanged text either side.

    Unchanged stretches longer than twice ``words`` are cut to their two ends with an ``…``
    piece (op ``"cut"``) between.
    """
    out: list[Piece] = []
    for k, piece in enumerate(pieces):
        if piece.op != "equal":
            out.append(piece)
            continue
        out.extend(_trim(piece.text, words, first=k == 0, last=k == len(pieces) - 1))
    return out


def _trim(text: str, words: int, *, first: bool, last: bool) -> list[Piece]:
    """An unchanged stretch cut to the ``words`` words next to each change it touches."""
    tokens = _WORDS.findall(text)  # each word with the space before it
    trailing = text[len("".join(tokens)) :]
    head = [] if first else tokens[:words]
    tail = [] if last else tokens[-words:]
    if len(tokens) <= len(head) + len(tail):
        return [Piece("equal", text)]
    parts = [Piece("equal", "".join(head) + " ")] if head else []
    parts.append(Piece("cut", "…"))
    if tail:
        parts.append(Piece("equal", "".join(tail) + trailing))
    return parts
