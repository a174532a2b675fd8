"""Writing output files: one file atomically, or a whole set of files atomically as a set.

A file goes through a temp file in its directory and a rename. A set (report.json, pairs.json,
params.json, report.md...) is written into a staging directory beside the target and swapped in,
so a reader sees the old set or the new one, never a mix, and a failure (a full disk, a crash)
leaves the old set untouched. The swap is one atomic ``renameat2(RENAME_EXCHANGE)`` on Linux; where
that is missing it is two renames, and a crash between them is repaired by the next run
(:func:`_recover`). Files and directories get the modes the umask gives (0644 / 0755 under 022).
Every OS error becomes an :class:`~conflictkit.errors.OutputError` naming the path and the cause.
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
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from conflictkit.errors import OutputError, UserError

if TYPE_CHECKING:
    from conflictkit.engine import ComparisonResult

# Every file a report set may hold (with those of the installed renderers, :func:`is_report_file`), so
# an earlier set in --out is recognised as one and replaced whole, while a folder holding other files
# is refused. report.docx stays known when its plugin is uninstalled.
REPORT_FILES = frozenset({"report.json", "pairs.json", "params.json", "report.md", "report.html", "report.docx", "redline.md"})
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def to_json(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def current_umask() -> int:
    """The process umask, read without changing it where Linux allows (``/proc/self/status``)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: str | os.PathLike[str], content: str | bytes) -> None:
    """Write ``content`` to ``path`` through a temp file in the same directory and a rename."""
    target = Path(path)
    try:
        _write_file(target, content)
    except OSError as exc:
        raise OutputError.from_os_error(target, exc) from None


def _write_file(target: Path, content: str | bytes) -> None:
    os.replace(_write_temp(target, content), target)


