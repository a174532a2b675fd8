"""Execution engines of a batch: the local process pool built in, others (Ray) from plugins.

An engine runs pairs on its workers and yields ``(outcome, files)`` as each pair finishes, in any
order. An engine whose workers cannot share memory runs the pairs in waves (:func:`waves`): the
first pair of each reference before the others, so the reference is indexed once and every later
pair finds it in the shared cache.

The local engine shares the work instead of copying it: on a system that can fork it loads every
model and reads and segments each shared reference in one process, then forks the other workers
from it and works alongside them, so the machine holds one copy of the model (the workers' pages
stay shared until written) and no worker reads or segments the reference again.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, ClassVar

from conflictkit.batch.plan import BatchPair
from conflictkit.batch.worker import PairOutcome, Worker, adopt_process_worker, compare_in_process, init_process_worker
from conflictkit.errors import UserError, plugin_install_hint

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

Result = tuple[PairOutcome, dict[str, str]]


class BatchEngine(ABC):
    """Runs a batch's pairs. ``workers`` None means the engine's own default (the CPU count)."""

    name: ClassVar[str]

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self.address = address

    @abstractmethod
    def run(self, pairs: Sequence[BatchPair], config_data: dict, cache: bool) -> Iterator[Result]:
        """Yield each pair's outcome and rendered files as it finishes."""

    def close(self) -> None:
        """Release workers (called once, also after an interrupt)."""


def waves(pairs: Sequence[BatchPair], cache: bool) -> list[list[BatchPair]]:
    """[first pair of each reference, the rest]: later pairs then find the reference's index cached."""
    if not cache or len(pairs) < 2:
        return [list(pairs)]
    seen: set[str] = set()
    first, rest = [], []
    for pair in pairs:
        (rest if pair.reference in seen else first).append(pair)
        seen.add(pair.reference)
    return [w for w in (first, rest) if w]


def failed(pair: BatchPair, message: str) -> Result:
    return PairOutcome(folder=pair.folder, reference=pair.reference, input=pair.input, status="failed", error=message), {}


def shared_references(pairs: Sequence[BatchPair]) -> list[str]:
    """References compared with more than one input, in plan order: worth preparing once for every worker."""
    counts = Counter(pair.reference for pair in pairs)
    return [reference for reference, n in counts.items() if n > 1]


def can_fork() -> bool:
    """Whether worker processes can be forked from this one (Linux; macOS's system libraries are not fork-safe)."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


class LocalEngine(BatchEngine):
    """A pool of worker processes on this machine (``--workers N``); one worker runs in-process."""

    name: ClassVar[str] = "local"

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        if address:
            raise UserError("--address is for a cluster engine such as --engine ray; the local engine runs on this machine")
        super().__init__(workers, address)
        self._pool: ProcessPoolExecutor | None = None

    def run(self, pairs: Sequence[BatchPair], config_data: dict, cache: bool) -> Iterator[Result]:
        if self.workers == 1 or len(pairs) == 1:
            worker = Worker(config_data, cache)
            for pair in pairs:
                yield worker.compare(pair)
            return
        if can_fork():
            yield from self._run_forked(pairs, config_data, cache)
        else:
            yield from self._run_spawned(pairs, config_data, cache)

    def _run_forked(self, pairs: Sequence[BatchPair], config_data: dict, cache: bool) -> Iterator[Result]:
        """Prepare one worker here, fork the other workers' processes from this one (they inherit it), and
        let this process compare pairs too whenever every forked worker has one: ``workers`` processes in all."""
        from collections import deque
        from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

        worker = Worker(config_data, cache)
        worker.prepare(shared_references(pairs))
        # a tokenizer that ran threads here would warn in every child; workers need no threads of their own
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        adopt_process_worker(worker)
        # an SQLite connection must not cross a fork: each process opens its own (this one reopens on its next use)
        worker.engine.store.close()
        gc.collect()
        gc.freeze()  # the collector then never writes to the inherited objects, so their pages stay shared
        try:
            # with "fork", the pool starts every process at once, before its own threads exist
            forked = min(self.workers, len(pairs)) - 1
            self._pool = ProcessPoolExecutor(max_workers=forked, mp_context=multiprocessing.get_context("fork"))
            queue, pending = deque(pairs), {}
            while queue or pending:
                while queue and len(pending) < 2 * forked:  # a forked worker never waits for this one to hand it work
                    pair = queue.popleft()
                    pending[self._pool.submit(compare_in_process, pair)] = pair
                done = [future for future in pending if future.done()]
                if not done and not queue:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield self._outcome(future, pending.pop(future))
                if queue and not done:  # every forked worker is busy: this process takes the next pair
                    yield worker.compare(queue.popleft())
        finally:
            gc.unfreeze()
            adopt_process_worker(None)

    def _run_spawned(self, pairs: Sequence[BatchPair], config_data: dict, cache: bool) -> Iterator[Result]:
        """Fresh worker processes, each building its own worker; the reference reaches them through the cache."""
        from concurrent.futures import ProcessPoolExecutor

        self._pool = ProcessPoolExecutor(
            max_workers=min(self.workers, len(pairs)), mp_context=multiprocessing.get_context("spawn"),
            initializer=init_process_worker, initargs=(config_data, cache),
        )
        yield from self._collect(self._pool, waves(pairs, cache))

    @classmethod
    def _collect(cls, pool: ProcessPoolExecutor, wave_list: list[list[BatchPair]]) -> Iterator[Result]:
        from concurrent.futures import FIRST_COMPLETED, Future, wait

        for wave in wave_list:
            pending: dict[Future, BatchPair] = {pool.submit(compare_in_process, p): p for p in wave}
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield cls._outcome(future, pending.pop(future))

    @staticmethod
    def _outcome(future, pair: BatchPair) -> Result:
        try:
            return future.result()
        except Exception as exc:  # the worker process died (out of memory, killed)
            return failed(pair, f"worker process failed: {type(exc).__name__}: {exc}")

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def available_engines() -> dict[str, type[BatchEngine]]:
    """Built-in ``local`` plus every engine that installed plugins register."""
    from conflictkit.registry import get_plugin_manager

    engines: dict[str, type[BatchEngine]] = {"local": LocalEngine}

    def register(cls: type[BatchEngine]) -> None:
        if not (isinstance(cls, type) and issubclass(cls, BatchEngine)):
            raise UserError(f"{cls!r} is not a conflictkit.batch.engines.BatchEngine")
        if cls.name in engines and engines[cls.name] is not cls:
            raise UserError(f"batch engine {cls.name!r} is registered twice; uninstall one of the plugins")
        engines[cls.name] = cls

    get_plugin_manager().hook.register_batch_engines(register=register)
    return engines


def get_engine(name: str, workers: int | None, address: str | None) -> BatchEngine:
    engines = available_engines()
    if name not in engines:
        hint = f" ({plugin_install_hint('conflictkit-ray')})" if name == "ray" else ""
        raise UserError(f"unknown batch engine {name!r}; available: {', '.join(sorted(engines))}{hint}")
    return engines[name](workers=workers, address=address)
