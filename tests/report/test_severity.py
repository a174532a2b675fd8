"""Severity: what changed and where, from a table that is data; one order of findings for every view."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from conflictkit.config import load_config, resolve
from conflictkit.engine import Engine
from conflictkit.errors import ConfigError
from conflictkit.report.order import SEVERITIES, ordered, severity_counts
from conflictkit.report.severity import load_table, table_from_data, table_of_config
from conflictkit.stages import Rendering
from conflictkit.store import Store
from tests.conftest import FAST_CONFIG, INPUT, REFERENCE

EN = load_table()


def assess(kind="deviation", edits=None, reasons=(), headings=(("Cap", "Limitation of Liability"),), texts=("",)):
    return EN.assess(kind, edits, list(reasons), [list(h) for h in headings], list(texts))


# -- the rule --------------------------------------------------------------------------------------------


def test_what_changed_and_where_set_the_severity_and_the_rule_says_how():
    a = assess(edits=["negation"])
    assert (a.severity, a.subject) == ("high", "liability")
    assert a.rule == "a right or duty reversed (negation) in liability and indemnity ('Limitation of Liability'): 3 + 3 = 6 points (high from 5)"
    assert assess(edits=["number"], headings=[("Termination for cause", "Term and Termination")]).severity == "medium"
    assert assess("missing", headings=[("Termination for convenience",)]).severity == "high"
    assert assess(edits=["qualifier"], headings=[("Assignment",)]).severity == "low"
    assert assess(edits=["number"], headings=[("Addresses", "Notices")]).severity == "low"  # notices rank low


def test_a_version_stamp_is_low_whatever_the_subject_unless_something_else_changed_too():
    stamp = assess(edits=["version_date"])
    assert stamp.severity == "low" and "whatever the subject" in stamp.rule
    assert assess(edits=["version_date", "negation"]).severity == "high"


def test_substantive_edits_decide_a_deviation_and_reasons_stand_in_when_a_judge_gives_no_edits():
    assert assess(edits=["qualifier"], reasons=["negation"]).severity == "medium"  # edits win: 1 + 3
    assert assess(edits=None, reasons=["negation"]).severity == "high"
    assert assess(edits=None, reasons=["contradiction"]).severity == "high"  # an NLI judge's reason
    unknown = assess(edits=None, reasons=["something-new"], headings=[("Support",)])
    assert "terms changed (something-new)" in unknown.rule and unknown.subject is None


def test_the_clause_own_heading_first_then_its_sections_nearest_first_then_the_input_before_the_reference():
    assert assess(edits=["number"], headings=[("Return of Customer Data", "Term and Termination")]).subject == "data"
    assert assess(edits=["number"], headings=[("Duration", "Confidentiality", "Agreement")]).subject == "data"
    assert assess(edits=["number"], headings=[("Duration",), ("Fees",)]).subject == "payment"
    assert assess(edits=["number"], headings=[("Grant of access", "Access and Use")]).subject == "ip"
    assert assess(edits=["number"], headings=[("Terms of use",)]).subject is None  # "term" is a whole word


def test_only_a_clause_under_no_heading_is_read_by_its_text():
    text = "Neither party's aggregate liability shall exceed the fees paid; no limitation of liability for indemnity."
    assert assess(edits=["number"], headings=[()], texts=[text]).subject == "liability"
    assert assess(edits=["number"], headings=[("Support",)], texts=[text]).subject is None


# -- the table is data -----------------------------------------------------------------------------------


def _table_data() -> dict:
    from conflictkit.lexicon import load

    return json.loads(json.dumps(load("en").table("severity")))


def test_a_table_of_ones_own_ranks_otherwise_and_a_bad_one_is_refused_with_every_problem(tmp_path):
    data = _table_data()
    for subject in data["subjects"]:
        if subject["name"] == "notices":
            subject["points"] = 3
    custom = table_from_data(data, "custom")
    assert custom.assess("deviation", ["number"], [], [["Notices"]], [""]).severity == "high"
    assert custom.fingerprint != EN.fingerprint
    data["levels"] = {"high": 2, "medium": 4}
    data["default_change"] = "nothing"
    data["changes"][0]["colour"] = "red"
    with pytest.raises(ConfigError) as info:
        table_from_data(data, "bad.yaml")
    assert len(info.value.problems) >= 2 and "bad.yaml" in str(info.value)


def test_a_config_names_a_table_relative_to_itself_checked_before_any_work(tmp_path):
    data = _table_data()
    data["levels"] = {"high": 2, "medium": 1}
    (tmp_path / "strict.yaml").write_text(yaml.safe_dump(data))
    (tmp_path / "config.yaml").write_text("version: 1\npipeline: {embedder: {use: hashing}}\nseverity: {table: strict.yaml}\n")
    config = load_config(tmp_path / "config.yaml")
    assert config.severity.table == str(tmp_path / "strict.yaml")
    assert table_of_config(config).spec.levels.high == 2
    (tmp_path / "broken.yaml").write_text("version: 1\nseverity: {table: missing.yaml}\n")
    with pytest.raises(ConfigError, match=r"severity\.table: severity\.table .*missing\.yaml does not exist"):
        load_config(tmp_path / "broken.yaml")
    (tmp_path / "bad.yaml").write_text("levels: [1, 2]\n")
    with pytest.raises(ConfigError, match="severity.table"):
        resolve({"severity": {"table": str(tmp_path / "bad.yaml")}})


def test_a_language_pack_without_a_table_ranks_with_english_and_one_with_a_table_by_its_own(tmp_path, monkeypatch):
    from conflictkit import lexicon
    from conflictkit.testing.packs import derived_pack

    assert load_table(None, "en").fingerprint == EN.fingerprint
    monkeypatch.setenv(lexicon.LEXICON_PATH_ENV, str(tmp_path))
    lexicon.load.cache_clear()
    try:
        derived_pack(tmp_path, "xx_test", remove=("tables/severity.yaml",))
        assert load_table(None, "xx_test").fingerprint == EN.fingerprint
        own = derived_pack(tmp_path, "yy_test")
        data = _table_data()
        data["levels"] = {"high": 2, "medium": 1}
        (own / "tables" / "severity.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
        assert load_table(None, "yy_test").spec.levels.high == 2
    finally:
        lexicon.load.cache_clear()


# -- one order, the same ids --------------------------------------------------------------------------------


def test_ordered_by_severity_then_document_order_by_id_or_by_kind():
    findings = [{"id": "F0003", "kind": "missing", "severity": "high"}, {"id": "F0010", "kind": "deviation", "severity": "low"},
                {"id": "F0001", "kind": "added", "severity": "medium"}, {"id": "F0002", "kind": "deviation", "severity": "high"}]
    assert [f["id"] for f in ordered(findings)] == ["F0002", "F0003", "F0001", "F0010"]
    assert [f["id"] for f in ordered(findings, "document")] == ["F0001", "F0002", "F0003", "F0010"]
    assert [f["id"] for f in ordered(findings, "kind")] == ["F0002", "F0010", "F0003", "F0001"]
    assert severity_counts(findings) == {"high": 2, "medium": 1, "low": 1}
    with pytest.raises(ValueError):
        ordered(findings, "colour")
    old = [{"id": "F0002", "kind": "added"}, {"id": "F0001", "kind": "deviation"}]  # a report made before severities
    assert [f["id"] for f in ordered(old)] == ["F0001", "F0002"]


@pytest.fixture(scope="module")
def samples(fast_config_module):
    return Engine(fast_config_module).compare(str(REFERENCE), str(INPUT))


@pytest.fixture(scope="module")
def fast_config_module():
    return resolve(FAST_CONFIG)


def test_ids_number_the_findings_in_document_order_and_report_json_lists_them_by_severity(samples):
    findings = samples.report["findings"]
    by_id = sorted(findings, key=lambda f: f["id"])
    places = [f["input"]["start"] if f["input"] else None for f in by_id]
    known = [p for p in places if p is not None]
    assert known == sorted(known)
    ranks = [SEVERITIES.index(f["severity"]) for f in findings]
    assert ranks == sorted(ranks)
    assert findings == ordered(findings)
    assert samples.report["summary"]["severity"] == severity_counts(findings)
    assert samples.report["materiality"]["subjects"]["liability"] == "liability and indemnity"
    # a missing clause stands where it would be: after the input counterpart of the reference clause before it
    data_location = next(f for f in findings if f["kind"] == "missing" and f["reference"]["heading"] == "Data location")
    assert data_location["id"] == "F0017"
    assert next(f for f in findings if f["id"] == "F0016")["input"]["heading"] == "Regulatory fines"


# What a lawyer reads first on the samples: a right removed (termination for convenience), liability, payment
# (the right to withhold disputed invoices), data location.
MUST_LEAD = {
    "a right removed": lambda f: f["kind"] == "missing" and f["reference"]["heading"] == "Termination for convenience",
    "liability": lambda f: f.get("subject") == "liability",
    "payment": lambda f: f["kind"] == "missing" and f["reference"]["heading"] == "Disputed invoices",
    "data location": lambda f: f["kind"] == "missing" and f["reference"]["heading"] == "Data location",
}


def _first_third(ids: list[str], findings: list[dict]) -> dict[str, bool]:
    lead = set(ids[: len(ids) // 3])
    return {what: any(test(f) and f["id"] in lead for f in findings) for what, test in MUST_LEAD.items()}


def test_what_matters_most_is_in_the_first_third_of_every_view(samples, tmp_path):
    from conflictkit.report.html import render_html
    from conflictkit.report.redline import render_redline_markdown
    from conflictkit.report.render import render_markdown
    from conflictkit.report.terminal import render_text

    findings = samples.report["findings"]
    rendering = Rendering.of_result(samples)
    views = {
        "report.json": [f["id"] for f in findings],
        "terminal": re.findall(r"^(F\d{4})  ", render_text(samples.report, rendering.texts, view=rendering.view), re.M),
        "report.md": re.findall(r"^\| (F\d{4}) \|", render_markdown(samples.report, rendering.texts, view=rendering.view), re.M),
        "report.html": re.findall(r'<li class="finding[^>]*data-fid="(F\d{4})"',
                                  render_html(samples.report, *rendering.texts.values(), view=rendering.view)),
        "redline.md": re.findall(r"F\d{4}", render_redline_markdown(rendering.view).split("\n\n")[1]),
    }
    for view, ids in views.items():
        assert sorted(ids) == sorted(f["id"] for f in findings), view
        assert all(_first_third(ids, findings).values()), (view, _first_third(ids, findings))


def test_a_changed_table_re_ranks_a_cached_comparison(tmp_path, fast_config_module):
    store = Store(tmp_path / "cache.sqlite")
    first = Engine(fast_config_module, store=store).compare(str(REFERENCE), str(INPUT))
    data = _table_data()
    data["levels"] = {"high": 100, "medium": 99}
    (tmp_path / "flat.yaml").write_text(yaml.safe_dump(data))
    flat = fast_config_module.model_copy(update={"severity": fast_config_module.severity.model_copy(
        update={"table": str(tmp_path / "flat.yaml")})})
    second = Engine(flat, store=store).compare(str(REFERENCE), str(INPUT))
    assert {f["severity"] for f in second.report["findings"]} == {"low"}
    assert [f["id"] for f in ordered(second.report["findings"])] == sorted(f["id"] for f in first.report["findings"])
    assert second.report["materiality"]["table"] == str(tmp_path / "flat.yaml")


def test_language_auto_ranks_each_comparison_with_its_own_language_table(tmp_path, monkeypatch):
    from conflictkit import lexicon
    from conflictkit.testing.packs import derived_pack

    monkeypatch.setenv(lexicon.LEXICON_PATH_ENV, str(tmp_path))
    lexicon.load.cache_clear()
    try:
        # German's words and the sentences' own, so auto picks it over the German pack it copies
        words = [*lexicon.load("de").get("pack.detection_words"), "lieferant", "liefert", "ware", "käufer"]
        german = derived_pack(tmp_path, "de_test", base="de", changes={"pack.detection_words": words})
        (german / "tables").mkdir(exist_ok=True)
        data = _table_data()
        data["levels"] = {"high": 100, "medium": 99}  # everything low: this table, not English's, ranked it
        (german / "tables" / "severity.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
        engine = Engine(resolve({**FAST_CONFIG, "language": "auto"}))
        de = engine.compare_texts("Der Lieferant liefert die Ware an den Käufer.", "Der Lieferant liefert die Ware nicht.")
        assert de.report["materiality"]["table"] == "lang/de_test/tables/severity.yaml"
        assert de.report["findings"] and {f["severity"] for f in de.report["findings"]} == {"low"}
        en = engine.compare_texts("The Supplier shall deliver the Goods.", "The Supplier shall not deliver the Goods.")
        assert en.report["materiality"]["table"] == "lang/en/tables/severity.yaml"
    finally:
        lexicon.load.cache_clear()
