"""Revision sets scored hunk by hunk (conflictkit.bench.revisions): the scoring rules of the set's README,
the word-diff baseline, loading errors, and `conflictkit bench` on a small set written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conflictkit.bench.revisions import (
    Flag, Hunk, RevisionPair, RevisionSetError, load_revision_set, score_pair, totals, word_diff_flags,
)
from tests.bench.test_cli import run

SHARED = Path(__file__).resolve().parents[3] / "shared"


def pair_of(*hunks: Hunk) -> RevisionPair:
    return RevisionPair("p", Path("a"), Path("b"), hunks)


def hunk(id, label, ref=None, inp=None, tags=()):
    return Hunk(id, label, ref, inp, why=f"why {id}", tags=tags)


def test_a_substantive_hunk_is_found_on_the_side_it_touches():
    deletion, insertion, replacement = hunk("h1", "substantive", (10, 20)), hunk("h2", "substantive", None, (50, 60)), \
        hunk("h3", "substantive", (100, 110), (120, 130))
    pair = pair_of(deletion, insertion, replacement)
    flags = [Flag("F1", None, (10, 20)),       # the input side of a deletion: not found
             Flag("F2", None, (55, 56)),       # inside the insertion
             Flag("F3", (0, 5), (125, 126))]   # either side of a replacement
    scored = score_pair(pair, flags)
    assert (scored["found"], [h["id"] for h in scored["missed_hunks"]]) == (2, ["h1"])


def test_an_editorial_hunk_is_a_false_alarm_only_beside_no_substantive_or_unsure_hunk():
    pair = pair_of(hunk("h1", "editorial", (0, 5), (0, 5)), hunk("h2", "substantive", (10, 15), (10, 15)),
                   hunk("h3", "editorial", (40, 45), (40, 45)), hunk("h4", "unsure", (50, 55), (50, 55)),
                   hunk("h5", "editorial", (60, 65), (60, 65)))
    flags = [Flag("F1", (0, 20), (0, 20)),   # covers h1 and h2: justified by h2
             Flag("F2", (40, 55), (40, 55)),  # covers h3 and the unsure h4: justified
             Flag("F3", (60, 61), None)]      # only h5: a false alarm
    scored = score_pair(pair, flags)
    assert [h["id"] for h in scored["false_alarm_hunks"]] == ["h5"]
    assert scored["editorial_overlapped"] == 3 and scored["unsure_overlapped"] == 1


def test_spurious_findings_and_empty_spans_overlap_nothing():
    pair = pair_of(hunk("h1", "substantive", (10, 10), (10, 20)))
    scored = score_pair(pair, [Flag("F1", (10, 10), (30, 40)), Flag("F2", (200, 210), None)])
    assert scored["spurious"] == 2 and scored["found"] == 0


def test_totals_report_recall_with_and_without_version_dates():
    pair = pair_of(hunk("h1", "substantive", (0, 5), (0, 5), tags=("version-date",)),
                   hunk("h2", "substantive", (10, 15), (10, 15)), hunk("h3", "editorial", (20, 25), (20, 25)))
    t = totals([score_pair(pair, [Flag("F1", (10, 12), None)])])
    assert (t["recall"], t["recall_no_date"], t["false_alarm_rate"]) == (0.5, 1.0, 0.0)


def test_the_word_diff_flags_every_changed_region():
    flags = word_diff_flags("Fees are due in 30 days.", "Fees are due within 60 days, net.")
    assert [(f.ref_span is not None, f.inp_span is not None) for f in flags] == [(True, True)]


# -- a revision set on disk ------------------------------------------------------------------------

OLD = "# Terms\n\nNorthwind may suspend an account after 30 days.\n\nNorthwind keeps invoices for 7 years.\n"
NEW = "# Terms\n\nNorthwind may suspend an account after 10 days.\n\nNorthwind keeps invoices for 7 years .\n"


def write_set(root: Path) -> Path:
    corpus, labels = root / "corpus", root / "revisions" / "labels"
    (corpus / "demo").mkdir(parents=True)
    labels.mkdir(parents=True)
    (corpus / "demo" / "v1.md").write_text(OLD, encoding="utf-8")
    (corpus / "demo" / "v2.md").write_text(NEW, encoding="utf-8")
    days, dot = OLD.index("30"), OLD.index("years.") + 5
    hunks = [
        {"id": "h1", "label": "substantive", "ref_span": [days, days + 2], "inp_span": [days, days + 2],
         "ref_text": "30", "inp_text": "10", "why": "a shorter period"},
        {"id": "h2", "label": "editorial", "ref_span": [dot - 5, dot + 1], "inp_span": [dot - 5, dot + 2],
         "ref_text": "years.", "inp_text": "years .", "why": "spacing before the full stop"},
    ]
    (labels / "demo.json").write_text(json.dumps({"pair": "demo", "reference": "demo/v1.md", "input": "demo/v2.md",
                                                  "hunks": hunks}), encoding="utf-8")
    return root / "revisions"


def test_a_revision_set_loads_its_documents_from_the_corpus_beside_it(tmp_path, monkeypatch):
    monkeypatch.delenv("REVISIONS_CORPUS", raising=False)
    monkeypatch.delenv("CONFLICTKIT_CORPUS", raising=False)
    revisions = load_revision_set(write_set(tmp_path))
    (pair,) = revisions.pairs
    assert pair.reference.read_text(encoding="utf-8") == OLD and [h.label for h in pair.hunks] == ["substantive", "editorial"]


def test_a_broken_label_file_names_the_file(tmp_path, monkeypatch):
    monkeypatch.delenv("CONFLICTKIT_CORPUS", raising=False)
    folder = write_set(tmp_path)
    (folder / "labels" / "bad.json").write_text('{"pair": "x", "hunks": [{"id": "h1", "label": "maybe"}]}', encoding="utf-8")
    with pytest.raises(RevisionSetError, match="bad.json"):
        load_revision_set(folder)


def test_bench_scores_a_revision_set_beside_the_word_diff(tmp_path):
    folder = write_set(tmp_path)
    out = tmp_path / "out"
    proc = run("bench", "--config", "fast", "--dataset", folder, "--out", out, "--no-plots")
    assert proc.returncode == 0, proc.stderr
    (scored,) = json.loads((out / "bench.json").read_text(encoding="utf-8"))["runs"]
    assert (scored["totals"]["found"], scored["totals"]["false_alarms"], scored["totals"]["spurious"]) == (1, 0, 0)
    assert scored["baseline"]["totals"]["false_alarms"] == 1
    report = (out / "bench.md").read_text(encoding="utf-8")
    assert "| word diff | 1/1 = 1.00" in report and "Real revisions" in report


@pytest.mark.corpus
@pytest.mark.slow
def test_the_development_set_stays_near_its_figures():
    """A guard against a regression on real revisions (the figures are in benchmarks/results/revisions)."""
    if not (SHARED / "revisions" / "labels").is_dir() or not (SHARED / "corpus").is_dir():
        pytest.skip("../shared/revisions is absent")
    from conflictkit.bench.revisions import flags_of
    from conflictkit.config import load_config, locate_config
    from conflictkit.engine import Engine

    engine = Engine(load_config(locate_config("fast")))
    revisions = load_revision_set(SHARED / "revisions", SHARED / "corpus")
    scored = [score_pair(p, flags_of(engine.compare(str(p.reference), str(p.input)).report)) for p in revisions.pairs]
    t = totals(scored)
    assert t["recall"] >= 0.95 and t["recall_no_date"] >= 0.95
    assert t["false_alarm_rate"] <= 0.10 and t["spurious"] <= 1
