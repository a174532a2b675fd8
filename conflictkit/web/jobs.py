"""The review app's job queue: every job is kept in the review database and runs in a worker process.

A job is written to SQLite (with both uploaded files) before it is queued, so a restart loses none:
jobs that were running are marked interrupted and queued again, queued ones resume, finished ones
keep their comparison. Each runner thread hands its jobs to a worker process of its own
(:mod:`conflictkit.web.workers`: a memory ceiling and a time limit), so a runaway fails its job
and nothing else. Progress lives in memory only (the pages poll it); a job that fails keeps its
message for the page and stores no comparison.
"""

from __future__ import annotations

import queue
import secrets
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from conflictkit.config import Config, dump_config
from conflictkit.errors import ConflictkitError
from conflictkit.web.reviews import ReviewStore
from conflictkit.web.workers import Worker, WorkerLimits


@dataclass
class Job:
    """A comparison ``queued``, ``running``, ``done`` (with its comparison id) or ``failed`` (with its error)."""

    id: str
    reference_name: str
    input_name: str
    state: str = "queued"
    stage: str = "queued"
    done: int = 0
    total: int = 0
    error: str | None = None
    comparison: str | None = None
    batch_id: str | None = None
    interrupted: int = 0  # how many server restarts interrupted it
    started: float = field(default_factory=time.time)
    finished: float | None = None
    step_started: float = field(default_factory=time.time)

    def advance(self, stage: str, done: int, total: int) -> None:
        """The engine's progress callback: the step it is on and its count (a new step restarts the clock)."""
        if stage != self.stage:
            self.step_started = time.time()
        self.stage, self.done, self.total = stage, done, total

    def eta(self) -> float | None:
        """Seconds the current step has left, from its rate so far (None until it has counted some work)."""
        if self.state != "running" or self.total <= 1 or self.done <= 0 or self.done >= self.total:
            return None
        elapsed = time.time() - self.step_started
        return elapsed / self.done * (self.total - self.done)

    def progress_text(self) -> str:
        """``embed 64/118 · about 3 s left``: what a page shows of a running job."""
        text = f"{self.stage} {self.done}/{self.total}" if self.total > 1 else self.stage
        eta = self.eta()
        return text + (f" · about {eta:.0f} s left" if eta is not None else "")

    def to_dict(self) -> dict:
        return {**asdict(self), "eta": self.eta()}

    @classmethod
    def from_row(cls, row: dict) -> Job:
        return cls(id=row["id"], reference_name=row["reference_name"], input_name=row["input_name"], state=row["state"],
                   stage=row["state"], error=row["error"], comparison=row["comparison"], batch_id=row["batch_id"],
                   interrupted=row["interrupted"], started=row["created"], finished=row["finished"])


Upload = tuple[str, bytes]  # a document as uploaded: its name and its bytes


class Runner:
    """Runs queued comparisons on ``workers`` daemon threads, each with a worker process of its own.

    ``config_for(key)`` turns a job's stored config key back into a config (a resumed job has only
    the key); ``limits`` bound each job's memory and time. Stopping the server abandons running
    comparisons: they resume at the next start.
    """

    def __init__(self, reviews: ReviewStore, config_for: Callable[[str], Config], workers: int = 1,
                 after_store: Callable[[str], None] | None = None, limits: WorkerLimits | None = None) -> None:
        self.reviews = reviews
        self.config_for = config_for
        self.after_store = after_store  # (comparison id) -> None: e.g. render the documents once, ahead of the first view
        self.live: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._queue: queue.Queue = queue.Queue()
        self.workers = [Worker(limits or WorkerLimits(), name=f"conflictkit-compare-{n}") for n in range(max(1, workers))]
        self._threads = [threading.Thread(target=self._work, args=(worker,), name=f"conflictkit-compare-{n}", daemon=True)
                         for n, worker in enumerate(self.workers)]
        for job_id in reviews.resume_jobs():
            row = reviews.job(job_id)
            if row is not None:
                self.live[job_id] = Job.from_row(row)
                self._queue.put(job_id)
        for thread in self._threads:
            thread.start()

    def submit(self, config_key: str, reference: Upload, input: Upload, batch_id: str | None = None) -> Job:
        """Store and queue a comparison; the returned job's id is what the progress page polls."""
        job = Job(id=secrets.token_hex(8), reference_name=reference[0], input_name=input[0], batch_id=batch_id)
        self.reviews.add_job(job.id, batch_id, config_key, reference[0], input[0], reference[1], input[1])
        with self._lock:
            self.live[job.id] = job
        self._queue.put(job.id)
        return job

    def get(self, job_id: str) -> Job | None:
        """The job, live (with progress) or as the database keeps it (finished before a restart)."""
        with self._lock:
            job = self.live.get(job_id)
        if job is not None:
            return job
        row = self.reviews.job(job_id)
        return None if row is None else Job.from_row(row)

    def batch(self, batch_id: str) -> list[Job]:
        """Every job of a batch upload, in upload order, with live progress where running."""
        return [self.get(row["id"]) or Job.from_row(row) for row in self.reviews.batch_jobs(batch_id)]

    def _work(self, worker: Worker) -> None:
        while True:
            job_id = self._queue.get()
            if job_id is None:
                worker.close()
                return
            with self._lock:
                job = self.live.get(job_id)
            if job is not None:
                self._run(job, worker)

    def _run(self, job: Job, worker: Worker) -> None:
        job.state = "running"
        job.advance("starting", 0, 0)
        self.reviews.update_job(job.id, state="running")
        try:
            config_key = self.reviews.job(job.id)["config_key"]
            config = self.config_for(config_key)
            reference_data, input_data = self.reviews.job_files(job.id)
            answer = worker.call("compare", (config_key, config, (job.reference_name, reference_data),
                                             (job.input_name, input_data)), job.advance)
            if answer.get("explain_error"):  # the findings are kept whatever becomes of their explanations
                job.error = f"the findings are saved, but their explanations failed: {answer['explain_error']}"
            job.advance("saving", 0, 0)
            (reference_path, reference_text), (input_path, input_text) = answer["reference"], answer["input"]
            job.comparison = self.reviews.add(reference_path, input_path, reference_text, input_text, answer["report"],
                                              dump_config(config))
            if self.after_store is not None:
                job.advance("preparing the view", 0, 0)
                self.after_store(job.comparison)
            job.state = "done"
        except ConflictkitError as exc:
            job.error, job.state = str(exc), "failed"
        except Exception as exc:  # a bug: the page says so, the terminal keeps the traceback
            traceback.print_exc(file=sys.stderr)
            job.error, job.state = f"unexpected failure: {type(exc).__name__}: {exc} (see the server's terminal)", "failed"
        finally:
            job.finished = time.time()
            self.reviews.finish_job(job.id, job.state, job.error, job.comparison, job.finished)
            with self._lock:
                self.live.pop(job.id, None)

    def shutdown(self) -> None:
        """Stop the workers after their current comparison; queued jobs stay queued for the next start."""
        while not self._queue.empty():
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        for _ in self._threads:
            self._queue.put(None)
