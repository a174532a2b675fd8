"""Reviewing a document against a playbook: a verdict per position, with the engine's own stages.

1. The playbook is rendered as Markdown (:mod:`conflictkit.playbook.document`): every text of
   every position (preferred, fallbacks, red-line texts) is one clause of that reference document.
2. The engine retrieves and judges candidate pairs between those texts and the input's clauses,
   as ``compare`` does (identical texts settled first, then retrieval, scorer, judge; cached).
3. Alignment (:func:`conflictkit.align.align`, as in ``compare``) runs on one clause per position,
   each pair weighted by the best of the position's texts. A playbook has no order of its own, so
   positions are laid out in the order the input discusses them, and an out-of-order pair is
   taken as soon as it is the same matter. A link may grow over several input clauses (a position
   written as one paragraph, a draft that splits it), never over several positions.
4. Each linked position's input passage is judged against every one of its texts in one batch,
   and :mod:`conflictkit.playbook.verdicts` turns those judgements and the red-line rules into
   the verdict and its probabilities. A position with no link is ``missing`` (``absent`` when optional).
5. Every quote (input passages, the playbook's texts, the words that break a rule) is checked
   against its document before the review is returned.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass, field

from pydantic import BaseModel

from conflictkit import PIPELINE_VERSION
from conflictkit.align import AlignOptions, Alignment, Link, align
from conflictkit.align.text import clause_source, text_key
from conflictkit.engine import Engine, JudgedDocuments
from conflictkit.errors import GroundingError
from conflictkit.identical import identical_judgement
from conflictkit.model import Document, Edit, IndexedDocument, Judgement, Quote, Reason
from conflictkit.playbook.document import PlaybookDocument, render_playbook, text_clauses
from conflictkit.playbook.load import Playbook, PositionText, ResolvedPosition
from conflictkit.playbook.rules import Reading
from conflictkit.playbook.verdicts import (
    ABSENT,
    MISSING,
    NOT_ACCEPTABLE,
    Distribution,
    accepted_label,
    distribution,
    p_match,
)
from conflictkit.report.build import document_summary, ground_findings, quote_of_run, redline_record
from conflictkit.store import key_of

REVIEW_SCHEMA = "conflictkit.playbook-review/1"
Run = tuple[tuple[str, ...], tuple[str, ...]]


class TextMatch(BaseModel):
    """The judge's verdict on the input passage against one text of the position."""

    text: str  # the text's label: "preferred", "fallback 1", "red line 2"
    text_id: str
    p_match: float
    p_same: float
    p_differs: float
    p_conflict: float
    judge: str


class RedLineHit(BaseModel):
    """A red line the input passage hits: a rule it breaks (with the words that break it) or a red-line text it matches."""

    red_line: str  # "red line 2"
    rule: str | None = None  # the rule in words, for a rule
    detail: str
    p: float  # 1 for a broken rule (read, not judged); P(matches the red-line text) for a text
    input: Quote | None = None  # the words that break the rule (None: an absence, or a text match)


class PositionVerdict(BaseModel):
    """The verdict on one position, with the quotes, probabilities and reasons behind it."""

    id: str
    subject: str
    title: str
    severity: str
    required: bool
    verdict: str
    fallback: int | None = None
    label: str
    p_verdict: float
    probabilities: dict[str, float]
    p_same: float | None = None
    reference: Quote | None = None
    nearest: str | None = None
    input: Quote | None = None
    texts: list[TextMatch] = []
    red_lines: list[RedLineHit] = []
    reasons: list[Reason] = []
    edits: list[Edit] = []
    redline: dict | None = None
    guidance: str | None = None
    judge: str | None = None
    grounded: bool = False


class UncoveredClause(BaseModel):
    """An operative input clause no position covers."""

    id: str
    input: Quote
    p_same: float  # its best P(same matter) with any text of the playbook
    nearest_position: str | None = None
    definition: bool = False
    reference: None = None
    grounded: bool = False


