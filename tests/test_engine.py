import pytest

from conflictkit.config import resolve
from conflictkit.engine import Engine
from conflictkit.store import Store
from conflictkit.testing.schemas import assert_valid
from tests.conftest import FAST_CONFIG, INPUT, REFERENCE


def _run(config, store=None, ref=REFERENCE, inp=INPUT):
    engine = Engine(config, store=store)
    result = engine.compare(str(ref), str(inp))
    for document in (result.report, result.pairs, result.params):
        assert_valid(document)
    return engine, result


def test_samples_report_is_grounded_and_complete(fast_config):
    _, result = _run(fast_config)
    report = result.report
    assert report["schema"] == "conflictkit.report/1"
    kinds = {f["kind"] for f in report["findings"]}
    assert {"deviation", "missing", "added"} <= kinds
    ref_text = REFERENCE.read_text(encoding="utf-8")
    inp_text = INPUT.read_text(encoding="utf-8")
    for f in report["findings"]:
        assert f["grounded"] is True
        assert 0.0 <= f["p_conflict"] <= 1.0
        for side, text in (("reference", ref_text), ("input", inp_text)):
            quote = f[side]
            if quote is not None:
                assert text[quote["start"] : quote["end"]] == quote["text"]
            for edit in f["edits"]:
                assert text[edit[side]["start"]:edit[side]["end"]] == edit[side]["text"]
    s = report["summary"]
    quotes = sum((f["reference"] is not None) + (f["input"] is not None) for f in report["findings"])
    assert s["spans_checked"] == quotes + 2 * sum(len(f["edits"]) for f in report["findings"])
    assert any(e["verdict"] == "substantive" for f in report["findings"] for e in f["edits"])
    assert s["judged_pairs"] <= 5 * max(s["clauses"]["reference"], s["clauses"]["input"])
    assert result.params["config"]["pipeline"]["embedder"]["use"] == "hashing"
    assert result.params["backends"]["judge"]["package"] == "conflictkit"


def test_same_document_has_no_findings(fast_config):
    _, result = _run(fast_config, inp=REFERENCE)
    assert result.report["findings"] == []
    assert result.report["summary"]["covered"] > 10


def test_warm_run_judges_nothing(fast_config, tmp_path):
    from conflictkit.testing.judges import registered

    with registered():
        config = resolve({**FAST_CONFIG, "pipeline": {**FAST_CONFIG["pipeline"], "judge": {"use": "recording"}}})
        store = Store(tmp_path / "c.sqlite")
        cold, first = _run(config, store)
        assert len(cold.judge.calls) == 1
        warm, second = _run(config, store)
        assert warm.judge.calls == []
        assert second.report == first.report
        # only a threshold changed: still no judge call, partition recomputed
        changed = config.model_copy(update={"thresholds": config.thresholds.model_copy(update={"conflict": 0.4})})
        third_engine, third = _run(changed, store)
        assert third_engine.judge.calls == []
        assert third.report["summary"]["deviation"] != first.report["summary"]["deviation"]


def test_cached_index_survives_other_typography(fast_config, tmp_path):
    store = Store(tmp_path / "c.sqlite")
    text = REFERENCE.read_text(encoding="utf-8")
    crlf = tmp_path / "crlf.md"
    crlf.write_bytes(text.replace("\n", "\r\n").encode())
    engine = Engine(fast_config, store=store)
    plain = engine.index(engine.compare(str(REFERENCE), str(REFERENCE)).reference.document)
    other = engine.compare(str(crlf), str(crlf))
    assert [c.text for c in other.reference.clauses] == [c.text for c in plain.clauses]
    original = other.reference.document.original
    for clause in other.reference.clauses:
        assert " ".join(original[clause.span.start : clause.span.end].split())[:20] == " ".join(
            text[plain.clause(clause.id).span.start : plain.clause(clause.id).span.end].split()
        )[:20]


def test_corrupt_cache_entry_is_recomputed(fast_config, tmp_path, capsys):
    import sqlite3

    path = tmp_path / "c.sqlite"
    _, first = _run(fast_config, Store(path))
    conn = sqlite3.connect(path)
    conn.execute("UPDATE entries SET value = X'00' WHERE namespace = 'index'")
    conn.commit()
    conn.close()
    _, second = _run(fast_config, Store(path))
    assert second.report == first.report
    assert "corrupt cache entry" in capsys.readouterr().err


