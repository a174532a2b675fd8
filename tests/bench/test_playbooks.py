"""The playbook benchmark's scripted drafts: each state is where the spec says, and a review finds every one."""

from __future__ import annotations

import pytest

from conflictkit.bench.datasets import corpus_root
from conflictkit.bench.playbooks import DraftsSpec, draft_sites, position_states, reword, script_drafts, variants
from conflictkit.loaders import document_from_text, read_document
from conflictkit.playbook.load import playbook_from_bytes
from tests.conftest import ROOT

DATA = ROOT / "benchmarks" / "data" / "playbooks"
pytestmark = [pytest.mark.corpus,
              pytest.mark.skipif(not (corpus_root() / "commonpaper").is_dir(), reason="the corpus is not at ../shared/corpus")]


@pytest.fixture(params=sorted(p.name for p in DATA.glob("*.drafts.yaml")))
def bench(request, fast_config):
    from conflictkit.engine import Engine

    engine = Engine(fast_config)
    spec = DraftsSpec.load(DATA / request.param)
    playbook = playbook_from_bytes((DATA / spec.playbook).read_bytes(), spec.playbook, corpus_root(), engine.clauses)
    template = read_document(corpus_root() / playbook.template)
    return engine, spec, playbook, template, engine.clauses(template)


def test_every_state_is_placed_and_occurs_in_several_drafts(bench):
    _, spec, playbook, template, clauses = bench
    drafts = script_drafts(playbook, spec, template, clauses, rounds=2)
    for position in playbook.positions:
        states = position_states(position, spec.breaches.get(position.id, []))
        assert {s.kind for s in states} >= {"preferred", "removed"}
        seen = [d.states[position.id].label for d in drafts]
        assert all(seen.count(s.label) >= 2 for s in states), position.id
    for draft in drafts:
        for state in draft.states.values():
            if state.text is not None:
                assert state.text.split("\n")[0] in draft.text  # first line as placed (later lines are indented)


def test_a_review_gives_every_scripted_state_its_verdict_and_benign_variants_keep_them(bench):
    from conflictkit.playbook.review import review

    engine, spec, playbook, template, clauses = bench
    draft = script_drafts(playbook, spec, template, clauses, rounds=1)[1]
    sites = draft_sites(playbook, spec, template, clauses)
    for name, text in {"plain": draft.text, **variants(draft, template, sites)}.items():
        result = review(engine, playbook, document_from_text(text, f"{name}.md"))
        got = {p["id"]: p["label"].replace("not acceptable", "not-acceptable") for p in result.review["positions"]}
        assert got == {pid: state.expected for pid, state in draft.states.items()}, name


def test_rewording_changes_words_not_terms():
    assert reword("within 30 days, and Provider will pay Customer's fees") == \
        "within thirty (30) days and Provider shall pay Customer\u2019s fees"
    assert reword("within thirty (30) days") == "within 30 days"
    assert reword("Provider will not pay") == "Provider will not pay"
