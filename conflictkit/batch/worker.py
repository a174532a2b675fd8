"""One worker of a batch: an engine built once, then one comparison per pair, returned as files."""

from __future__ import annotations

import os
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from conflictkit.batch.plan import BatchPair
from conflictkit.errors import ConflictkitError

if TYPE_CHECKING:
    from conflictkit.model import Document

RECENT_REFERENCES = 8  # reference documents a worker keeps read (a manifest may alternate between a few)

REPORT_FORMATS = ("json", "md", "html")  # the pair's set; the summary page links to report.html
TOP_REASONS = 3


@dataclass
class PairOutcome:
    """What the summary keeps of one pair: counts, top reasons, the highest P(conflict), or why it failed."""

    folder: str
    reference: str
    input: str
    status: str = "ok"  # ok | failed
    error: str | None = None
    skipped: bool = False  # unchanged since an earlier run: its saved report set was kept
    counts: dict[str, int] = field(default_factory=dict)
    severity: dict[str, int] = field(default_factory=dict)
    findings: list[dict] = field(default_factory=list)
    """Each finding in the report's order (by severity): id, kind, severity, subject, section title, P(conflict)."""
    top_reasons: list[str] = field(default_factory=list)
    max_p_conflict: float | None = None
    seconds: float = 0.0
    key: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PairOutcome:
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


def summarize_report(report: dict) -> tuple[dict[str, int], list[str], float | None]:
    """Counts per kind, the most frequent reason types, and the highest P(conflict) of a report."""
    counts = Counter(f["kind"] for f in report["findings"])
    reasons = Counter(r["type"] for f in report["findings"] for r in f.get("reasons") or [])
    top = [f"{kind} ({n})" for kind, n in reasons.most_common(TOP_REASONS)]
    p = max((f["p_conflict"] for f in report["findings"]), default=None)
    return {k: counts.get(k, 0) for k in sorted({"deviation", "missing", "added", *counts})}, top, p


def digest_findings(report: dict) -> tuple[dict[str, int], list[dict]]:
    """Counts per severity and what a portfolio shows of each finding, in the report's order (by severity)."""
    from conflictkit.report.order import ordered, severity_counts
    from conflictkit.report.view import finding_title

    findings = ordered(report["findings"])
    digest = [{"id": f["id"], "kind": f["kind"], "severity": f.get("severity"), "subject": f.get("subject"),
               "title": finding_title(f), "p_conflict": f["p_conflict"]} for f in findings]
    return severity_counts(findings), digest


class Worker:
    """Builds the engine once from resolved config data; models load on the first pair that needs them.

    A reference is read once while its file is unchanged, and the engine keeps its clauses, so a
    reference compared with many inputs is read, segmented and (where needed) embedded once per worker.
    """

    def __init__(self, config_data: dict, cache: bool = True) -> None:
        from conflictkit.config import resolve
        from conflictkit.engine import Engine
        from conflictkit.store import get_store

        self.engine = Engine(resolve(config_data, "batch config"), store=get_store(enabled=cache))
        self._references: OrderedDict[tuple[str, int, int], Document] = OrderedDict()

    def reference(self, path: str) -> Document:
        """The reference document at ``path``, read once while the file's size and modification time stay the same."""
        from conflictkit.loaders import read_document

        try:
            stat = os.stat(path)
        except OSError:
            return read_document(path, self.engine.config.limits)  # says what is wrong
        key = (os.path.abspath(path), stat.st_size, stat.st_mtime_ns)
        document = self._references.get(key)
        if document is None:
            document = self._references[key] = read_document(path, self.engine.config.limits)
            while len(self._references) > RECENT_REFERENCES:
                self._references.popitem(last=False)
        self._references.move_to_end(key)
        return document

    def prepare(self, references: Iterable[str]) -> None:
        """Load every backend and read and segment each reference now: a process pool that forks its
        workers from this one after this shares the models and those references with all of them."""
        self.engine.warm_up()
        for path in references:
            try:
                self.engine.prepare(self.reference(path))
            except ConflictkitError:
                pass  # each of its pairs fails with the reason when it runs

    def compare(self, pair: BatchPair, load: Callable[[str], Document] | None = None) -> tuple[PairOutcome, dict[str, str]]:
        """Compare one pair; a bad document is this pair's failure with its one-line reason, never the batch's.

        ``load(path)`` gives a document where the files are not on this machine (a cluster worker
        reading what the driver sent); by default each path is read from disk (a reference once while unchanged).
        """
        from conflictkit.loaders import read_document
        from conflictkit.report.writer import render_files

        started = time.perf_counter()
        outcome = PairOutcome(folder=pair.folder, reference=pair.reference, input=pair.input)
        try:
            if load is None:
                reference = self.reference(pair.reference)
                document = read_document(pair.input, self.engine.config.limits)
            else:
                reference, document = load(pair.reference), load(pair.input)
            result = self.engine.compare_documents(reference, document)
            files = render_files(result, REPORT_FORMATS)
        except ConflictkitError as exc:
            outcome.status, outcome.error = "failed", str(exc)
            files = {}
        except Exception as exc:  # a bug on one pair must not sink the other thousand
            outcome.status, outcome.error = "failed", f"unexpected failure: {type(exc).__name__}: {exc}"
            files = {}
        else:
            outcome.counts, outcome.top_reasons, outcome.max_p_conflict = summarize_report(result.report)
            outcome.severity, outcome.findings = digest_findings(result.report)
        outcome.seconds = round(time.perf_counter() - started, 4)
        return outcome, files


# One worker per process for process-pool engines: the pool's initializer builds it, or the pool
# forks its processes from one that already holds it (see conflictkit.batch.engines.LocalEngine).
_PROCESS_WORKER: Worker | None = None


def init_process_worker(config_data: dict, cache: bool) -> None:
    global _PROCESS_WORKER
    _PROCESS_WORKER = Worker(config_data, cache)


def adopt_process_worker(worker: Worker | None) -> None:
    """Make ``worker`` this process's worker (a forking pool's processes inherit it); None forgets it."""
    global _PROCESS_WORKER
    _PROCESS_WORKER = worker


def compare_in_process(pair: BatchPair) -> tuple[PairOutcome, dict[str, str]]:
    assert _PROCESS_WORKER is not None, "init_process_worker was not called"
    return _PROCESS_WORKER.compare(pair)
