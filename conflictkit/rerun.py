"""A re-run of an unchanged comparison, answered from the store before anything is built.

Every stage's output is cached already (:mod:`conflictkit.engine`), but reaching the cached report
still means resolving the config (importing every configured backend and building its options),
reading and normalizing both documents and segmenting keys out of them: most of a warm run's
time. This key needs none of that. It is made of what decides a comparison's outcome, read as
cheaply as possible: both files' bytes and extensions, the config as written (the resolved one is
a function of it and of the code), the installed code itself (the files of conflictkit and of every
plugin package: path, size and modification time, so an upgrade or an edit changes it, and the
versions of what they require, as every cache key has them: :mod:`conflictkit.codekey`), and the
environment variables that change what loads. A comparison that succeeded is saved under its key
with both documents' texts and source maps; the same key later gives the same report, rendered
without resolving the config, importing any backend or reading the documents again (the summary
line of ``-q`` without even numpy or pydantic). Anything else takes the normal path.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conflictkit import PIPELINE_VERSION, __version__

KIND = "rerun"
MAX_TEXT_CHARS = 2_000_000  # larger documents are not kept twice in the store: their re-runs take the normal path
ENVIRONMENT = ("CONFLICTKIT_LOAD_PLUGINS", "CONFLICTKIT_NO_ENTRY_POINTS", "CONFLICTKIT_LEXICON_PATH")


@dataclass(frozen=True)
class SavedDocument:
    """What rendering a saved comparison reads of a document: its text and how it was read from its file."""

    original: str
    source_data: dict[str, Any] | None

    @property
    def source(self):
        if self.source_data is None:
            return None
        from conflictkit.model import DocumentSource, trusted

        return trusted(DocumentSource, self.source_data)


@dataclass(frozen=True)
class Saved:
    """A saved comparison: its report.json, and each document's text and source map (what rendering it needs)."""

    report: dict[str, Any]
    texts: dict[str, str]
    sources: dict[str, dict[str, Any] | None]

    def documents(self) -> tuple[SavedDocument, SavedDocument]:
        """The reference and the input as a :class:`~conflictkit.stages.Rendering` reads them."""
        return tuple(SavedDocument(self.texts[side], self.sources.get(side)) for side in ("reference", "input"))  # type: ignore[return-value]


def _stamp(folder: Path, digest: Any) -> None:
    """Fold every file under ``folder`` (relative path, size, modification time) into ``digest``."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(root, name)
            try:
                stat = os.stat(path)
            except OSError:
                continue
            digest.update(f"{os.path.relpath(path, folder)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())


def code_stamp() -> str:
    """A digest of the installed code: conflictkit's package and every plugin package the entry points name."""
    import importlib.util
    from importlib import metadata

    import conflictkit

    digest = hashlib.sha256()
    folders = {Path(conflictkit.__file__).resolve().parent}
    for ep in sorted(metadata.entry_points(group="conflictkit"), key=lambda e: (e.name, e.value)):
        digest.update(f"{ep.name}={ep.value}\n".encode())
        try:
            spec = importlib.util.find_spec(ep.module.split(".")[0])
        except (ImportError, ValueError):
            continue
        if spec is not None and spec.submodule_search_locations:
            folders.update(Path(location).resolve() for location in spec.submodule_search_locations)
        elif spec is not None and spec.origin:
            folders.add(Path(spec.origin).resolve())
    lexicons = os.environ.get("CONFLICTKIT_LEXICON_PATH", "")
    folders.update(Path(d).resolve() for d in lexicons.split(os.pathsep) if d)
    for folder in sorted(folders):
        digest.update(f"{folder}\n".encode())
        if folder.is_dir():
            _stamp(folder, digest)
        elif folder.is_file():
            stat = folder.stat()
            digest.update(f"{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def rerun_key(config_data: Any, paths: list[str], options: dict[str, Any] | None = None) -> str | None:
    """The key of comparing the files at ``paths`` under this config as written, or None when one cannot be read."""
    files = []
    for path in paths:
        try:
            data = Path(path).read_bytes()
        except OSError:
            return None  # the normal path says what is wrong with it
        files.append([Path(path).suffix.lower(), hashlib.sha256(data).hexdigest()])
    from conflictkit.codekey import code_key
    from conflictkit.configfile import named_files

    named = {}
    for name, path in named_files(config_data).items():  # a severity table edited since: answered afresh
        try:
            named[name] = hashlib.sha256(Path(path).expanduser().read_bytes()).hexdigest()
        except OSError:
            return None  # the normal path says what is wrong with it
    payload = {
        "version": __version__, "pipeline": PIPELINE_VERSION, "code": code_stamp(),
        # the cache's own key of the code (conflictkit.codekey): the versions of what the core and every
        # plugin require too, so upgrading onnxruntime or a model library answers afresh
        "distributions": code_key(rules=False), "config": config_data,
        "files": files, "named_files": named, "options": options or {}, "environment": {k: os.environ.get(k) for k in ENVIRONMENT},
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def lookup(store: Any, key: str | None, paths: tuple[str, str]) -> Saved | None:
    """The saved comparison under ``key``, its report's paths set to ``paths``; None when there is none."""
    if key is None or not store.enabled:
        return None
    saved = store.get_json(KIND, key)
    try:
        report, texts, sources = saved["report"], saved["texts"], saved["sources"]
        for side, path in zip(("reference", "input"), paths):
            report[side]["path"] = path
        return Saved(report=report, texts={side: texts[side] for side in ("reference", "input")},
                     sources={side: sources.get(side) for side in ("reference", "input")})
    except (KeyError, TypeError, AttributeError):
        return None  # absent or damaged: recomputed


def save(store: Any, key: str | None, result: Any) -> None:
    """Keep a finished comparison (a :class:`~conflictkit.engine.ComparisonResult`) under ``key``, unless its
    documents are too large to keep twice."""
    documents = {"reference": result.reference.document, "input": result.input.document}
    if key is None or not store.enabled or max(len(d.original) for d in documents.values()) > MAX_TEXT_CHARS:
        return
    store.put_json(KIND, key, {
        "report": result.report,
        "texts": {side: d.original for side, d in documents.items()},
        "sources": {side: d.source.model_dump(mode="json") if d.source is not None else None for side, d in documents.items()},
    })
