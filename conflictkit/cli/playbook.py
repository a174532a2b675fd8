"""``conflictkit playbook init|show|check``: start a playbook from a template, render it, check it."""

from __future__ import annotations

import os
from pathlib import Path

import click

from conflictkit.errors import UserError


@click.group()
def playbook() -> None:
    """Playbooks: positions per subject with fallbacks and red lines (see 'conflictkit review')."""


def _engine(config_path: str | None):
    from conflictkit.config import load_config
    from conflictkit.engine import Engine

    return Engine(load_config(config_path))


@playbook.command("init")
@click.argument("template", type=click.Path(dir_okay=True, path_type=str))
@click.option("--out", "-o", "out_file", metavar="FILE", help="Write the playbook to FILE instead of stdout.")
@click.option("--title", help="The playbook's title (default: from the template's name).")
@click.option("--by-reference", is_flag=True,
              help="Cite each clause of the template by its section number instead of copying its text "
                   "(the playbook then needs the template beside it).")
@click.option("--no-definitions", is_flag=True, help="Make no position of the template's definitions.")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@click.option("--config", "-c", "config_path", metavar="FILE", help="The config whose segmenter reads the template (default: offline).")
def init(template: str, out_file: str | None, title: str | None, by_reference: bool, no_definitions: bool, force: bool,
         config_path: str | None) -> None:
    """Start a playbook from TEMPLATE: one position per operative clause, grouped by top-level section.

    Each position gets the clause as its preferred text; add fallbacks, red lines, guidance and a
    severity to the ones that matter, and delete the rest. The file explains the format in its header.
    """
    from conflictkit.loaders import read_document
    from conflictkit.playbook.write import playbook_from_template
    from conflictkit.report.writer import atomic_write

    if out_file and os.path.exists(out_file) and not force:
        raise UserError(f"{out_file} exists; give --force to replace it, or another --out")
    engine = _engine(config_path)
    document = read_document(template, engine.config.limits)
    cited = os.path.relpath(Path(template).resolve(), Path(out_file).resolve().parent) if out_file else template
    try:
        text = playbook_from_template(engine.clauses(document), title or f"Playbook for {Path(template).stem}", cited,
                                      by_reference=by_reference, definitions=not no_definitions)
    except ValueError as exc:
        raise UserError(f"{template}: {exc}") from None
    if out_file:
        atomic_write(out_file, text)
        click.echo(f"wrote {out_file}", err=True)
    else:
        click.echo(text, nl=False)


@playbook.command("show")
@click.argument("playbook_path", metavar="P.yaml", type=click.Path(dir_okay=True, path_type=str))
@click.option("--format", "-f", "fmt", type=click.Choice(["md", "yaml", "json"]), default="md", show_default=True,
              help="md: for people; yaml: self-contained (every text written out, no template needed); "
                   "json: every position with its resolved texts.")
@click.option("--config", "-c", "config_path", metavar="FILE", help="The config whose segmenter reads a template (default: offline).")
def show(playbook_path: str, fmt: str, config_path: str | None) -> None:
    """Print a playbook as Markdown for lawyers, as self-contained YAML, or as JSON."""
    from conflictkit.playbook.load import load_playbook
    from conflictkit.report.escape import json_for_terminal, sanitize_controls

    loaded = load_playbook(playbook_path, _engine(config_path).clauses)
    if fmt == "md":
        from conflictkit.playbook.document import render_playbook

        click.echo(sanitize_controls(render_playbook(loaded).text), nl=False)
    elif fmt == "yaml":
        from conflictkit.playbook.write import resolved_yaml

        click.echo(sanitize_controls(resolved_yaml(loaded)), nl=False)
    else:
        import json

        from conflictkit.playbook.write import as_json

        click.echo(json_for_terminal(json.dumps(as_json(loaded), indent=2, ensure_ascii=False)))


@playbook.command("check")
@click.argument("playbook_path", metavar="P.yaml", type=click.Path(dir_okay=True, path_type=str))
@click.option("--config", "-c", "config_path", metavar="FILE", help="The config whose segmenter reads a template (default: offline).")
def check(playbook_path: str, config_path: str | None) -> None:
    """Check a playbook: its format, its template's clauses, its edits and rules (exit 2 with every problem)."""
    from conflictkit.playbook.load import load_playbook

    loaded = load_playbook(playbook_path, _engine(config_path).clauses)
    texts = sum(len(p.texts) for p in loaded.positions)
    rules = sum(len(p.rules) for p in loaded.positions)
    click.echo(f"{playbook_path}: {len(loaded.positions)} positions in {len(loaded.subjects)} subjects, "
               f"{texts} texts, {rules} red-line rules; ok")
