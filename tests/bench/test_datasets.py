"""Dataset loaders: formats, spans from quotes, and every bad-input case."""

import json

import pytest

from conflictkit.bench import datasets
from conflictkit.bench.datasets import DatasetError, load_dataset
from conflictkit.errors import UserError

GOOD = {"id": "p1", "category": "negation", "label": "conflict", "reference": "A shall pay.", "input": "A shall not pay."}


def write_jsonl(path, rows):
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_clause_pairs_load(tmp_path):
    other = dict(GOOD, id="p2", category="paraphrase", label="consistent", note="same")
    ds = load_dataset(write_jsonl(tmp_path / "set.jsonl", [GOOD, "", other]))
    assert ds.kind == "clause-pairs" and ds.name == "set"
    assert [p.id for p in ds.pairs] == ["p1", "p2"]
    assert ds.categories() == {"negation": "conflict", "paraphrase": "consistent"}


def test_a_language_folder_names_its_sets_apart_from_the_english_ones(tmp_path):
    (tmp_path / "de" / "edits").mkdir(parents=True)
    english = load_dataset(write_jsonl(tmp_path / "report.jsonl", [GOOD]))
    german = load_dataset(write_jsonl(tmp_path / "de" / "report.jsonl", [GOOD]))
    assert (english.name, german.name) == ("report", "report-de")
    assert datasets.dataset_name(tmp_path / "de" / "edits" / "edits.yaml") == "edits-de"
    assert datasets.dataset_name(tmp_path / "documents" / "edits" / "edits.yaml") == "edits"


@pytest.mark.parametrize(
    "bad, message",
    [
        ('{"id": "x", ', "set.jsonl:2: malformed JSON"),
        (json.dumps(dict(GOOD, id="p9", label="maybe")), "set.jsonl:2: unknown label 'maybe'"),
        (json.dumps({"id": "p9", "label": "conflict"}), "set.jsonl:2: missing fields category, reference, input"),
        (json.dumps(dict(GOOD, id="p9", extra=1)), "set.jsonl:2: unknown field extra"),
        (json.dumps(dict(GOOD, id="p9", input="  ")), "set.jsonl:2: field 'input' must be a non-empty string"),
        (json.dumps(GOOD), "set.jsonl:2: duplicate id 'p1' (first on line 1)"),
        ("[1, 2]", "set.jsonl:2: expected a JSON object"),
    ],
)
def test_clause_pairs_bad_lines_name_file_and_line(tmp_path, bad, message):
    path = write_jsonl(tmp_path / "set.jsonl", [GOOD, bad])
    with pytest.raises(DatasetError) as exc:
        load_dataset(path)
    assert message in str(exc.value)
    assert isinstance(exc.value, UserError) and "\n" not in str(exc.value)


def test_empty_and_missing_datasets(tmp_path):
    (tmp_path / "empty.jsonl").write_text("\n  \n", encoding="utf-8")
    with pytest.raises(DatasetError, match="empty dataset"):
        load_dataset(tmp_path / "empty.jsonl")
    with pytest.raises(DatasetError, match="does not exist"):
        load_dataset(tmp_path / "nope.jsonl")
    with pytest.raises(DatasetError, match="is a directory"):
        load_dataset(tmp_path)
    (tmp_path / "bin.jsonl").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(DatasetError, match="not UTF-8"):
        load_dataset(tmp_path / "bin.jsonl")
    (tmp_path / "x.csv").write_text("a", encoding="utf-8")
    with pytest.raises(DatasetError, match="unknown dataset format"):
        load_dataset(tmp_path / "x.csv")


REF = "1. Payment. Customer shall pay within thirty (30) days.\n\n2. Law. New York law governs.\n"
INP = "1. Payment. Customer shall pay within sixty (60) days.\n\n2. Law. New York law\ngoverns.\n\n3. Audit. Vendor may audit.\n"


def write_manifest(tmp_path, pairs):
    (tmp_path / "ref.md").write_text(REF, encoding="utf-8")
    (tmp_path / "inp.md").write_text(INP, encoding="utf-8")
    path = tmp_path / "docs.yaml"
    path.write_text(json.dumps({"pairs": pairs}), encoding="utf-8")  # JSON is valid YAML
    return path


