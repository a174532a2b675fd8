"""The batch driver on the local engine: folders, summary, failures recorded, resumable, same results at any size."""

import json
import re

import pytest

from conflictkit.batch import pairs_from_inputs, run_batch
from conflictkit.batch.engines import LocalEngine, get_engine, waves
from conflictkit.config import config_data
from conflictkit.engine import Engine
from conflictkit.errors import UserError
from conflictkit.testing.clauses import document_of
from tests.conftest import REFERENCE

REPORT_SET = {"report.json", "pairs.json", "params.json", "report.md", "report.html", "batch-row.json", ".conflictkit-set.json"}


def _run(portfolio, fast_config, out, workers=1, **kwargs):
    reference, folder = portfolio
    pairs = pairs_from_inputs(str(reference), [str(folder)])
    return pairs, run_batch(pairs, config_data(fast_config), out, LocalEngine(workers=workers), **kwargs)


def _findings(out, outcome):
    report = json.loads((out / outcome.folder / "report.json").read_text())
    return [(f["kind"], f["reference"] and f["reference"]["start"], f["input"] and f["input"]["start"]) for f in report["findings"]]


def test_every_pair_gets_its_folder_and_a_summary_row(portfolio, fast_config, tmp_path):
    out = tmp_path / "out"
    pairs, result = _run(portfolio, fast_config, out)
    by_name = {o.input.rsplit("/", 1)[-1]: o for o in result.outcomes}
    assert [o.folder for o in result.outcomes] == [p.folder for p in pairs]  # plan order
    assert by_name["broken.md"].status == "failed" and "binary" in by_name["broken.md"].error
    assert by_name["same.md"].counts == {"deviation": 0, "missing": 0, "added": 0}
    assert by_name["longer-notice.md"].counts["deviation"] >= 1
    assert by_name["draft.md"].counts["deviation"] >= 10 and by_name["draft.md"].top_reasons
    for name in ("draft.md", "same.md", "longer-notice.md"):
        assert {p.name for p in (out / by_name[name].folder).iterdir()} == REPORT_SET
    assert {p.name for p in (out / by_name["broken.md"].folder).iterdir()} == {"batch-row.json", ".conflictkit-set.json"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["totals"]["pairs"] == 4 and summary["totals"]["failed"] == 1
    csv_lines = (out / "summary.csv").read_text().splitlines()
    assert csv_lines[0].startswith("input,reference,status,deviation,missing,added") and len(csv_lines) == 5
    assert csv_lines[0].endswith(",high,medium,low")
    draft = next(row for row in summary["pairs"] if row["input"].endswith("draft.md"))
    assert draft["high"] == by_name["draft.md"].severity["high"] > 0
    assert [f["id"] for f in draft["findings"]][:2] == ["F0006", "F0009"]  # by severity: the rights removed first
    assert {"id", "kind", "severity", "subject", "title", "p_conflict"} <= set(draft["findings"][0])
    page = (out / "summary.html").read_text()
    assert f'href="{by_name["draft.md"].folder}/report.html"' in page and "binary" in page
    ranked = re.findall(r'<tr class="(\w+)" data-input="([^"]+)">', page)
    assert ranked == [("ok", "draft.md"), ("ok", "longer-notice.md"), ("ok", "same.md"), ("failed", "broken.md")]  # riskiest first
    assert f'href="{by_name["draft.md"].folder}/report.html#subject=liability"' in page
    assert f'href="{by_name["draft.md"].folder}/report.html#F0006"' in page


def test_a_rerun_skips_unchanged_pairs_and_redoes_changed_ones(portfolio, fast_config, tmp_path):
    out = tmp_path / "out"
    _, first = _run(portfolio, fast_config, out)
    edited = portfolio[1] / "same.md"
    edited.write_text(edited.read_text().replace("thirty (30) days", "sixty (60) days"))
    _, second = _run(portfolio, fast_config, out)
    by_name = {o.input.rsplit("/", 1)[-1]: o for o in second.outcomes}
    assert by_name["draft.md"].skipped and by_name["longer-notice.md"].skipped
    assert not by_name["same.md"].skipped and by_name["same.md"].counts["deviation"] >= 1
    assert not by_name["broken.md"].skipped  # failed pairs are retried
    _, forced = _run(portfolio, fast_config, out, force=True)
    assert not any(o.skipped for o in forced.outcomes)


@pytest.mark.slow  # starts two worker processes
def test_two_workers_give_the_same_findings_as_one(portfolio, fast_config, tmp_path):
    _, one = _run(portfolio, fast_config, tmp_path / "one", workers=1)
    _, two = _run(portfolio, fast_config, tmp_path / "two", workers=2, cache=False)
    assert [o.to_dict() | {"seconds": 0} for o in one.outcomes] == [o.to_dict() | {"seconds": 0} for o in two.outcomes]
    for a, b in zip(one.outcomes, two.outcomes):
        if a.status == "ok":
            assert _findings(tmp_path / "one", a) == _findings(tmp_path / "two", b)


def test_waves_put_the_first_pair_of_each_reference_first(portfolio):
    reference, folder = portfolio
    pairs = pairs_from_inputs(str(reference), [str(folder)])
    first, rest = waves(pairs, cache=True)
    assert [p.input for p in first] == [pairs[0].input] and rest == pairs[1:]
    assert waves(pairs, cache=False) == [pairs]


def test_an_engine_indexes_a_document_once_however_many_pairs_it_is_in(fast_config):
    engine = Engine(fast_config)  # no store: only the engine's own memory can spare the work
    document = document_of(REFERENCE.read_text(encoding="utf-8"), "reference.md")
    first, second = engine.index(document), engine.index(document_of(document.original, "renamed.md"))
    assert second.clauses is first.clauses and second.document.path == "renamed.md"
    other = engine.index(document_of(document.original.replace("thirty (30)", "sixty (60)")))
    assert other.clauses is not first.clauses


def test_unknown_engine_and_misplaced_address():
    with pytest.raises(UserError, match="unknown batch engine 'spark'; available: local"):
        get_engine("spark", 1, None)
    with pytest.raises(UserError, match="--address is for a cluster engine"):
        get_engine("local", 1, "ray://head:10001")


def test_a_worker_reads_and_segments_a_reference_once_while_it_is_unchanged(portfolio, fast_config, tmp_path):
    from conflictkit.batch.worker import Worker

    reference = tmp_path / "template.md"
    reference.write_text(REFERENCE.read_text(encoding="utf-8"), encoding="utf-8")
    worker = Worker(config_data(fast_config), cache=False)
    worker.prepare([str(reference), str(tmp_path / "missing.md")])  # a missing reference fails its pairs later
    first = worker.reference(str(reference))
    assert worker.reference(str(reference)) is first
    segmented = []
    original = worker.engine._segment_fresh
    worker.engine._segment_fresh = lambda document: segmented.append(document.path) or original(document)
    for name in ("draft.md", "longer-notice.md"):
        pair = pairs_from_inputs(str(reference), [str(portfolio[1] / name)])[0]
        assert worker.compare(pair)[0].status == "ok"
    assert str(reference) not in segmented and len(segmented) == 2  # only the inputs
    reference.write_text(first.original.replace("thirty (30) days", "sixty (60) days"), encoding="utf-8")
    assert worker.reference(str(reference)) is not first


def test_shared_references_are_those_of_more_than_one_pair():
    from conflictkit.batch.engines import shared_references
    from conflictkit.batch.plan import BatchPair

    pairs = [BatchPair("a.md", "x.md", "1"), BatchPair("b.md", "y.md", "2"), BatchPair("a.md", "z.md", "3")]
    assert shared_references(pairs) == ["a.md"]


@pytest.mark.slow  # forks worker processes
def test_forked_workers_share_the_cache_and_leave_it_sound(portfolio, fast_config, tmp_path, monkeypatch):
    import sqlite3

    from conflictkit.batch.engines import can_fork

    if not can_fork():
        pytest.skip("workers are forked only on Linux")
    monkeypatch.setenv("CONFLICTKIT_CACHE_DIR", str(tmp_path / "cache"))
    _, one = _run(portfolio, fast_config, tmp_path / "one", workers=1, cache=False)
    _, two = _run(portfolio, fast_config, tmp_path / "two", workers=2, cache=True)
    for a, b in zip(one.outcomes, two.outcomes):
        assert a.status == b.status
        if a.status == "ok":
            assert _findings(tmp_path / "one", a) == _findings(tmp_path / "two", b)
    with sqlite3.connect(tmp_path / "cache" / "cache.sqlite") as db:
        assert db.execute("PRAGMA quick_check").fetchone() == ("ok",)
        assert db.execute("SELECT count(*) FROM entries WHERE namespace = 'report'").fetchone()[0] >= 3


def test_a_users_summary_file_in_out_is_refused_before_any_work(portfolio, fast_config, tmp_path):
    """summary.csv and friends were replaced with no question: a user's own summary.csv was lost."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.csv").write_text("my own spreadsheet\n")
    with pytest.raises(UserError, match=r"holds summary.csv \(not known to be written by conflictkit \(no manifest\)\)"):
        _run(portfolio, fast_config, out)
    assert [p.name for p in out.iterdir()] == ["summary.csv"]  # nothing ran, nothing was written


def test_a_batchs_own_summary_is_replaced_and_an_edited_one_is_not(portfolio, fast_config, tmp_path):
    out = tmp_path / "out"
    _run(portfolio, fast_config, out)
    _run(portfolio, fast_config, out, force=True)  # its own summary: replaced
    (out / "summary.html").write_text((out / "summary.html").read_text() + "<!-- my notes -->")
    with pytest.raises(UserError, match=r"summary.html \(edited since conflictkit wrote it\)"):
        _run(portfolio, fast_config, out)
    assert (out / "summary.html").read_text().endswith("<!-- my notes -->")


def test_a_summary_written_before_the_manifest_is_replaced(portfolio, fast_config, tmp_path):
    out = tmp_path / "out"
    _run(portfolio, fast_config, out)
    (out / ".conflictkit-files.json").unlink()  # as an earlier version left it
    _run(portfolio, fast_config, out, force=True)
    assert json.loads((out / "summary.json").read_text())["schema"] == "conflictkit.batch-summary/1"
