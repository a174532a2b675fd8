"""The batch driver: skip unchanged pairs, run the rest on an engine, write each pair's folder and the summary."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from conflictkit.codekey import code_key
from conflictkit.batch.engines import BatchEngine
from conflictkit.batch.plan import BatchPair, file_digest
from conflictkit.batch.summary import check_summary, write_summary
from conflictkit.batch.worker import PairOutcome
from conflictkit.errors import UserError
from conflictkit.report.writer import REPORT_FILES, write_set
from conflictkit.store import key_of

ROW_FILE = "batch-row.json"  # in each pair's folder: its summary row and the key it was made under

BatchProgress = Callable[["BatchResult", int], None]
"""``callback(result_so_far, total)`` after every finished pair."""


@dataclass
class BatchResult:
    """Every pair's outcome, in plan order once the batch has finished, and the wall time."""

    outcomes: list[PairOutcome] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)
    elapsed: float = 0.0

    @property
    def failed(self) -> list[PairOutcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    @property
    def skipped(self) -> list[PairOutcome]:
        return [o for o in self.outcomes if o.skipped]

    def pairs_per_minute(self) -> float:
        ran = len(self.outcomes) - len(self.skipped)
        elapsed = time.perf_counter() - self.started if not self.elapsed else self.elapsed
        return 60.0 * ran / elapsed if elapsed > 0 and ran else 0.0

    def matched(self, gate) -> bool:
        """Whether a finding of any pair trips ``--fail-on`` (:class:`conflictkit.cli.compare.FailOn`); a pair
        saved before findings were kept in its row is judged by its counts of kinds."""
        for o in self.outcomes:
            if o.findings:
                if any(gate.matches(f) for f in o.findings):
                    return True
            elif gate.severity is None and any(o.counts.get(k, 0) for k in gate.kinds):
                return True
        return False


def subject_labels(config_data: dict) -> dict[str, str]:
    """The clause subjects of the config's severity table, in its order, with their labels (the heat map's columns)."""
    from conflictkit.config import resolve
    from conflictkit.report.severity import table_of_config

    return {s.name: s.label for s in table_of_config(resolve(config_data, "batch config")).subjects}


def pair_key(pair: BatchPair, config_data: dict) -> str | None:
    """What a pair's saved report was made from: both files' bytes, the resolved config, the code and rule data."""
    ref, inp = file_digest(pair.reference), file_digest(pair.input)
    if ref is None or inp is None:
        return None
    return key_of("batch", code_key(), ref, inp, config_data)


def saved_outcome(out_dir: Path, pair: BatchPair, key: str | None) -> PairOutcome | None:
    """The outcome saved by an earlier run when the pair is unchanged and its report set is complete."""
    if key is None:
        return None
    folder = out_dir / pair.folder
    try:
        row = json.loads((folder / ROW_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(row, dict) or row.get("key") != key or row.get("status") != "ok" or not (folder / "report.json").is_file():
        return None
    outcome = PairOutcome.from_dict(row)
    outcome.skipped = True
    return outcome


def write_pair_folder(out_dir: Path, outcome: PairOutcome, files: dict[str, str]) -> None:
    """Replace the pair's folder as a whole: a reader sees the old set or the new one, never a mix."""
    rows = {ROW_FILE: json.dumps(outcome.to_dict(), indent=2, ensure_ascii=False) + "\n"}
    write_set(out_dir / outcome.folder, {**files, **rows}, lambda name: name in REPORT_FILES or name == ROW_FILE)


@dataclass(frozen=True)
class PairOutput:
    """Where a batch's pair folders go and the key each pair's row is saved under (see :func:`pair_key`).

    The driver writes every folder it is given files for; an engine whose workers see the same
    folder may have them call :meth:`write` themselves and yield no files.
    """

    directory: Path
    keys: dict[str, str | None]

    def write(self, outcome: PairOutcome, files: dict[str, str]) -> None:
        outcome.key = self.keys.get(outcome.folder)
        write_pair_folder(self.directory, outcome, files)


def prepare_out_dir(out_dir: str | os.PathLike[str]) -> Path:
    directory = Path(out_dir)
    if directory.exists() and not directory.is_dir():
        raise UserError(f"--out {out_dir} exists and is not a directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create output directory {out_dir}: {exc.strerror or exc}") from None
    return directory


def run_batch(
    pairs: Sequence[BatchPair], config_data: dict, out_dir: str | os.PathLike[str], engine: BatchEngine,
    cache: bool = True, force: bool = False, progress: BatchProgress | None = None,
) -> BatchResult:
    """Run every pair not already done (unless ``force``), write its folder, then the summary (even after an interrupt)."""
    directory = prepare_out_dir(out_dir)
    check_summary(directory)  # before an hour of work, not after it
    result = BatchResult()
    keys = {p.folder: pair_key(p, config_data) for p in pairs}
    todo = []
    for pair in pairs:
        saved = None if force else saved_outcome(directory, pair, keys[pair.folder])
        if saved is not None:
            result.outcomes.append(saved)
        else:
            todo.append(pair)
    if progress:
        progress(result, len(pairs))
    output = PairOutput(directory, keys)
    try:
        for outcome, files in engine.run(todo, config_data, cache, output):
            if files is not None:
                output.write(outcome, files)
            result.outcomes.append(outcome)
            if progress:
                progress(result, len(pairs))
    finally:
        engine.close()
        order = {p.folder: i for i, p in enumerate(pairs)}
        result.outcomes.sort(key=lambda o: order.get(o.folder, len(order)))
        result.elapsed = time.perf_counter() - result.started
        write_summary(directory, result.outcomes, subject_labels(config_data))
    return result
