"""``conflictkit models``: list the preset models, pull one into the hub cache, export and quantize one."""

from __future__ import annotations

from pathlib import Path

import click

from conflictkit.errors import UserError
from conflictkit_nli import hub


@click.group("models")
def models() -> None:
    """Local models for the nli judge and the cross-encoder scorer (conflictkit-nli)."""


@models.command("list")
@click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="also look for each preset in DIR/<preset name> (models copied by hand)")
def list_models(directory: Path | None) -> None:
    """Show the preset models and whether each is present locally."""
    click.echo(f"{'name':<45} {'hub id':<58} {'role':<34} present")
    for preset in hub.PRESETS:
        click.echo(f"{preset.name:<45} {preset.repo_id:<58} {preset.role:<34} {_where(preset, directory)}")
    click.echo(f"hub cache: {hub.hub_cache()}")


def _where(preset: hub.Preset, directory: Path | None) -> str:
    if directory is not None:
        for candidate in (directory / preset.name, directory / preset.repo_id.split("/")[-1]):
            if (candidate / "config.json").is_file():
                return f"yes ({candidate})"
    cached = hub.cached_snapshot(preset.repo_id)
    return f"yes (cache: {cached})" if cached else "no"


@models.command("pull")
@click.argument("name")
def pull(name: str) -> None:
    """Fetch NAME (a preset name or any hub id) into the standard Hugging Face cache."""
    repo_id = hub.preset_repo(name)
    if hub.offline():
        raise UserError(f"HF_HUB_OFFLINE is set, so {repo_id!r} cannot be downloaded; unset it, or {hub.how_to_obtain(repo_id)}")
    path = hub.download(repo_id)
    click.echo(f"{repo_id}: {path}")


@models.command("quantize")
@click.argument("model")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="directory to write (config, tokenizer, onnx/model.onnx, onnx/model_qint8.onnx)")
def quantize(model: str, out_dir: Path) -> None:
    """Export MODEL (hub id or directory) to ONNX, check it against PyTorch, and write a dynamic int8 copy."""
    from conflictkit_nli.export import export_and_quantize

    if out_dir.exists() and any(out_dir.iterdir()):
        raise UserError(f"{out_dir} is not empty; give a new directory to --out")
    source = hub.resolve_model(model, hub.weight_patterns("torch", None))
    fp32, int8 = export_and_quantize(source, out_dir)
    click.echo(f"fp32: {fp32} ({fp32.stat().st_size / 1e6:.1f} MB)")
    click.echo(f"int8: {int8} ({int8.stat().st_size / 1e6:.1f} MB)")
    click.echo(f"use: {{use: nli, options: {{model: {out_dir}, backend: onnx, file_name: onnx/model_qint8.onnx}}}}")
