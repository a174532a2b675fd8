"""What a cached result depends on besides its inputs and options: the code and the rule data that made it.

Every cache key of a comparison (a document's index, its clause vectors, the judged pairs, the
whole report), of a batch pair and of a benchmark judgement holds :func:`code_key` of the
distributions that ran (the core and each backend's plugin). It is a digest of:

- ``PIPELINE_VERSION``;
- each distribution's installed version and the installed versions of what it requires (a new
  sentence-transformers or onnxruntime may embed differently);
- for a distribution installed from a checkout in editable mode, a digest of its Python sources'
  names, sizes and modification times: a developer's edit changes results without changing any version;
- with ``rules``, the rule data: every lexicon file (``conflictkit/judges/atoms/lang/**`` and the
  folders on ``$CONFLICTKIT_LEXICON_PATH``), which the judge, the redline and the filters read.

So an upgrade, an edited lexicon or an edited checkout never returns a result of the old code.
Each part is computed once per process.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Iterable
from functools import lru_cache
from importlib import metadata, util

CORE = "conflictkit"
ENTRY_POINT_GROUP = "conflictkit"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def code_key(distributions: Iterable[str] | None = None, rules: bool = True) -> str:
    """A short digest of the code (and with ``rules``, the rule data) that ``distributions`` run.

    ``None``: the core and every installed conflictkit plugin. The core is always included.
    """
    names = installed_plugins() if distributions is None else frozenset(distributions)
    return _code_key(frozenset(names) | {CORE}, rules)


@lru_cache(maxsize=None)
def _code_key(names: frozenset[str], rules: bool) -> str:
    from conflictkit import PIPELINE_VERSION

    parts: list = [PIPELINE_VERSION, [distribution_key(n) for n in sorted(names)]]
    if rules:
        from conflictkit.lexicon import data_digest

        parts.append(data_digest())
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:20]


@lru_cache(maxsize=1)
def installed_plugins() -> frozenset[str]:
    """The distributions that provide a conflictkit plugin (entry-point group ``conflictkit``)."""
    names = set()
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(ep, "dist", None)
        if dist is not None:
            names.add(dist.metadata["Name"])
    return frozenset(names)


@lru_cache(maxsize=None)
def distribution_key(name: str) -> list:
    """``[name, version, {requirement: version}, sources digest or None]``; ``[name, None]`` when not installed."""
    try:
        dist = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return [name, None]
    required = {}
    for requirement in dist.requires or []:
        if "extra" in requirement.partition(";")[2]:
            continue  # an optional extra: not what runs
        match = _NAME.match(requirement)
        if match:
            required[_normal(match.group())] = installed_versions().get(_normal(match.group()))
    return [name, dist.version, required, _editable_sources(dist)]


@lru_cache(maxsize=1)
def installed_versions() -> dict[str, str]:
    """Normalized distribution name -> version, read from the ``name-version.dist-info`` folder names on
    ``sys.path`` (one directory listing each: ``metadata.version`` searches the whole path per call)."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            stem, dot, kind = folder.rpartition(".")
            if dot and kind in ("dist-info", "egg-info") and "-" in stem:
                name, _, version = stem.partition("-")
                found.setdefault(_normal(name), version.partition("-")[0])
    return found


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _editable_sources(dist: metadata.Distribution) -> str | None:
    """A digest of the Python sources of a distribution installed in editable mode, else None."""
    try:
        direct = json.loads(dist.read_text("direct_url.json") or "null")
    except ValueError:
        return None
    if not (isinstance(direct, dict) and direct.get("dir_info", {}).get("editable")):
        return None
    sha = hashlib.sha256()
    for folder in _package_folders(dist):
        for path, size, mtime in _python_files(folder):  # sizes and modification times: an edit changes them, no file is read
            sha.update(f"{path}\0{size}\0{mtime}\0".encode("utf-8", "surrogateescape"))
    return sha.hexdigest()


def _python_files(folder: str) -> list[tuple[str, int, int]]:
    out, stack = [], [folder]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        stack.append(entry.path)
                elif entry.name.endswith(".py"):
                    info = entry.stat()
                    out.append((os.path.relpath(entry.path, folder), info.st_size, info.st_mtime_ns))
    return sorted(out)


def _package_folders(dist: metadata.Distribution) -> list[str]:
    """The folders of the distribution's top-level packages (editable installs list no files)."""
    names = set((dist.read_text("top_level.txt") or "").split())
    names |= {ep.value.split(":")[0].split(".")[0] for ep in dist.entry_points if ep.group in (ENTRY_POINT_GROUP, "console_scripts")}
    names.add(dist.metadata["Name"].replace("-", "_"))
    folders = set()
    for name in names:
        module = sys.modules.get(name)
        locations = getattr(module, "__path__", None) if module is not None else None
        if locations is None and name.isidentifier():
            spec = util.find_spec(name)
            locations = spec.submodule_search_locations if spec is not None else None
        folders.update(locations or ())
    return sorted(folders)
