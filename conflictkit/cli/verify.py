"""``conflictkit verify DOCUMENT EXTRACTIONS.json``: check quoted extractions against a document.

EXTRACTIONS.json is a list of ``{"label", "quote", "start"?, "end"?}``. Every extraction is checked
before anything is printed, so bad input gives one error line and no partial output. Exit codes:
0 all grounded, 3 any not grounded, 2 bad input.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import click

from conflictkit.errors import EXIT_FINDINGS, EXIT_OK, InputError, UserError

if TYPE_CHECKING:  # the grounding package is imported when the command runs, not when --help lists it
    from conflictkit.grounding import Verification, Verifier

_KEYS = {"label", "quote", "start", "end"}
_MAX_PROBLEMS = 5  # problems listed in the one-line error; the count says how many in all


@click.command("verify")
@click.argument("document", type=click.Path(dir_okay=True, readable=False, path_type=Path))
@click.argument("extractions", metavar="EXTRACTIONS.json", type=click.Path(dir_okay=True, readable=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="An aligned table, or one JSON object with every result.")
def verify(document: Path, extractions: Path, fmt: str) -> int:
    """Check that each quote in EXTRACTIONS.json is in DOCUMENT at the offsets it cites.

    EXTRACTIONS.json is a list of {"label", "quote", "start"?, "end"?}; offsets are half-open
    character (code point) offsets into DOCUMENT decoded as UTF-8 (a byte-order mark dropped,
    line endings kept), as in compare's reports. Matching ignores typography only.
    Exit code 0 when every quote is grounded, 3 when any is not, 2 for bad input.
    """
    verifier = _verifier(document)
    items, problems = parse_extractions(_read(extractions), str(extractions))
    results = []
    for n, item in enumerate(items, 1):
        if item is None:  # a malformed entry: its problem is already listed
            continue
        try:
            results.append(verifier.verify(item["quote"], start=item["start"], end=item["end"],
                                           label=item["label"]))
        except UserError as exc:
            problems.append((n, f"{_name(n, item)}: {exc}"))
    if problems:
        raise InputError(_problems(str(extractions), [p for _, p in sorted(problems)]))
    from conflictkit.report.escape import json_for_terminal, sanitize_controls

    # Labels and details quote the caller's file and the document: shown, never obeyed by the terminal.
    click.echo(json_for_terminal(_as_json(str(document), results)) if fmt == "json" else sanitize_controls(_as_table(results)))
    return EXIT_OK if all(r.grounded for r in results) else EXIT_FINDINGS


def parse_extractions(raw: str, name: str) -> tuple[list[dict | None], list[tuple[int, str]]]:
    """Parse and type-check the extractions file.

    Returns one entry per extraction (``None`` for a malformed one) and ``(item number, problem)``
    for each malformed one, so every problem can be reported at once. A file that is not a JSON
    list raises :class:`InputError`.
    """
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    if not isinstance(data, list):
        raise InputError(f'{name}: expected a JSON list of {{"label", "quote", "start", "end"}} objects, '
                         f"got {_json_type(data)}")
    items, problems = [], []
    for n, entry in enumerate(data, 1):
        item, problem = _item(n, entry)
        items.append(None if problem else item)
        if problem:
            problems.append((n, problem))
    return items, problems


def _item(n: int, entry: object) -> tuple[dict, str | None]:
    if not isinstance(entry, dict):
        return {}, f"item {n}: expected an object, got {_json_type(entry)}"
    item = {"label": entry.get("label", f"#{n}"), **{k: entry.get(k) for k in ("quote", "start", "end")}}
    where = _name(n, item)
    unknown = sorted(set(entry) - _KEYS)
    if unknown:
        return item, f"{where}: unknown key(s) {', '.join(map(repr, unknown))} (allowed: label, quote, start, end)"
    if not isinstance(item["label"], str):
        return item, f"{where}: label must be a string, got {_json_type(item['label'])}"
    if "quote" not in entry:
        return item, f"{where}: no quote"
    if not isinstance(item["quote"], str):
        return item, f"{where}: quote must be a string, got {_json_type(item['quote'])}"
    for key in ("start", "end"):
        value = item[key]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            return item, f"{where}: {key} must be an integer or null, got {_json_type(value)} {value!r}"
    return item, None


def _verifier(path: Path) -> Verifier:
    """The document read as ``compare`` reads it, so offsets from a report verify here."""
    from conflictkit.grounding import Verifier
    from conflictkit.loaders import read_document

    document = read_document(path)
    try:
        return Verifier(document.original)
    except UserError as exc:
        raise InputError(f"{path}: {exc}") from None


def _read(path: Path) -> str:
    """The extractions file as text (JSON: a byte-order mark is allowed and dropped)."""
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if not path.is_file():
        raise InputError(f"{path}: not a file")
    try:
        return path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise InputError(f"{path}: cannot read it: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (invalid byte at position {exc.start}); save it as UTF-8") from None


def _name(n: int, item: dict) -> str:
    label = item.get("label")
    return f"item {n} ({label!r})" if isinstance(label, str) and label != f"#{n}" else f"item {n}"


def _problems(name: str, problems: list[str]) -> str:
    more = f"; and {len(problems) - _MAX_PROBLEMS} more" if len(problems) > _MAX_PROBLEMS else ""
    count = f"{len(problems)} problem{'s' if len(problems) > 1 else ''}"
    return f"{name}: {count}: " + "; ".join(problems[:_MAX_PROBLEMS]) + more


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _counts(results: list[Verification]) -> dict[str, int]:
    from conflictkit.grounding import STATUSES

    counted = Counter(r.status for r in results)
    return {status: counted.get(status, 0) for status in STATUSES}


def _as_json(document: str, results: list[Verification]) -> str:
    data = {"document": document, "checked": len(results), "counts": _counts(results),
            "results": [r.to_dict() for r in results]}
    return json.dumps(data, indent=2, ensure_ascii=False)


def _as_table(results: list[Verification]) -> str:
    rows = [("LABEL", "STATUS", "START", "END", "DETAIL")]
    rows += [(" ".join((r.label or "").split()), r.status, _num(r.start), _num(r.end), r.detail) for r in results]
    widths = [max(len(row[k]) for row in rows) for k in range(4)]
    lines = ["  ".join([row[0].ljust(widths[0]), row[1].ljust(widths[1]), row[2].rjust(widths[2]),
                        row[3].rjust(widths[3]), row[4]]) for row in rows]
    counts = ", ".join(f"{n} {status}" for status, n in _counts(results).items() if n)
    lines.append(f"{len(results)} extraction{'s' if len(results) != 1 else ''}: {counts or 'none'}")
    return "\n".join(lines)


def _num(value: int | None) -> str:
    return "-" if value is None else str(value)
