"""The Ray Data actor that holds a conflictkit engine and compares pairs whose documents the driver sent.

Each actor builds its engine once (models load once per actor) and takes batches of pairs from Ray
Data's streaming executor. Documents come from the object store, put there once by the driver,
so no worker needs the driver's files or its working folder. Where the actor can see the batch's
output folder (the driver left a token file there and the actor reads the same token back) it writes
the pair's folder itself and returns only the summary row; otherwise it returns the rendered files
for the driver to write.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

UNWRITTEN = ""  # the "files" column of a row whose folder the worker wrote


class PairComparer:
    """``map_batches`` callable class: one engine per actor, one comparison per row."""

    def __init__(self, config_data: dict, cache: bool, documents: dict[str, Any], unreadable: dict[str, str],
                 out_dir: str | None, token: str | None) -> None:
        from conflictkit.batch.worker import Worker
        from conflictkit.config import resolve

        self.worker = Worker(config_data, cache)
        self.limits = resolve(config_data, "batch config").limits  # every limit --engine local holds a document to
        self.documents = documents  # path -> ObjectRef of the file's bytes
        self.unreadable = unreadable  # path -> the InputError message the driver met reading it
        self.out_dir = out_dir if out_dir and _sees(out_dir, token) else None
        self._kept: dict[str, bytes] = {}  # references: fetched once per actor

    def __call__(self, batch: dict[str, Any]) -> dict[str, list]:
        from conflictkit.batch.plan import BatchPair
        from conflictkit.batch.run import PairOutput

        folders, outcomes, files_out = [], [], []
        for reference, input, folder, key in zip(batch["reference"], batch["input"], batch["folder"], batch["key"]):
            pair = BatchPair(reference=str(reference), input=str(input), folder=str(folder))
            outcome, files = self.worker.compare(pair, load=lambda path, ref=pair.reference: self._load(path, path == ref))
            if self.out_dir is not None:
                PairOutput(Path(self.out_dir), {pair.folder: str(key) if key else None}).write(outcome, files)
                files_out.append(UNWRITTEN)
            else:
                outcome.key = str(key) if key else None
                files_out.append(json.dumps(files, ensure_ascii=False))
            folders.append(pair.folder)
            outcomes.append(json.dumps(outcome.to_dict(), ensure_ascii=False))
        return {"folder": folders, "outcome": outcomes, "files": files_out}

    def _load(self, path: str, keep: bool):
        import ray

        from conflictkit.errors import InputError
        from conflictkit.loaders import document_from_bytes

        if path in self.unreadable:
            raise InputError(self.unreadable[path])
        data = self._kept.get(path)
        if data is None:
            data = ray.get(self.documents[path])
            if keep:
                self._kept[path] = data
        return document_from_bytes(data, path, self.limits)


def _sees(out_dir: str, token: str | None) -> bool:
    """Whether this actor's machine sees the driver's output folder (the same token file, with the same token)."""
    from conflictkit_ray.engine import TOKEN_FILE

    try:
        return token is not None and (Path(out_dir) / TOKEN_FILE).read_text(encoding="utf-8") == token
    except OSError:
        return False
