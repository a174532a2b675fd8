"""Writing a set of files that belong together (report.json, pairs.json, params.json, report.md...).

A set is written complete into a staging folder beside its destination and swapped in with one
atomic ``renameat2(RENAME_EXCHANGE)`` (two renames where that is missing; a crash between them is
repaired by the next run, :func:`_recover`), so a reader, or a process killed at any moment, sees
the old set or the new one, never a mix and never part of one.

**Only what conflictkit wrote is ever replaced or deleted.** Each set carries a manifest
(:data:`MANIFEST`: every file's name and SHA-256); a destination is replaced only when every entry
in it is a file its manifest lists, unchanged since it was written (or, for a set written before
manifests existed, a plain file of the set's kind beside a conflictkit JSON file). Anything else in
it (a user's notes, a folder named ``report.json``, an edited ``report.md``) makes the write stop
with one line naming it. Leftovers of a crashed run are removed only when they prove to be ours.

A folder that cannot be swapped (the current directory or one above it, a mount point, a folder
whose parent is not writable) is never filled file by file: the set goes into a subfolder of it
(``conflictkit-report``), swapped like any other destination, and a note on stderr says so.
Files and folders get the modes the umask gives (0644 / 0755 under 022). Every OS error becomes an
:class:`~conflictkit.errors.OutputError` naming the path and the cause.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import json
import os
import secrets
import shutil
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from conflictkit.errors import OutputError, UserError

MANIFEST = ".conflictkit-set.json"
MANIFEST_SCHEMA = "conflictkit.set/1"
FILES_MANIFEST = ".conflictkit-files.json"  # files written into a folder that holds other things too
FILES_SCHEMA = "conflictkit.files/1"
SUBFOLDER = "conflictkit-report"  # where a set goes when its folder cannot be swapped
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
# A swap that fails with one of these leaves the destination as it was: write into a subfolder instead.
_CANNOT_SWAP = (errno.EBUSY, errno.EXDEV, errno.EACCES, errno.EPERM)

Owned = Callable[[str], bool]


def write_set(out_dir: str | os.PathLike[str], files: Mapping[str, str | bytes], owned: Owned,
              subfolder: str = SUBFOLDER) -> list[Path]:
    """Write ``files`` (name -> content) as the whole content of ``out_dir``, atomically as a set.

    ``owned(name)`` names the files a set of this kind may hold; it only matters for a set
    written before manifests existed. Returns the paths written (inside ``out_dir/subfolder``
    when ``out_dir`` could not be swapped).
    """
    given = Path(out_dir)
    target = Path(os.path.realpath(given))  # a symlinked --out: replace what it points to, keep the link
    try:
        if target.exists() and not target.is_dir():
            raise UserError(f"--out {given} exists and is not a directory; give a directory name")
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir() and not _swappable(target):
            return _write_below(given, target, files, owned, subfolder)
        try:
            with _locked(target.parent):
                _replace(given, target, files, owned)
        except OSError as exc:
            if not (target.is_dir() and exc.errno in _CANNOT_SWAP and os.access(target, os.W_OK | os.X_OK)):
                raise
            return _write_below(given, target, files, owned, subfolder)  # a bind mount, a parent we may not write
    except OSError as exc:
        raise OutputError.from_os_error(given, exc) from None
    return [given / name for name in files]


def update_set(out_dir: str | os.PathLike[str], changed: Mapping[str, str | bytes], owned: Owned) -> list[Path]:
    """Replace some files of a set conflictkit wrote in ``out_dir`` and keep the others: written whole, as a new set."""
    directory = Path(out_dir)
    foreign = foreign_entries(directory, owned)
    if foreign:
        raise UserError(f"{directory} holds {_describe(foreign)}; conflictkit rewrites only sets it wrote")
    try:
        current = {name: (directory / name).read_bytes() for name in sorted(os.listdir(directory)) if name != MANIFEST}
    except OSError as exc:
        raise OutputError.from_os_error(directory, exc, "read") from None
    return write_set(out_dir, {**current, **changed}, owned)


def write_beside(directory: str | os.PathLike[str], files: Mapping[str, str | bytes], legacy: Callable[[Path], bool]) -> list[Path]:
    """Write ``files`` into a folder that holds other things too (a batch's summary beside its pair folders).

    Each file is written atomically, and replaces only a file conflictkit wrote there: one its
    manifest (:data:`FILES_MANIFEST`) lists, unchanged (or, with no manifest, one ``legacy(folder)``
    recognises). The manifest lists the old and the new digest while the files are replaced, so a
    crash at any moment leaves every file known. Anything else is refused before a byte is written.
    """
    from conflictkit.report.writer import atomic_write

    folder = Path(directory)
    check_beside(folder, list(files), legacy)
    data = {name: utf8(c) if isinstance(c, str) else c for name, c in files.items()}
    new = {name: hashlib.sha256(b).hexdigest() for name, b in data.items()}
    listed = _files_manifest(folder) or {}
    atomic_write(folder / FILES_MANIFEST, _files_json({**listed, **{n: sorted(set(listed.get(n, [])) | {new[n]}) for n in new}}))
    for name, content in data.items():
        atomic_write(folder / name, content)
    atomic_write(folder / FILES_MANIFEST, _files_json({**listed, **{n: [new[n]] for n in new}}))
    return [folder / name for name in files]


def check_beside(folder: Path, names: list[str], legacy: Callable[[Path], bool]) -> None:
    """A UserError naming the files among ``names`` in ``folder`` that :func:`write_beside` may not replace."""
    listed = _files_manifest(folder)
    foreign = {}
    for name in names:
        path = folder / name
        if not (path.exists() or path.is_symlink()):
            continue
        if path.is_symlink() or not path.is_file():
            foreign[name] = "not written by conflictkit"
        elif listed is None:
            if not legacy(folder):
                foreign[name] = "not known to be written by conflictkit (no manifest)"
        elif _digest(path) not in listed.get(name, []):
            foreign[name] = "edited since conflictkit wrote it" if name in listed else "not written by conflictkit"
    if foreign:
        raise UserError(f"{folder} holds {_describe(foreign)}; conflictkit replaces only files it wrote: "
                        "move them away or give a new or empty directory")


def _files_manifest(folder: Path) -> dict[str, list[str]] | None:
    path = folder / FILES_MANIFEST
    try:
        data = json.loads(path.read_bytes()) if path.is_file() and not path.is_symlink() else None
    except (OSError, ValueError):
        return None
    files = data.get("files") if isinstance(data, dict) and data.get("schema") == FILES_SCHEMA else None
    if not isinstance(files, dict) or not all(isinstance(v, list) for v in files.values()):
        return None
    return files


def _files_json(files: Mapping[str, list[str]]) -> str:
    return json.dumps({"schema": FILES_SCHEMA, "files": dict(sorted(files.items()))}, indent=1) + "\n"


def _write_below(given: Path, target: Path, files: Mapping[str, str | bytes], owned: Owned, subfolder: str) -> list[Path]:
    inner = target / subfolder
    shown = given / subfolder
    try:
        with _locked(target):
            _replace(shown, inner, files, owned)
    except OSError as exc:
        raise OutputError.from_os_error(shown, exc) from None
    why = "the current folder" if _holds_cwd(target) else "a mount point" if os.path.ismount(target) else "a folder that cannot be replaced in one step"
    print(f"conflictkit: note: --out {given} is {why}; the files are in {shown} "
          "(replaced as a whole, so a crash never leaves a mix of two sets)", file=sys.stderr)
    return [shown / name for name in files]


def _replace(given: Path, target: Path, files: Mapping[str, str | bytes], owned: Owned) -> None:
    """``target`` (absent, or a set we wrote) becomes exactly ``files``; the caller holds the lock."""
    _recover(target, owned)
    if not target.is_dir():
        with _staged(target, files) as staging:
            os.rename(staging, target)
        return
    foreign = foreign_entries(target, owned)
    if foreign:
        raise UserError(f"--out {given} holds {_describe(foreign)}; conflictkit replaces only files it wrote: "
                        "move them away or give a new or empty directory")
    with _staged(target, files) as staging:
        with contextlib.suppress(OSError):
            os.chmod(staging, target.stat().st_mode & 0o7777)  # an empty folder the user made keeps its mode
        if _exchange(staging, target):
            _discard(staging, owned)  # now holds the old set
            return
        old = _sibling(target, "old")
        os.rename(target, old)
        os.rename(staging, target)  # a crash before this line: _recover() puts the new set in place
        _discard(old, owned)


def current_umask() -> int:
    """The process umask, read without changing it where Linux allows (``/proc/self/status``)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask



def utf8(text: str) -> bytes:
    """``text`` as UTF-8; a file name's undecodable bytes (the only lone surrogates a report can hold:
    Python's surrogate escapes) become ``\\udcXX``, in JSON the escape of the very same string."""
    return text.encode("utf-8", "backslashreplace")


# ---- which files are ours ---------------------------------------------------------------------


def foreign_entries(directory: Path, owned: Owned) -> dict[str, str]:
    """Entries of ``directory`` conflictkit did not write, name -> why; empty for an empty folder or one of our sets."""
    try:
        names = sorted(os.listdir(directory))
    except FileNotFoundError:
        return {}
    if not names:
        return {}
    listed = _manifest(directory)
    if listed is None:
        return _legacy_foreign(directory, names, owned)
    foreign = {}
    for name in names:
        if name == MANIFEST:
            continue
        path = directory / name
        if name not in listed or path.is_symlink() or not path.is_file():
            foreign[name] = "not written by conflictkit"
        elif _digest(path) != listed[name]:
            foreign[name] = "edited since conflictkit wrote it"
    return foreign


def _legacy_foreign(directory: Path, names: list[str], owned: Owned) -> dict[str, str]:
    """A set written before manifests: plain files of this kind, one a JSON file naming a conflictkit schema."""
    plain = [n for n in names if owned(n) and not (directory / n).is_symlink() and (directory / n).is_file()]
    foreign = {n: "not written by conflictkit" for n in names if n not in plain}
    if not foreign and not any(_conflictkit_json(directory / n) for n in plain if n.endswith(".json")):
        foreign = {n: "not known to be written by conflictkit (no manifest)" for n in names}
    return foreign


def _conflictkit_json(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read(64 << 20))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and str(data.get("schema", "")).startswith("conflictkit.")


def _manifest(directory: Path) -> dict[str, str] | None:
    """The manifest's name -> SHA-256, or None when there is none (or it is not ours)."""
    path = directory / MANIFEST
    if path.is_symlink() or not path.is_file():
        return None
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    files = data.get("files") if isinstance(data, dict) and data.get("schema") == MANIFEST_SCHEMA else None
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        return None
    return files


def _describe(foreign: Mapping[str, str]) -> str:
    by_reason: dict[str, list[str]] = {}
    for name, why in foreign.items():
        by_reason.setdefault(why, []).append(name)
    parts = []
    for why, names in by_reason.items():
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        parts.append(f"{shown} ({why})")
    return "; ".join(parts)


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            sha.update(chunk)
    return sha.hexdigest()


def _discard(directory: Path, owned: Owned) -> None:
    """Delete a folder this run moved aside, unless something not ours appeared in it meanwhile."""
    foreign = foreign_entries(directory, owned)
    if foreign:
        print(f"conflictkit: warning: kept {directory}: it holds {_describe(foreign)}", file=sys.stderr)
        return
    _remove(directory)


def _remove(directory: Path) -> None:
    """Delete a folder of ours, its manifest last: a crash midway leaves a leftover still known as ours."""
    with contextlib.suppress(OSError):
        for name in sorted(os.listdir(directory), key=lambda n: n == MANIFEST):
            os.unlink(directory / name)
        os.rmdir(directory)


# ---- staging, swapping, recovering ------------------------------------------------------------


@contextlib.contextmanager
def _staged(target: Path, files: Mapping[str, str | bytes]) -> Iterator[Path]:
    """A complete, synced copy of the set (manifest first) in a fresh sibling folder; removed on any failure."""
    data = {name: utf8(content) if isinstance(content, str) else content for name, content in files.items()}
    staging = _sibling(target, "new")
    os.mkdir(staging, 0o777 & ~current_umask())
    try:
        manifest = {"schema": MANIFEST_SCHEMA, "files": {n: hashlib.sha256(b).hexdigest() for n, b in data.items()}}
        _write_new(staging / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True).encode() + b"\n")
        for name, content in data.items():
            _write_new(staging / name, content)
        _fsync_dir(staging)
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _write_new(path: Path, content: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 & ~current_umask())
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)
        handle.flush()
        os.fsync(handle.fileno())


