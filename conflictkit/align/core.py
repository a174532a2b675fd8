"""Align two clause sequences from their judged pairs: exact text, order, runs, then moves.

1. Clauses with equal text (up to whitespace, emphasis, labels) pair first and are never displaced.
2. The heaviest monotone chain of exact pairs and judged same-matter pairs (weighted by P(same))
   aligns the rest in document order; exact pairs that break the order are moves.
3. Each link grows into adjacent unaligned clauses that are pieces of its counterpart (splits,
   merges, re-wrapping), and an unaligned stretch whose words equal the facing stretch is one
   exact run; grown runs are judged again on their concatenated text.
4. A clause still unaligned whose strongest judged counterpart is also unaligned (necessarily out
   of order, or the chain would have taken it) is moved; a clause whose exact copy is aligned
   elsewhere is a duplicate, not a gap.
5. Two definitions of one term still unaligned are one changed definition, however different
   their words: a deviation, never a missing plus an added.
6. What is left is missing (reference) or added (input); definitions are marked.

Filtered clauses take no part: they are neither linked nor gaps, and do not break a run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from conflictkit.align.chain import heaviest_chain
from conflictkit.align.exact import exact_anchors
from conflictkit.align.model import Alignment, Gap, Link
from conflictkit.align.runs import Run, grow, regions
from conflictkit.align.text import clause_source, defined_term, joined_key, text_key
from conflictkit.model import Clause, IndexedDocument, Judgement, Reason

RunJudge = Callable[[list[tuple[tuple[str, ...], tuple[str, ...]]]], list[Judgement]]
"""Judges (reference run, input run) pairs of clause ids on their concatenated texts, in one batch."""

EXACT_WEIGHT = 2.0  # above any P(same): an exact pair outweighs any judged pair it crosses


@dataclass(frozen=True)
class AlignOptions:
    same_matter: float = 0.3
    conflict: float = 0.7
    moved: float = 0.6
    gap_cost: float = 0.0
    run_containment: float = 0.8
    definition_gaps: bool = True
    reference_runs: bool = True
    """Whether a link may grow over several reference clauses; off where each reference clause stands
    alone (a playbook's positions: one input passage may cover a position, never merge two)."""


def can_pair(clause: Clause) -> bool:
    """Operative clauses and definitions are aligned; filtered text never is."""
    return clause.filtered is None or clause.kind == "definition"


class _Sides:
    """The alignable clauses of both documents, by position in that reduced sequence."""

    def __init__(self, reference: IndexedDocument, input: IndexedDocument) -> None:
        self.documents = (reference, input)
        self.ref = [c for c in reference.clauses if can_pair(c)]
        self.inp = [c for c in input.clauses if can_pair(c)]
        self.ref_pos = {c.id: k for k, c in enumerate(self.ref)}
        self.inp_pos = {c.id: k for k, c in enumerate(self.inp)}
        self.ref_keys = [text_key(clause_source(reference.document, c)) for c in self.ref]
        self.inp_keys = [text_key(clause_source(input.document, c)) for c in self.inp]

    def ids(self, ref_run: Run, inp_run: Run) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return tuple(self.ref[k].id for k in ref_run), tuple(self.inp[k].id for k in inp_run)

    def same_text(self, ref_run: Run, inp_run: Run) -> bool:
        return joined_key([self.ref_keys[k] for k in ref_run]) == joined_key([self.inp_keys[k] for k in inp_run])


def align(
    reference: IndexedDocument, input: IndexedDocument, judgements: Sequence[Judgement],
    options: AlignOptions, judge_runs: RunJudge | None = None,
) -> Alignment:
    """Deviations, covered links, moves, missing and added clauses of two judged documents."""
    sides = _Sides(reference, input)
    judged = {(sides.ref_pos[j.reference_id], sides.inp_pos[j.input_id]): j for j in judgements
              if j.reference_id in sides.ref_pos and j.input_id in sides.inp_pos}
    anchors = exact_anchors(sides.ref_keys, sides.inp_keys)
    in_order, moved = _chain(anchors, judged, options)
    free_ref = set(range(len(sides.ref))) - {r for r, _ in in_order + moved}
    free_inp = set(range(len(sides.inp))) - {i for _, i in in_order + moved}
    asked: list[int] = []
    counted = None if judge_runs is None else _counting(judge_runs, asked)
    links = _runs(sides, in_order, judged, free_ref, free_inp, options, counted)
    moved_links = [_link(sides, [r], [i], judged, moved=True) for r, i in moved]
    moved_links += _moves(sides, judged, free_ref, free_inp, options)
    links += _duplicates(sides, free_ref, free_inp)
    links += _same_terms(sides, judged, free_ref, free_inp, counted, options)
    links = [_with_filtered_neighbours(sides, link) for link in links]
    result = _classify(sides, links, moved_links, judgements, free_ref, free_inp, options)
    result.judged_runs = sum(asked)
    return result


def _counting(judge_runs: RunJudge, asked: list[int]) -> RunJudge:
    def counted(runs):
        asked.append(len(runs))
        return judge_runs(runs)

    return counted


def _chain(
    anchors: list[tuple[int, int]], judged: dict[tuple[int, int], Judgement], options: AlignOptions,
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """In-order pairs of the heaviest chain, and exact pairs left out of it (moves)."""
    anchored_ref = {r for r, _ in anchors}
    anchored_inp = {i for _, i in anchors}
    items = [(r, i, EXACT_WEIGHT) for r, i in anchors]
    items += [(r, i, j.p_same) for (r, i), j in judged.items()
              if j.p_same >= options.same_matter and r not in anchored_ref and i not in anchored_inp]
    chosen = heaviest_chain(items, options.gap_cost)
    in_order = [(items[k][0], items[k][1]) for k in chosen]
    kept = set(in_order)
    return in_order, [a for a in anchors if a not in kept]


def _link(sides: _Sides, ref_run: Run, inp_run: Run, judged, moved: bool = False, judgement: Judgement | None = None) -> Link:
    ref_ids, inp_ids = sides.ids(ref_run, inp_run)
    if judgement is None and not sides.same_text(ref_run, inp_run):
        judgement = judged[(ref_run[0], inp_run[0])]
    return Link(reference=ref_ids, input=inp_ids, judgement=judgement, moved=moved)


def _runs(
    sides: _Sides, in_order: list[tuple[int, int]], judged, free_ref: set[int], free_inp: set[int],
    options: AlignOptions, judge_runs: RunJudge | None,
) -> list[Link]:
    """The in-order links, grown into runs where adjacent clauses are pieces of their counterpart."""
    runs: list[tuple[Run, Run]] = []
    for r, i in in_order:
        if sides.same_text([r], [i]):
            runs.append(([r], [i]))
            continue
        growable_ref = free_ref if options.reference_runs else set()
        runs.append(grow([r], [i], growable_ref, free_inp, lambda k: sides.ref[k].text, lambda k: sides.inp[k].text,
                         options.run_containment))
    origin = {(tuple(a), tuple(b)): pair for pair, (a, b) in zip(in_order, runs)}
    runs = _merge_rewrapped_neighbours(sides, runs)
    links = [_link(sides, a, b, judged) for a, b in _equal_stretches(sides, runs, free_ref, free_inp)]
    grown = [(a, b) for a, b in runs if (len(a) > 1 or len(b) > 1) and not sides.same_text(a, b)]
    verdicts = _judge_grown(sides, grown, judge_runs)
    for ref_run, inp_run in runs:
        key = (tuple(ref_run), tuple(inp_run))
        verdict = verdicts.get(key)
        if verdict is not None and verdict.p_same >= options.same_matter:
            links.append(_link(sides, ref_run, inp_run, judged, judgement=verdict))
            continue
        if key in verdicts:  # the judge does not see one matter in the runs: back to the single pair
            r0, i0 = origin[key]
            free_ref.update(k for k in ref_run if k != r0)
            free_inp.update(k for k in inp_run if k != i0)
            ref_run, inp_run = [r0], [i0]
        links.append(_link(sides, ref_run, inp_run, judged))
    return links


def _equal_stretches(sides: _Sides, runs: list[tuple[Run, Run]], free_ref: set[int], free_inp: set[int]) -> list[tuple[Run, Run]]:
    """Unaligned stretches between two links whose words are equal on both sides: one passage cut differently."""
    out = []
    for ref_range, inp_range in regions(runs, len(sides.ref), len(sides.inp)):
        ref_gap = [k for k in ref_range if k in free_ref]
        inp_gap = [k for k in inp_range if k in free_inp]
        if ref_gap and inp_gap and sides.same_text(ref_gap, inp_gap):
            free_ref.difference_update(ref_gap)
            free_inp.difference_update(inp_gap)
            out.append((ref_gap, inp_gap))
    return out


def _merge_rewrapped_neighbours(sides: _Sides, runs: list[tuple[Run, Run]]) -> list[tuple[Run, Run]]:
    """Join adjacent links whose texts together are equal: the two sides cut one passage elsewhere."""
    out: list[tuple[Run, Run]] = []
    for ref_run, inp_run in runs:
        if out:
            prev_ref, prev_inp = out[-1]
            adjacent = ref_run[0] == prev_ref[-1] + 1 and inp_run[0] == prev_inp[-1] + 1
            if adjacent and not sides.same_text(prev_ref, prev_inp) and sides.same_text(prev_ref + ref_run, prev_inp + inp_run):
                out[-1] = (prev_ref + ref_run, prev_inp + inp_run)
                continue
        out.append((ref_run, inp_run))
    return out


def _judge_grown(sides: _Sides, grown: list[tuple[Run, Run]], judge_runs: RunJudge | None) -> dict:
    verdicts: dict[tuple[tuple[int, ...], tuple[int, ...]], Judgement | None] = {}
    if not grown:
        return verdicts
    answers = judge_runs([sides.ids(a, b) for a, b in grown]) if judge_runs is not None else [None] * len(grown)
    for (a, b), answer in zip(grown, answers, strict=True):
        verdicts[(tuple(a), tuple(b))] = answer
    return verdicts


def _moves(sides: _Sides, judged, free_ref: set[int], free_inp: set[int], options: AlignOptions) -> list[Link]:
    """Unaligned clauses whose strong counterpart is unaligned too: out of order, so moved."""
    strong = sorted(((j.p_same, r, i) for (r, i), j in judged.items()
                     if r in free_ref and i in free_inp and j.p_same >= max(options.moved, options.same_matter)),
                    reverse=True)
    links = []
    for _, r, i in strong:
        if r in free_ref and i in free_inp:
            free_ref.discard(r)
            free_inp.discard(i)
            links.append(_link(sides, [r], [i], judged, moved=True))
    return links


def _duplicates(sides: _Sides, free_ref: set[int], free_inp: set[int]) -> list[Link]:
    """A clause whose exact text is on the other side, aligned elsewhere: a repeat, not new matter."""
    links = []
    keys_ref = {key: k for k, key in enumerate(sides.ref_keys) if key}
    keys_inp = {key: k for k, key in enumerate(sides.inp_keys) if key}
    for free, own, other_keys, own_is_ref in ((free_ref, sides.ref_keys, keys_inp, True), (free_inp, sides.inp_keys, keys_ref, False)):
        for k in sorted(free):
            twin = other_keys.get(own[k])
            if twin is None:
                continue
            free.discard(k)
            links.append(_link(sides, [k], [twin], {}) if own_is_ref else _link(sides, [twin], [k], {}))
    return links


def _with_filtered_neighbours(sides: _Sides, link: Link) -> Link:
    """A link that differs only by a filtered fragment next to it (a title cut off by a line break) is exact.

    Filtered clauses are never aligned on their own, but when adding the one just before or after a
    side makes both sides' text equal, the two sides say the same words.
    """
    if link.judgement is None:
        return link
    reference, input = sides.documents
    options = [(link.reference, link.input)]
    for document, index in ((reference, 0), (input, 1)):
        ids = (link.reference, link.input)[index]
        first, last = document.position(ids[0]), document.position(ids[-1])
        for extra in ((document.clauses[first - 1].id, *ids) if first > 0 and not can_pair(document.clauses[first - 1]) else None,
                      (*ids, document.clauses[last + 1].id) if last + 1 < len(document.clauses) and not can_pair(document.clauses[last + 1]) else None):
            if extra is not None:
                options.append((extra, link.input) if index == 0 else (link.reference, extra))
    for ref_ids, inp_ids in options[1:]:
        if _key_of(reference, ref_ids) == _key_of(input, inp_ids):
            return Link(reference=ref_ids, input=inp_ids, judgement=None, moved=link.moved)
    return link


def _key_of(document: IndexedDocument, ids: tuple[str, ...]) -> str:
    return joined_key([text_key(clause_source(document.document, document.clause(cid))) for cid in ids])


def _same_terms(
    sides: _Sides, judged, free_ref: set[int], free_inp: set[int], judge_runs: RunJudge | None, options: AlignOptions,
) -> list[Link]:
    """Unaligned definitions of the same term on both sides: the definition changed."""
    terms_inp: dict[str, int] = {}
    for k in sorted(free_inp):
        if sides.inp[k].kind == "definition" and (term := defined_term(sides.inp[k].text)):
            terms_inp.setdefault(term, k)
    pairs = []
    for r in sorted(free_ref):
        term = defined_term(sides.ref[r].text) if sides.ref[r].kind == "definition" else None
        if term is not None and term in terms_inp:
            pairs.append((r, terms_inp.pop(term), term))
    if not pairs:
        return []
    missing = [(r, i) for r, i, _ in pairs if (r, i) not in judged]
    asked = judge_runs([sides.ids([r], [i]) for r, i in missing]) if missing and judge_runs is not None else []
    verdicts = {**{(r, i): judged[(r, i)] for r, i, _ in pairs if (r, i) in judged}, **dict(zip(missing, asked))}
    links = []
    for r, i, term in pairs:
        verdict = verdicts.get((r, i))
        if verdict is None:
            continue
        free_ref.discard(r)
        free_inp.discard(i)
        if verdict.p_conflict < options.conflict and verdict.p_same < options.same_matter:
            # the judge sees other matter in two definitions of one term: the definition was rewritten
            verdict = verdict.model_copy(update={
                "p_conflict": max(options.conflict, 1.0 - verdict.p_same),
                "reasons": [*verdict.reasons, Reason(type="definition", reference=term, input=term,
                                                     detail=f'the definition of "{term}" was rewritten')],
            })
        links.append(_link(sides, [r], [i], judged, judgement=verdict))
    return links


def _classify(
    sides: _Sides, links: list[Link], moved_links: list[Link], judgements: Sequence[Judgement],
    free_ref: set[int], free_inp: set[int], options: AlignOptions,
) -> Alignment:
    result = Alignment()
    reference, input = sides.documents
    for link in sorted(links + moved_links, key=lambda x: (reference.position(x.reference[0]), input.position(x.input[0]))):
        if link.p_conflict >= options.conflict:
            result.deviations.append(link)
        else:
            result.covered.append(link)
    result.moves = _move_blocks(sides, [x for x in moved_links if x.p_conflict < options.conflict])
    best_ref: dict[str, float] = {}
    best_inp: dict[str, float] = {}
    for j in judgements:
        best_ref[j.reference_id] = max(best_ref.get(j.reference_id, 0.0), j.p_same)
        best_inp[j.input_id] = max(best_inp.get(j.input_id, 0.0), j.p_same)
    result.missing = _gaps([sides.ref[k] for k in sorted(free_ref)], best_ref, options)
    result.added = _gaps([sides.inp[k] for k in sorted(free_inp)], best_inp, options)
    return result


def _move_blocks(sides: _Sides, moved: list[Link]) -> list[list[Link]]:
    """Moved links grouped into blocks consecutive on both sides: a moved section is one move."""
    blocks: list[list[Link]] = []
    for link in sorted(moved, key=lambda x: sides.ref_pos[x.reference[0]]):
        if blocks:
            last = blocks[-1][-1]
            if (sides.ref_pos[link.reference[0]] == sides.ref_pos[last.reference[-1]] + 1
                    and sides.inp_pos[link.input[0]] == sides.inp_pos[last.input[-1]] + 1):
                blocks[-1].append(link)
                continue
        blocks.append([link])
    return blocks


def _gaps(clauses: list[Clause], best: dict[str, float], options: AlignOptions) -> list[Gap]:
    out = []
    for clause in clauses:
        definition = clause.kind == "definition"
        if clause.kind == "clause" and clause.filtered is None or definition and options.definition_gaps:
            out.append(Gap(clause_id=clause.id, best_p_same=best.get(clause.id, 0.0), definition=definition))
    return out
