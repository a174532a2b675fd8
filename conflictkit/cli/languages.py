"""``conflictkit languages``: the language packs installed, a pack checked, the schema of a pack."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.command()
@click.option("--check", "check", metavar="CODE|FOLDER",
              help="Validate one pack (a code, or a pack's folder) and run its contract cases (cases.jsonl).")
@click.option("--schema", "schema", is_flag=True, help="Print the JSON Schema of a pack's files.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def languages(check: str | None, schema: bool, as_json: bool) -> None:
    """List the language packs (the words every stage reads; `language:` in a config chooses one).

    A pack is a folder of YAML files (conflictkit/judges/atoms/lang/<code>/, or <code>/ in a folder on
    $CONFLICTKIT_LEXICON_PATH). --check FOLDER validates a pack you are writing and runs its contract:
    exit 0 when it keeps it, 1 when a case fails, 2 when the pack is incomplete or malformed.
    """
    if schema:
        from conflictkit.lexicon.schema import pack_schema

        click.echo(json.dumps(pack_schema(), indent=2, ensure_ascii=False))
        return
    if check:
        _check(check, as_json)
        return
    _list(as_json)


def _list(as_json: bool) -> None:
    from conflictkit.lexicon import LexiconError, languages as codes, load

    rows = []
    for code in codes():
        try:
            pack = load(code)
        except LexiconError as exc:
            rows.append({"code": code, "name": None, "folder": None, "tables": [], "problem": str(exc)})
            continue
        rows.append({"code": code, "name": pack.name, "folder": str(pack.folder), "tables": pack.tables(), "problem": None})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        status = f"BROKEN: {row['problem']}" if row["problem"] else f"{row['name']}  {row['folder']}"
        tables = f"  (tables: {', '.join(row['tables'])})" if row["tables"] else ""
        click.echo(f"{row['code']:<6} {status}{tables}")


def _check(target: str, as_json: bool) -> None:
    from conflictkit.lexicon import load, on_path
    from conflictkit.testing.packs import run_cases

    folder = Path(target)
    code = folder.resolve().name if folder.is_dir() else target
    with on_path(folder.resolve().parent if folder.is_dir() else None):  # a pack being written comes first
        pack = load(code)
        report = run_cases(pack)
    if as_json:
        click.echo(json.dumps({"language": code, "cases": len(report.outcomes), "failures": report.failures}, indent=2))
    else:
        click.echo(f"{code}: {pack.name}, {len(report.outcomes)} contract cases, "
                   f"{len(report.failures)} failure{'s' if len(report.failures) != 1 else ''}")
        for failure in report.failures:
            click.echo(f"  {failure}")
    if not report.passed:
        raise SystemExit(1)
