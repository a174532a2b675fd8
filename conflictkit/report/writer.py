"""Writing output files: one file atomically, or a report set atomically as a set.

A file goes through a temp file in its directory and a rename (:func:`atomic_write`). A set
(report.json, pairs.json, params.json, report.md...) is written by :func:`conflictkit.report.sets.write_set`:
staged complete, swapped in whole, and only ever replacing files conflictkit wrote. Files get the
modes the umask gives (0644 under 022). Every OS error becomes an
:class:`~conflictkit.errors.OutputError` naming the path and the cause.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from conflictkit.errors import OutputError
from conflictkit.report.sets import current_umask, utf8, write_set

if TYPE_CHECKING:
    from conflictkit.engine import ComparisonResult

# Every file a report set may hold (with those of the installed renderers, :func:`is_report_file`): how
# a set written before manifests existed is recognised (conflictkit.report.sets). report.docx stays
# known when its plugin is uninstalled.
REPORT_FILES = frozenset({"report.json", "pairs.json", "params.json", "report.md", "report.html", "report.docx", "redline.md"})


def to_json(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


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
    data = utf8(content) if isinstance(content, str) else content
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
    """Render everything, then write it as the whole content of ``out_dir``; return the paths written."""
    return write_set(out_dir, render_files(result, formats, changes, rendering), is_report_file)
