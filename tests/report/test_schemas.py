"""The JSON Schemas shipped for report.json, pairs.json and params.json: valid, complete, and strict where it matters."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest
from jsonschema import Draft202012Validator

from conflictkit.report.schemas import FILES, load_schema, schema_path
from conflictkit.testing.schemas import assert_valid, schema_errors


@pytest.mark.parametrize("name", list(FILES))
def test_each_schema_is_valid_draft_2020_12_and_shipped(name):
    Draft202012Validator.check_schema(load_schema(name))
    # every output file names its schema; a playbook (written by people, YAML) has a version instead
    if name != "conflictkit.playbook/1":
        assert load_schema(name)["properties"]["schema"]["const"] == name
    assert resources.files("conflictkit.report.schemas").joinpath(FILES[name]).is_file()


def test_short_names_and_unknown_names():
    assert schema_path("pairs") == schema_path("conflictkit.pairs/1")
    with pytest.raises(KeyError, match="no JSON Schema"):
        schema_path("review")
    assert schema_errors({"schema": "conflictkit.other/9"}) == [
        "$.schema: 'conflictkit.other/9' is not one of conflictkit.report/1, conflictkit.pairs/1, conflictkit.params/1, "
        "conflictkit.playbook/1, conflictkit.playbook-review/1"]


def test_a_fixture_report_is_valid(small_report):
    assert_valid(small_report[0])


@pytest.mark.parametrize("change, path", [
    (lambda r: r["findings"][0].update(kind="renamed"), "$.findings.0.kind"),
    (lambda r: r["findings"][0].update(p_conflict=1.5), "$.findings.0.p_conflict"),
    (lambda r: r["findings"][2].update(input=r["findings"][0]["input"]), "$.findings.2.input"),  # a missing with an input
    (lambda r: r["findings"][0]["reference"].update(page=3), "$.findings.0.reference"),  # undocumented field
    (lambda r: r["findings"][0]["reference"].update(start=-1), "$.findings.0.reference.start"),
    (lambda r: r["summary"].pop("spans_checked"), "$.summary"),
    (lambda r: r["reference"].update(sha256="xyz"), "$.reference.sha256"),
])
def test_violations_are_caught_with_their_path(small_report, change, path):
    report = copy.deepcopy(small_report[0])
    change(report)
    errors = schema_errors(report)
    assert any(e.startswith(path + ":") for e in errors), errors
    with pytest.raises(AssertionError, match="schema violation"):
        assert_valid(report)


def test_pairs_reasons_share_the_report_definition():
    pairs = {"schema": "conflictkit.pairs/1", "pairs": [{
        "reference_id": "c1", "input_id": "c2", "similarity": None, "relevance": 0.5, "signals": {"cosine": 0.5},
        "status": "covered", "judgement": {"p_same": 0.9, "p_differs": 0.1, "p_conflict": 0.1, "judge": "x",
                                           "reasons": [{"type": "number", "oops": 1}], "signals": {}}}]}
    assert any("reasons.0" in e and "oops" in e for e in schema_errors(pairs))
    json.dumps(load_schema("pairs"))  # plain JSON, publishable as is
