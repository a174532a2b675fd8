"""Playbooks written as YAML: started from a template, and a loaded one written out self-contained."""

from __future__ import annotations

import yaml

from conflictkit.loaders import document_from_text
from conflictkit.playbook.document import render_playbook
from conflictkit.playbook.load import playbook_from_bytes
from conflictkit.playbook.write import as_json, playbook_from_template, resolved_yaml
from tests.playbook.conftest import TEMPLATE


def test_init_makes_one_position_per_operative_clause_grouped_by_section(engine, tmp_path):
    clauses = engine.clauses(document_from_text(TEMPLATE, "template.md"))
    text = playbook_from_template(clauses, "My playbook", "template.md")
    assert text.startswith("# A conflictkit playbook")
    data = yaml.safe_load(text)
    assert data["template"] == "template.md"  # literal texts, the template kept as context for reviews
    assert [s["subject"] for s in data["subjects"]] == ["Payment", "Termination", "Indemnities", "General"]
    ids = [p["id"] for s in data["subjects"] for p in s["positions"]]
    assert ids[:2] == ["1-1-invoices", "1-2-late-payment"] and len(ids) == len(set(ids)) == 8
    (tmp_path / "template.md").write_text(TEMPLATE)
    loaded = playbook_from_bytes(text.encode(), "p.yaml", tmp_path, engine.clauses)
    assert loaded.position("1-1-invoices").preferred.text == clauses[2].text
    assert len(loaded.template_clauses) == len(clauses)


def test_init_by_reference_cites_sections(engine, tmp_path):
    clauses = engine.clauses(document_from_text(TEMPLATE, "template.md"))
    data = yaml.safe_load(playbook_from_template(clauses, "t", "template.md", by_reference=True))
    assert data["subjects"][0]["positions"][0]["preferred"] == {"clause": "1.1"}
    (tmp_path / "template.md").write_text(TEMPLATE)
    loaded = playbook_from_bytes(yaml.safe_dump(data).encode(), "p.yaml", tmp_path, engine.clauses)
    assert loaded.position("1-1-invoices").preferred.origin == "template 1.1"


def test_a_loaded_playbook_written_out_needs_no_template(playbook):
    text = resolved_yaml(playbook)
    assert "template:" not in text and "clause:" not in text and "edits:" not in text
    again = playbook_from_bytes(text.encode(), "self-contained.yaml", None, None)
    for before, after in zip(playbook.positions, again.positions):
        assert [t.text for t in before.texts] == [t.text for t in after.texts]
        assert [r.rule.describe() for r in before.rules] == [r.rule.describe() for r in after.rules]
        assert (before.title, before.severity, before.required, before.guidance) == (after.title, after.severity, after.required, after.guidance)
    assert as_json(again)["positions"][0]["accepted"][2]["label"] == "fallback 2"


def test_the_markdown_rendering_quotes_each_text_verbatim_and_escapes_the_rest(playbook):
    rendered = render_playbook(playbook)
    for position in playbook.positions:
        for text in position.texts:
            start, end = rendered.spans[text.id]
            assert rendered.text[start:end] == text.text
    assert "### Cure period" in rendered.text and "**Red line 1 (never accepted)** (termination must stay mutual; from preferred, 1 edit)" in rendered.text
    assert "**Red line 1 (never accepted):** any duration below 30 days" in rendered.text
    assert "optional (its absence is accepted)" in rendered.text