def test_judge_texts(fast_config):
    engine = Engine(fast_config)
    js = engine.judge_texts([
        ("Customer shall pay all invoices within thirty (30) days.", "Customer shall pay all invoices within sixty (60) days."),
        ("Customer shall pay all invoices within thirty (30) days.", "Customer shall pay all invoices within 30 days."),
    ])
    assert len(js) == 2
    assert js[0].p_conflict > js[1].p_conflict


def test_repartition_needs_no_model(fast_config):
    engine, result = _run(fast_config)
    lower = fast_config.model_copy(update={"thresholds": fast_config.thresholds.model_copy(update={"conflict": 0.05})})
    redone = engine.repartition(result, lower)
    assert redone.report["summary"]["deviation"] >= result.report["summary"]["deviation"]


def test_engine_error_names_bad_span(fast_config, monkeypatch):
    """A span that does not hold is an engine error naming the clause, never output."""
    from conflictkit.errors import GroundingError
    from conflictkit.report import build

    real = build.quote_of

    def shifted(document, clause_id):
        q = real(document, clause_id)
        return q.model_copy(update={"start": q.start + 1, "end": q.end + 1})

    monkeypatch.setattr(build, "quote_of", shifted)
    with pytest.raises(GroundingError, match="cites .* clause c\\d+"):
        _run(fast_config)


def test_params_never_hold_an_api_key():
    pytest.importorskip("conflictkit_isaacus")
    import json

    config = resolve({"pipeline": {"embedder": {"use": "isaacus", "options": {"api_key": "sk-live-123"}},
                                   "judge": {"use": "legal-atoms"}}})
    params = Engine(config).params()
    assert "sk-live-123" not in json.dumps(params)


def test_renamed_file_reuses_the_report_under_its_new_name(fast_config, tmp_path):
    store = Store(tmp_path / "c.sqlite")
    _, first = _run(fast_config, store)
    renamed = tmp_path / "renamed.md"
    renamed.write_bytes(INPUT.read_bytes())
    _, second = _run(fast_config, store, inp=renamed)
    assert second.report["input"]["path"] == str(renamed)
    assert second.report["findings"] == first.report["findings"]


def test_long_steps_report_batch_by_batch(fast_config):
    events: list[tuple[str, int, int]] = []
    engine = Engine(fast_config, progress=lambda step, done, total: events.append((step, done, total)))
    engine.compare(str(REFERENCE), str(INPUT))
    judged = [(done, total) for step, done, total in events if step == "judge"]
    assert any(0 < done < total for done, total in judged)  # the judge says how far it is, not only 0/n and n/n
    embedded = [(done, total) for step, done, total in events if step == "embed"]
    total = embedded[-1][1]
    assert len({done for done, _ in embedded if done < total}) >= min(total // 16, 16) >= 2


def test_a_cascade_reports_each_judge_as_a_step_of_its_own():
    from conflictkit.stages import Comparison
    from conflictkit.testing.clauses import indexed_document

    seen: list[tuple[str, int, int]] = []
    doc = indexed_document(["A shall pay."])
    comparison = Comparison(reference=doc, input=doc, progress=lambda *e: seen.append(e))
    comparison.for_step("judge llm").advance(3, 10)
    comparison.advance(10, 10)
    assert seen == [("judge llm", 3, 10), ("judge", 10, 10)]
    Comparison(reference=doc, input=doc).advance(1, 2)  # no progress callback: nothing to tell, no error


def test_auto_reads_each_comparison_in_its_own_language(pack_root):
    """language: auto detects the pack per comparison; every stage that reads words is handed it."""
    from conflictkit.testing.packs import derived_pack

    # a language no installed pack speaks (German has its own pack now)
    derived_pack(pack_root, "nl_test", changes={"pack.detection_words": [
        "de", "het", "een", "en", "is", "niet", "van", "aan", "te", "met", "voor", "op"]})
    engine = Engine(resolve({**FAST_CONFIG, "language": "auto"}))
    dutch = engine.compare_texts("De leverancier levert de goederen aan de koper.", "De leverancier levert de goederen niet.")
    assert dutch.params["language"] == "nl_test"
    assert {engine.segmenter.language.language, engine.filter.language.language, engine.judge.language.language} == {"nl_test"}
    english = engine.compare_texts("The Supplier shall deliver the Goods.", "The Supplier shall not deliver the Goods.")
    assert english.params["language"] == "en" and engine.judge.language.language == "en"
    assert dutch.params["backends"]["judge"]["fingerprint"] != english.params["backends"]["judge"]["fingerprint"]
