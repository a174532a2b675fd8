"""Real revisions labelled hunk by hunk: loading, scoring, and the word-diff baseline.

A revision set is a folder in the format of the team's development set (``labels/PAIR.json``, one
file per pair of consecutive versions of a document, each word-level change of the pair -- a *hunk*
-- labelled ``substantive``, ``editorial`` or ``unsure``; the documents themselves are named by
their path under a corpus folder). A tool is scored on the findings it reports for each pair
exactly as the set's README says:

- **recall**: a substantive hunk is found when a counted finding (deviation, missing, added; a
  ``moved`` finding is neither credited nor penalised) overlaps it on the side it touches: the
  reference side for a deletion, the input side for an insertion, either side for a replacement;
  reported over all substantive hunks and over those not tagged ``version-date``;
- **editorial false alarms**: an editorial hunk overlapped by a counted finding that overlaps no
  substantive or unsure hunk;
- **spurious findings**: counted findings that overlap no hunk at all;
- unsure hunks are not scored.

Spans are half-open offsets into the files read as UTF-8 with line endings kept; a span overlaps
another when they share a character, so an empty or absent span overlaps nothing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from conflictkit.errors import UserError

COUNTED = ("deviation", "missing", "added")
VERSION_DATE = "version-date"
LABELS = ("substantive", "editorial", "unsure")


class RevisionSetError(UserError):
    """A revision set that cannot be used: the message names the file and the fix."""


@dataclass(frozen=True)
class Hunk:
    """One labelled word-level change of a revision pair."""

    id: str
    label: str
    ref_span: tuple[int, int] | None
    inp_span: tuple[int, int] | None
    why: str = ""
    tags: tuple[str, ...] = ()
    ref_text: str = ""
    inp_text: str = ""

    @property
    def version_date(self) -> bool:
        return VERSION_DATE in self.tags


@dataclass(frozen=True)
class RevisionPair:
    """Two versions of one document (old = reference, new = input) and the hunks between them."""

    id: str
    reference: Path
    input: Path
    hunks: tuple[Hunk, ...]


@dataclass
class RevisionSet:
    """Every labelled pair of a revision set; ``skipped`` names pairs whose documents are absent."""

    name: str
    path: str
    pairs: list[RevisionPair]
    skipped: list[str] = field(default_factory=list)
    kind: str = "revisions"


def is_revision_set(path: Path) -> bool:
    """Whether ``path`` is a folder holding ``labels/*.json``."""
    return path.is_dir() and (path / "labels").is_dir()


def default_corpus(folder: Path) -> Path:
    """Where a set's documents live: ``$REVISIONS_CORPUS``, ``$CONFLICTKIT_CORPUS``, else ``../corpus`` beside it."""
    for variable in ("REVISIONS_CORPUS", "CONFLICTKIT_CORPUS"):
        if os.environ.get(variable):
            return Path(os.environ[variable])
    return folder.resolve().parent / "corpus"


def load_revision_set(folder: str | os.PathLike[str], corpus: str | os.PathLike[str] | None = None) -> RevisionSet:
    """Read every ``labels/*.json`` of a revision set; a pair whose documents are absent is skipped."""
    root = Path(folder)
    if not is_revision_set(root):
        raise RevisionSetError(f"{root} is not a revision set: it has no labels/ folder of PAIR.json files")
    base = Path(corpus) if corpus is not None else default_corpus(root)
    pairs, skipped = [], []
    for file in sorted((root / "labels").glob("*.json")):
        pair = _read_pair(file, base)
        if pair.reference.is_file() and pair.input.is_file():
            pairs.append(pair)
        else:
            skipped.append(f"{pair.id}: documents not found under {base}")
    if not pairs and not skipped:
        raise RevisionSetError(f"{root}/labels holds no PAIR.json file")
    return RevisionSet(name=root.name, path=str(root), pairs=pairs, skipped=skipped)


def _read_pair(file: Path, corpus: Path) -> RevisionPair:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        hunks = tuple(_hunk(h) for h in data["hunks"])
        return RevisionPair(id=str(data["pair"]), reference=corpus / data["reference"], input=corpus / data["input"],
                            hunks=hunks)
    except (OSError, UnicodeDecodeError) as exc:
        raise RevisionSetError(f"cannot read {file}: {exc}") from None
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise RevisionSetError(f"{file}: not a revision label file ({type(exc).__name__}: {exc}); "
                               "see the set's README for the format") from None


def _hunk(raw: dict) -> Hunk:
    if raw["label"] not in LABELS:
        raise ValueError(f"hunk {raw['id']}: label {raw['label']!r} is not one of {', '.join(LABELS)}")

    def span(value: Any) -> tuple[int, int] | None:
        return None if value is None else (int(value[0]), int(value[1]))

    return Hunk(id=str(raw["id"]), label=raw["label"], ref_span=span(raw.get("ref_span")), inp_span=span(raw.get("inp_span")),
                why=str(raw.get("why", "")), tags=tuple(raw.get("tags", ())), ref_text=str(raw.get("ref_text", "")),
                inp_text=str(raw.get("inp_text", "")))


# ---------------------------------------------------------------------------------------------
# scoring

def _overlaps(a: tuple[int, int] | None, b: tuple[int, int] | None) -> bool:
    return a is not None and b is not None and a[0] < b[1] and b[0] < a[1] and a[0] < a[1] and b[0] < b[1]


@dataclass(frozen=True)
class Flag:
    """A counted finding reduced to what scoring reads: its spans on each side (None where absent)."""

    id: str
    ref_span: tuple[int, int] | None
    inp_span: tuple[int, int] | None
    kind: str = "deviation"
    reasons: tuple[str, ...] = ()


def flags_of(report: dict) -> list[Flag]:
    """The counted findings of a report.json document (deviation, missing, added)."""
    out = []
    for f in report.get("findings", []):
        if f.get("kind") not in COUNTED:
            continue

        def span(side: str) -> tuple[int, int] | None:
            quote = f.get(side)
            return None if not quote else (int(quote["start"]), int(quote["end"]))

        reasons = tuple(str(r.get("type")) for r in f.get("reasons", []))
        out.append(Flag(str(f.get("id")), span("reference"), span("input"), str(f["kind"]), reasons))
    return out


def touches(flag: Flag, hunk: Hunk) -> bool:
    """Whether a finding overlaps a hunk on the side the hunk touches (either side for a replacement)."""
    if hunk.inp_span is None:
        return _overlaps(flag.ref_span, hunk.ref_span)
    if hunk.ref_span is None:
        return _overlaps(flag.inp_span, hunk.inp_span)
    return _overlaps(flag.ref_span, hunk.ref_span) or _overlaps(flag.inp_span, hunk.inp_span)


def score_pair(pair: RevisionPair, flags: list[Flag]) -> dict:
    """One pair's counts and the hunks and findings behind each error, as the set's README defines them."""
    hit = {h.id: [f.id for f in flags if touches(f, h)] for h in pair.hunks}
    justified = {f.id for f in flags if any(touches(f, h) for h in pair.hunks if h.label != "editorial")}
    substantive = [h for h in pair.hunks if h.label == "substantive"]
    editorial = [h for h in pair.hunks if h.label == "editorial"]
    found = [h for h in substantive if hit[h.id]]
    alarms = [h for h in editorial if any(f not in justified for f in hit[h.id])]
    spurious = [f for f in flags if not any(touches(f, h) for h in pair.hunks)]
    return {
        "id": pair.id,
        "substantive": len(substantive),
        "found": len(found),
        "substantive_no_date": sum(1 for h in substantive if not h.version_date),
        "found_no_date": sum(1 for h in found if not h.version_date),
        "editorial": len(editorial),
        "false_alarms": len(alarms),
        "editorial_overlapped": sum(1 for h in editorial if hit[h.id]),
        "unsure": sum(1 for h in pair.hunks if h.label == "unsure"),
        "unsure_overlapped": sum(1 for h in pair.hunks if h.label == "unsure" and hit[h.id]),
        "findings": len(flags),
        "spurious": len(spurious),
        "missed_hunks": [_brief(h) for h in substantive if not hit[h.id]],
        "false_alarm_hunks": [{**_brief(h), "findings": [f for f in hit[h.id] if f not in justified]} for h in alarms],
        "spurious_findings": [{"id": f.id, "kind": f.kind, "reference": f.ref_span, "input": f.inp_span,
                               "reasons": list(f.reasons)} for f in spurious],
    }


def _brief(h: Hunk) -> dict:
    return {"id": h.id, "ref_text": h.ref_text[:120], "inp_text": h.inp_text[:120], "why": h.why,
            "version_date": h.version_date}


_TOTALS = ("substantive", "found", "substantive_no_date", "found_no_date", "editorial", "false_alarms",
           "editorial_overlapped", "unsure", "unsure_overlapped", "findings", "spurious")


def totals(per_pair: list[dict]) -> dict:
    """Overall counts and rates over scored pairs."""
    out: dict[str, Any] = {k: sum(p[k] for p in per_pair) for k in _TOTALS}
    out["pairs"] = len(per_pair)
    out["recall"] = _ratio(out["found"], out["substantive"])
    out["recall_no_date"] = _ratio(out["found_no_date"], out["substantive_no_date"])
    out["false_alarm_rate"] = _ratio(out["false_alarms"], out["editorial"])
    out["editorial_overlapped_rate"] = _ratio(out["editorial_overlapped"], out["editorial"])
    return out


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


# ---------------------------------------------------------------------------------------------
# the word-diff baseline

def word_diff_flags(reference: str, input: str) -> list[Flag]:
    """What a plain word diff reports: one finding per changed region of the whitespace-token diff."""
    import re

    a = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", reference)]
    b = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", input)]
    matcher = SequenceMatcher(None, [t[2] for t in a], [t[2] for t in b], autojunk=False)
    flags = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        ref = (a[i1][0], a[i2 - 1][1]) if i2 > i1 else None
        inp = (b[j1][0], b[j2 - 1][1]) if j2 > j1 else None
        flags.append(Flag(f"W{len(flags) + 1:04d}", ref, inp, "deviation", ("word-diff",)))
    return flags


def baseline(dataset: RevisionSet) -> dict:
    """The word-diff baseline on a revision set: its totals (it flags every hunk)."""
    per_pair = [score_pair(p, word_diff_flags(read_document(p.reference), read_document(p.input))) for p in dataset.pairs]
    return {"name": "word diff", "totals": totals(per_pair)}


def read_document(path: Path) -> str:
    """A document's text as the hunk offsets index it: UTF-8, line endings kept."""
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()
