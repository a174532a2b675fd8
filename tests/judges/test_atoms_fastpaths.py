"""The legal-atoms judge's caches and shortcuts change no judgement: the fast path agrees with the plain one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conflictkit.judges.atoms import LegalAtomsJudge
from conflictkit.judges.atoms.compare import _take
from conflictkit.judges.atoms.extract import extract
from conflictkit.judges.atoms.text import Atom
from conflictkit.judges.atoms.throughput import _indexed, generate
from conflictkit.model import CandidatePair
from conflictkit.stages import Comparison
from tests.judges.bench_pairs import bench_pairs


def _bench_pairs() -> list[tuple[str, str]]:
    return [(pair["reference"], pair["input"]) for pair in bench_pairs()] + generate(40)


def test_a_batch_judges_every_pair_as_a_cold_judge_judges_it_alone():
    """Per-clause memos (the extraction cache, each clause's derived readings) are shared by every
    pair of a batch; none of them may carry anything from one pair into another."""
    pairs = _bench_pairs()
    comparison = Comparison(reference=_indexed([a for a, _ in pairs], "r"), input=_indexed([b for _, b in pairs], "i"))
    n = len(pairs)
    # each reference with its own input and with the next pair's: clauses recur across pairs, as retrieval pairs them
    candidates = [CandidatePair(reference_id=f"r{k}", input_id=f"i{(k + d) % n}", similarity=0.7)
                  for k in range(n) for d in (0, 1)]
    judge = LegalAtomsJudge({"competition": 0})
    batch = judge.judge(candidates, comparison)
    assert len(batch) == len(candidates)
    for candidate, judged in zip(candidates, batch, strict=True):
        extract.cache_clear()
        alone = judge.judge_clauses(candidate, comparison.reference.clause(candidate.reference_id),
                                    comparison.input.clause(candidate.input_id))
        # edits judged alone index the clause texts, in a batch the documents: all else is equal
        assert _placeless(alone) == _placeless(judged), (candidate.reference_id, candidate.input_id)


def _placeless(judgement):
    edits = [(e.verdict, e.kind, e.p_conflict, e.reasons) for e in judgement.edits]  # texts: as the file or as given
    return judgement.model_copy(update={"edits": []}), edits


def test_derived_readings_are_computed_once_per_clause():
    clause = extract("The Supplier shall notify the Customer within 30 days.")
    calls = []

    def build(c):
        calls.append(c)
        return len(c.atoms)

    assert clause.derived("test.count", build) == clause.derived("test.count", build) == len(clause.atoms)
    assert calls == [clause]
    other = extract("The Customer may notify the Supplier.")
    assert other.derived("test.count", build) == len(other.atoms) and len(calls) == 2


def _plain_take(left, right, same):
    """The pairing as first written: greedy in text order, no shortcut."""
    pairs = []
    for a in list(left):
        b = next((b for b in right if same(a, b)), None)
        if b is not None:
            left.remove(a)
            right.remove(b)
            pairs.append((a, b))
    return pairs


_ATOMS = st.builds(lambda k, g, s: Atom("scope", g, k, k, s, s + 1),
                   st.sampled_from(["all", "some", "only"]), st.sampled_from(["quantity", "only"]), st.integers(0, 5))


@settings(max_examples=200, deadline=None)
@given(left=st.lists(_ATOMS, max_size=5), right=st.lists(_ATOMS, max_size=5), by_group=st.booleans())
def test_take_pairs_as_the_plain_greedy_pairing_does(left, right, by_group):
    def same(a, b):
        return a.group == b.group if by_group else a.key == b.key

    l1, r1, l2, r2 = list(left), list(right), list(left), list(right)
    assert _take(l1, r1, same) == _plain_take(l2, r2, same)
    assert (l1, r1) == (l2, r2)


def test_each_weights_object_scores_with_its_own_values():
    pair = ("Customer shall not export the Software.", "Customer shall export the Software.")
    default, softer = LegalAtomsJudge(), LegalAtomsJudge({"weights": {"negation": 0.1}})
    candidate = CandidatePair(reference_id="r0", input_id="i0", similarity=0.9)
    comparison = Comparison(reference=_indexed([pair[0]], "r"), input=_indexed([pair[1]], "i"))
    first, second = default.judge([candidate], comparison)[0], softer.judge([candidate], comparison)[0]
    assert second.p_differs < first.p_differs
    assert default.judge([candidate], comparison)[0] == first  # the cached values of the first judge are untouched