def _sibling_prefix(target: Path) -> str:
    # short and fixed-length, so a long --out name cannot make the staging name the one over the limit
    return f".ck-{hashlib.sha256(target.name.encode('utf-8', 'surrogateescape')).hexdigest()[:12]}-"


def _sibling(target: Path, role: str) -> Path:
    return target.with_name(f"{_sibling_prefix(target)}{role}-{secrets.token_hex(4)}")


def _recover(target: Path, owned: Owned) -> None:
    """Repair what a crashed earlier run left beside ``target``; touch nothing that is not ours.

    A ``new`` folder is complete before any rename, and the old set is renamed away only then,
    so: ``target`` missing with an ``old`` and a complete ``new`` beside it -> the new set goes in
    place; with an ``old`` only -> the old set goes back. Other leftovers of ours are removed.
    """
    prefix = _sibling_prefix(target)
    leftovers = sorted(p for p in target.parent.iterdir()
                       if p.name.startswith(prefix) and p.name[len(prefix):].split("-")[0] in ("new", "old")
                       and p.is_dir() and not p.is_symlink() and _only_listed(p))
    news = [p for p in leftovers if p.name[len(prefix):].startswith("new-") and _complete(p)]
    olds = [p for p in leftovers if p.name[len(prefix):].startswith("old-") and _manifest(p) is not None]
    if not target.exists() and olds:
        os.rename(news[0] if news else olds[0], target)
    for path in leftovers:
        if path.exists():
            _remove(path)


