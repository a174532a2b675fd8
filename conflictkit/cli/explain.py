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


def candidates(run_dir: Path, recorded: str, saved: dict) -> list[Path]:
    """Where a run's document may be, most specific first: as the run saved it relative to its own
    folder and absolutely, then its recorded path from here, from the run folder and from the
    folders above it (a batch's pair folder sits one level down)."""
    from conflictkit.report.sets import SUBFOLDER

    found: list[Path] = []
    if isinstance(saved.get("from_run"), str):
        found.append(run_dir / saved["from_run"])
        if run_dir.name == SUBFOLDER:  # the set went below the --out folder it was written for (--out .)
            found.append(run_dir.parent / saved["from_run"])
    if isinstance(saved.get("absolute"), str):
        found.append(Path(saved["absolute"]))
    path = Path(recorded)
    found += [path] if path.is_absolute() else [Path.cwd() / path, run_dir / path, run_dir.parent / path, run_dir.parent.parent / path]
    return list(dict.fromkeys(p.resolve() for p in found))


def locate_document(run_dir: Path, side: str, report: dict, params: dict, limits):
    """The run's ``side`` document, found wherever the run can be resolved from and checked by its sha256."""
    from conflictkit.loaders import read_document

    recorded, digest = report[side]["path"], report[side]["sha256"]
    saved = ((params.get("documents") or {}).get(side) or {}) if isinstance(params.get("documents"), dict) else {}
    changed = None
    looked = candidates(run_dir, recorded, saved)
    for path in looked:
        if not path.is_file():
            continue
        document = read_document(path, limits)
        if document.sha256 == digest:
            return document.model_copy(update={"path": recorded})
        changed = path
    if changed is not None:
        raise UserError(f"{changed} changed since the run (its sha256 differs); run `conflictkit compare` again")
    raise UserError(f"cannot find the {side} document {recorded} (looked in {', '.join(str(p.parent) for p in looked)}); "
                    "run `conflictkit explain` from the folder where the comparison ran, or put the document back")


@click.command()
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--config", "-c", "config_path", metavar="FILE", help="Config whose pipeline.explainer to use (default: the run's own config).")
@click.option("--no-cache", is_flag=True, help="Ask again: ignore cached answers and explanations already in the report.")
def explain(run_dir: Path, config_path: str | None, no_cache: bool) -> int:
    """Add explanations to the saved run in RUN_DIR without recomputing its findings.

    Reads RUN_DIR/report.json and params.json and both documents (found relative to RUN_DIR as the
    run saved them, or from where the comparison ran; they must be unchanged since the run), asks
    the configured explainer about every finding that has no explanation from the same model yet,
    and rewrites the run's report files (report.json, report.md, and report.html, redline.md,
    report.docx when present) as one set, as explanations arrive.

    \b
    Exit codes: 0 done (findings it could not explain are counted on stderr);
                1 the explainer failed, or explained none of the findings (what arrived is kept);
                2 usage, config or input error.
    """
    from conflictkit.cli.compare import explain_into
    from conflictkit.config import load_config, resolve
    from conflictkit.engine import ComparisonResult, Engine
    from conflictkit.progress import TerminalProgress
    from conflictkit.store import get_store

    report = _read_json(run_dir / "report.json")
    params = _read_json(run_dir / "params.json")
    config = load_config(config_path) if config_path else resolve(params.get("config"), str(run_dir / "params.json"))
    if config.pipeline.explainer is None:
        raise UserError("this config has no pipeline.explainer; give --config with one (e.g. --config llm-cascade)")
    documents = [locate_document(run_dir, side, report, params, config.limits) for side in ("reference", "input")]
    if no_cache:
        report = {k: v for k, v in report.items() if k not in ("summaries", "recommendations", "explainer")}
    progress = TerminalProgress()
    try:
        engine = Engine(config, store=get_store(enabled=not no_cache), progress=progress)
        pairs = _read_json(run_dir / "pairs.json") if (run_dir / "pairs.json").exists() else {}
        result = ComparisonResult(report=report, pairs=pairs, params=params,
                                  reference=engine.index(documents[0]), input=engine.index(documents[1]))
        failure = explain_into(engine, result, lambda done: _rewrite(run_dir, done), progress)
    finally:
        progress.close()
    info = result.report.get("explainer") or {}
    click.echo(f"explained {len(result.report.get('recommendations', []))} of {len(result.report['findings'])} findings with "
               f"{info.get('model')}; {info.get('ungrounded_quotes_dropped', 0)} ungrounded quotes dropped; wrote {run_dir}", err=True)
    return failure or 0


def _rewrite(run_dir: Path, result) -> None:
    """report.json and every rendered report file the run has, with the explanations so far, swapped in
    as one set (its manifest kept true); every place (line, page, paragraph) kept, as the documents
    themselves are rendered."""
    from conflictkit.registry import get_registry
    from conflictkit.report.sets import update_set
    from conflictkit.report.writer import is_report_file, to_json
    from conflictkit.stages import Rendering

    rendering = Rendering.of_result(result)
    files: dict[str, str | bytes] = {"report.json": to_json(result.report)}
    for info in get_registry().all():
        filename = getattr(info.cls, "filename", None) if info.stage == "renderer" else None
        if filename and filename not in files and (run_dir / filename).exists():
            files[filename] = info.cls().render(rendering)
    update_set(run_dir, files, is_report_file)
