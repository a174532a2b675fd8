"""Portfolio scale: one reference against many inputs (or a manifest of pairs), on a pool of workers.

    plan (pairs, folders, resume keys) -> engine (local process pool, or a plugin such as Ray)
        -> each worker: compare, render the pair's report set -> driver: write folders, summary

Workers build their :class:`~conflictkit.engine.Engine` once (models load once per worker) and
return rendered files; only the driver writes, so every engine produces the same folders.
"""

import importlib

# name -> module: imported on first use, so a plugin's batch engine (which imports
# conflictkit.batch.engines) does not pull in the driver, the store and the report writers.
_EXPORTS = {
    "BatchPair": "conflictkit.batch.plan", "pairs_from_inputs": "conflictkit.batch.plan",
    "pairs_from_manifest": "conflictkit.batch.plan", "BatchResult": "conflictkit.batch.run",
    "run_batch": "conflictkit.batch.run", "PairOutcome": "conflictkit.batch.worker",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
