"""The data model shared by every stage: documents, clauses, pairs, judgements, findings.

Offsets are always half-open ``[start, end)`` code-point indices into ``Document.original``,
the file's text decoded as UTF-8 with newlines kept as they are, so ``original[start:end]``
is exactly what a user sees highlighted.
"""

from __future__ import annotations

import bisect
from functools import cached_property
from typing import Any, Literal, TypeVar, get_args, get_origin

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

ClauseKind = Literal["clause", "definition", "heading", "signature", "boilerplate"]
FindingKind = Literal["deviation", "missing", "added", "moved"]
EditVerdict = Literal["editorial", "same-effect", "substantive"]
Side = Literal["reference", "input"]
Severity = Literal["high", "medium", "low"]
M = TypeVar("M", bound=BaseModel)


class _Model(BaseModel):
    """Base of the report's models: a model's validator is built the first time it validates,
    not at import, so a run pays only for the models it checks (the engine's own hot paths
    build them with ``model_construct``; pydantic validates what comes from files and APIs)."""

    model_config = ConfigDict(defer_build=True)


class Span(_Model):
    """A half-open range of code points in a document's original text."""

    model_config = ConfigDict(frozen=True)

    start: int = Field(ge=0)
    end: int = Field(ge=0)

    def slice(self, text: str) -> str:
        return text[self.start : self.end]


class Clause(_Model):
    """One clause of a document, holding only its own text (its children are cut out).

    ``text`` is the typographically normalized text used by models; ``span`` locates the clause
    in the original text. ``filtered`` names why a clause is non-operative (a heading, a
    signature, a blank form field...): filtered clauses are counted, never silently dropped, and
    are never reported as missing or added.
    """

    id: str
    text: str
    span: Span
    kind: ClauseKind = "clause"
    heading: str | None = None
    section: str | None = None
    parent: str | None = None
    order: int = 0
    filtered: str | None = None

    @property
    def operative(self) -> bool:
        return self.filtered is None and self.kind not in ("heading", "signature", "boilerplate")


SourceRole = Literal["body", "footnote", "endnote", "header", "footer"]


class SourceBlock(_Model):
    """A range ``[start, end)`` of the document text and where it came from in the file.

    ``location`` holds what the format knows: ``page`` and ``bbox`` (PDF points, x0, y0, x1, y1 from
    the page's bottom left), ``paragraph`` (index of the paragraph in the file). A block whose
    ``role`` is not "body" (footnotes, running headers and footers) is non-operative: its clauses
    are flagged, never compared.
    """

    model_config = ConfigDict(frozen=True)

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    role: SourceRole = "body"
    location: dict[str, Any] = Field(default_factory=dict)


class DocumentSource(_Model):
    """How a document's text was read from its file: the format, the loader and the map back.

    ``details`` are facts for the report (tracked changes, pages, running headers removed...);
    ``notes`` say in words what a reviewer should know about the reading (one line each).
    """

    format: str
    loader: str
    blocks: list[SourceBlock] = Field(default_factory=list)
    details: dict[str, Any] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)

    @cached_property
    def _starts(self) -> list[int]:
        return [b.start for b in self.blocks]

    def overlapping(self, start: int, end: int) -> list[SourceBlock]:
        """The blocks that share at least one character with ``[start, end)`` (blocks sorted by start)."""
        first = max(0, bisect.bisect_right(self._starts, start) - 1)
        found = []
        for block in self.blocks[first:]:
            if block.start >= max(end, start + 1):
                break
            if block.end > start:
                found.append(block)
        return found

    def locate(self, start: int, end: int) -> dict[str, Any] | None:
        """Where ``[start, end)`` is in the file: first page/paragraph, the pages it spans, a bbox on one page."""
        blocks = self.overlapping(start, end)
        if not blocks:
            return None
        location = dict(blocks[0].location)
        pages = sorted({b.location["page"] for b in blocks if "page" in b.location})
        if len(pages) > 1:
            location["pages"] = pages
        boxes = [b.location["bbox"] for b in blocks if "bbox" in b.location and b.location.get("page") == pages[0]] \
            if pages else []
        if boxes:
            location["bbox"] = [round(min(b[0] for b in boxes), 1), round(min(b[1] for b in boxes), 1),
                                round(max(b[2] for b in boxes), 1), round(max(b[3] for b in boxes), 1)]
        return location

    def role_at(self, start: int, end: int) -> SourceRole:
        """The role of the text at ``[start, end)``: non-operative when every block under it is."""
        roles = {b.role for b in self.overlapping(start, end)}
        if not roles or "body" in roles:
            return "body"
        return sorted(roles)[0]  # type: ignore[return-value]

    def summary(self) -> dict[str, Any]:
        """The report's ``source`` record: format, loader, details and notes (not the block map)."""
        return {"format": self.format, "loader": self.loader, "details": self.details, "notes": self.notes}


