"""Models load only when their work is needed, and each distinct clause text is embedded once."""

import pytest

from conflictkit.config import resolve
from conflictkit.engine import Engine
from conflictkit.loaders import document_from_text
from conflictkit.store import Store
from conflictkit.testing.judges import registered
from tests.conftest import FAST_CONFIG, INPUT, REFERENCE

COUNTING = {**FAST_CONFIG, "pipeline": {**FAST_CONFIG["pipeline"], "embedder": {"use": "counting"}, "judge": {"use": "recording"}}}


@pytest.fixture
def counting_config():
    with registered():
        yield resolve(COUNTING)


def _engine(config, store):
    events = []
    engine = Engine(config, store=store, progress=lambda stage, done, total: events.append(stage) if done == 0 else None)
    return engine, events


def test_a_cached_comparison_loads_no_model(counting_config, tmp_path):
    store = Store(tmp_path / "c.sqlite")
    cold, cold_events = _engine(counting_config, store)
    first = cold.compare(str(REFERENCE), str(INPUT))
    assert cold.embedder.warm_ups == 1 and cold.judge.warm_ups == 1
    assert "load embedder" in cold_events and cold_events.index("load embedder") < cold_events.index("embed")

    warm, warm_events = _engine(counting_config, store)
    second = warm.compare(str(REFERENCE), str(INPUT))
    assert warm.embedder.warm_ups == 0 and warm.embedder.embedded == []
    assert warm.judge.warm_ups == 0 and warm.judge.calls == []
    assert not [e for e in warm_events if e.startswith("load ")]
    assert second.report == first.report


def test_a_model_is_loaded_once_per_engine_however_many_comparisons(counting_config):
    engine, events = _engine(counting_config, Store.disabled())
    engine.compare(str(REFERENCE), str(INPUT))
    engine.compare(str(INPUT), str(REFERENCE))
    assert engine.embedder.warm_ups == 1 and engine.judge.warm_ups == 1
    assert events.count("load embedder") == 1


def test_warm_up_loads_every_backend_up_front(counting_config):
    engine, events = _engine(counting_config, Store.disabled())
    engine.warm_up()
    engine.warm_up()
    assert engine.embedder.warm_ups == 1 and engine.judge.warm_ups == 1
    assert {"load segmenter", "load embedder", "load retriever", "load judge"} <= set(events)


def test_an_unchanged_clause_of_a_new_version_is_not_embedded_again(counting_config, tmp_path):
    store = Store(tmp_path / "c.sqlite")
    old = REFERENCE.read_text(encoding="utf-8")
    new = old.replace("thirty (30) days", "sixty (60) days", 1)
    assert new != old
    first, _ = _engine(counting_config, store)
    seen = {c.text for c in first.index(document_from_text(old, "v1.md")).clauses}
    second, _ = _engine(counting_config, store)
    new_index = second.index(document_from_text(new, "v2.md"))
    changed = {c.text for c in new_index.clauses} - seen
    assert changed and sorted(second.embedder.embedded) == sorted(changed)
    fresh, _ = _engine(counting_config, Store.disabled())
    assert (new_index.vectors == fresh.index(document_from_text(new, "v2.md")).vectors).all()


def test_duplicate_texts_in_one_document_are_embedded_once(counting_config):
    clause = "The Supplier shall deliver the Goods within thirty (30) days of each order."
    text = "\n\n".join(f"{i}. {clause}" if i % 2 else f"{i}. Each party bears its own costs." for i in range(1, 9))
    engine, _ = _engine(counting_config, Store.disabled())
    indexed = engine.index(document_from_text(text, "repeated.md"))
    texts = [c.text for c in indexed.clauses]
    assert len(texts) > len(set(texts))
    assert len(engine.embedder.embedded) == len(set(engine.embedder.embedded)) == len(set(texts))
    by_text = {}
    for text_, vector in zip(texts, indexed.vectors):
        by_text.setdefault(text_, vector)
        assert (by_text[text_] == vector).all()


