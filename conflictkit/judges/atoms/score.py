"""From signals to probabilities: P(same matter), P(differs) and P(conflict).

P(same matter) is a logistic function of the evidence that two clauses deal with the same
matter, increasing in every input:

    E = weighted mean of the available signals among
          lexical  Dice overlap of the clauses' topic-word stems,                   in [0, 1]
          semantic retrieval cosine rescaled from [similarity_low, similarity_high] to [0, 1]
                   (or the retrieval relevance when no cosine is given and it is > 0)
    z = same_bias + same_evidence * E + same_heading * H + same_atoms * A - same_verbs * V
    P(same) = sigmoid(z)

with H in [-1, 1] from the overlap of the two headings (0 when either has none) and A in
[0, 1] the share of topic-bearing atom groups both clauses have (a governing law on both sides,
a duration on both sides...), and V = 1 when the duties or rights of the two clauses are about
different actions (no verb after a modal is shared, synonyms counted as one), else 0.

P(differs) is a noisy-OR over the typed differences, each with its weight w_t (an option):

    P(differs) = 1 - (1 - floor) * (1 - residual * (1 - lexical)) * prod_d (1 - w_type(d))

``floor`` is the chance that same-looking clauses still differ; the residual term lets
unexplained rewording raise P(differs) a little but never alone past the conflict threshold.

P(conflict) = P(differs) * P(same) ** same_exponent: a conflict needs both; the exponent
(default 0.5) keeps a clear one-atom change in a clause that was also reworded above the
conflict threshold while a pair that is probably about different matters stays below it.

Competition: two clauses of one document rarely deal with the very same matter, so when a
clause has a far better counterpart, its other pairs are less likely to be about the same
matter ("Termination for convenience" vs "Termination for cause" when the input also has its
own "Termination for convenience"): P(same) *= 1 - competition * gap, where gap is how far the
pair's P(same) falls below the best P(same) of either of its clauses (the Isaacus recipe reads
P(same matter) from the mutual match matrix for the same reason).
"""

from __future__ import annotations

import math

from conflictkit.judges.atoms.compare import Difference
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.synonyms import keys, weak_verbs
from conflictkit.lexicon import DEFAULT_LANGUAGE, LanguagePack
from conflictkit.model import Judgement