def _complete(directory: Path) -> bool:
    listed = _manifest(directory)
    return listed is not None and all((directory / n).is_file() and _digest(directory / n) == sha for n, sha in listed.items())


def _only_listed(directory: Path) -> bool:
    """Whether a leftover holds nothing but what its manifest lists (or is empty, or died writing its manifest)."""
    listed = _manifest(directory) or {}
    return all(n == MANIFEST or (n in listed and (directory / n).is_file() and not (directory / n).is_symlink())
               for n in os.listdir(directory))


def _swappable(target: Path) -> bool:
    """Whether ``target`` can be renamed: not the cwd or above it (a shell would sit in a deleted folder), not a mount."""
    return not (_holds_cwd(target) or os.path.ismount(target))


def _holds_cwd(target: Path) -> bool:
    try:
        cwd = Path(os.getcwd())
    except OSError:
        return False
    return cwd == target or target in cwd.parents


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directories in one atomic step (Linux renameat2); False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False  # a filesystem without exchange: fall back to two renames
    raise OSError(code, os.strerror(code), str(b))


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Serialise writers of sets in ``directory`` (two runs with the same --out), where flock exists."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock, the renames still keep each set whole
        yield
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # a folder we may write but not read: go on unlocked, as without flock
        yield
        return
    try:
        with contextlib.suppress(OSError):  # a file system without flock: the same
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock
