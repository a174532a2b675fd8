"""Alignment through the whole pipeline (model-free preset): splits, merges, moves, deletions, re-wrapping."""

from __future__ import annotations

import html
import re

import pytest

from conflictkit.bench.transform import BENIGN, ONE_FINDING
from conflictkit.engine import Engine
from conflictkit.report.html import render_html
from tests.align.agreement import AGREEMENT, CONFIDENTIALITY, INSURANCE, moved_and_split
from tests.conftest import REFERENCE

def compare(config, reference: str, input: str) -> dict:
    return Engine(config).compare_texts(reference, input).report


def legal(report: dict) -> list[dict]:
    return [f for f in report["findings"] if f["kind"] != "moved"]


def test_a_split_paragraph_that_says_the_same_gives_nothing(fast_config):
    split = AGREEMENT.replace(CONFIDENTIALITY, "Each party shall keep the other party's Confidential Information secret.\n\n"
                              "Each party shall use it only to perform this Agreement.")
    assert compare(fast_config, AGREEMENT, split)["findings"] == []


def test_a_split_with_a_change_is_one_deviation_citing_both_pieces(fast_config):
    split = AGREEMENT.replace(CONFIDENTIALITY, "Each party shall keep the other party's Confidential Information secret.\n\n"
                              "It may use it only to perform this Agreement and for any other purpose.")
    report = compare(fast_config, AGREEMENT, split)
    findings = report["findings"]
    assert [f["kind"] for f in findings] == ["deviation"]
    assert report["summary"]["judged_runs"] == 1  # the run is judged once on its concatenated text
    quote = findings[0]["input"]
    assert [s["clause_id"] for s in quote["spans"]] and len(quote["spans"]) == 2
    assert quote["start"] == quote["spans"][0]["start"] and quote["end"] == quote["spans"][-1]["end"]
    assert split[quote["start"] : quote["end"]] == quote["text"]
    assert "secret" in quote["text"] and "any other purpose" in quote["text"]


def test_two_paragraphs_merged_into_one_give_nothing(fast_config):
    merged = AGREEMENT.replace("local law;\n\n(b) Germany", "local law; Germany")
    assert legal(compare(fast_config, AGREEMENT, merged)) == []


def test_a_deleted_clause_is_missing(fast_config):
    deleted = AGREEMENT.replace("5. **Data location.** Provider shall store Customer Data only in data centres located in the United States.\n\n", "")
    findings = compare(fast_config, AGREEMENT, deleted)["findings"]
    assert [(f["kind"], f["reference"]["section"]) for f in findings] == [("missing", "5")]


def test_a_moved_section_is_one_moved_finding_with_both_positions(fast_config):
    moved = AGREEMENT.replace(INSURANCE, "") + "\n" + INSURANCE.replace("7.", "10.")
    findings = compare(fast_config, AGREEMENT, moved)["findings"]
    assert [f["kind"] for f in findings] == ["moved"]
    assert findings[0]["reference"]["section"] == "7" and findings[0]["input"]["section"] == "10"
    assert findings[0]["grounded"]


def test_a_moved_clause_that_changed_is_one_deviation_that_says_so(fast_config):
    moved = AGREEMENT.replace(INSURANCE, "") + "\n" + INSURANCE.replace("7.", "10.").replace("one million", "two million")
    findings = compare(fast_config, AGREEMENT, moved)["findings"]
    assert [(f["kind"], f["moved"]) for f in findings] == [("deviation", True)]
    assert {r["type"] for r in findings[0]["reasons"]} >= {"number", "moved"}


def test_renumbering_and_swapped_list_items_give_no_deviation(fast_config):
    swapped = AGREEMENT.replace("(a) France", "(a) @").replace("(b) Germany", "(b) France").replace("(a) @", "(a) Germany")
    renumbered = swapped.replace("3. **Versions", "4. **Versions").replace("4. **History", "5. **History")
    report = compare(fast_config, AGREEMENT, renumbered)
    assert legal(report) == []
    assert report["summary"]["moved"] <= 1  # the swap: one item is out of order


def test_repeated_near_identical_lines_pair_with_their_own_counterparts(fast_config):
    # one of two near-identical date lines changed: the deviation is between the changed line and its own
    # counterpart, and the unchanged line is never cross-paired into a date deviation
    changed = AGREEMENT.replace("dated 1 March 2023", "dated 1 April 2023")
    findings = compare(fast_config, AGREEMENT, changed)["findings"]
    assert [(f["kind"], f["reference"]["section"], f["input"]["section"]) for f in findings] == [("deviation", "4", "4")]


def test_definition_gaps_are_marked_and_switchable(fast_config):
    reference = AGREEMENT.replace("# Agreement\n", '# Agreement\n\n"Order Form" means the ordering document signed by both parties.\n')
    report = compare(fast_config, reference, AGREEMENT)
    assert [(f["kind"], f["definition"]) for f in report["findings"]] == [("missing", True)]
    quiet = fast_config.model_copy(update={"alignment": fast_config.alignment.model_copy(update={"definitions": False})})
    assert compare(quiet, reference, AGREEMENT)["findings"] == []


@pytest.mark.parametrize("transformation", BENIGN, ids=lambda t: t.id)
@pytest.mark.parametrize("document", ["sample", "agreement"])
def test_benign_transformations_give_no_finding(fast_config, transformation, document):
    text = REFERENCE.read_text(encoding="utf-8") if document == "sample" else AGREEMENT
    edited = transformation.apply(text)
    if edited is None:
        pytest.skip(f"{transformation.id} has nothing to apply to in the {document}")
    report = compare(fast_config, text, edited)
    assert legal(report) == [], [(f["kind"], f["reference"] and f["reference"]["text"][:60]) for f in legal(report)]
    assert report["summary"]["moved"] <= transformation.expected_moves


@pytest.mark.parametrize("transformation", ONE_FINDING, ids=lambda t: t.id)
def test_one_finding_edits_of_the_sample_give_one_finding(fast_config, transformation):
    text = REFERENCE.read_text(encoding="utf-8")
    report = compare(fast_config, text, transformation.apply(text))
    assert [f["kind"] for f in report["findings"]] == ["deviation"]


def test_the_html_report_shows_a_move_and_each_clause_of_a_split(fast_config):
    edited = moved_and_split()
    report = compare(fast_config, AGREEMENT, edited)
    assert sorted(f["kind"] for f in report["findings"]) == ["deviation", "moved"]
    page = render_html(report, AGREEMENT, edited)
    split_index = next(i for i, f in enumerate(report["findings"]) if f["kind"] == "deviation")
    assert page.count('class="finding k-moved"') == 1 and "moved (1)" in page
    assert page.count(f'id="input-f{split_index}"') == 1  # one anchor per finding, however many spans
    assert "(+1 more clause)" in page
    input_side = page.split('id="doc-input"')[1]
    marked = "".join(re.findall(rf'<mark class="hl k-deviation" data-f="{split_index}">(.*?)</mark>', input_side, re.DOTALL))
    spans = report["findings"][split_index]["input"]["spans"]
    shown = html.unescape(re.sub(r"<[^>]+>", "", marked))  # the pane shows formatted text: emphasis is markup
    cited = "".join(edited[s["start"] : s["end"]] for s in spans).replace("**", "")
    assert shown.split() == cited.split()  # both clauses marked, the gap between them not
