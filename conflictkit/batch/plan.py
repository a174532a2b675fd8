"""Which pairs a batch compares, where each pair's report set goes, and when a pair is unchanged."""

from __future__ import annotations

import csv
import glob
import hashlib
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from conflictkit.errors import UserError

# File types a directory argument is searched for (a file named explicitly may be of any type:
# the loader decides whether it can read it, and a refusal is that pair's failure).
DOCUMENT_SUFFIXES = (".md", ".markdown", ".txt", ".text", ".html", ".htm", ".docx", ".pdf")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class BatchPair:
    """One comparison of a batch: two paths and the folder (under ``--out``) of its report set."""

    reference: str
    input: str
    folder: str


def folder_name(reference: str, input: str) -> str:
    """A readable, stable folder name: the input's stem plus a short hash of both paths."""
    stem = _UNSAFE.sub("-", Path(input).stem).strip("-")[:60] or "input"
    digest = hashlib.sha256(os.fsencode(f"{os.path.abspath(reference)}\0{os.path.abspath(input)}")).hexdigest()[:8]
    return f"{stem}-{digest}"


def expand_inputs(patterns: list[str]) -> list[str]:
    """Files named, matched by a glob, or found (recursively, by suffix) in a directory; in order, once each."""
    found: list[str] = []
    for pattern in patterns:
        if os.path.isdir(pattern):
            matches = sorted(
                str(p) for p in Path(pattern).rglob("*")
                if p.is_file() and p.suffix.lower() in DOCUMENT_SUFFIXES and not p.name.startswith(".")
            )
        elif glob.has_magic(pattern):
            matches = sorted(m for m in glob.glob(pattern, recursive=True) if os.path.isfile(m))
        else:
            matches = [pattern]  # a missing file becomes that pair's failure, not the batch's
        if not matches:
            raise UserError(f"{pattern} matches no document; give files, globs or directories of .md/.txt/... files")
        found.extend(matches)
    unique = list(dict.fromkeys(os.path.normpath(p) for p in found))
    return unique


def pairs_from_inputs(reference: str, inputs: list[str]) -> list[BatchPair]:
    """One reference against every input (files, globs, directories); the reference itself is skipped."""
    if not inputs:
        raise UserError("no inputs: give INPUT files, globs or directories after --reference")
    ref = os.path.normpath(reference)
    paths = [p for p in expand_inputs(inputs) if os.path.abspath(p) != os.path.abspath(ref)]
    if not paths:
        raise UserError("the only input is the reference itself; give other documents")
    return _with_folders([(ref, p) for p in paths])


def pairs_from_manifest(manifest: str) -> list[BatchPair]:
    """Pairs from a CSV with ``reference,input`` columns; relative paths are relative to the CSV's folder."""
    path = Path(manifest)
    if not path.is_file():
        raise UserError(f"manifest {manifest} does not exist; give a CSV with reference,input columns")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read manifest {manifest}: {exc}; save it as UTF-8 CSV") from None
    rows = list(csv.reader(text.splitlines()))
    rows = [r for r in rows if any(cell.strip() for cell in r)]
    if not rows:
        raise UserError(f"manifest {manifest} is empty; give a CSV with a reference,input header and one row per pair")
    header = [h.strip().lower() for h in rows[0]]
    if "reference" not in header or "input" not in header:
        raise UserError(f"manifest {manifest} needs a header row with 'reference' and 'input' columns (got {', '.join(rows[0])})")
    ri, ii = header.index("reference"), header.index("input")
    base = path.parent
    pairs = []
    for number, row in enumerate(rows[1:], start=2):
        if len(row) <= max(ri, ii) or not row[ri].strip() or not row[ii].strip():
            raise UserError(f"manifest {manifest} line {number}: needs both a reference and an input")
        pairs.append(tuple(os.path.normpath(base / cell.strip()) for cell in (row[ri], row[ii])))
    if not pairs:
        raise UserError(f"manifest {manifest} has a header but no pairs")
    return _with_folders(list(dict.fromkeys(pairs)))


def _with_folders(pairs: list[tuple[str, str]]) -> list[BatchPair]:
    _refuse_special_files(dict.fromkeys(path for pair in pairs for path in pair))
    return [BatchPair(reference=r, input=i, folder=folder_name(r, i)) for r, i in pairs]


def _refuse_special_files(paths) -> None:
    """A device (/dev/zero), FIFO or socket is refused before the batch starts: reading it never ends
    (or never begins). A missing file is left to fail its own pair."""
    for path in paths:
        try:
            mode = os.stat(path).st_mode  # stat opens nothing: a FIFO with no writer does not block it
        except OSError:
            continue
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
            raise UserError(f"{path} is {kind}, not a regular file; give document files (copy a stream to a file first)")


def file_digest(path: str) -> str | None:
    """SHA-256 of a file's bytes, or None when it cannot be read (the pair then fails with the reason)."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()
