"""Writing a comparison's files: all rendered first, then each written to a temp file and renamed,
so a failure never leaves a half-written report behind."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from conflictkit.errors import UserError

if TYPE_CHECKING:
    from conflictkit.engine import ComparisonResult

FORMATS = ("json", "md", "html")


def to_json(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def atomic_write(path: str | os.PathLike[str], content: str | bytes) -> None:
    """Write ``content`` to ``path`` through a temp file in the same directory and a rename."""
    target = Path(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def render_files(result: ComparisonResult, formats: Iterable[str]) -> dict[str, str]:
    """File name -> content for a comparison; report.json, pairs.json and params.json always."""
    files = {
        "report.json": to_json(result.report),
        "pairs.json": to_json(result.pairs),
        "params.json": to_json(result.params),
    }
    formats = set(formats)
    if "md" in formats:
        from conflictkit.report.render import render_markdown

        texts = {"reference": result.reference.document.original, "input": result.input.document.original}
        files["report.md"] = render_markdown(result.report, texts)
    if "html" in formats:
        from conflictkit.report.html import render_html

        files["report.html"] = render_html(result.report, result.reference.document.original, result.input.document.original)
    return files


def write_outputs(result: ComparisonResult, out_dir: str | os.PathLike[str], formats: Iterable[str] = ("json", "md")) -> list[Path]:
    """Render everything, then write it into ``out_dir`` (created if needed); return the paths."""
    files = render_files(result, formats)
    directory = Path(out_dir)
    if directory.exists() and not directory.is_dir():
        raise UserError(f"--out {out_dir} exists and is not a directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create output directory {out_dir}: {exc.strerror or exc}") from None
    written = []
    for name, content in files.items():
        atomic_write(directory / name, content)
        written.append(directory / name)
    return written
