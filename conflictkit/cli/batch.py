"""``conflictkit batch``: one reference against many inputs, or a manifest of pairs."""

from __future__ import annotations

import sys
import time

import click

from conflictkit.cli.compare import parse_fail_on
from conflictkit.errors import EXIT_FINDINGS, EXIT_PARTIAL, UserError


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class BatchProgress:
    """``batch 12/200 · 1 failed · 35.2 pairs/min · ETA 5m12s`` on one stderr line, on a terminal only."""

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self._last = 0.0

    def __call__(self, result, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        finished = len(result.outcomes)
        if finished < total and now - self._last < 0.2:
            return
        self._last = now
        rate = result.pairs_per_minute()
        todo = total - finished
        eta = f" · ETA {_duration(60 * todo / rate)}" if rate and todo else ""
        self.stream.write(f"\rbatch {finished}/{total} · {len(result.failed)} failed · {rate:.1f} pairs/min{eta}\033[K")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()


@click.command()
@click.option("--reference", "-r", metavar="FILE", help="The reference every INPUT is compared against.")
@click.argument("inputs", nargs=-1, metavar="[INPUT]...")
@click.option("--manifest", "-m", metavar="CSV", help="Pairs to compare: a CSV with reference,input columns (instead of --reference).")
@click.option("--out", "-o", "out_dir", required=True, metavar="DIR", help="One folder per pair, plus summary.csv, summary.json and summary.html.")
@click.option("--config", "-c", "config_path", metavar="FILE", help="YAML config or preset name (default: the offline preset).")
@click.option("--workers", "-w", type=click.IntRange(1, 1024), help="Worker processes (default: the number of CPUs).")
@click.option("--engine", default="local", show_default=True, help="Where pairs run: local (a process pool) or a plugin engine such as ray.")
@click.option("--address", metavar="ADDR", help="Cluster address for a cluster engine (e.g. ray://head:10001); default: start one locally.")
@click.option("--fail-on", metavar="KINDS", help="Exit with code 3 when any pair has a finding of these kinds (or 'any'), "
              "or of at least a severity (high, medium, low), as compare's --fail-on.")
@click.option("--force", is_flag=True, help="Recompute pairs whose inputs and config are unchanged since the last run.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache (each worker then indexes the reference itself).")
def batch(reference, inputs, manifest, out_dir, config_path, workers, engine, address, fail_on, force, no_cache) -> int:
    """Compare many documents: --reference T.md INPUT... (files, globs, directories) or --manifest pairs.csv.

    Every pair's report set (report.json, pairs.json, params.json, report.md, report.html) goes to
    its own folder under DIR; summary.csv/.json/.html list every pair. A pair that fails (an
    unreadable, binary or oversized file) is recorded with its reason and the batch goes on. A re-run
    skips pairs whose files and config are unchanged.

    \b
    Exit codes: 0 every pair done; 2 usage or config error; 3 a finding matched --fail-on;
                4 some pairs failed (see summary.csv).
    """
    from conflictkit.batch import pairs_from_inputs, pairs_from_manifest, run_batch
    from conflictkit.batch.engines import get_engine
    from conflictkit.config import config_data, load_config

    gate = parse_fail_on(fail_on)
    if manifest and (reference or inputs):
        raise UserError("give either --manifest or --reference with INPUTs, not both")
    if manifest:
        pairs = pairs_from_manifest(manifest)
    elif reference:
        pairs = pairs_from_inputs(reference, list(inputs))
    else:
        raise UserError("nothing to compare: give --reference FILE INPUT... or --manifest pairs.csv")
    config = load_config(config_path)
    runner = get_engine(engine, workers, address)
    progress = BatchProgress()
    try:
        result = run_batch(pairs, config_data(config), out_dir, runner, cache=not no_cache, force=force, progress=progress)
    finally:
        progress.close()
    done = len(result.outcomes) - len(result.failed)
    skipped = f" ({len(result.skipped)} unchanged, kept)" if result.skipped else ""
    click.echo(
        f"{len(result.outcomes)} pairs: {done} done{skipped}, {len(result.failed)} failed; "
        f"{result.pairs_per_minute():.1f} pairs/min; summary: {out_dir}/summary.html", err=True,
    )
    for outcome in result.failed[:10]:
        click.echo(f"  failed: {outcome.input}: {outcome.error}", err=True)
    if result.failed:
        return EXIT_PARTIAL
    if result.matched(gate):
        return EXIT_FINDINGS
    return 0
