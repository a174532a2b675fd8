"""Every installed pack keeps its contract (cases.jsonl); the runner catches a pack that breaks it."""

from __future__ import annotations

import json

import pytest

from conflictkit.lexicon import LexiconError, languages, load
from conflictkit.testing.packs import check_pack, derived_pack, read_cases, run_cases


@pytest.mark.parametrize("language", languages())
def test_every_installed_pack_keeps_its_contract(language):
    report = check_pack(language)
    assert len(report.outcomes) >= 11


def test_the_english_contract_covers_every_family_both_ways():
    from conflictkit.judges.atoms.family import families

    cases = [c for _, c in read_cases(load("en").folder / "cases.jsonl")]
    for family in families():
        mine = [c for c in cases if c.family == family.name]
        assert mine, family.name
        if family.weights:
            assert {c.expect for c in mine} == {"flag", "same"}, family.name


def test_a_pack_that_reads_a_negator_as_nothing_breaks_its_contract(pack_root, code):
    """The English cases run against a pack that lost "not": the near misses of negation are missed."""
    en = load("en")
    derived_pack(pack_root, code, changes={"words.negators": [w for w in en.data.words.negators if w != "not"],
                                           "modality.negators_after": ["never"],
                                           "modality.free_negators": [w for w in en.data.modality.free_negators if w != "not"]})
    report = run_cases(code)
    assert not report.passed
    assert any("[negation] expected flag (negation)" in f for f in report.failures)
    with pytest.raises(AssertionError, match=rf"language pack '{code}' breaks its contract"):
        check_pack(code)


def test_cases_must_cover_every_family(pack_root, code, tmp_path):
    derived_pack(pack_root, code)
    lines = [json.loads(line) for line in (load("en").folder / "cases.jsonl").read_text().splitlines()]
    kept = tmp_path / "cases.jsonl"
    kept.write_text("\n".join(json.dumps(c) for c in lines if c["family"] != "dates" and not
                              (c["family"] == "scope" and c["expect"] == "flag")) + "\n")
    failures = run_cases(code, kept).failures
    assert "no case for the family 'dates'" in failures
    assert "no near miss (expect: flag) for the family 'scope'" in failures


def test_a_bad_case_line_is_named(tmp_path):
    bad = tmp_path / "cases.jsonl"
    bad.write_text('{"family": "negation", "expect": "flag", "reference": "a", "input": "b"}\n{"family": "x", "expect": "maybe"}\n')
    with pytest.raises(LexiconError, match=r"cases.jsonl:2: not a contract case \(expect: Input should be 'flag' or 'same'"):
        read_cases(bad)


def test_a_pack_without_cases_has_no_contract(pack_root, code):
    derived_pack(pack_root, code, remove=("cases.jsonl",))
    with pytest.raises(LexiconError, match=f"language pack '{code}' has no cases.jsonl"):
        run_cases(code)