def _write_temp(target: Path, content: str | bytes) -> Path:
    """``content`` in a complete, synced temp file beside ``target`` (not yet renamed to it)."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd, tmp = tempfile.mkstemp(prefix=".ck-", suffix=".tmp", dir=target.parent)
    try:
        if hasattr(os, "fchmod"):  # mkstemp makes 0600: a colleague could not open the report
            os.fchmod(fd, 0o666 & ~current_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def write_set(out_dir: str | os.PathLike[str], files: Mapping[str, str | bytes], owned: Callable[[str], bool]) -> list[Path]:
    """Write ``files`` (name -> content) as the whole content of ``out_dir``, atomically as a set.

    ``owned(name)`` says whether an entry already in ``out_dir`` belongs to an earlier set of this
    kind; a directory holding anything else is refused rather than replaced. An empty folder, a
    mount point or the current directory is filled in place instead (:func:`_fill_in_place`).
    """
    given = Path(out_dir)
    target = Path(os.path.realpath(given))  # a symlinked --out: replace what it points to, keep the link
    try:
        if target.exists() and not target.is_dir():
            raise UserError(f"--out {given} exists and is not a directory; give a directory name")
        target.parent.mkdir(parents=True, exist_ok=True)
        with _locked(target.parent):
            _recover(target)
            if target.is_dir():
                foreign = sorted(name for name in os.listdir(target) if not (owned(name) or name.startswith(".ck-")))
                if foreign:
                    shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
                    raise UserError(f"--out {given} already holds files that are not part of a report ({shown}); "
                                    "give a new or empty directory, so the whole set can be replaced at once")
                if not os.listdir(target) or _holds_cwd(target) or os.path.ismount(target):
                    _fill_in_place(target, files, owned)
                else:
                    _swap_in(target, files)
            else:
                _publish_new(target, files)
    except OSError as exc:
        raise OutputError.from_os_error(given, exc) from None
    return [given / name for name in files]


def _fill_in_place(target: Path, files: Mapping[str, str | bytes], owned: Callable[[str], bool]) -> None:
    """Every file written beside its final name first, then all renamed in one burst, stale ones removed.

    For a folder that cannot be swapped (a mount point, the current directory, where a swap would
    leave the user's shell in a deleted folder): a failure while writing (a full disk) leaves the
    old set whole; only a reader during the burst of renames could see a mix.
    """
    temps: dict[str, Path] = {}
    try:
        for name, content in files.items():
            temps[name] = _write_temp(target / name, content)
    except BaseException:
        for tmp in temps.values():
            tmp.unlink(missing_ok=True)
        raise
    for name, tmp in temps.items():
        os.replace(tmp, target / name)
    for stale in os.listdir(target):
        if owned(stale) and stale not in files:
            (target / stale).unlink(missing_ok=True)


def _holds_cwd(target: Path) -> bool:
    try:
        cwd = Path(os.getcwd())
    except OSError:
        return False
    return cwd == target or target in cwd.parents


def _publish_new(target: Path, files: Mapping[str, str | bytes]) -> None:
    with _staged(target, files) as staging:
        os.rename(staging, target)


def _swap_in(target: Path, files: Mapping[str, str | bytes]) -> None:
    with _staged(target, files) as staging:
        if _exchange(staging, target):
            shutil.rmtree(staging, ignore_errors=True)  # now holds the old set
            return
        old = _sibling(target, "old")
        os.rename(target, old)
        os.rename(staging, target)  # a crash before this line: _recover() puts the new set in place
        shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def _staged(target: Path, files: Mapping[str, str | bytes]) -> Iterator[Path]:
    """A complete copy of the set in a fresh sibling directory; removed again on any failure."""
    staging = _sibling(target, "new")
    os.mkdir(staging, 0o777 & ~current_umask())
    try:
        for name, content in files.items():
            _write_file(staging / name, content)
        _fsync_dir(staging)
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _sibling_prefix(target: Path) -> str:
    # short and fixed-length, so a long --out name cannot make the staging name the one over the limit
    return f".ck-{hashlib.sha256(target.name.encode('utf-8', 'surrogateescape')).hexdigest()[:12]}-"


def _sibling(target: Path, role: str) -> Path:
    return target.with_name(f"{_sibling_prefix(target)}{role}-{secrets.token_hex(4)}")


def _recover(target: Path) -> None:
    """Repair what a crashed earlier run left beside ``target``.

    A ``new`` directory is complete before any rename, and the old set is renamed away only then,
    so: ``target`` missing with an ``old`` and a ``new`` beside it -> the new set goes in place;
    with an ``old`` only -> the old set goes back. Any other leftover is removed.
    """
    prefix = _sibling_prefix(target)
    leftovers = sorted(p for p in target.parent.iterdir() if p.name.startswith(prefix))
    news = [p for p in leftovers if p.name[len(prefix):].startswith("new-")]
    olds = [p for p in leftovers if p.name[len(prefix):].startswith("old-")]
    if not target.exists() and olds:
        os.rename(news[0] if news else olds[0], target)
    for path in leftovers:
        if path.exists():
            shutil.rmtree(path, ignore_errors=True)


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


def render_files(result: ComparisonResult, formats: Iterable[str], changes: str = "all", rendering=None) -> dict[str, str | bytes]:
    """File name -> content for a comparison: report.json, pairs.json and params.json always, and the file
    of each renderer in ``formats`` that writes one (report.md, report.html, redline.md, report.docx...).

    ``rendering`` (a :class:`~conflictkit.stages.Rendering` of ``result``) shares its rendered documents with the caller."""
    from conflictkit.registry import get_registry
    from conflictkit.stages import Rendering

    files: dict[str, str | bytes] = {
        "report.json": to_json(result.report),
        "pairs.json": to_json(result.pairs),
        "params.json": to_json(result.params),
    }
    registry = get_registry()
    rendering = rendering or Rendering.of_result(result, changes=changes)
    for name in dict.fromkeys(formats):
        renderer = registry.renderer(name)
        if renderer.filename and renderer.filename not in files:
            files[renderer.filename] = renderer().render(rendering)
    return files


def is_report_file(name: str) -> bool:
    """Whether ``name`` in an --out folder belongs to a report set (so an earlier set is replaced whole)."""
    if name in REPORT_FILES:
        return True
    from conflictkit.registry import get_registry

    return any(name == getattr(info.cls, "filename", None) for info in get_registry().all() if info.stage == "renderer")


def write_outputs(result: ComparisonResult, out_dir: str | os.PathLike[str], formats: Iterable[str] = ("json", "md"),
                  changes: str = "all", rendering=None) -> list[Path]:
    """Render everything, then write it as the whole content of ``out_dir``; return the paths."""
    return write_set(out_dir, render_files(result, formats, changes, rendering), is_report_file)
