"""Comparisons run in a background thread, one at a time, with progress the pages poll.

Jobs live in memory: a job is only the way to a stored comparison, which is written once the
engine has finished. A job that fails keeps its message for the page and stores nothing.
"""

from __future__ import annotations

import queue
import secrets
import sys
import threading
import time
import traceback
from dataclasses import asdict, dataclass, field

from conflictkit.config import Config, dump_config
from conflictkit.errors import ConflictkitError
from conflictkit.model import Document
from conflictkit.web.reviews import ReviewStore

KEEP_FINISHED_S = 3600


@dataclass
class Job:
    """A comparison in progress (``running``), finished (``done``) or ``failed`` with its error."""

    id: str
    reference_name: str
    input_name: str
    state: str = "queued"
    stage: str = "queued"
    done: int = 0
    total: int = 0
    error: str | None = None
    comparison: str | None = None
    started: float = field(default_factory=time.time)
    finished: float | None = None

    def to_dict(self) -> dict:
        return asdict(self)


class Runner:
    """Runs comparisons on a single worker thread (engines are not shared between threads).

    The worker is a daemon thread: stopping the server abandons a running comparison, which
    stores nothing, instead of waiting for it.
    """

    def __init__(self, reviews: ReviewStore, engine_factory, after_store=None) -> None:
        self.reviews = reviews
        self.engine_factory = engine_factory  # (config_key, Config, progress) -> Engine
        self.after_store = after_store  # (comparison id) -> None: e.g. render the documents once, ahead of the first view
        self.jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._queue: queue.Queue = queue.Queue()
        threading.Thread(target=self._work, name="conflictkit-compare", daemon=True).start()

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            self._run(*item)

    def submit(self, config_key: str, config: Config, reference: Document, input: Document) -> Job:
        """Queue a comparison; the returned job's id is what the progress page polls."""
        job = Job(id=secrets.token_hex(8), reference_name=reference.path, input_name=input.path)
        with self._lock:
            self._prune()
            self.jobs[job.id] = job
        self._queue.put((job, config_key, config, reference, input))
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self.jobs.get(job_id)

    def _prune(self) -> None:
        cutoff = time.time() - KEEP_FINISHED_S
        for key in [k for k, j in self.jobs.items() if j.finished and j.finished < cutoff]:
            del self.jobs[key]

    def _run(self, job: Job, config_key: str, config: Config, reference: Document, input: Document) -> None:
        def progress(stage: str, done: int, total: int) -> None:
            job.stage, job.done, job.total = stage, done, total

        job.state, job.stage = "running", "loading models"
        try:
            engine = self.engine_factory(config_key, config, progress)
            result = engine.compare_documents(reference, input)
            job.stage = "saving"
            job.comparison = self.reviews.add(
                reference.path, input.path, result.reference.document.original, result.input.document.original,
                result.report, dump_config(config),
            )
            if self.after_store is not None:
                job.stage = "preparing the view"
                self.after_store(job.comparison)
            job.state = "done"
        except ConflictkitError as exc:
            job.error, job.state = str(exc), "failed"
        except Exception as exc:  # a bug: the page says so, the terminal keeps the traceback
            traceback.print_exc(file=sys.stderr)
            job.error, job.state = f"unexpected failure: {type(exc).__name__}: {exc} (see the server's terminal)", "failed"
        finally:
            job.finished = time.time()

    def shutdown(self) -> None:
        """Stop after the current comparison; queued ones are dropped."""
        while not self._queue.empty():
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        self._queue.put(None)