def test_documents_over_the_clause_limits_are_refused_before_anything_is_embedded(tmp_path):
    from conflictkit.errors import InputError

    with registered():
        config = resolve({**COUNTING, "limits": {"max_clauses": 5}})
        engine, _ = _engine(config, Store(tmp_path / "c.sqlite"))
        few = "1. The Customer shall pay within 30 days.\n"
        many = "".join(f"{i}. The Supplier shall deliver order {i}.\n\n" for i in range(1, 10))
        with pytest.raises(InputError, match=r"many.md has 9 clauses, over the limit of 5.*limits.max_clauses"):
            engine.compare_documents(document_from_text(few, "few.md"), document_from_text(many, "many.md"))
        assert engine.embedder.warm_ups == 0 and engine.embedder.embedded == []
        pairs = resolve({**COUNTING, "limits": {"max_clause_pairs": 8}})
        engine, _ = _engine(pairs, Store(tmp_path / "c.sqlite"))
        with pytest.raises(InputError, match=r"leaves 1 x 9 clauses without an identical counterpart to match, 9 clause pairs, over the limit of 8.*limits.max_clause_pairs"):
            engine.compare_documents(document_from_text(few, "few.md"), document_from_text(many, "many.md"))
        assert engine.embedder.warm_ups == 0 and engine.embedder.embedded == []
        # the pair limit counts what retrieval ranks: identical clauses are settled before it
        edited = many.replace("order 9.", "order 99.")
        engine.compare_documents(document_from_text(many, "many.md"), document_from_text(edited, "edited.md"))
        with pytest.raises(InputError, match=r"leaves 3 x 3 clauses"):
            three = "".join(f"{i}. The Supplier shall deliver order {i}.\n\n" for i in range(7, 10))
            engine.compare_documents(document_from_text(many, "many.md"),
                                     document_from_text(many.replace(three, three.replace("deliver", "ship")), "e.md"))


def test_without_a_store_one_reference_against_two_inputs_embeds_each_text_once(counting_config):
    engine, _ = _engine(counting_config, Store.disabled())
    reference = REFERENCE.read_text(encoding="utf-8")
    draft = INPUT.read_text(encoding="utf-8")
    engine.compare_texts(reference, draft)
    first = len(engine.embedder.embedded)
    engine.compare_texts(reference, draft.replace("thirty (30) days", "sixty (60) days"))
    embedded = engine.embedder.embedded
    assert first > 0 and len(embedded) > first  # the changed clauses are new texts
    assert len(embedded) == len(set(embedded))


LEXICAL_FIRST = {**COUNTING, "pipeline": {**COUNTING["pipeline"], "retriever": {"use": "cosine", "options": {"min_relevance": 0.2}}}}


def test_only_clauses_without_a_clear_lexical_match_are_embedded(tmp_path):
    """The samples' edits are mostly clear BM25 matches: those clauses are paired lexically and never
    embedded; the report counts both kinds, and unrelated documents (no clear match) embed every clause."""
    with registered():
        engine, _ = _engine(resolve(LEXICAL_FIRST), Store.disabled())
        result = engine.compare(str(REFERENCE), str(INPUT))
        summary = result.report["summary"]
        embedded = engine.embedder.embedded
        assert 0 < summary["embedded_clauses"] == len(embedded) < summary["lexical_clauses"]
        ranked = {c.reference_id for c in result.candidates if "cosine" in c.signals}
        assert {result.reference.clause(cid).text for cid in ranked} <= set(embedded)
        everything, _ = _engine(resolve(COUNTING), Store.disabled())  # lexical: null
        assert len(everything.embedder.embedded) == 0
        everything.compare(str(REFERENCE), str(INPUT))
        assert len(everything.embedder.embedded) > 3 * len(embedded)

        unrelated, _ = _engine(resolve(LEXICAL_FIRST), Store.disabled())
        nda = "1. The Receiving Party shall keep Confidential Information secret.\n\n2. This NDA lasts two years.\n"
        lease = "1. The Tenant shall pay rent monthly.\n\n2. Pets are not allowed in the premises.\n"
        summary = unrelated.compare_texts(nda, lease).report["summary"]
        assert summary["lexical_clauses"] == 0 and summary["embedded_clauses"] == 4 == len(unrelated.embedder.embedded)


def test_a_clear_edit_is_not_embedded_and_a_rewording_is():
    with registered():
        engine, events = _engine(resolve(LEXICAL_FIRST), Store.disabled())
        old = ("1. The Customer shall pay each undisputed invoice issued under this Agreement within thirty (30) days of "
               "receipt, by bank transfer to the account the Provider names in writing.\n\n"
               "2. Either party may terminate this Agreement for convenience on ninety (90) days' written notice.\n")
        result = engine.compare_texts(old, old.replace("thirty (30)", "sixty (60)"))
        assert engine.embedder.warm_ups == 0 and "load embedder" not in events  # nothing needed a vector
        assert result.report["summary"]["lexical_clauses"] == 2 and result.report["summary"]["embedded_clauses"] == 0
        reworded = old.replace("Either party may terminate this Agreement for convenience on ninety (90) days' written notice.",
                               "Neither side can end the contract early without cause.")
        result = engine.compare_texts(old, reworded.replace("thirty (30)", "sixty (60)"))
        assert sorted(engine.embedder.embedded) == sorted([result.reference.clauses[-1].text, result.input.clauses[-1].text])
