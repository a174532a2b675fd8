"""Benchmark datasets as plain files (beir style), loaded with errors that name the file and line.

Three kinds, chosen by :func:`load_dataset` from the file:

- **clause pairs**, JSON Lines (``.jsonl``): one ``{"id", "category", "label", "reference",
  "input", "note"?}`` object per line, ``label`` being ``conflict`` or ``consistent``;
- **document pairs**, a YAML or JSON manifest with ``pairs: [{id, reference, input, expected,
  consistent, max_findings?}]``; each expected finding gives a ``quote`` that must occur exactly
  once in the input (deviation, added) or the reference (missing), and its span is computed from
  it; ``consistent`` quotes (input side) must not be flagged; ``max_findings`` caps all findings;
- **ContractNLI** (``dev.json`` / ``test.json`` of Koreeda & Manning 2021): the evidence spans of
  each annotation are the reference side, the hypothesis the input side; Contradiction is a
  conflict, Entailment consistent, NotMentioned is kept apart (no evidence to compare).

Paths in a manifest are relative to the manifest, or ``corpus:REL`` relative to the third-party
corpus root (``$CONFLICTKIT_CORPUS``, else ``../shared/corpus`` next to the repository). A pair
whose corpus is absent is skipped with a note, never an error; a local file that is missing is.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from conflictkit.config import load_yaml
from conflictkit.errors import UserError

Label = Literal["conflict", "consistent"]
LABELS: tuple[str, ...] = ("conflict", "consistent")
FINDING_KINDS: tuple[str, ...] = ("deviation", "missing", "added", "moved")
NOT_MENTIONED = "not-mentioned"
_REPO_ROOT = Path(__file__).resolve().parent.parent.parent


class DatasetError(UserError):
    """A dataset file that cannot be used: the message names the file (and line) and the fix."""


@dataclass(frozen=True)
class ClausePair:
    """One labelled (reference clause, input clause) pair."""

    id: str
    category: str
    label: Label
    reference: str
    input: str
    note: str = ""
    group: str = ""  # e.g. the ContractNLI hypothesis id; empty for the project's own sets


@dataclass
class ClausePairDataset:
    """A list of labelled clause pairs; ``held_apart`` keeps pairs that are not scored (NotMentioned)."""

    name: str
    path: str
    pairs: list[ClausePair]
    held_apart: list[ClausePair] = field(default_factory=list)
    kind: str = "clause-pairs"

    def categories(self) -> dict[str, Label]:
        """Each category and the label its pairs carry, in first-seen order."""
        out: dict[str, Label] = {}
        for pair in self.pairs:
            out.setdefault(pair.category, pair.label)
        return out


@dataclass(frozen=True)
class ExpectedSpan:
    """An expected finding (or, with kind ``consistent``, a span that must not be flagged)."""

    kind: str  # deviation / missing / added / consistent
    side: Literal["reference", "input"]
    start: int
    end: int
    quote: str
    note: str = ""


@dataclass
class DocumentPair:
    """A reference file, an input file and what a correct comparison reports on them."""

    id: str
    reference: Path
    input: Path
    expected: list[ExpectedSpan]
    consistent: list[ExpectedSpan]
    max_findings: int | None = None  # a target: at most this many findings of any kind


@dataclass
class DocumentPairDataset:
    """Document pairs from one manifest; ``skipped`` lists pairs left out, with why (corpus absent)."""

    name: str
    path: str
    pairs: list[DocumentPair]
    skipped: list[str] = field(default_factory=list)
    kind: str = "document-pairs"


from conflictkit.bench.revisions import RevisionSet, is_revision_set, load_revision_set  # noqa: E402

Dataset = ClausePairDataset | DocumentPairDataset | RevisionSet


def corpus_root() -> Path:
    """The third-party corpus: ``$CONFLICTKIT_CORPUS``, else ``../shared/corpus`` beside the repository."""
    override = os.environ.get("CONFLICTKIT_CORPUS")
    if override:
        return Path(override)
    return _REPO_ROOT.parent / "shared" / "corpus"


_LANGUAGE_FOLDER = re.compile(r"[a-z]{2}")  # "de/": a data set of another language than the one beside it


def dataset_name(path: Path) -> str:
    """A short display name: ``report`` for ``clause-pairs/report.jsonl``, ``report-de`` for
    ``clause-pairs/de/report.jsonl`` and ``edits-de`` for ``documents/de/edits/edits.yaml`` (a
    language folder, so two languages' splits never share a name in one run), ``contractnli-test``..."""
    stem = path.name.split(".")[0]
    if path.parent.name == "contractnli":
        return f"contractnli-{stem}"
    language = next((p.name for p in path.parents[:2] if _LANGUAGE_FOLDER.fullmatch(p.name)), None)
    return f"{stem}-{language}" if language else stem


def load_dataset(path: str | os.PathLike[str]) -> Dataset:
    """Load a clause-pair JSONL file, a document-pair manifest, a ContractNLI JSON file, or a folder of
    real revisions labelled hunk by hunk (``labels/PAIR.json``; documents under ``$REVISIONS_CORPUS``,
    ``$CONFLICTKIT_CORPUS`` or the ``corpus`` folder beside it)."""
    folder = Path(str(path))
    if is_revision_set(folder):
        return load_revision_set(folder)
    file = _resolve_dataset_path(str(path))
    if file.suffix == ".jsonl":
        return load_clause_pairs(file)
    if file.suffix in (".yaml", ".yml"):
        return load_document_pairs(file)
    if file.suffix == ".json":
        data = _read_json(file)
        if isinstance(data, dict) and "documents" in data and "labels" in data:
            return contractnli_from_data(data, file)
        return load_document_pairs(file, data)
    raise DatasetError(
        f"{file}: unknown dataset format; give clause pairs (.jsonl), a document-pair manifest (.yaml/.json) "
        "or a ContractNLI file (dev.json/test.json)"
    )


def _resolve_dataset_path(text: str) -> Path:
    file = corpus_root() / text[len("corpus:"):] if text.startswith("corpus:") else Path(text)
    if not file.exists():
        raise DatasetError(f"dataset {file} does not exist")
    if file.is_dir():
        raise DatasetError(f"dataset {file} is a directory without labels/; give a .jsonl, .yaml or .json file, "
                           "or a revision set (a folder holding labels/PAIR.json)")
    return file


def _read_text(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DatasetError(f"{file}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise DatasetError(f"cannot read {file}: {exc.strerror or exc}") from None


def _read_json(file: Path) -> Any:
    try:
        return json.loads(_read_text(file))
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{file}:{exc.lineno}: invalid JSON: {exc.msg} (column {exc.colno})") from None


# ---------------------------------------------------------------------------------------------
# clause pairs

_REQUIRED = ("id", "category", "label", "reference", "input")


def load_clause_pairs(file: str | os.PathLike[str]) -> ClausePairDataset:
    """Read a clause-pair JSONL file; every problem names the file and line."""
    file = Path(file)
    pairs: list[ClausePair] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(_read_text(file).splitlines(), start=1):
        if not line.strip():
            continue
        pair = _parse_pair_line(file, lineno, line)
        if pair.id in seen:
            raise DatasetError(f"{file}:{lineno}: duplicate id {pair.id!r} (first on line {seen[pair.id]})")
        seen[pair.id] = lineno
        pairs.append(pair)
    if not pairs:
        raise DatasetError(f"{file}: empty dataset (no clause pairs); write one JSON object per line")
    return ClausePairDataset(name=dataset_name(file), path=str(file), pairs=pairs)


def _parse_pair_line(file: Path, lineno: int, line: str) -> ClausePair:
    where = f"{file}:{lineno}"
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{where}: malformed JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise DatasetError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    missing = [k for k in _REQUIRED if k not in obj]
    if missing:
        raise DatasetError(f"{where}: missing field{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    unknown = sorted(set(obj) - set(_REQUIRED) - {"note", "group"})
    if unknown:
        raise DatasetError(f"{where}: unknown field{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}")
    if obj["label"] not in LABELS:
        raise DatasetError(f"{where}: unknown label {obj['label']!r}; use one of {', '.join(LABELS)}")
    for key in ("id", "category", "reference", "input"):
        if not isinstance(obj[key], str) or not obj[key].strip():
            raise DatasetError(f"{where}: field {key!r} must be a non-empty string")
    for key in ("note", "group"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise DatasetError(f"{where}: field {key!r} must be a string")
    return ClausePair(
        id=obj["id"], category=obj["category"], label=obj["label"], reference=obj["reference"],
        input=obj["input"], note=obj.get("note") or "", group=obj.get("group") or "",
    )


# ---------------------------------------------------------------------------------------------
# ContractNLI

_CNLI_LABELS = {"Contradiction": "conflict", "Entailment": "consistent"}


def load_contractnli(file: str | os.PathLike[str]) -> ClausePairDataset:
    """Read a ContractNLI split (``dev.json`` or ``test.json``) as clause pairs."""
    file = Path(file)
    return contractnli_from_data(_read_json(file), file)


def contractnli_from_data(data: Any, file: Path) -> ClausePairDataset:
    """Turn parsed ContractNLI JSON into pairs: evidence spans vs hypothesis; NotMentioned held apart."""
    try:
        hypotheses = {key: value["hypothesis"] for key, value in data["labels"].items()}
        documents = data["documents"]
    except (KeyError, TypeError, AttributeError):
        raise DatasetError(f"{file}: not a ContractNLI file (needs 'documents' and 'labels' with hypotheses)") from None
    pairs: list[ClausePair] = []
    held: list[ClausePair] = []
    for doc in documents:
        pairs_of_doc, held_of_doc = _contractnli_document(doc, hypotheses, file)
        pairs.extend(pairs_of_doc)
        held.extend(held_of_doc)
    if not pairs:
        raise DatasetError(f"{file}: empty dataset (no Contradiction or Entailment annotations)")
    return ClausePairDataset(name=dataset_name(file), path=str(file), pairs=pairs, held_apart=held)


def _contractnli_document(doc: dict, hypotheses: dict[str, str], file: Path) -> tuple[list[ClausePair], list[ClausePair]]:
    text, spans = doc["text"], doc["spans"]
    pairs, held = [], []
    for annotation_set in doc["annotation_sets"][:1]:  # one annotator set per document in the release
        for key, annotation in sorted(annotation_set["annotations"].items(), key=lambda kv: _nda_order(kv[0])):
            if key not in hypotheses:
                raise DatasetError(f"{file}: document {doc['id']} uses unknown hypothesis {key!r}")
            choice = annotation["choice"]
            evidence = " ".join(" ".join(text[spans[i][0]: spans[i][1]].split()) for i in annotation.get("spans", []))
            pair_id = f"{doc['id']}/{key}"
            if choice == "NotMentioned" or not evidence:
                held.append(ClausePair(pair_id, NOT_MENTIONED, "consistent", evidence or "-", hypotheses[key], choice, key))
                continue
            if choice not in _CNLI_LABELS:
                raise DatasetError(f"{file}: document {doc['id']} {key}: unknown choice {choice!r}")
            label = _CNLI_LABELS[choice]
            pairs.append(ClausePair(pair_id, choice.lower(), label, evidence, hypotheses[key], "", key))  # type: ignore[arg-type]
    return pairs, held


def _nda_order(key: str) -> tuple[int, str]:
    tail = key.rsplit("-", 1)[-1]
    return (int(tail), key) if tail.isdigit() else (10**9, key)


# ---------------------------------------------------------------------------------------------
# document pairs


def load_document_pairs(file: str | os.PathLike[str], data: Any = None) -> DocumentPairDataset:
    """Read a document-pair manifest (YAML or JSON) and compute every expected span from its quote."""
    file = Path(file)
    if data is None:
        try:
            data = load_yaml(_read_text(file))
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f":{mark.line + 1}" if mark else ""
            raise DatasetError(f"{file}{where}: invalid YAML: {getattr(exc, 'problem', None) or exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("pairs"), list):
        raise DatasetError(f"{file}: a document-pair manifest needs a top-level 'pairs' list")
    if not data["pairs"]:
        raise DatasetError(f"{file}: empty dataset (no document pairs)")
    pairs, skipped = [], []
    seen: set[str] = set()
    for index, entry in enumerate(data["pairs"]):
        pair = _document_pair(file, index, entry, skipped)
        if pair is None:
            continue
        if pair.id in seen:
            raise DatasetError(f"{file}: pairs[{index}]: duplicate id {pair.id!r}")
        seen.add(pair.id)
        pairs.append(pair)
    return DocumentPairDataset(name=dataset_name(file), path=str(file), pairs=pairs, skipped=skipped)


def _document_pair(file: Path, index: int, entry: Any, skipped: list[str]) -> DocumentPair | None:
    where = f"{file}: pairs[{index}]"
    if not isinstance(entry, dict):
        raise DatasetError(f"{where}: each pair must be a mapping with id, reference, input")
    unknown = sorted(set(entry) - {"id", "reference", "input", "expected", "consistent", "note", "max_findings"})
    if unknown:
        raise DatasetError(f"{where}: unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}")
    for key in ("id", "reference", "input"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise DatasetError(f"{where}: '{key}' must be a non-empty string")
    where = f"{file}: pair {entry['id']!r}"
    paths = {}
    for side in ("reference", "input"):
        resolved = _manifest_path(file, entry[side], where, side)
        if resolved is None:
            skipped.append(f"{entry['id']}: corpus {corpus_root()} is absent")
            return None
        paths[side] = resolved
    texts = {side: _read_text(path) for side, path in paths.items()}
    expected = [_expected(where, i, e, texts) for i, e in enumerate(_list(entry, "expected", where))]
    consistent = [_consistent(where, i, e, texts) for i, e in enumerate(_list(entry, "consistent", where))]
    limit = entry.get("max_findings")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 0):
        raise DatasetError(f"{where}: 'max_findings' must be a whole number >= 0")
    return DocumentPair(entry["id"], paths["reference"], paths["input"], expected, consistent, limit)


def _manifest_path(manifest: Path, text: str, where: str, side: str) -> Path | None:
    if text.startswith("corpus:"):
        root = corpus_root()
        if not root.is_dir():
            return None  # third-party data is optional: skip cleanly
        path = root / text[len("corpus:"):]
    else:
        path = (manifest.parent / text).resolve()
    if not path.is_file():
        raise DatasetError(f"{where}: {side} file {path} does not exist")
    return path


def _list(entry: dict, key: str, where: str) -> list:
    value = entry.get(key) or []
    if not isinstance(value, list):
        raise DatasetError(f"{where}: '{key}' must be a list")
    return value


def _expected(where: str, index: int, item: Any, texts: dict[str, str]) -> ExpectedSpan:
    loc = f"{where}: expected[{index}]"
    if not isinstance(item, dict) or item.get("kind") not in FINDING_KINDS:
        kind = item.get("kind") if isinstance(item, dict) else item
        raise DatasetError(f"{loc}: unknown kind {kind!r}; use one of {', '.join(FINDING_KINDS)}")
    side = "reference" if item["kind"] == "missing" else "input"
    start, end = locate_quote(texts[side], item.get("quote"), f"{loc} ({side})")
    return ExpectedSpan(item["kind"], side, start, end, texts[side][start:end], str(item.get("note") or ""))


def _consistent(where: str, index: int, item: Any, texts: dict[str, str]) -> ExpectedSpan:
    loc = f"{where}: consistent[{index}]"
    if not isinstance(item, dict):
        raise DatasetError(f"{loc}: must be a mapping with quote and note")
    start, end = locate_quote(texts["input"], item.get("quote"), f"{loc} (input)")
    return ExpectedSpan("consistent", "input", start, end, texts["input"][start:end], str(item.get("note") or ""))


def locate_quote(text: str, quote: Any, where: str) -> tuple[int, int]:
    """The span of the one occurrence of ``quote`` in ``text``; whitespace runs match any whitespace."""
    if not isinstance(quote, str) or not quote.strip():
        raise DatasetError(f"{where}: 'quote' must be a non-empty string")
    pattern = r"\s+".join(re.escape(word) for word in quote.split())
    matches = [m.span() for m in re.finditer(pattern, text)]
    if len(matches) != 1:
        found = "does not occur" if not matches else f"occurs {len(matches)} times"
        raise DatasetError(f"{where}: quote {quote[:60]!r} {found}; it must occur exactly once (quote more words)")
    return matches[0]


def split_of(pair_id: str, holdout: float = 0.25, seed: str = "conflictkit") -> str:
    """``fit`` or ``holdout``: a deterministic split by a hash of the id, the same on every machine."""
    digest = hashlib.sha256(f"{seed}:{pair_id}".encode()).digest()
    return "holdout" if int.from_bytes(digest[:8], "big") / 2**64 < holdout else "fit"