class Document(_Model):
    """A document as read from disk, with its normalized text and the map back to the original.

    ``offsets[i]`` is the index in ``original`` of the character that produced ``normalized[i]``;
    ``offsets[len(normalized)]`` is ``len(original)``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    path: str
    original: str
    normalized: str
    offsets: np.ndarray  # int64, len(normalized) + 1
    sha256: str
    source: DocumentSource | None = None  # None: text given directly (no file, no map)
    data: bytes | None = Field(default=None, exclude=True, repr=False)
    """The file's bytes, kept only where the text was extracted from them (report.docx rebuilds from them)."""

    def to_original(self, start: int, end: int) -> Span:
        """Map a half-open span of ``normalized`` to the span of ``original`` that produced it."""
        from conflictkit.normalize import map_span

        s, e = map_span(self.offsets, start, end)
        return Span.model_construct(start=s, end=e)  # map_span gives ordered, non-negative ints


class IndexedDocument(_Model):
    """A document after segmentation, filtering and embedding: what retrieval and judges see."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    document: Document
    clauses: list[Clause]
    vectors: np.ndarray | None = None  # (len(clauses), dim), unit rows, or None without embedder

    def clause(self, clause_id: str) -> Clause:
        return self._by_id[clause_id]

    def position(self, clause_id: str) -> int:
        return self._positions[clause_id]

    @cached_property
    def _by_id(self) -> dict[str, Clause]:
        return {c.id: c for c in self.clauses}

    @cached_property
    def _positions(self) -> dict[str, int]:
        return {c.id: i for i, c in enumerate(self.clauses)}


class CandidatePair(_Model):
    """A (reference clause, input clause) pair kept by retrieval, with the signals gathered so far.

    ``relevance`` is what retrieval (or a scorer, when one is configured) ranks on, in [0, 1];
    ``signals`` keeps every named score a stage produced so the pairs file can show them.
    """

    reference_id: str
    input_id: str
    similarity: float | None = None
    relevance: float = 0.0
    signals: dict[str, float] = Field(default_factory=dict)


class Reason(_Model):
    """A typed reason for a judgement: what kind of atom changed, and its two versions.

    Example: ``{"type": "number", "reference": "thirty (30) days", "input": "sixty (60) days"}``.
    """

    type: str
    reference: str | None = None
    input: str | None = None
    detail: str | None = None


class EditSide(_Model):
    """One side of an edit: a half-open span of the original file and the text found there.

    A pure insertion has an empty reference side (``start == end``, where the text would go in the
    reference) and a pure deletion an empty input side, so every edit can be placed in both files.
    """

    model_config = ConfigDict(frozen=True)

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str = ""


class Edit(_Model):
    """One edit of an aligned pair (a region of the word-level edit script) and its verdict.

    ``verdict`` is ``editorial`` (``kind`` names the class: typography, markup, link, rename,
    cross-reference, renumbering, illustration, pointer, non-binding, extraction), ``same-effect``
    (``kind`` names the rule that shows the wording changes nothing) or ``substantive`` (``kind`` is
    the type of its strongest reason, and ``reasons`` lists them). ``p_conflict`` is the probability
    that this edit alone changes the legal effect. Offsets index the original files, as quotes do.
    """

    reference: EditSide
    input: EditSide
    verdict: EditVerdict
    kind: str
    p_conflict: float = Field(ge=0.0, le=1.0)
    reasons: list[Reason] = Field(default_factory=list)
    detail: str | None = None


class Judgement(_Model):
    """A judge's verdict on one candidate pair, as probabilities with reasons."""

    reference_id: str
    input_id: str
    p_same: float = Field(ge=0.0, le=1.0)
    p_differs: float = Field(ge=0.0, le=1.0)
    p_conflict: float = Field(ge=0.0, le=1.0)
    reasons: list[Reason] = Field(default_factory=list)
    judge: str = ""
    signals: dict[str, float] = Field(default_factory=dict)
    edits: list[Edit] = Field(default_factory=list)
    """The pair's edits with their verdicts, from judges that judge edit by edit (empty otherwise)."""


