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
@click.argument("reference", type=click.Path(dir_okay=True, path_type=str))
@click.argument("input", type=click.Path(dir_okay=True, path_type=str))
@click.option("--config", "-c", "config_path", metavar="FILE", help="YAML config or preset name (default: the offline preset).")
@click.option("--out", "-o", "out_dir", metavar="DIR", help="Write report.json, pairs.json, params.json and report.md (and report.html with --format html) into DIR.")
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "json", "md", "html"]), default="text", show_default=True,
              help="What to print on stdout (html is written to --out only).")
@click.option("--fail-on", metavar="KINDS", help="Exit with code 3 when a finding of these kinds exists, e.g. deviation,missing (or 'any').")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
def compare(reference: str, input: str, config_path: str | None, out_dir: str | None, fmt: str, fail_on: str | None, no_cache: bool) -> int:
    """Compare INPUT against REFERENCE and report deviations, missing and added clauses.

    REFERENCE is the template, playbook or previous version; INPUT is the document under review.
    Both are Markdown or plain-text files (UTF-8).

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
    if fmt == "html" and not out_dir:
        raise UserError("--format html writes report.html: give --out DIR")
    config = load_config(config_path)
    progress = TerminalProgress()
    try:
        engine = Engine(config, store=get_store(enabled=not no_cache), progress=progress)
        result = engine.compare(reference, input)
    finally:
        progress.close()
    if out_dir:
        formats = {"json", "md"} | ({"html"} if fmt == "html" else set())
        write_outputs(result, out_dir, formats)
    if fmt == "json":
        click.echo(json.dumps(result.report, indent=2, ensure_ascii=False))
    elif fmt == "md":
        click.echo(render_markdown(result.report), nl=False)
    elif fmt == "text":
        click.echo(render_text(result.report), nl=False)
    else:
        click.echo(f"wrote {out_dir}/report.html", err=True)
    if kinds and any(f["kind"] in kinds for f in result.report["findings"]):
        return EXIT_FINDINGS
    return 0
