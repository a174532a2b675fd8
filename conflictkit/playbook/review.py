"""Reviewing a document against a playbook: a verdict per position, with the engine's own stages.

1. The playbook is rendered as Markdown (:mod:`conflictkit.playbook.document`): every text of
   every position (preferred, fallbacks, red-line texts) is one clause of that reference document,
   and so is every clause of the playbook's template that no position stands for (context).
2. The engine retrieves and judges candidate pairs between those clauses and the input's, as
   ``compare`` does (identical texts settled first, then retrieval, scorer, judge; cached). The
   other texts of a position the input has word for word are not retrieved: its passage is known.
3. Alignment (:func:`conflictkit.align.align`, as in ``compare``) runs on one clause per position
   (each pair weighted by the best of its texts) and per context clause, in the template's order; a
   position with no place in the template goes where the input discusses it, and an out-of-order
   pair is taken as soon as it is the same matter (a playbook's order means nothing). A link may
   grow over several input clauses (a position written as one paragraph, a draft that splits it),
   never over several positions. An input clause a context clause takes is no position's.
4. Each linked position's input passage is judged against every one of its texts in one batch,
   and :mod:`conflictkit.playbook.verdicts` turns those judgements and the red-line rules into
   the verdict and its probabilities. A position with no link, or whose passage is more likely
   another matter, is ``missing`` (``absent`` when optional).
5. Every quote (input passages, the playbook's texts, the words that break a rule) is checked
   against its document before the review is returned.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass, field

from conflictkit import PIPELINE_VERSION
from conflictkit.align import AlignOptions, Alignment, Link, align, can_pair
from conflictkit.align.text import clause_source, text_key
from conflictkit.engine import Engine, JudgedDocuments
from conflictkit.errors import GroundingError
from conflictkit.identical import identical_judgement, identical_pairs
from conflictkit.model import CandidatePair, Clause, Document, IndexedDocument, Judgement, Quote, Reason, Span
from conflictkit.playbook.document import PlaybookDocument, context_id, render_playbook, text_clauses, with_context
from conflictkit.playbook.load import Playbook, PositionText, ResolvedPosition, section_clauses
from conflictkit.playbook.output import (
    REVIEW_SCHEMA,
    PlaybookSummary,
    PositionVerdict,
    RedLineHit,
    ReviewDocument,
    ReviewSummary,
    TextMatch,
    UncoveredClause,
)
from conflictkit.playbook.rules import Reading
from conflictkit.playbook.verdicts import (
    ABSENT,
    FALLBACK,
    MISSING,
    NOT_ACCEPTABLE,
    STANDARD,
    Distribution,
    accepted_label,
    distribution,
    p_match,
)
from conflictkit.report.build import document_summary, ground_findings, quote_of_run, redline_record
from conflictkit.segmenters.markup import clause_text
from conflictkit.store import key_of

Run = tuple[tuple[str, ...], tuple[str, ...]]


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
        self.timings: dict[str, float] = {}

    def run(self) -> ReviewResult:
        started = time.perf_counter()
        self.engine.detect_language(self.rendered.text, self.input_document.normalized)
        inp_clauses = self.engine.clauses(self.input_document)
        anchors, context = self._template_places()
        self._prepare(context)
        retrieved = self._to_retrieve(inp_clauses)
        judged = self.engine.judge_documents(self.document, retrieved, self.input_document, inp_clauses,
                                             self.timings, reference_key=self._index_key(retrieved),
                                             context_pairs=self._one_text_a_position)
        self.input = judged.input
        self.texts = IndexedDocument(document=self.document, clauses=self.clauses)  # every text, retrieved or not
        # what the judge reads from both whole documents (renames, aliases), for every later batch as for retrieval's
        self.context = self.engine.document_context(judged.reference, judged.input, self._one_text_a_position(judged.candidates))
        t = time.perf_counter()
        alignment = align(self._reference_sequence(judged, anchors, context), self.input,
                          self._by_reference(judged.judgements), self._align_options(), self._judge_reference_runs)
        links = {rid: link for link in _links(alignment) for rid in link.reference}
        judgements = self._judge_passages({pid: link for pid, link in links.items() if pid in self.positions})
        verdicts = [self._verdict(position, links.get(position.id), judgements, judged.judgements)
                    for position in self.playbook.positions]
        released = {v.id for v in verdicts if v.verdict in (MISSING, ABSENT) and v.input is not None}
        uncovered = self._uncovered(alignment, {rid: link for rid, link in links.items() if rid not in released},
                                    judged.judgements, [links[pid] for pid in released])
        checked = self._ground(verdicts, uncovered)
        self.timings["review"] = time.perf_counter() - t
        self.timings["total"] = time.perf_counter() - started
        params = self.engine.params()
        params["timings"] = {k: round(v, 4) for k, v in self.timings.items()}
        document = self._review_document(verdicts, uncovered, judged, checked, len(context))
        return ReviewResult(review=document, params=params, playbook=self.playbook, rendered=self.rendered,
                            reference=self.texts, input=self.input, timings=self.timings, judgements=judgements)

    # -- the reference: every text of every position, and the template's other clauses -----------

    def _prepare(self, context: list[Clause]) -> None:
        """The review's reference document: the rendered playbook, then the template clauses no position stands for."""
        self.rendered = with_context(self.rendered, context)
        self.document = self.rendered.document(f"{self.playbook.path} (rendered as Markdown)")
        self.clauses = text_clauses(self.playbook, self.rendered)
        self.clauses += [Clause(id=context_id(c), text=clause_text(self.rendered.text[slice(*self.rendered.spans[context_id(c)])]),
                                span=Span(start=self.rendered.spans[context_id(c)][0], end=self.rendered.spans[context_id(c)][1]),
                                kind=c.kind, heading=c.heading, section=c.section, order=len(self.clauses) + n)
                         for n, c in enumerate(context)]
        self.positions = {p.id: p for p in self.playbook.positions}
        # what each clause of the alignment's reference stands for: a position's texts, or one template clause
        self.members = {p.id: [t.id for t in p.texts] for p in self.playbook.positions}
        self.members.update({context_id(c): [context_id(c)] for c in context})
        self.owner = {text_id: rid for rid, ids in self.members.items() for text_id in ids}

    def _template_places(self) -> tuple[dict[str, int], list[Clause]]:
        """Where each position stands in the template (the index of its clause), and the template clauses no position stands for.

        A position stands for the clauses its texts cite, a clause whose text one of its texts is, or,
        failing both, the clause its preferred text is most clearly the same matter as (P(same) at
        least alignment.moved).
        """
        template = self.playbook.template_document
        clauses = self._pairable_template()
        if template is None or not clauses:
            return {}, []
        at = {c.id: k for k, c in enumerate(clauses)}
        keys = {key: k for k, c in reversed(list(enumerate(clauses)))
                for key in (text_key(clause_source(template, c)), text_key(c.text))}
        anchors: dict[str, int] = {}
        taken: set[str] = set()
        for position in self.playbook.positions:
            for text in position.texts:
                cited = [c.id for c in section_clauses(list(self.playbook.template_clauses), text.origin.removeprefix("template "))
                         if c.id in at] if text.origin.startswith("template ") else []
                same = keys.get(text_key(text.text))
                found = cited or ([clauses[same].id] if same is not None else [])
                taken.update(found)
                if found:
                    anchors.setdefault(position.id, at[found[0]])
        self._closest_clauses(template, clauses, anchors, taken, at)
        return anchors, [c for c in clauses if c.id not in taken]

    def _closest_clauses(self, template: Document, clauses: list[Clause], anchors: dict[str, int], taken: set[str],
                         at: dict[str, int]) -> None:
        """Positions written in their own words: each stands for the template clause it is most clearly the same matter as."""
        alone = [p for p in self.playbook.positions if p.id not in anchors]
        if not alone:
            return
        reference = self.rendered.document(f"{self.playbook.path} (rendered as Markdown)")
        preferred = {p.preferred.id for p in alone}
        own = [c for c in text_clauses(self.playbook, self.rendered) if c.id in preferred]
        cut = [(c.id, c.span.start, c.span.end) for c in own]
        key = key_of("playbook-own-words", PIPELINE_VERSION, hashlib.sha256(self.rendered.text.encode()).hexdigest(), cut)
        judged = self.engine.judge_documents(reference, own, template, list(self.playbook.template_clauses), reference_key=key)
        bar = max(self.engine.config.alignment.moved, self.engine.config.thresholds.same_matter)
        best: dict[str, Judgement] = {}
        for j in judged.judgements:
            if j.input_id in at and j.p_same >= bar and (j.reference_id not in best or j.p_same > best[j.reference_id].p_same):
                best[j.reference_id] = j
        for position in alone:
            j = best.get(position.preferred.id)
            if j is not None and j.input_id not in taken:
                taken.add(j.input_id)
                anchors[position.id] = at[j.input_id]

    def _to_retrieve(self, inp_clauses: list[Clause]) -> list[Clause]:
        """The reference clauses retrieval ranks: all but the other texts of a position one of whose texts the
        input has word for word (its passage is known; the verdict judges it against them all the same)."""
        plain = IndexedDocument(document=self.document, clauses=self.clauses)
        exact = identical_pairs(plain, IndexedDocument(document=self.input_document, clauses=inp_clauses))
        settled = {self.owner[r] for r, _ in exact}
        word_for_word = {r for r, _ in exact}
        return [c for c in self.clauses if self.owner[c.id] not in settled or c.id in word_for_word]

    def _one_text_a_position(self, candidates: list[CandidatePair]) -> list[CandidatePair]:
        """The pairs the document context is read from: a position's preferred text (and the template's clauses),
        never its other texts, which say the same words again (one change of the input would read as a rename)."""
        preferred = {p.preferred.id for p in self.playbook.positions}
        return [c for c in candidates if c.reference_id in preferred or c.reference_id not in self.owner
                or self.owner[c.reference_id] not in self.positions]

    def _index_key(self, clauses: list[Clause]) -> str:
        """The texts' cache key: the rendered playbook and how it is cut into texts (no segmenter reads it)."""
        embedder = self.engine.embedder
        cut = [(c.id, c.span.start, c.span.end, c.kind) for c in clauses]
        return key_of("playbook-index", PIPELINE_VERSION, hashlib.sha256(self.rendered.text.encode()).hexdigest(), cut,
                      embedder.fingerprint if embedder is not None else None)

    # -- alignment ------------------------------------------------------------------------------

    def _reference_sequence(self, judged: JudgedDocuments, anchors: dict[str, int], context: list[Clause]) -> IndexedDocument:
        """One clause per position (and per template clause no position stands for), in the template's order.

        A position with no place in the template (or a playbook without one) goes where the input
        discusses it: a playbook's own order carries no meaning.
        """
        where = {c.id: k for k, c in enumerate(self.input.clauses)}
        seen: dict[str, tuple[float, int]] = {}
        for j in judged.judgements:
            rid = self.owner[j.reference_id]
            if j.p_same > seen.get(rid, (-1.0, 0))[0]:
                seen[rid] = (j.p_same, where.get(j.input_id, len(where)))
        template_at = {**{pid: (k, 0) for pid, k in anchors.items()},
                       **{context_id(c): (k, 1) for k, c in enumerate(self._pairable_template()) if context_id(c) in self.members}}

        def place(rid: str) -> tuple[int, int, int]:
            if rid in template_at:
                return (0, *template_at[rid])
            return (1, seen.get(rid, (0.0, len(where)))[1], 0)

        by_id = {c.id: c for c in self.clauses}
        sequence = []
        for n, rid in enumerate(sorted(self.members, key=place)):
            if rid in self.positions:
                # the preferred text's span (exact matches read it); every text's words (a link grows over the
                # input clauses that are pieces of any of them)
                words = " ".join(by_id[t].text for t in self.members[rid])
                clause = by_id[self.positions[rid].preferred.id].model_copy(update={"id": rid, "order": n, "text": words})
            else:
                clause = by_id[rid].model_copy(update={"order": n})
            sequence.append(clause)
        return IndexedDocument(document=self.document, clauses=sequence)

    def _pairable_template(self) -> list[Clause]:
        return [c for c in self.playbook.template_clauses if can_pair(c)]

    def _by_reference(self, judgements: list[Judgement]) -> list[Judgement]:
        """One judgement per (position, input clause): that of the position's text most likely the same matter."""
        best: dict[tuple[str, str], Judgement] = {}
        for j in judgements:
            key = (self.owner[j.reference_id], j.input_id)
            if key not in best or (j.p_same, -j.p_conflict) > (best[key].p_same, -best[key].p_conflict):
                best[key] = j
        return [j.model_copy(update={"reference_id": rid}) for (rid, _), j in best.items()]

    def _align_options(self) -> AlignOptions:
        config = self.engine.config
        options = config.alignment.options(config.thresholds)
        # order carries no meaning in a playbook; each position stands alone
        return AlignOptions(same_matter=options.same_matter, conflict=options.conflict, moved=options.same_matter,
                            gap_cost=options.gap_cost, run_containment=options.run_containment,
                            definition_gaps=options.definition_gaps, reference_runs=False)

    def _judge_reference_runs(self, runs: list[Run]) -> list[Judgement]:
        """The alignment's runs judged against every text of their positions (a template clause is its own text);
        each answer is the best text's.

        A run of input clauses that says what a text says less than one of its clauses alone does is
        not one passage of the position (a neighbour with the same words, such as the other party's
        indemnity next to ours): it is answered with P(same) 0, so the alignment keeps the clause.
        """
        def texts(rids: tuple[str, ...]) -> list[str]:
            return [t for rid in rids for t in self.members[rid]]

        asks = []
        for rids, inp in runs:
            parts = [inp, *((c,) for c in inp)] if len(inp) > 1 else [inp]
            asks += [((t,), part) for t in texts(rids) for part in parts]
        asks = list(dict.fromkeys(asks))
        answers = dict(zip(asks, self.engine.judge_runs(asks, self.texts, self.input, self.context)))
        out = []
        for rids, inp in runs:
            best = max((answers[((t,), inp)] for t in texts(rids)), key=lambda j: (j.p_same, -j.p_conflict))
            whole = max(p_match(answers[((t,), inp)]) for t in texts(rids))
            alone = max((p_match(answers[((t,), (c,))]) for t in texts(rids) for c in inp), default=0.0) if len(inp) > 1 else 0.0
            if alone > whole:
                best = best.model_copy(update={"p_same": 0.0, "signals": {**best.signals, "clause_alone_matches_better": alone}})
            out.append(best.model_copy(update={"reference_id": "+".join(rids)}))
        return out

    def _judge_passages(self, links: dict[str, Link]) -> dict[tuple[str, tuple[str, ...]], Judgement]:
        """Each linked passage against every text of its position, in one batch.

        A passage that is one of the texts word for word says that text and, the texts of a position
        saying different things, no other: it needs no judge, unless the text is a red line (the
        accepted texts are judged then, for the reasons it is not acceptable).
        """
        out: dict[tuple[str, tuple[str, ...]], Judgement] = {}
        asks: list[Run] = []
        for pid, link in links.items():
            passage = self._passage_key(link.input)
            texts = self.playbook.position(pid).texts
            same = [t for t in texts if text_key(clause_source(self.document, self.texts.clause(t.id))) == passage]
            for text in same:
                out[(text.id, link.input)] = identical_judgement(text.id, "+".join(link.input))
            if all(t.role == "red-line" for t in same):
                asks += [((t.id,), link.input) for t in texts if t not in same]
        asks = list(dict.fromkeys(asks))
        for (text_ids, inp), judgement in zip(asks, self.engine.judge_runs(asks, self.texts, self.input, self.context), strict=True):
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
        matches = [(t, judgements[(t.id, link.input)]) for t in position.texts if (t.id, link.input) in judgements]
        accepted = [(t, j) for t, j in matches if t.role != "red-line"]
        red = [(t, j) for t, j in matches if t.role == "red-line"]
        hits = self._rule_hits(position, link.input)
        present = max(j.p_same for _, j in matches)
        dist = distribution([p_match(j) for _, j in accepted], [p_match(j) for _, j in red], bool(hits), present,
                            ranks=[t.rank for t, _ in accepted])
        verdict, fallback, p = dist.verdict()
        gap = MISSING if position.required else ABSENT
        # the accepted text quoted: the one matched, else the nearest (the preferred when the passage is a red-line text)
        shown_text, shown = max(accepted, key=lambda pair: (p_match(pair[1]), -pair[0].rank), default=(position.preferred, None))
        if verdict in (STANDARD, FALLBACK):
            shown_text, shown = next((t, j) for t, j in accepted if t.rank == (fallback or 0))
        hits += self._red_text_hits(red, dist)
        reasons = []
        if verdict == MISSING:  # the nearest clause is another matter: the position is not there
            verdict, hits = gap, []
            reasons.append(_absence(position, f"the nearest clause of the input deals with another matter (P(same matter) "
                                              f"{present:.2f})"))
        reasons += [Reason(type="red-line", detail=f"{h.red_line}" + (f" ({h.rule})" if h.rule else "") + f": {h.detail}")
                    for h in hits]
        reasons += shown.reasons if shown is not None else []
        reference = self._text_quote(shown_text)
        passage = quote_of_run(self.input, link.input)
        label = {NOT_ACCEPTABLE: "not acceptable", MISSING: MISSING, ABSENT: ABSENT}.get(verdict) or accepted_label(fallback or 0)
        return PositionVerdict(
            **common, verdict=verdict, fallback=fallback, label=label, p_verdict=round(p, 4),
            probabilities=dist.labelled(gap), p_same=round(present, 4),
            reference=reference, nearest=shown_text.label, input=passage,
            texts=[_text_match(t, j) for t, j in matches], red_lines=hits, reasons=reasons,
            edits=list(shown.edits) if shown is not None else [], redline=redline_record(reference.text, passage.text, self.engine.pack),
            judge=shown.judge if shown is not None else matches[0][1].judge,
        )

    def _missing(self, position: ResolvedPosition, retrieved: list[Judgement], common: dict) -> PositionVerdict:
        ids = {t.id for t in position.texts}
        best = max((j.p_same for j in retrieved if j.reference_id in ids), default=0.0)
        verdict = MISSING if position.required else ABSENT
        return PositionVerdict(
            **common, verdict=verdict, label=verdict, p_verdict=round(1.0 - best, 4),
            probabilities={verdict: round(1.0 - best, 4)}, p_same=round(best, 4),
            reference=self._text_quote(position.preferred), nearest=position.preferred.label,
            reasons=[_absence(position, f"no clause of the input that another position or the template does not account "
                                        f"for deals with this matter (best P(same matter) {best:.2f})")],
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
        return [RedLineHit(red_line=t.label, p=round(share, 4),
                           detail=f"the clause says what {t.label} says" + (f" ({t.note})" if t.note else ""))
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

    def _uncovered(self, alignment: Alignment, links: dict[str, Link], retrieved: list[Judgement],
                   released: list[Link]) -> list[UncoveredClause]:
        """Operative input clauses no position covers: those a template clause without a position matches, new ones,
        and those nearest to a position that are about another matter (``released``)."""
        best: dict[str, tuple[float, str]] = {}
        for j in retrieved:
            rid = self.owner[j.reference_id]
            if rid in self.positions and j.p_same > best.get(j.input_id, (-1.0, ""))[0]:
                best[j.input_id] = (j.p_same, rid)
        template = {c.id: c for c in self.playbook.template_clauses}
        found = [(cid, template[rid.removeprefix("template:")], link.p_same) for rid, link in links.items()
                 if rid not in self.positions for cid in link.input]
        found += [(gap.clause_id, None, None) for gap in alignment.added]
        found += [(cid, None, None) for link in released for cid in link.input]
        out = []
        for cid, clause, p_template in sorted(found, key=lambda x: self.input.position(x[0])):
            p, nearest = best.get(cid, (0.0, None))
            out.append(UncoveredClause(
                id=f"U{len(out) + 1:04d}", input=quote_of_run(self.input, (cid,)), p_same=round(max(p, 0.0), 4),
                nearest_position=nearest, definition=self.input.clause(cid).kind == "definition",
                template=None if clause is None else (clause.section or clause.id),
                p_template=None if p_template is None else round(p_template, 4),
            ))
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
                         judged: JudgedDocuments, checked: int, context: int) -> dict:
        counts = {v: sum(1 for x in verdicts if x.verdict == v) for v in ("standard", "fallback", NOT_ACCEPTABLE, MISSING, ABSENT)}
        inp = document_summary(self.input)
        summary = {
            **counts, "uncovered": len(uncovered), "positions": len(verdicts),
            "uncovered_not_in_template": sum(1 for u in uncovered if u.template is None) if context else None,
            "red_line_hits": sum(len(v.red_lines) for v in verdicts),
            "clauses": {"playbook": len(self.clauses), "input": inp["clauses"]}, "filtered": inp["filtered"],
            "all_pairs": len(self.clauses) * inp["clauses"], "candidate_pairs": len(judged.candidates),
            "judged_pairs": len(judged.judgements), "spans_checked": checked,
        }
        config = self.engine.config
        playbook = PlaybookSummary(
            path=self.playbook.path, sha256=self.playbook.sha256, title=self.playbook.title, template=self.playbook.template,
            positions=len(self.playbook.positions), template_clauses_without_position=context, notes=list(self.playbook.notes),
            rendered_sha256=hashlib.sha256(self.rendered.text.encode("utf-8")).hexdigest())
        return ReviewDocument(playbook=playbook, input=inp, thresholds=config.thresholds.model_dump(),
                              summary=ReviewSummary(**summary), positions=verdicts, uncovered=uncovered).to_json()


def _absence(position: ResolvedPosition, why: str) -> Reason:
    """The reason a position is missing (required) or absent (optional)."""
    if position.required:
        return Reason(type=MISSING, detail=f"{why}; the position is required")
    return Reason(type=ABSENT, detail=f"{why}; the position is optional: its absence is accepted")


def _links(alignment: Alignment) -> list[Link]:
    return [*alignment.deviations, *alignment.covered, *(link for block in alignment.moves for link in block)]


def _text_match(text: PositionText, judgement: Judgement) -> TextMatch:
    return TextMatch(text=text.label, text_id=text.id, p_match=round(p_match(judgement), 4), p_same=round(judgement.p_same, 4),
                     p_differs=round(judgement.p_differs, 4), p_conflict=round(judgement.p_conflict, 4), judge=judgement.judge)


__all__ = ["REVIEW_SCHEMA", "PositionVerdict", "ReviewResult", "UncoveredClause", "review"]
