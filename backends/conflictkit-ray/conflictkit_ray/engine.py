"""The ``ray`` batch engine: Ray Data ``map_batches`` over the pairs, on a pool of actors that each hold an engine.

- The driver reads every distinct document once (the checks and messages of ``conflictkit
  compare``) and puts its bytes in the object store: workers never open the driver's paths, so
  relative paths, another working folder or another machine change nothing.
- ``--workers N`` actors (default: this machine's CPUs, or the cluster's), one CPU each, or an
  equal share of the cluster's CPUs when more workers than CPUs are asked for.
- Ray Data streams the pairs through the pool with backpressure, one pair per block. An actor that
  dies (killed, out of memory) is restarted by Ray and its pair run again, up to ``PAIR_RETRIES``
  times; a pair that still kills its worker is recorded as failed and the batch goes on.
- Where the actors see the output folder (checked with a token file the driver writes there), they
  write each pair's folder themselves and send back only the summary row; otherwise the driver
  writes what they send. The folders are the same bytes either way, and the same as ``--engine
  local``'s.
"""

from __future__ import annotations

import logging
import os
import secrets
import sys
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from conflictkit.batch.engines import BatchEngine, Result, failed
from conflictkit.batch.plan import BatchPair
from conflictkit.batch.worker import PairOutcome
from conflictkit.errors import InputError

from conflictkit_ray import connect

if TYPE_CHECKING:
    from conflictkit.batch.run import PairOutput

PAIR_RETRIES = 3  # runs of a pair after its worker died, before it is recorded as failed
TOKEN_FILE = ".conflictkit-ray-token"
FORWARDED_ENV = ("CONFLICTKIT_", "HF_")  # workers see the driver's cache, plugin and model settings


class RayEngine(BatchEngine):
    """Runs pairs on Ray: ``address`` None starts Ray on this machine with ``workers`` CPUs."""

    name: ClassVar[str] = "ray"

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        super().__init__(workers, address)
        self.requested = workers
        self._started_ray = False

    def run(self, pairs: Sequence[BatchPair], config_data: dict, cache: bool, output: PairOutput | None = None) -> Iterator[Result]:
        if not pairs:
            return
        from conflictkit.config import resolve

        limit = resolve(config_data, "batch config").limits.max_document_bytes
        ray = self._connect()
        actors, cpus = self._pool_size(ray, len(pairs))
        documents, unreadable = self._put_documents(ray, pairs, limit)
        token = self._leave_token(output)
        where = f"the cluster at {self.address}" if self.address else "this machine"
        writes = "the workers write the pair folders where they see --out" if token else "the driver writes the pair folders"
        print(f"conflictkit: ray: {actors} worker{'s' if actors != 1 else ''} on {where}; {writes}", file=sys.stderr)
        rows = [{"reference": p.reference, "input": p.input, "folder": p.folder,
                 "key": (output.keys.get(p.folder) if output else None) or ""} for p in pairs]
        by_folder = {p.folder: p for p in pairs}
        try:
            for outcome, files in self._stream(ray, rows, actors, cpus, config_data, cache, documents, unreadable,
                                               str(output.directory) if output else None, token):
                by_folder.pop(outcome.folder, None)
                yield outcome, files
            for pair in by_folder.values():  # blocks Ray gave up on: the worker died on every run of the pair
                yield failed(pair, f"the Ray worker died on this pair {PAIR_RETRIES + 1} times (out of memory? killed?)")
        finally:
            if token is not None and output is not None:
                (output.directory / TOKEN_FILE).unlink(missing_ok=True)

    def _stream(self, ray, rows, actors, cpus, config_data, cache, documents, unreadable, out_dir, token) -> Iterator[Result]:
        import json

        from conflictkit_ray.actor import UNWRITTEN

        arguments = {"config_data": config_data, "cache": cache, "documents": documents, "unreadable": unreadable,
                     "out_dir": out_dir, "token": token}
        if ray.util.client.ray.is_connected():
            pieces = _through_the_cluster(ray, rows, actors, cpus, arguments)
        else:
            pieces = compared_rows(rows, actors, cpus, arguments)
        for outcome, files in pieces:
            yield PairOutcome.from_dict(json.loads(outcome)), None if files == UNWRITTEN else json.loads(files)

    def _connect(self):
        ray = connect.ray_module()
        if not ray.is_initialized():
            env = {k: v for k, v in os.environ.items() if k.startswith(FORWARDED_ENV)}
            connect.init(self.address, None if self.address else self.workers, env)
            self._started_ray = True
        return ray

    def _pool_size(self, ray, pairs: int) -> tuple[int, float]:
        """(actors, CPUs per actor): ``--workers`` when given, else one per CPU; never more actors than pairs."""
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        wanted = self.requested or cpus
        actors = max(1, min(wanted, pairs))
        share = min(1.0, cpus / actors)
        if share < 1.0:
            print(f"conflictkit: ray: {actors} workers on {cpus} CPUs: each gets {share:.2f} of a CPU", file=sys.stderr)
        return actors, share

    @staticmethod
    def _put_documents(ray, pairs: Sequence[BatchPair], limit: int) -> tuple[dict, dict[str, str]]:
        """Each distinct file read once here and put in the object store; unreadable ones with their message."""
        from conflictkit.loaders import read_file_bytes

        documents, unreadable = {}, {}
        for path in dict.fromkeys(p for pair in pairs for p in (pair.reference, pair.input)):
            try:
                documents[path] = ray.put(read_file_bytes(path, limit))
            except InputError as exc:  # the pair fails with the message --engine local gives
                unreadable[path] = str(exc)
        return documents, unreadable

    @staticmethod
    def _leave_token(output: PairOutput | None) -> str | None:
        """A token file in the output folder: an actor that reads it back can write the folders itself."""
        if output is None:
            return None
        token = secrets.token_hex(16)
        try:
            (Path(output.directory) / TOKEN_FILE).write_text(token, encoding="utf-8")
        except OSError:
            return None  # the driver writes everything
        return token

    def close(self) -> None:
        if self._started_ray:
            connect.ray_module().shutdown()
            self._started_ray = False


