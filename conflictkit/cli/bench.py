"""``conflictkit bench``: every config on every dataset, as a table, a JSON file and plots."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click


def resolve_config_arg(value: str) -> Path:
    """A config file, or a preset name such as ``offline``."""
    from conflictkit.config import locate_config
    from conflictkit.errors import ConfigError

    path = locate_config(value)
    if not path.is_file():
        raise ConfigError(f"config file {value} does not exist; give a YAML file or a preset name such as 'offline'")
    return path


def provenance() -> str:
    """Where and when the numbers were made: commit, CPU count and load (timings depend on them)."""
    import os
    import subprocess

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5,
                                cwd=Path(__file__).resolve().parent).stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        commit = "unknown"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    return (f"Run at commit {commit} on {os.cpu_count()} CPU cores (load average at the end of the run: {load}); "
            "timings are wall-clock seconds on this machine and move with its load.")


def command_line() -> str:
    """The command as typed, for the results file (a wrapper script sets CONFLICTKIT_BENCH_COMMAND)."""
    import os

    return os.environ.get("CONFLICTKIT_BENCH_COMMAND") or shlex.join(["conflictkit", *sys.argv[1:]])


@click.command()
@click.option("--config", "-c", "configs", multiple=True, required=True, metavar="FILE",
              help="A config (YAML file or preset name); repeat to compare several.")
@click.option("--dataset", "-d", "datasets", multiple=True, required=True, metavar="PATH",
              help="Clause pairs (.jsonl), a document-pair manifest (.yaml/.json), a ContractNLI file, or a folder of "
                   "real revisions labelled hunk by hunk (labels/PAIR.json); repeat for several.")
@click.option("--out", "-o", "out_dir", required=True, metavar="DIR", help="Write bench.md, bench.json and PNG plots here.")
@click.option("--threshold-sweep", is_flag=True, help="Also record precision/recall/F1 at conflict thresholds 0.05..0.95 (document pairs are re-partitioned and re-grounded at each: slow when a config reports hundreds of findings).")
@click.option("--no-cache", is_flag=True, help="Judge everything again (timings then measure every pair).")
@click.option("--no-plots", is_flag=True, help="Skip the PNG plots (no matplotlib needed).")
def bench(configs: tuple[str, ...], datasets: tuple[str, ...], out_dir: str, threshold_sweep: bool, no_cache: bool, no_plots: bool) -> int:
    """Benchmark configs on labelled datasets: recall per category, false positives, speed.

    A revision set is scored hunk by hunk (substantive changes found, with and without version
    dates; editorial changes flagged; spurious findings) beside a plain word diff. Judgements are
    cached, so a second run with only a threshold changed takes no model time.
    """
    from conflictkit.bench.datasets import load_dataset
    from conflictkit.bench.harness import load_bench_config, run
    from conflictkit.bench.report import write_results
    from conflictkit.errors import UserError
    from conflictkit.progress import TerminalProgress
    from conflictkit.store import get_store

    entries = [load_bench_config(resolve_config_arg(c)) for c in configs]  # every input checked before any work
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise UserError(f"two configs share a name ({', '.join(names)}); rename a file or set bench.name")
    loaded = [load_dataset(d) for d in datasets]
    if not no_plots:
        from conflictkit.bench.report import _pyplot

        _pyplot()  # fail on a missing matplotlib now, not after the run
    progress = TerminalProgress()
    try:
        results = run(entries, loaded, get_store(enabled=not no_cache), progress, sweep=threshold_sweep)
    finally:
        progress.close()
    written = write_results(results, out_dir, command_line(), plots=not no_plots, extra=provenance())
    for entry in entries:
        if entry.skipped:
            click.echo(f"skipped {entry.name}: {entry.skipped}", err=True)
    click.echo(f"wrote {', '.join(str(p) for p in written)}", err=True)
    from conflictkit.bench.report import headline_table

    click.echo(headline_table(results))
    return 0
