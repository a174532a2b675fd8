"""From text runs with boxes to lines in reading order: columns, running headers and footers,
page numbers, paragraphs, hyphenation. Pure functions over plain data, so they test without a PDF."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from conflictkit.segmenters.blocks import page_artefact

MARGIN = 0.1  # running headers and footers live in the top and bottom tenth of a page
_CLOSED = re.compile(r"[.:;!?][\"')\]]?$")
_HYPHENATED = re.compile(r"[A-Za-z]-$")


@dataclass
class Run:
    """A run of text on a page with its box (PDF points, origin bottom left)."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str


@dataclass
class Line:
    page: int  # 1-based
    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    column: int = 0

    @property
    def bbox(self) -> list[float]:
        return [round(self.x0, 1), round(self.y0, 1), round(self.x1, 1), round(self.y1, 1)]


def gutter(runs: list[Run], width: float) -> float | None:
    """The x of the widest white band (6 pt or more) in the middle 40% of a page that nearly no run
    crosses and that has text on both sides: the gap between two columns; None for one column."""
    if len(runs) < 6:
        return None
    x0 = np.array([r.x0 for r in runs])
    x1 = np.array([r.x1 for r in runs])
    xs = np.arange(width * 0.3, width * 0.7, 2.0)
    crossing = ((x0[None, :] < xs[:, None]) & (xs[:, None] < x1[None, :])).sum(axis=1)
    clear = crossing <= max(1, len(runs) // 20)
    best, best_band, band_start = None, 0.0, None
    for x, is_clear in zip(xs, clear, strict=True):
        if not is_clear:
            band_start = None
            continue
        band_start = x if band_start is None else band_start
        if x - band_start > best_band:
            best_band, best = x - band_start, float(band_start + x) / 2
    if best is None or best_band < 6:
        return None
    left, right = int((x1 <= best).sum()), int((x0 >= best).sum())
    return best if left >= 3 and right >= 3 else None


def _lines_of(runs: list[Run], page: int, column: int) -> list[Line]:
    """Runs on the same baseline (their middles within half a line height) form a line, read left to right."""
    groups: list[list[Run]] = []
    for run in sorted(runs, key=lambda r: -(r.y0 + r.y1) / 2):
        middle = (run.y0 + run.y1) / 2
        if groups:
            first = groups[-1][0]
            if abs(middle - (first.y0 + first.y1) / 2) < max(2.0, (first.y1 - first.y0) * 0.5):
                groups[-1].append(run)
                continue
        groups.append([run])
    lines = []
    for group in groups:
        group.sort(key=lambda r: r.x0)
        lines.append(Line(page, min(r.x0 for r in group), min(r.y0 for r in group), max(r.x1 for r in group),
                          max(r.y1 for r in group), " ".join(r.text for r in group), column))
    return lines


def reading_order(runs: list[Run], page: int, width: float) -> list[Line]:
    """A page's lines top to bottom; on a two-column page, full-width lines cut it into bands and
    each band reads its left column, then its right one."""
    runs = [r for r in runs if r.text.strip()]
    for r in runs:
        r.text = " ".join(r.text.replace("\x02", "-").split())  # PDFium marks a line-end hyphen as U+0002
    split = gutter(runs, width)
    if split is None:
        return _lines_of(runs, page, 0)
    wide = _lines_of([r for r in runs if r.x0 < split < r.x1], page, 0)
    narrow = [r for r in runs if not (r.x0 < split < r.x1)]
    ordered: list[Line] = []
    ceiling = float("inf")
    for cut in wide + [None]:
        floor = cut.y1 if cut is not None else float("-inf")
        band = [r for r in narrow if floor <= (r.y0 + r.y1) / 2 < ceiling]
        ordered += _lines_of([r for r in band if r.x1 <= split], page, 1)
        ordered += _lines_of([r for r in band if r.x0 >= split], page, 2)
        if cut is not None:
            ordered.append(cut)
            ceiling = cut.y0
    return ordered


def _key(text: str) -> str:
    return re.sub(r"\d+", "#", text.lower())


def strip_running(pages: list[list[Line]], heights: list[float]) -> tuple[list[list[Line]], int, int]:
    """Drop running headers/footers (the same margin line on at least half the pages, two or more)
    and page numbers; return the pages, and how many of each were removed."""
    def in_margin(line: Line, height: float) -> bool:
        return line.y0 >= height * (1 - MARGIN) or line.y1 <= height * MARGIN

    counts: Counter[str] = Counter()
    for lines, height in zip(pages, heights, strict=True):
        counts.update({_key(line.text) for line in lines if in_margin(line, height)})
    repeated = {key for key, n in counts.items() if n >= 2 and n >= len(pages) / 2}
    kept_pages, running, numbers = [], 0, 0
    for lines, height in zip(pages, heights, strict=True):
        kept = []
        for line in lines:
            if in_margin(line, height) and _key(line.text) in repeated:
                running += 1
            elif in_margin(line, height) and page_artefact().fullmatch(line.text.strip()):
                numbers += 1
            else:
                kept.append(line)
        kept_pages.append(kept)
    return kept_pages, running, numbers


def breaks(lines: list[Line]) -> list[str]:
    """What goes between each line and the next: "" (a hyphenated word joined), "\\n" (the same
    paragraph) or "\\n\\n" (a new one). A page or column break joins a paragraph that runs on."""
    if not lines:
        return []
    gaps = [a.y0 - b.y1 for a, b in pairwise(lines) if a.page == b.page and a.column == b.column and a.y0 > b.y1]
    spacing = statistics.median(gaps) if gaps else 0.0
    widths = [line.x1 - line.x0 for line in lines]
    full = statistics.quantiles(widths, n=10)[-1] if len(widths) >= 10 else max(widths)
    out = []
    for a, b in pairwise(lines):
        same_flow = a.page == b.page and a.column == b.column and a.y0 > b.y1
        if same_flow:
            new_paragraph = a.y0 - b.y1 > spacing * 1.6 + 1.0
        else:
            new_paragraph = bool(_CLOSED.search(a.text)) and (a.x1 - a.x0) < full * 0.85
        if new_paragraph:
            out.append("\n\n")
        elif _HYPHENATED.search(a.text) and b.text[:1].islower():
            out.append("")
        else:
            out.append("\n")
    return out
