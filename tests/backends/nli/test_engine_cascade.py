"""The engine with hybrid retrieval and a legal-atoms -> nli cascade on a tiny model: who decided each pair."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.model
pytest.importorskip("torch")
pytest.importorskip("scipy")

REFERENCE = """1. Termination. The Customer may terminate this Agreement on thirty (30) days written notice.

2. Confidentiality. Either party shall keep the confidential information secret.

3. Governing law. This agreement is governed by the laws of New York.
"""
INPUT = """1. Termination. The Customer may not terminate this Agreement on thirty (30) days written notice.

2. Confidentiality. Neither party shall keep the confidential information secret.

3. Governing law. This agreement is governed by the laws of New York.
"""


def test_cascade_records_which_judge_decided_each_pair(tiny_deberta):
    from conflictkit.config import resolve
    from conflictkit.engine import Engine
    from conflictkit.store import Store

    config = resolve({"pipeline": {
        "embedder": {"use": "hashing"},
        "retriever": {"use": "hybrid", "options": {"min_cosine": 0.2}},
        "judge": [{"use": "legal-atoms"}, {"use": "nli", "options": {"model": str(tiny_deberta)}}],
    }})
    engine = Engine(config, store=Store.disabled())
    result = engine.compare_texts(REFERENCE, INPUT)
    judged = [j for j in result.judgements if j.judge != "identical"]  # identical texts are settled without a judge
    deciders = {j.judge for j in judged}
    assert deciders <= {"legal-atoms", "nli"} and deciders
    for j in judged:
        assert "legal-atoms.p_conflict" in j.signals
        assert ("nli.p_conflict" in j.signals) == (j.judge == "nli")
    described = engine.judge.describe()
    assert [d["name"] for d in described["judges"]] == ["legal-atoms", "nli"]
    counts = engine.judge.usage()["pairs_per_judge"]
    assert counts["legal-atoms"] == len(judged) >= counts["nli"]
