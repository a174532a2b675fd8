"""Portfolio scale: one reference against many inputs (or a manifest of pairs), on a pool of workers.

    plan (pairs, folders, resume keys) -> engine (local process pool, or a plugin such as Ray)
        -> each worker: compare, render the pair's report set -> driver: write folders, summary

Workers build their :class:`~conflictkit.engine.Engine` once (models load once per worker) and
return rendered files; only the driver writes, so every engine produces the same folders.
"""

from conflictkit.batch.plan import BatchPair, pairs_from_inputs, pairs_from_manifest
from conflictkit.batch.run import BatchResult, run_batch
from conflictkit.batch.worker import PairOutcome

__all__ = ["BatchPair", "BatchResult", "PairOutcome", "pairs_from_inputs", "pairs_from_manifest", "run_batch"]
