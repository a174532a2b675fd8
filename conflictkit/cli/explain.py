"""``conflictkit explain RUN_DIR``: add an explainer's summaries and recommendations to a saved run."""

from __future__ import annotations

import json
from pathlib import Path

import click

from conflictkit.errors import UserError


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path} does not exist; give the --out folder of a `conflictkit compare` run") from None
    except (OSError, ValueError) as exc:
        raise UserError(f"cannot read {path}: {exc}; re-run `conflictkit compare --out`") from None
    if not isinstance(data, dict):
        raise UserError(f"{path} is not a conflictkit report file")
    return data


@click.command()
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--config", "-c", "config_path", metavar="FILE", help="Config whose pipeline.explainer to use (default: the run's own config).")
@click.option("--no-cache", is_flag=True, help="Ask again: ignore cached answers and explanations already in the report.")
def explain(run_dir: Path, config_path: str | None, no_cache: bool) -> None:
    """Add explanations to the saved run in RUN_DIR without recomputing its findings.

    Reads RUN_DIR/report.json and params.json and both documents (which must be unchanged since the
    run), asks the configured explainer about every finding that has no explanation from the same
    model yet, and rewrites report.json, report.md (and report.html when present) as one set.
    """
    from conflictkit.config import load_config, resolve
    from conflictkit.engine import Engine
    from conflictkit.loaders import read_document
    from conflictkit.report.render import render_markdown
    from conflictkit.report.sets import update_set
    from conflictkit.report.writer import is_report_file, to_json
    from conflictkit.stages import Comparison
    from conflictkit.store import get_store

    report = _read_json(run_dir / "report.json")
    params = _read_json(run_dir / "params.json")
    config = load_config(config_path) if config_path else resolve(params.get("config"), str(run_dir / "params.json"))
    if config.pipeline.explainer is None:
        raise UserError("this config has no pipeline.explainer; give --config with one (e.g. --config llm-cascade)")
    documents = []
    for side in ("reference", "input"):
        path = report[side]["path"]
        document = read_document(path, config.limits)
        if document.sha256 != report[side]["sha256"]:
            raise UserError(f"{path} changed since the run (its sha256 differs); run `conflictkit compare` again")
        documents.append(document)
    if no_cache:
        report = {k: v for k, v in report.items() if k not in ("summaries", "recommendations", "explainer")}
    engine = Engine(config, store=get_store(enabled=not no_cache))
    reference, input = engine.index(documents[0]), engine.index(documents[1])
    engine.explainer.use_store(engine.store)
    engine.explainer.warm_up()
    explained = engine.explainer.explain(report, Comparison(reference=reference, input=input))
    files = {"report.json": to_json(explained), "report.md": render_markdown(explained)}
    if (run_dir / "report.html").exists():
        from conflictkit.report.html import render_html

        files["report.html"] = render_html(explained, documents[0].original, documents[1].original)
    update_set(run_dir, files, is_report_file)  # the set swapped whole, its manifest kept true
    info = explained.get("explainer") or {}
    click.echo(f"explained {len(explained.get('recommendations', []))} of {len(explained['findings'])} findings with "
               f"{info.get('model')}; {info.get('ungrounded_quotes_dropped', 0)} ungrounded quotes dropped; wrote {run_dir}", err=True)