def compared_rows(rows: list[dict], actors: int, cpus: float, arguments: dict) -> Iterator[tuple[str, str]]:
    """(outcome JSON, files JSON or UNWRITTEN) per pair as Ray Data's actor pool finishes it (a pair whose
    worker dies is run again, ``PAIR_RETRIES`` times at most, then dropped for the caller to report)."""
    import ray

    from conflictkit_ray.actor import PairComparer

    context = ray.data.DataContext.get_current()
    saved = (context.max_errored_blocks, context.enable_progress_bars)
    context.max_errored_blocks = -1  # a pair whose worker always dies is dropped (and reported), not the batch
    context.enable_progress_bars = False  # conflictkit draws its own progress line
    logging.getLogger("ray.data").setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            # Ray Data has no named parameter yet for bounding the retries of an actor's task
            warnings.filterwarnings("ignore", message=".*ray_remote_args.* is deprecated")
            dataset = ray.data.from_items(rows, override_num_blocks=len(rows)).map_batches(
                PairComparer, batch_size=1, compute=ray.data.ActorPoolStrategy(size=actors), num_cpus=cpus,
                fn_constructor_kwargs=arguments, max_restarts=-1, max_task_retries=PAIR_RETRIES,
            )
        for row in dataset.iter_rows():
            yield row["outcome"], row["files"]
    finally:
        context.max_errored_blocks, context.enable_progress_bars = saved


CLIENT_QUEUE = 64  # rows waiting for a Ray Client driver at most (the pool waits beyond that)


def _through_the_cluster(ray, rows, actors, cpus, arguments) -> Iterator[tuple[str, str]]:
    """Ray Client: Ray Data needs its driver inside the cluster (and Ray Client streams no task's results),
    so one task there runs :func:`compared_rows` and hands each row over through a bounded queue actor."""
    from ray.util.queue import Empty, Queue

    queue = Queue(maxsize=CLIENT_QUEUE)
    task = ray.remote(num_cpus=0)(_feed).remote(rows, actors, cpus, arguments, queue)
    try:
        while True:
            try:
                item = queue.get(block=True, timeout=1.0)
            except Empty:
                done, _ = ray.wait([task], timeout=0)
                if done:
                    ray.get(task)  # raises the task's error; a task that ended has put its last row already
                    if queue.empty():
                        return
                continue
            if item is None:
                return
            yield item
    finally:
        if not ray.wait([task], timeout=0)[0]:  # the caller stopped early (an interrupt)
            ray.cancel(task, force=True)
        ray.kill(queue.actor)


def _feed(rows, actors, cpus, arguments, queue) -> int:
    count = 0
    for item in compared_rows(rows, actors, cpus, arguments):
        queue.put(item)
        count += 1
    queue.put(None)
    return count
