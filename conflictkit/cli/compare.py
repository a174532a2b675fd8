"""``conflictkit compare``: the main job."""

from __future__ import annotations

import json

import click

from conflictkit.errors import EXIT_FINDINGS, UserError

KINDS = ("deviation", "missing", "added", "moved")


def parse_fail_on(value: str | None) -> set[str]:
    """``deviation,missing`` -> {"deviation", "missing"}; ``any`` means every kind."""
    if not value:
        return set()
    kinds = {k.strip() for k in value.split(",") if k.strip()}
    if "any" in kinds:
        return set(KINDS)
    unknown = kinds - set(KINDS)
    if unknown:
        raise click.BadParameter(f"unknown kind(s) {', '.join(sorted(unknown))}; use any of {', '.join(KINDS)} or 'any'")
    return kinds


@click.command()
@click.argument("reference", type=click.Path(dir_okay=True, path_type=str), required=False)
@click.argument("input", type=click.Path(dir_okay=True, path_type=str), required=False)
@click.option("--revisions", "revisions", metavar="FILE.docx",
              help="Compare a Word file's own original (tracked changes rejected) with its revised text (accepted), instead of two files.")
@click.option("--config", "-c", "config_path", metavar="FILE", help="YAML config or preset name (default: the offline preset).")
@click.option("--out", "-o", "out_dir", metavar="DIR", help="Write report.json, pairs.json, params.json and report.md (and report.html with --format html) into DIR.")
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "json", "md", "html", "docx"]), default="text", show_default=True,
              help="What to print on stdout (html and docx are written to --out only: report.html; report.docx, the input with a Word comment per finding).")
@click.option("--fail-on", metavar="KINDS", help="Exit with code 3 when a finding of these kinds exists, e.g. deviation,missing (or 'any').")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
def compare(reference: str | None, input: str | None, revisions: str | None, config_path: str | None, out_dir: str | None,
            fmt: str, fail_on: str | None, no_cache: bool) -> int:
    """Compare INPUT against REFERENCE and report deviations, missing and added clauses.

    REFERENCE is the template, playbook or previous version; INPUT is the document under review.
    Each is Markdown, plain text (UTF-8), HTML, or, with their plugins, Word (.docx) or PDF. A
    .docx with tracked changes is read with every change accepted (the report says so);
    --revisions FILE.docx compares its original with its revised text instead.

    \b
    Exit codes: 0 done; 1 unexpected failure; 2 usage, config or input error;
                3 a finding matched --fail-on.
    """
    from conflictkit.config import load_config
    from conflictkit.engine import Engine
    from conflictkit.progress import TerminalProgress
    from conflictkit.report.render import render_markdown, render_text
    from conflictkit.report.writer import write_outputs
    from conflictkit.store import get_store

    kinds = parse_fail_on(fail_on)
    if revisions and (reference or input):
        raise UserError("--revisions FILE.docx compares one file with itself: give no REFERENCE or INPUT with it")
    if not revisions and not (reference and input):
        raise UserError("give REFERENCE and INPUT, or --revisions FILE.docx (see 'conflictkit compare --help')")
    if fmt in ("html", "docx") and not out_dir:
        raise UserError(f"--format {fmt} writes report.{fmt}: give --out DIR")
    config = load_config(config_path)
    progress = TerminalProgress()
    try:
        engine = Engine(config, store=get_store(enabled=not no_cache), progress=progress)
        result = engine.compare_revisions(revisions) if revisions else engine.compare(reference, input)
    finally:
        progress.close()
    for side in ("reference", "input"):
        for note in (result.report[side].get("source") or {}).get("notes", []):
            click.echo(f"conflictkit: note: {note}", err=True)
    if out_dir:
        formats = {"json", "md"} | ({fmt} if fmt in ("html", "docx") else set())
        write_outputs(result, out_dir, formats)
    if fmt == "json":
        click.echo(json.dumps(result.report, indent=2, ensure_ascii=False))
    elif fmt == "md":
        click.echo(render_markdown(result.report), nl=False)
    elif fmt == "text":
        click.echo(render_text(result.report), nl=False)
    else:
        click.echo(f"wrote {out_dir}/report.{fmt}", err=True)
    if kinds and any(f["kind"] in kinds for f in result.report["findings"]):
        return EXIT_FINDINGS
    return 0