def test_document_pairs_spans_from_quotes(tmp_path):
    path = write_manifest(tmp_path, [{
        "id": "d1", "reference": "ref.md", "input": "inp.md",
        "expected": [{"kind": "deviation", "quote": "sixty (60) days"},
                     {"kind": "added", "quote": "Vendor may audit."},
                     {"kind": "missing", "quote": "thirty (30) days"}],
        "consistent": [{"quote": "New York law governs.", "note": "line break only"}],
    }])
    ds = load_dataset(path)
    pair = ds.pairs[0]
    assert ds.kind == "document-pairs" and pair.reference == tmp_path / "ref.md"
    dev, added, missing = pair.expected
    assert INP[dev.start:dev.end] == "sixty (60) days" and dev.side == "input"
    assert INP[added.start:added.end] == "Vendor may audit."
    assert missing.side == "reference" and REF[missing.start:missing.end] == "thirty (30) days"
    assert INP[pair.consistent[0].start:pair.consistent[0].end] == "New York law\ngoverns."


@pytest.mark.parametrize(
    "pair, message",
    [
        ({"id": "d", "reference": "gone.md", "input": "inp.md"}, "reference file"),
        ({"id": "d", "reference": "ref.md", "input": "inp.md", "expected": [{"kind": "deviation", "quote": "ninety"}]},
         "does not occur"),
        ({"id": "d", "reference": "ref.md", "input": "inp.md", "expected": [{"kind": "deviation", "quote": "."}]},
         r"occurs \d+ times"),
        ({"id": "d", "reference": "ref.md", "input": "inp.md", "expected": [{"kind": "changed", "quote": "x"}]},
         "unknown kind 'changed'"),
        ({"id": "d", "reference": "ref.md", "input": "inp.md", "bogus": 1}, "unknown key bogus"),
        ({"id": "d", "reference": "ref.md"}, "'input' must be a non-empty string"),
        ({"id": "d", "reference": "ref.md", "input": "inp.md", "max_findings": -1}, "'max_findings' must be a whole number"),
    ],
)
def test_document_pairs_bad_manifest(tmp_path, pair, message):
    with pytest.raises(DatasetError, match=message):
        load_dataset(write_manifest(tmp_path, [pair]))


def test_document_pairs_empty_and_invalid(tmp_path):
    with pytest.raises(DatasetError, match="empty dataset"):
        load_dataset(write_manifest(tmp_path, []))
    bad = tmp_path / "bad.yaml"
    bad.write_text("pairs: [\n  {id: x\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"bad.yaml:\d+: invalid YAML"):
        load_dataset(bad)


def test_corpus_pairs_skip_when_corpus_absent(tmp_path, monkeypatch):
    monkeypatch.setenv("CONFLICTKIT_CORPUS", str(tmp_path / "no-corpus"))
    path = write_manifest(tmp_path, [
        {"id": "real", "reference": "corpus:a/v1.md", "input": "corpus:a/v2.md"},
        {"id": "local", "reference": "ref.md", "input": "inp.md"},
    ])
    ds = load_dataset(path)
    assert [p.id for p in ds.pairs] == ["local"] and "real" in ds.skipped[0]


CNLI = {
    "labels": {"nda-1": {"short_description": "a", "hypothesis": "All information is oral."},
               "nda-2": {"short_description": "b", "hypothesis": "Copies may be kept."}},
    "documents": [{
        "id": 7, "file_name": "x", "document_type": "t", "url": "",
        "text": "Secret things. Recipient shall return all copies.  Nothing else.",
        "spans": [[0, 14], [15, 49], [51, 64]],
        "annotation_sets": [{"annotations": {"nda-2": {"choice": "Contradiction", "spans": [1]},
                                             "nda-1": {"choice": "NotMentioned", "spans": []}}}],
    }],
}


def test_contractnli_loader(tmp_path):
    d = tmp_path / "contractnli"
    d.mkdir()
    (d / "dev.json").write_text(json.dumps(CNLI), encoding="utf-8")
    ds = load_dataset(d / "dev.json")
    assert ds.name == "contractnli-dev"
    [pair] = ds.pairs
    assert (pair.label, pair.category, pair.group) == ("conflict", "contradiction", "nda-2")
    assert pair.reference == "Recipient shall return all copies." and pair.input == "Copies may be kept."
    assert [p.category for p in ds.held_apart] == [datasets.NOT_MENTIONED]


@pytest.mark.corpus
def test_contractnli_real_dev_counts():
    path = datasets.corpus_root() / "contractnli" / "dev.json"
    if not path.is_file():
        pytest.skip("ContractNLI is not in the corpus")
    ds = load_dataset(path)
    labels = [p.label for p in ds.pairs]
    assert labels.count("conflict") == 95 and labels.count("consistent") == 519 and len(ds.held_apart) == 423


def test_split_is_deterministic():
    splits = [datasets.split_of(f"id-{i}") for i in range(400)]
    assert splits == [datasets.split_of(f"id-{i}") for i in range(400)]
    assert 60 < splits.count("holdout") < 140
