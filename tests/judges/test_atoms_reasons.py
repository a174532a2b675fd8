"""Reasons a lawyer reads (issue 12, item 6): over every bench pair and random edits of them, a reason
never quotes the same words on both sides, quotes only words of its clauses, and names no internal key."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conflictkit.judges.atoms import LegalAtomsJudge
from conflictkit.judges.atoms.family import families
from conflictkit.normalize import flat
from tests.judges.bench_pairs import PAIRS_DIR, bench_pairs
from tests.judges.test_atoms_cases import judged

_ALL_SPLITS = tuple(sorted(path.name for path in PAIRS_DIR.glob("*.jsonl")))
_PAIRS = [(row["id"], row["reference"], row["input"]) for row in bench_pairs(_ALL_SPLITS)]
# words of the judge's own vocabulary that a reason must never show instead of the clause's words
_INTERNAL = re.compile(r"\b(?:supplier|receiver|no_obligation|contingent_\w+|prohibition|obligation|permission)\s*->"
                       r"|->\s*(?:supplier|receiver|obligation|permission|prohibition)\b|\bwho acts:|_")
_JUDGE = LegalAtomsJudge(options={"max_reasons": 50})


def _check(reference: str, input: str) -> None:
    j = judged(reference, input, judge=_JUDGE)
    for r in j.reasons:
        assert not (r.reference and r.input and r.reference.split() == r.input.split()), r
        assert not _INTERNAL.search(r.detail or ""), r
        if r.type in ("typo", "non-binding"):
            continue
        # a quote is the clause's words (the reference may be read with a typo fixed), as the judge
        # sees them: flattened, so a list written one item a line is quoted with spaces
        fixed = any(x.type == "typo" for x in j.reasons)
        assert r.input is None or r.input in flat(input), r
        assert r.reference is None or fixed or r.reference in flat(reference), r


@pytest.mark.parametrize(("pair_id", "reference", "input"), _PAIRS, ids=[p[0] for p in _PAIRS])
def test_reasons_of_every_bench_pair_quote_the_clauses_and_differ(pair_id, reference, input):
    _check(reference, input)


_WORD = re.compile(r"\S+")


@st.composite
def _edited(draw):
    _, reference, _ = draw(st.sampled_from(_PAIRS))
    words = _WORD.findall(reference)
    k = draw(st.integers(0, len(words) - 1))
    edit = draw(st.sampled_from(["drop", "double", "swap", "insert"]))
    if edit == "drop":
        words = words[:k] + words[k + 1:]
    elif edit == "double":
        words = words[:k + 1] + words[k:]
    elif edit == "swap" and k + 1 < len(words):
        words[k], words[k + 1] = words[k + 1], words[k]
    else:
        words.insert(k, draw(st.sampled_from(["not", "only", "exclusive", "sublicense", "written", "Provider", "30 days"])))
    return reference, " ".join(words) or reference


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_edited())
def test_reasons_of_random_edits_quote_the_clauses_and_differ(pair):
    _check(*pair)


def test_every_family_has_the_one_shape_and_its_weights_are_options():
    from conflictkit.judges.atoms.judge import DifferenceWeights

    names = set(DifferenceWeights.model_fields)
    for family in families():
        assert callable(family.extract) and callable(family.compare), family.name
        assert set(family.weights) <= names, family.name
        for default, what in family.weights.values():
            assert 0.0 <= default <= 1.0 and what
    assert {f.name for f in families()} >= {"negation", "modality", "numbers", "dates", "places", "parties",
                                             "qualifiers", "exceptions", "scope", "content"}
