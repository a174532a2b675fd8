"""Loading a playbook: texts resolved from the template and from edits, every problem reported with its path."""

from __future__ import annotations

import json

import pytest
import yaml

from conflictkit.playbook.load import PlaybookError, load_playbook, playbook_from_bytes
from tests.playbook.conftest import PLAYBOOK


def _load(text: str, base_dir=None, segment=None):
    return playbook_from_bytes(text.encode(), "p.yaml", base_dir, segment)


def test_texts_come_from_the_template_edits_and_literals(playbook):
    term = playbook.position("payment-term")
    assert [t.label for t in term.accepted] == ["preferred", "fallback 1", "fallback 2"]
    assert term.preferred.text.startswith("Invoices. Customer shall pay each undisputed invoice within thirty (30) days")
    assert "forty-five (45) days" in term.accepted[1].text and "thirty" not in term.accepted[1].text
    assert term.accepted[1].origin == "preferred, 1 edit" and term.preferred.origin == "template 1.1"
    assert [r.rule.describe() for r in term.rules] == ["any duration below 30 days"]
    assert term.guidance == "Never shorter than 30 days." and playbook.subject_guidance["Payment"] == "Cash flow matters."
    cure = playbook.position("cure")
    assert cure.red_texts[0].text.startswith("Cure. Provider may terminate") and cure.red_texts[0].note
    solicit = playbook.position("non-solicitation")
    assert not solicit.required and solicit.severity == "low" and solicit.preferred.origin == "written"
    assert [p.id for p in playbook.positions][:2] == ["payment-term", "cure"]
    assert playbook.subjects == ["Payment", "Termination", "Liability", "General"]
    assert len(playbook.template_clauses) > 5 and playbook.notes == ()


def test_a_bare_string_is_a_text_and_titles_default_to_the_first_words():
    loaded = _load("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: Customer shall pay within thirty days of receipt of each invoice, fallbacks: [Customer shall pay within sixty days of receipt of each invoice]}]}]")
    position = loaded.position("a")
    assert position.accepted[1].text.startswith("Customer shall pay within sixty")
    assert position.title == "Customer shall pay within thirty days of receipt …"
    assert position.required and position.severity == "medium"


@pytest.mark.parametrize("text, expected", [
    ("title: t\nsubjects: []", "subjects: List should have at least 1 item"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: x, colour: red}]}]", "subjects.0.positions.0.colour: unknown key"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: 'a b', preferred: x}]}]", "subjects.0.positions.0.id"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: x}, {id: a, preferred: y}]}]", "position id 'a' is used twice"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: {text: x, clause: '1'}}]}]", "give exactly one of text, clause, edits"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: x, red_lines: [{rule: {below: 1 day, above: 2 days}}]}]}]",
     "a rule has exactly one of"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: x, red_lines: [{rule: {contains: y, near: z}}]}]}]",
     "'near' narrows a below/above rule"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: a, severity: urgent, preferred: x}]}]", "subjects.0.positions.0.severity"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: pay in 30 days, fallbacks: [{edits: [{replace: 60, with: 90}]}]}]}]",
     "subjects.0.positions.0.fallbacks.0.edits.0.replace: '60' is not in the text it edits"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: pay in 30 days, fallbacks: [pay in 30 days]}]}]",
     "fallback 1 is the same text as preferred"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: pay in 30 days, fallbacks: [{base: fallback 3, edits: [{replace: '30', with: '45'}]}]}]}]",
     "'fallback 3' is not a text given before this one"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: pay in 30 days, red_lines: [{rule: {below: soon}}]}]}]",
     "red_lines.0.rule: 'soon' must name one quantity"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: pay in 10 days, red_lines: [{rule: {below: 30 days}}]}]}]",
     "the preferred text breaks its own red line 1 (any duration below 30 days: 10 days is below 30 days)"),
    ("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: {clause: '1.1'}}]}]", "the playbook names no template"),
    ("title: [unclosed", "is not valid YAML at line 1"),
    ("- a list", "the top level must be a mapping"),
])
def test_every_problem_is_one_line_with_its_yaml_path(text, expected):
    with pytest.raises(PlaybookError) as raised:
        _load(text)
    message = str(raised.value)
    assert expected in message
    assert "\n" not in message and "p.yaml" in message


def test_problems_are_collected_not_stopped_at_the_first():
    text = ("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: pay in 30 days, "
            "fallbacks: [{edits: [{replace: '60', with: '90'}]}, {edits: [{replace: '70', with: '90'}]}]}]}]")
    with pytest.raises(PlaybookError, match=r"\(2 problems\)"):
        _load(text)


def test_template_clauses_by_section(playbook_dir, engine):
    bad = PLAYBOOK.replace('preferred: {clause: "2.2"}', 'preferred: {clause: "9.9"}')
    (playbook_dir / "bad.yaml").write_text(bad, encoding="utf-8")
    with pytest.raises(PlaybookError, match=r"the template has no operative clause 9.9 \(its clauses run 1.1 to 4.2\)"):
        load_playbook(playbook_dir / "bad.yaml", engine.clauses)
    (playbook_dir / "template.md").unlink()
    with pytest.raises(PlaybookError, match="template: .*template.md"):
        load_playbook(playbook_dir / "playbook.yaml", engine.clauses)


def test_an_uploaded_playbook_cannot_read_its_template():
    with pytest.raises(PlaybookError, match="cannot be read here.*playbook show P.yaml --format yaml"):
        _load("title: t\ntemplate: t.md\nsubjects: [{subject: s, positions: [{id: a, preferred: {clause: '1'}}]}]")


def test_a_template_only_for_context_that_cannot_be_read_is_a_note(tmp_path, engine):
    loaded = _load("title: t\ntemplate: gone.md\nsubjects: [{subject: s, positions: [{id: a, preferred: pay in 30 days}]}]",
                   tmp_path, engine.clauses)
    assert loaded.template_clauses == () and "cannot be read" in loaded.notes[0]


def test_files_that_are_not_playbooks(tmp_path):
    with pytest.raises(PlaybookError, match="does not exist"):
        load_playbook(tmp_path / "none.yaml")
    with pytest.raises(PlaybookError, match="is a directory"):
        load_playbook(tmp_path)
    (tmp_path / "latin1.yaml").write_bytes("title: caf\xe9".encode("latin-1"))
    with pytest.raises(PlaybookError, match="is not UTF-8"):
        load_playbook(tmp_path / "latin1.yaml")


def test_the_shipped_schema_is_generated_from_the_models_and_checks_playbooks(playbook_dir):
    from conflictkit.playbook.schemas import generated
    from conflictkit.report.schemas import HERE
    from conflictkit.testing.schemas import schema_errors

    for name, text in generated().items():
        assert (HERE / name).read_text(encoding="utf-8") == text, f"{name} is stale: python -m conflictkit.playbook.schemas"
    data = yaml.safe_load(PLAYBOOK)
    assert schema_errors(data, "conflictkit.playbook/1") == []
    for path in ("benchmarks/data/playbooks/csa.yaml", "benchmarks/data/playbooks/nda.yaml", "samples/playbook-saas.yaml"):
        from tests.conftest import ROOT

        assert schema_errors(yaml.safe_load((ROOT / path).read_text()), "conflictkit.playbook/1") == [], path
    data["subjects"][0]["positions"][0]["colour"] = "red"
    assert any("colour" in e for e in schema_errors(data, "conflictkit.playbook/1"))
    json.dumps(data)
