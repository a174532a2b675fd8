"""``conflictkit backends`` and ``conflictkit config show``: what is installed and what a config resolves to."""

from __future__ import annotations

import click


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def backends(as_json: bool) -> None:
    """List every registered backend per stage and the package that provides it."""
    from conflictkit.registry import get_registry

    infos = get_registry().all()
    if as_json:
        import json

        click.echo(json.dumps([{"stage": i.stage, "name": i.name, "package": i.package} for i in infos], indent=2))
        return
    stage = None
    for info in infos:
        if info.stage != stage:
            stage = info.stage
            click.echo(f"{stage}:")
        doc = (info.cls.__doc__ or "").strip().splitlines()
        click.echo(f"  {info.name:<24} {info.package:<36} {doc[0] if doc else ''}")


@click.group()
def config() -> None:
    """Inspect configurations."""


@config.command("show")
@click.option("--config", "-c", "config_path", metavar="FILE", help="YAML config or preset name (default: the offline preset).")
def show(config_path: str | None) -> None:
    """Print the resolved config, every default filled in."""
    from conflictkit.config import dump_config, load_config

    click.echo(dump_config(load_config(config_path)), nl=False)