class ClauseSpan(_Model):
    """One clause of a quote that covers a run of clauses: its span and id."""

    start: int
    end: int
    clause_id: str


class Quote(_Model):
    """A cited span of one side of a finding: offsets into the original text and the text itself.

    A quote of a run of consecutive clauses (a split, a merge, a moved section) cites their hull
    (``start`` of the first, ``end`` of the last) and lists each clause in ``spans``; ``clause_id``
    is then the first clause's. ``spans`` is null for a single clause.
    """

    start: int
    end: int
    text: str
    heading: str | None = None
    section: str | None = None
    clause_id: str
    spans: list[ClauseSpan] | None = None
    location: dict[str, Any] | None = None  # page / paragraph / bbox in the source file, where the loader knows


class Finding(_Model):
    """A reported difference: a deviation or a move (both sides), a missing (reference) or an added (input).

    ``moved`` marks a deviation whose clause also changed place; ``definition`` marks a missing
    or added clause that is a definition, so a reviewer can filter them. Ids number findings in
    document order; reports list them by ``severity``, then document order.
    """

    id: str
    kind: FindingKind
    p_conflict: float
    p_same: float | None = None
    reference: Quote | None = None
    input: Quote | None = None
    reasons: list[Reason] = Field(default_factory=list)
    judge: str | None = None
    grounded: bool = False
    redline: dict | None = None
    """For deviations: word-level ops between the two quotes (offsets relative to each quote's text)."""
    moved: bool = False
    definition: bool = False
    edits: list[Edit] = Field(default_factory=list)
    """For deviations judged edit by edit: every edit of the pair with its verdict (document order)."""
    severity: Severity | None = None
    """How much it matters, from what changed and where (:mod:`conflictkit.report.severity`)."""
    subject: str | None = None
    """The subject of its clause in the severity table (``liability``, ``payment``...); None: none listed."""
    severity_rule: str | None = None
    """The rule that set the severity, in words."""


# -- building models from trusted data ------------------------------------------------------------

_PLANS: dict[type, dict[str, tuple[str, type[BaseModel] | None]]] = {}


def _plan(cls: type[BaseModel]) -> dict[str, tuple[str, type[BaseModel] | None]]:
    """Per field of ``cls``: how a JSON value becomes its value ("model", "models" (a list) or "plain")."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = {}
        for name, info in cls.model_fields.items():
            annotation, how = info.annotation, "plain"
            for arg in (annotation, *get_args(annotation)):  # X, X | None, list[X], list[X] | None
                if isinstance(arg, type) and issubclass(arg, BaseModel):
                    annotation, how = arg, "model"
                    break
                inner = get_args(arg)
                if get_origin(arg) is list and inner and isinstance(inner[0], type) and issubclass(inner[0], BaseModel):
                    annotation, how = inner[0], "models"
                    break
            plan[name] = (how, annotation if how != "plain" else None)
        _PLANS[cls] = plan
    return plan


def trusted(cls: type[M], data: dict[str, Any]) -> M:
    """``cls`` built with ``model_construct`` from data this program wrote itself with ``model_dump(mode="json")``
    (a cache entry), nested models included: no validation, so internal hot paths skip pydantic's cost.

    A required field that is missing raises KeyError (a damaged entry: the caller recomputes it);
    data from outside (files, configs, APIs) goes through ``model_validate`` instead.
    """
    values = {}
    for name, (how, sub) in _plan(cls).items():
        if name not in data:
            if cls.model_fields[name].is_required():
                raise KeyError(f"{cls.__name__}.{name}")
            continue
        value = data[name]
        if value is not None and how == "model":
            value = trusted(sub, value)
        elif value is not None and how == "models":
            value = [trusted(sub, item) for item in value]
        values[name] = value
    return cls.model_construct(**values)