@dataclass
class ReviewResult:
    """A finished review: the review document, the rendered playbook it quotes, the input, provenance."""

    review: dict
    params: dict
    playbook: Playbook
    rendered: PlaybookDocument
    reference: IndexedDocument
    input: IndexedDocument
    timings: dict[str, float] = field(default_factory=dict)
    judgements: dict[tuple[str, tuple[str, ...]], Judgement] = field(default_factory=dict)
    """(text id, input clause ids) -> the judge's verdict, for every text each linked passage was judged against."""


def review(engine: Engine, playbook: Playbook, input: Document) -> ReviewResult:
    """Review ``input`` against ``playbook`` with ``engine``'s configured stages."""
    return _Review(engine, playbook, input).run()


class _Review:
    def __init__(self, engine: Engine, playbook: Playbook, input: Document) -> None:
        self.engine, self.playbook, self.input_document = engine, playbook, input
        self.rendered = render_playbook(playbook)
        self.document = self.rendered.document(f"{playbook.path} (rendered as Markdown)")
        self.clauses = text_clauses(playbook, self.rendered)
        self.owner = {t.id: p for p in playbook.positions for t in p.texts}
        self.timings: dict[str, float] = {}

    def run(self) -> ReviewResult:
        started = time.perf_counter()
        inp_clauses = self.engine.clauses(self.input_document)
        judged = self.engine.judge_documents(self.document, self.clauses, self.input_document, inp_clauses,
                                             self.timings, reference_key=self._index_key())
        self.texts, self.input = judged.reference, judged.input
        t = time.perf_counter()
        positions = self._positions_document(judged)
        alignment = align(positions, self.input, self._by_position(judged.judgements), self._align_options(),
                          self._judge_position_runs)
        links = {pid: link for link in _links(alignment) for pid in link.reference}
        judgements = self._judge_passages(links)
        verdicts = [self._verdict(position, links.get(position.id), judgements, judged.judgements)
                    for position in self.playbook.positions]
        uncovered = self._uncovered(alignment, judged.judgements)
        checked = self._ground(verdicts, uncovered)
        self.timings["review"] = time.perf_counter() - t
        self.timings["total"] = time.perf_counter() - started
        params = self.engine.params()
        params["timings"] = {k: round(v, 4) for k, v in self.timings.items()}
        document = self._review_document(verdicts, uncovered, judged, checked)
        return ReviewResult(review=document, params=params, playbook=self.playbook, rendered=self.rendered,
                            reference=self.texts, input=self.input, timings=self.timings, judgements=judgements)

    # -- alignment ------------------------------------------------------------------------------

    def _index_key(self) -> str:
        """The texts' cache key: the rendered playbook and how it is cut into texts (no segmenter reads it)."""
        embedder = self.engine.embedder
        cut = [(c.id, c.span.start, c.span.end, c.kind) for c in self.clauses]
        return key_of("playbook-index", PIPELINE_VERSION, hashlib.sha256(self.rendered.text.encode()).hexdigest(), cut,
                      embedder.fingerprint if embedder is not None else None)

    def _positions_document(self, judged: JudgedDocuments) -> IndexedDocument:
        """One clause per position (its preferred text), in the order the input discusses the positions."""
        where = {c.id: k for k, c in enumerate(self.input.clauses)}
        best: dict[str, tuple[float, int]] = {}
        for j in judged.judgements:
            pid = self.owner[j.reference_id].id
            at = where.get(j.input_id.split("+")[0], 0)
            if j.p_same > best.get(pid, (-1.0, 0))[0]:
                best[pid] = (j.p_same, at)
        order = sorted(range(len(self.playbook.positions)),
                       key=lambda k: (best.get(self.playbook.positions[k].id, (0.0, len(where)))[1], k))
        by_id = {c.id: c for c in self.clauses}
        clauses = []
        for n, k in enumerate(order):
            position = self.playbook.positions[k]
            # the preferred text's span (exact matches read it); every text's words (a link grows over the
            # input clauses that are pieces of any of them)
            words = " ".join(by_id[t.id].text for t in position.texts)
            clauses.append(by_id[position.preferred.id].model_copy(update={"id": position.id, "order": n, "text": words}))
        return IndexedDocument(document=self.document, clauses=clauses)

    def _by_position(self, judgements: list[Judgement]) -> list[Judgement]:
        """One judgement per (position, input clause): that of the position's text most likely the same matter."""
        best: dict[tuple[str, str], Judgement] = {}
        for j in judgements:
            key = (self.owner[j.reference_id].id, j.input_id)
            if key not in best or (j.p_same, -j.p_conflict) > (best[key].p_same, -best[key].p_conflict):
                best[key] = j
        return [j.model_copy(update={"reference_id": pid}) for (pid, _), j in best.items()]

    def _align_options(self) -> AlignOptions:
        config = self.engine.config
        options = config.alignment.options(config.thresholds)
        # order carries no meaning in a playbook; each position stands alone
        return AlignOptions(same_matter=options.same_matter, conflict=options.conflict, moved=options.same_matter,
                            gap_cost=options.gap_cost, run_containment=options.run_containment,
                            definition_gaps=options.definition_gaps, reference_runs=False)

    def _judge_position_runs(self, runs: list[Run]) -> list[Judgement]:
        """The alignment's runs judged against every text of their positions; each answer is the best text's."""
        asks = [((t.id,), inp) for pids, inp in runs for pid in pids for t in self.playbook.position(pid).texts]
        answers = dict(zip(asks, self.engine.judge_runs(list(dict.fromkeys(asks)), self.texts, self.input)))
        out = []
        for pids, inp in runs:
            per_position = [max((answers[((t.id,), inp)] for t in self.playbook.position(pid).texts),
                                key=lambda j: (j.p_same, -j.p_conflict)) for pid in pids]
            out.append(min(per_position, key=lambda j: j.p_same).model_copy(update={"reference_id": "+".join(pids)}))
        return out

    # -- verdicts -------------------------------------------------------------------------------

    def _judge_passages(self, links: dict[str, Link]) -> dict[tuple[str, tuple[str, ...]], Judgement]:
        """Each linked passage against every text of its position, in one batch; identical texts need no judge."""
        out: dict[tuple[str, tuple[str, ...]], Judgement] = {}
        asks: list[Run] = []
        for pid, link in links.items():
            passage = self._passage_key(link.input)
            for text in self.playbook.position(pid).texts:
                if text_key(clause_source(self.document, self.texts.clause(text.id))) == passage:
                    out[(text.id, link.input)] = identical_judgement(text.id, "+".join(link.input))
                else:
                    asks.append(((text.id,), link.input))
        asks = list(dict.fromkeys(asks))
        for (text_ids, inp), judgement in zip(asks, self.engine.judge_runs(asks, self.texts, self.input), strict=True):
            out[(text_ids[0], inp)] = judgement
        return out

    def _passage_key(self, clause_ids: tuple[str, ...]) -> str:
        return " ".join(k for k in (text_key(clause_source(self.input.document, self.input.clause(c))) for c in clause_ids) if k)

    def _verdict(self, position: ResolvedPosition, link: Link | None,
                 judgements: dict[tuple[str, tuple[str, ...]], Judgement], retrieved: list[Judgement]) -> PositionVerdict:
        common = {"id": position.id, "subject": position.subject, "title": position.title, "severity": position.severity,
                  "required": position.required, "guidance": self._guidance(position)}
        if link is None:
            return self._missing(position, retrieved, common)
        matches = [(t, judgements[(t.id, link.input)]) for t in position.texts]
        accepted = [(t, j) for t, j in matches if t.role != "red-line"]
        red = [(t, j) for t, j in matches if t.role == "red-line"]
        hits = self._rule_hits(position, link.input)
        dist = distribution([p_match(j) for _, j in accepted], [p_match(j) for _, j in red], broken=bool(hits))
        verdict, fallback, p = dist.verdict()
        nearest_text, nearest = max(accepted, key=lambda pair: (p_match(pair[1]), -pair[0].rank))
        shown_text, shown = (accepted[fallback or 0] if verdict != NOT_ACCEPTABLE else (nearest_text, nearest))
        hits += self._red_text_hits(red, dist)
        reasons = [Reason(type="red-line", input=h.input.text if h.input else None, detail=f"{h.red_line}: {h.detail}")
                   for h in hits]
        reasons += shown.reasons
        reference = self._text_quote(shown_text)
        passage = quote_of_run(self.input, link.input)
        return PositionVerdict(
            **common, verdict=verdict, fallback=fallback, label=accepted_label(fallback or 0) if verdict != NOT_ACCEPTABLE
            else "not acceptable", p_verdict=round(p, 4), probabilities=dist.labelled(), p_same=round(link.p_same, 4),
            reference=reference, nearest=shown_text.label, input=passage,
            texts=[_text_match(t, j) for t, j in matches], red_lines=hits, reasons=reasons, edits=list(shown.edits),
            redline=redline_record(reference.text, passage.text), judge=shown.judge,
        )

    def _missing(self, position: ResolvedPosition, retrieved: list[Judgement], common: dict) -> PositionVerdict:
        ids = {t.id for t in position.texts}
        best = max((j.p_same for j in retrieved if j.reference_id in ids), default=0.0)
        verdict = MISSING if position.required else ABSENT
        why = ("the position is required" if position.required else "the position is optional: its absence is accepted")
        return PositionVerdict(
            **common, verdict=verdict, label="missing" if position.required else "absent", p_verdict=round(1.0 - best, 4),
            probabilities={verdict: round(1.0 - best, 4)}, p_same=round(best, 4),
            reference=self._text_quote(position.preferred), nearest=position.preferred.label,
            reasons=[Reason(type=verdict, detail=f"no clause of the input deals with this matter (best P(same matter) "
                                                  f"{best:.2f}); {why}")],
        )

    def _rule_hits(self, position: ResolvedPosition, clause_ids: tuple[str, ...]) -> list[RedLineHit]:
        if not position.rules:
            return []
        original = self.input.document.original
        readings = [Reading.of(original, c.span.start, c.span.end) for c in map(self.input.clause, clause_ids)]
        hits = []
        for rule in position.rules:
            found = [h for reading in readings for h in rule.rule.check(reading)]
            if rule.rule.kind == "lacks":  # words missing from one clause of a passage may be in another: missing from all
                times = Counter(h.detail for h in found)
                found = list({h.detail: h for h in found if times[h.detail] == len(readings)}.values())
            for h in found:
                quote = None
                if h.start is not None and h.end is not None:
                    quote = Quote(start=h.start, end=h.end, text=original[h.start:h.end], clause_id=clause_ids[0])
                hits.append(RedLineHit(red_line=rule.label, rule=rule.rule.describe(), detail=h.detail, p=1.0, input=quote))
        return hits

    @staticmethod
    def _red_text_hits(red: list[tuple[PositionText, Judgement]], dist: Distribution) -> list[RedLineHit]:
        """Red-line texts the passage more likely matches than any accepted text."""
        best_accepted = max(dist.accepted) if dist.accepted else 0.0
        return [RedLineHit(red_line=t.label, detail=f"the clause says what {t.label} says (P {share:.2f})", p=round(share, 4))
                for (t, _), share in zip(red, dist.red) if share > best_accepted and share >= dist.none]

    def _guidance(self, position: ResolvedPosition) -> str | None:
        parts = [x for x in (self.playbook.subject_guidance.get(position.subject), position.guidance) if x]
        return " ".join(parts) or None

    def _text_quote(self, text: PositionText) -> Quote:
        clause = self.texts.clause(text.id)
        start, end = clause.span.start, clause.span.end
        return Quote(start=start, end=end, text=self.document.original[start:end], heading=clause.heading,
                     section=text.label, clause_id=text.id)

    # -- the rest -------------------------------------------------------------------------------

    def _uncovered(self, alignment: Alignment, retrieved: list[Judgement]) -> list[UncoveredClause]:
        best: dict[str, tuple[float, str]] = {}
        for j in retrieved:
            if j.p_same > best.get(j.input_id, (-1.0, ""))[0]:
                best[j.input_id] = (j.p_same, self.owner[j.reference_id].id)
        out = []
        for gap in alignment.added:
            p, nearest = best.get(gap.clause_id, (0.0, None))
            out.append(UncoveredClause(id=f"U{len(out) + 1:04d}", input=quote_of_run(self.input, (gap.clause_id,)),
                                       p_same=round(max(p, 0.0), 4), nearest_position=nearest, definition=gap.definition))
        return out

    def _ground(self, verdicts: list[PositionVerdict], uncovered: list[UncoveredClause]) -> int:
        """Check every quote against its document: playbook texts against the rendered playbook, the rest the input."""
        from conflictkit.grounding import Verifier

        checked = ground_findings([*verdicts, *uncovered], self.texts, self.input)
        verifier = Verifier(self.input.document.original)
        for verdict in verdicts:
            for hit in verdict.red_lines:
                if hit.input is None:
                    continue
                result = verifier.verify(hit.input.text, start=hit.input.start, end=hit.input.end, label=verdict.id)
                checked += 1
                if result.status != "grounded":
                    raise GroundingError(f"position {verdict.id}: {hit.red_line} cites input [{hit.input.start}, "
                                         f"{hit.input.end}) but verification says {result.status}: {result.detail}")
        return checked

    def _review_document(self, verdicts: list[PositionVerdict], uncovered: list[UncoveredClause],
                         judged: JudgedDocuments, checked: int) -> dict:
        counts = {v: sum(1 for x in verdicts if x.verdict == v) for v in ("standard", "fallback", NOT_ACCEPTABLE, MISSING, ABSENT)}
        inp = document_summary(self.input)
        summary = {
            **counts, "uncovered": len(uncovered), "positions": len(verdicts),
            "red_line_hits": sum(len(v.red_lines) for v in verdicts),
            "clauses": {"playbook_texts": len(self.clauses), "input": inp["clauses"]}, "filtered": inp["filtered"],
            "all_pairs": len(self.clauses) * inp["clauses"], "candidate_pairs": len(judged.candidates),
            "judged_pairs": len(judged.judgements), "spans_checked": checked,
        }
        config = self.engine.config
        return {
            "schema": REVIEW_SCHEMA,
            "playbook": {"path": self.playbook.path, "sha256": self.playbook.sha256, "title": self.playbook.title,
                         "template": self.playbook.template, "positions": len(self.playbook.positions),
                         "rendered_sha256": hashlib.sha256(self.rendered.text.encode("utf-8")).hexdigest()},
            "input": inp,
            "thresholds": config.thresholds.model_dump(),
            "summary": summary,
            "positions": [v.model_dump(mode="json") for v in verdicts],
            "uncovered": [u.model_dump(mode="json", exclude={"reference", "grounded"}) | {"grounded": u.grounded}
                          for u in uncovered],
        }


def _links(alignment: Alignment) -> list[Link]:
    return [*alignment.deviations, *alignment.covered, *(link for block in alignment.moves for link in block)]


def _text_match(text: PositionText, judgement: Judgement) -> TextMatch:
    return TextMatch(text=text.label, text_id=text.id, p_match=round(p_match(judgement), 4), p_same=round(judgement.p_same, 4),
                     p_differs=round(judgement.p_differs, 4), p_conflict=round(judgement.p_conflict, 4), judge=judgement.judge)


__all__ = ["REVIEW_SCHEMA", "PositionVerdict", "ReviewResult", "UncoveredClause", "review"]