def topic_groups() -> frozenset[tuple[str, str]]:
    """Atom groups that say what a clause is about, gathered from the families."""
    from conflictkit.judges.atoms.family import derived

    return derived("topic groups", lambda found: frozenset().union(*(f.topic_groups for f in found)))


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def dice(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> float:
    """2|A & B| / (|A| + |B|); 0 when both are empty."""
    return 2.0 * len(a & b) / (len(a) + len(b)) if a or b else 0.0


def heading_agreement(ref_heading: str | None, inp_heading: str | None, language: str = DEFAULT_LANGUAGE) -> float:
    """In [-1, 1]: +1 for the same heading words, -1 for disjoint headings, 0 when either is missing."""
    from conflictkit.judges.atoms.text import content_stems, lowered

    if not ref_heading or not inp_heading:
        return 0.0
    a, b = content_stems(lowered(ref_heading), language), content_stems(lowered(inp_heading), language)
    if not a or not b:
        return 0.0
    return 2.0 * dice(a, b) - 1.0


def atom_overlap(ref: ClauseAtoms, inp: ClauseAtoms) -> float:
    """The share of topic-bearing atom groups present on both sides (0 when neither has any)."""
    groups = topic_groups()
    a = {(x.family, x.group) for x in ref.atoms} & groups
    b = {(x.family, x.group) for x in inp.atoms} & groups
    return len(a & b) / len(a | b) if a | b else 0.0


def semantic(similarity: float | None, relevance: float, signals: dict[str, float], low: float, high: float) -> float | None:
    """Semantic evidence in [0, 1]: the retrieval cosine rescaled, averaged with a scorer's relevance.

    A relevance is used only when some stage produced it (a scorer, or a retriever that leaves
    signals but no cosine); a bare default relevance (pairs judged without retrieval) is no evidence.
    """
    parts = []
    if similarity is not None:
        parts.append(min(1.0, max(0.0, (similarity - low) / (high - low))))
    scored = any(k.startswith("scorer:") for k in signals)
    if scored or (similarity is None and signals):
        parts.append(min(1.0, max(0.0, relevance)))
    return sum(parts) / len(parts) if parts else None


def verb_disjoint(ref: ClauseAtoms, inp: ClauseAtoms, lex: LanguagePack) -> float:
    """1 when both clauses state duties or rights about different actions ("shall deliver" / "shall
    invoice"), counting synonyms as one action; 0 when they share one, or either states none."""
    a = [m.anchor for m in ref.of("modality") if m.anchor.isalpha() and len(m.anchor) > 2]
    b = [m.anchor for m in inp.of("modality") if m.anchor.isalpha() and len(m.anchor) > 2]
    if not a or not b or weak_verbs(lex) & (set(a) | set(b)):
        return 0.0  # "shall use reasonable efforts to mitigate": the action is further on
    ka = set().union(*(keys(x, lex) for x in a))
    kb = set().union(*(keys(x, lex) for x in b))
    return 0.0 if ka & kb else 1.0


def p_same(lexical: float, sem: float | None, heading: float, atoms: float, o, verbs: float = 0.0) -> tuple[float, float]:
    """P(same matter) and the evidence E it was computed from (see the module docstring)."""
    weights = [(lexical, o.lexical_weight)] + ([(sem, o.semantic_weight)] if sem is not None else [])
    total = sum(w for _, w in weights)
    evidence = sum(v * w for v, w in weights) / total if total > 0 else lexical
    z = o.same_bias + o.same_evidence * evidence + o.same_heading * heading + o.same_atoms * atoms - o.same_verbs * verbs
    return sigmoid(z), evidence


_WEIGHT_VALUES: dict[int, tuple[object, dict[str, float]]] = {}


def weight_values(weights) -> dict[str, float]:
    """``weights.model_dump()`` (read-only), dumped once per weights object rather than once per
    pair: options are frozen, so the values of one object never change."""
    hit = _WEIGHT_VALUES.get(id(weights))
    if hit is None or hit[0] is not weights:
        if len(_WEIGHT_VALUES) >= 64:
            _WEIGHT_VALUES.clear()
        hit = _WEIGHT_VALUES[id(weights)] = (weights, weights.model_dump())
    return hit[1]


def p_differs(diffs: list[Difference], lexical: float, o) -> tuple[float, dict[str, float]]:
    """P(differs) by noisy-OR over the differences; also the strongest weight per reason type."""
    weights = weight_values(o.weights)
    keep = 1.0 - o.floor
    keep *= 1.0 - o.residual * (1.0 - lexical)
    per_type: dict[str, float] = {}
    for d in diffs:
        w = weights[d.weight]
        keep *= 1.0 - w
        per_type[d.type] = max(per_type.get(d.type, 0.0), w)
    return 1.0 - keep, per_type


def p_conflict(same: float, differs: float, exponent: float) -> float:
    return differs * same**exponent


def compete(judgements: list[Judgement], strength: float, exponent: float) -> list[Judgement]:
    """Lower P(same) (and P(conflict)) of pairs whose clauses have a far better counterpart."""
    if strength <= 0 or len(judgements) < 2:
        return judgements
    best_ref: dict[str, float] = {}
    best_inp: dict[str, float] = {}
    for j in judgements:
        best_ref[j.reference_id] = max(best_ref.get(j.reference_id, 0.0), j.p_same)
        best_inp[j.input_id] = max(best_inp.get(j.input_id, 0.0), j.p_same)
    out = []
    for j in judgements:
        gap = max(best_ref[j.reference_id], best_inp[j.input_id]) - j.p_same
        if gap <= 0:
            out.append(j)
            continue
        same = j.p_same * max(0.0, 1.0 - strength * gap)
        signals = {**j.signals, "p_same_alone": round(j.p_same, 4), "competition_gap": round(gap, 4)}
        out.append(j.model_copy(update={"p_same": same, "p_conflict": p_conflict(same, j.p_differs, exponent),
                                        "signals": signals}))
    return out
