"""Where the review app reads uploads and compares them: worker processes with a memory ceiling and a time limit.

Documents are hostile input, and a file can cost more than its size says (a PDF whose page tree
defeats the PDF library, numbering that claims a billion items). Loading and comparing happen in a
process of their own whose address space is capped (``RLIMIT_AS``) and which is killed when it
overruns its time, so a runaway fails its job, with its error shown, and the server, in another
process, keeps answering. A comparison worker serves job after job, keeping its engines (and their
models) warm; one that dies or is killed is replaced before the next job. The check of an upload
runs in a process of its own, so slow uploads hold up no one else.

Processes start from a fork server (``multiprocessing``'s "forkserver"): forking the server itself,
which runs threads, could copy a lock some thread holds.
"""

from __future__ import annotations

import multiprocessing
import resource
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conflictkit.config import Config, Limits
from conflictkit.errors import ConflictkitError

Progress = Callable[[str, int, int], None]
CHECK_SECONDS = 120.0  # at most, for reading one upload: the request waits for it
MEMORY_MB, SECONDS = 4096, 600.0  # what one job may use unless the server is told otherwise (serve's defaults)


class JobFailed(ConflictkitError):
    """A job that failed in its worker: its own error, or the limit it overran."""


@dataclass(frozen=True)
class WorkerLimits:
    """What one job may use: the worker's address space in bytes, and wall-clock seconds."""

    memory_bytes: int = MEMORY_MB * 2**20
    seconds: float = SECONDS

    def memory_message(self) -> str:
        return (f"the documents need more memory than this server allows one job ({self.memory_bytes / 2**20:,.0f} MB, "
                "serve --job-memory-mb); split them, or restart the server with a larger --job-memory-mb")

    def time_message(self, seconds: float) -> str:
        return (f"stopped after {seconds:g} s, the time this server allows one job (serve --job-timeout, at most "
                f"{CHECK_SECONDS:g} s to read an upload); split the documents, or restart the server with a larger --job-timeout")


def _context():
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["conflictkit.web.workers"])
    return context


class Worker:
    """One worker process, started on first use and replaced after it dies or overruns its time."""

    def __init__(self, limits: WorkerLimits, name: str = "conflictkit-worker") -> None:
        self.limits = limits
        self.name = name
        self._process = None
        self._connection = None

    @property
    def running(self) -> bool:
        """Whether the worker's process is up (it starts with the first job)."""
        return self._process is not None and self._process.is_alive()

    def call(self, kind: str, payload: Any, progress: Progress | None = None, seconds: float | None = None) -> Any:
        """Run handler ``kind`` on ``payload`` in the worker and return its answer; raise JobFailed."""
        seconds = self.limits.seconds if seconds is None else seconds
        if self._process is None or not self._process.is_alive():
            self._start()
        try:
            self._connection.send((kind, payload))
        except (BrokenPipeError, OSError):  # the worker ended since its last job: a fresh one
            self._start()
            self._connection.send((kind, payload))
        deadline = time.monotonic() + seconds
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.close(kill=True)
                raise JobFailed(self.limits.time_message(seconds))
            if not self._connection.poll(min(remaining, 0.5)):
                if not self._process.is_alive():
                    raise self._died()
                continue
            try:
                message = self._connection.recv()
            except (EOFError, OSError):
                raise self._died() from None
            if message[0] == "progress":
                if progress is not None:
                    progress(*message[1:])
                continue
            return self._answer(message)

    def _answer(self, message: tuple) -> Any:
        status, value = message[0], message[1]
        if status == "done":
            return value
        if status == "memory":
            self.close(kill=True)  # an allocation failed half-way: nothing in that process is to be trusted
            raise JobFailed(self.limits.memory_message())
        if status == "bug":
            print(message[2], file=sys.stderr, flush=True)  # the traceback, for the server's terminal
        raise JobFailed(value)

    def _died(self) -> JobFailed:
        self._process.join(5)
        code = self._process.exitcode
        self.close(kill=True)
        if code is not None and code < 0:  # a library that cannot allocate aborts (PDFium), the kernel's OOM killer kills
            return JobFailed(f"the worker process reading these documents was killed by {signal.Signals(-code).name}, most "
                             f"likely for want of memory: {self.limits.memory_message()}")
        return JobFailed(f"the worker process reading these documents ended unexpectedly (exit code {code}); "
                         "see the server's terminal")

    def _start(self) -> None:
        self.close(kill=True)
        context = _context()
        parent, child = context.Pipe()
        process = context.Process(target=serve_jobs, args=(child, self.limits.memory_bytes), name=self.name, daemon=True)
        process.start()
        child.close()
        self._process, self._connection = process, parent

    def close(self, kill: bool = False) -> None:
        """Stop the worker: at once with ``kill``, else after asking it to finish."""
        process, connection = self._process, self._connection
        self._process = self._connection = None
        if process is None:
            return
        if not kill:
            try:
                connection.send(None)
                process.join(5)
            except (BrokenPipeError, OSError):
                pass
        if process.is_alive():
            process.kill()
            process.join(5)
        connection.close()


