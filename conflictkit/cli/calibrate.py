"""``conflictkit calibrate``: fit thresholds (and weighted-judge weights) to labelled pairs."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.option("--config", "-c", "config_path", required=True, metavar="FILE", help="The config to calibrate (YAML file or preset name).")
@click.option("--dataset", "-d", "datasets", multiple=True, required=True, metavar="PATH",
              help="Labelled clause pairs (.jsonl or ContractNLI); document-pair manifests also fit same_matter.")
@click.option("--out", "-o", "out_path", required=True, metavar="FILE", help="Where to write the calibrated config YAML.")
@click.option("--no-cache", is_flag=True, help="Judge everything again.")
def calibrate(config_path: str, datasets: tuple[str, ...], out_path: str, no_cache: bool) -> int:
    """Fit a config's thresholds on labelled data and write the calibrated config.

    A deterministic part of the data (by a hash of each pair's id) is held apart: the fit never
    sees it, and the metrics before and after are printed on it.
    """
    from conflictkit.bench.calibrate import calibrate as run_calibration
    from conflictkit.bench.calibrate import calibrated_yaml, format_comparison
    from conflictkit.bench.datasets import load_dataset
    from conflictkit.config import load_config
    from conflictkit.errors import UserError
    from conflictkit.progress import TerminalProgress
    from conflictkit.report.writer import atomic_write
    from conflictkit.store import get_store

    config = load_config(config_path)
    loaded = [load_dataset(d) for d in datasets]
    out = Path(out_path)
    if out.is_dir():
        raise UserError(f"--out {out} is a directory; give a file name such as calibrated.yaml")
    if not out.parent.exists():
        raise UserError(f"--out {out}: directory {out.parent} does not exist")
    progress = TerminalProgress()
    try:
        result = run_calibration(config, loaded, get_store(enabled=not no_cache), progress)
    finally:
        progress.close()
    atomic_write(out, calibrated_yaml(result, config_path, [str(d) for d in datasets]))
    click.echo(format_comparison(result))
    click.echo(f"wrote {out}", err=True)
    return 0