def check_upload(filename: str, data: bytes, limits: Limits, max_bytes: int, worker_limits: WorkerLimits,
                 reference: bool = False) -> list[tuple[str, bytes]]:
    """The documents of one upload, read in a process of their own: (name, bytes to store) for each.

    A ``reference`` that is a playbook (.yaml) is read as one there too, so a playbook that cannot be
    reviewed with is refused before any job starts.
    """
    worker = Worker(worker_limits, name="conflictkit-upload-check")
    try:
        return worker.call("check", (filename, data, limits, max_bytes, reference),
                           seconds=min(worker_limits.seconds, CHECK_SECONDS))
    finally:
        worker.close()


# -- in the worker --------------------------------------------------------------------------------


def serve_jobs(connection, memory_bytes: int) -> None:
    """The worker's loop: one request after another until told to stop (None) or the server goes."""
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    engines: dict[str, Any] = {}
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        kind, payload = request

        def progress(stage: str, done: int, total: int) -> None:
            connection.send(("progress", stage, done, total))

        try:
            connection.send(("done", _HANDLERS[kind](payload, engines, progress)))
        except ConflictkitError as exc:
            connection.send(("failed", str(exc)))
        except MemoryError:
            engines.clear()
            connection.send(("memory", ""))
            return
        except Exception as exc:  # a bug: the page says so, the server's terminal gets the traceback
            connection.send(("bug", f"unexpected failure: {type(exc).__name__}: {exc} (see the server's terminal)",
                             traceback.format_exc()))


def _check(payload, engines, progress) -> list[tuple[str, bytes]]:
    from conflictkit.web.playbooks import check_playbook, is_playbook
    from conflictkit.web.uploads import documents_from_upload, stored_bytes

    filename, data, limits, max_bytes, reference = payload
    documents = documents_from_upload(filename, data, limits, max_bytes)
    for document in documents:
        if reference and is_playbook(document.path):
            check_playbook(document)
    return [(document.path, stored_bytes(document)) for document in documents]


def _compare(payload, engines, progress) -> dict:
    from conflictkit.engine import Engine
    from conflictkit.loaders import document_from_bytes
    from conflictkit.store import get_store
    from conflictkit.web.playbooks import is_playbook, review_job

    key, config, (reference_name, reference_data), (input_name, input_data) = payload
    config: Config
    reference = document_from_bytes(reference_data, reference_name, config.limits)
    input = document_from_bytes(input_data, input_name, config.limits)
    engine_key = f"{key}\n{config.model_dump_json()}"
    if engine_key not in engines:
        engines[engine_key] = Engine(config, store=get_store())
    engine = engines[engine_key]
    engine.progress = progress
    if is_playbook(reference.path):  # an uploaded playbook: its job is a review
        reference_text, report = review_job(engine, reference, input)
        return {"reference": (reference.path, reference_text), "input": (input.path, input.original), "report": report}
    result = engine.compare_documents(reference, input)
    return {"reference": (reference.path, result.reference.document.original),
            "input": (input.path, result.input.document.original), "report": result.report}


_HANDLERS = {"check": _check, "compare": _compare}
