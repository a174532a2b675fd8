"""The batch summary: one row per pair in ``summary.csv`` and ``summary.json``; ``summary.html`` the portfolio
(inputs by risk, a heat map of inputs x clause subjects: :mod:`conflictkit.batch.portfolio`) and a sortable table."""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

from conflictkit.batch.portfolio import PortfolioRow, portfolio_css, render_portfolio
from conflictkit.batch.worker import PairOutcome
from conflictkit.report.sets import check_beside, write_beside
from conflictkit.report.order import SEVERITIES

SUMMARY_SCHEMA = "conflictkit.batch-summary/1"
COLUMNS = ("input", "reference", "status", "deviation", "missing", "added", "max_p_conflict", "top_reasons", "error", "folder",
           "high", "medium", "low")  # new columns go last: scripts read the CSV by position too


def summary_rows(outcomes: Sequence[PairOutcome]) -> list[dict]:
    return [{
        "input": o.input, "reference": o.reference, "status": o.status, "skipped": o.skipped,
        "deviation": o.counts.get("deviation", 0), "missing": o.counts.get("missing", 0),
        "added": o.counts.get("added", 0), "moved": o.counts.get("moved", 0),
        **{s: o.severity.get(s, 0) for s in SEVERITIES}, "findings": o.findings,
        "max_p_conflict": None if o.max_p_conflict is None else round(o.max_p_conflict, 3),
        "top_reasons": o.top_reasons, "error": o.error, "folder": o.folder, "seconds": o.seconds,
    } for o in outcomes]


def render_csv(rows: list[dict]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow(["; ".join(row[c]) if c == "top_reasons" else ("" if row[c] is None else row[c]) for c in COLUMNS])
    return buffer.getvalue()


def render_json(rows: list[dict]) -> str:
    totals = {
        "pairs": len(rows), "ok": sum(r["status"] == "ok" for r in rows), "failed": sum(r["status"] == "failed" for r in rows),
        "skipped": sum(r["skipped"] for r in rows),
        **{k: sum(r[k] for r in rows) for k in ("deviation", "missing", "added", "moved", *SEVERITIES)},
    }
    return json.dumps({"schema": SUMMARY_SCHEMA, "totals": totals, "pairs": rows}, indent=2, ensure_ascii=False) + "\n"


_STYLE = """body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #ddd;padding:.35em .6em;text-align:left;vertical-align:top}th{cursor:pointer;background:#f5f5f5;user-select:none}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
td.n{text-align:right;font-variant-numeric:tabular-nums}tr.failed td{background:#fff3f3}.err{color:#a00}"""
# Sorts by the clicked column; numbers numerically (data-v), text alphabetically. No network, no library.
_SCRIPT = """document.querySelectorAll('th').forEach((th,i)=>th.addEventListener('click',()=>{
const tb=th.closest('table').tBodies[0],asc=th.getAttribute('aria-sort')!=='ascending';
document.querySelectorAll('th').forEach(h=>h.removeAttribute('aria-sort'));th.setAttribute('aria-sort',asc?'ascending':'descending');
const key=r=>{const c=r.cells[i],v=c.dataset.v;return v!==undefined?parseFloat(v):c.textContent.toLowerCase()};
[...tb.rows].sort((a,b)=>{const x=key(a),y=key(b);return (x<y?-1:x>y?1:0)*(asc?1:-1)}).forEach(r=>tb.appendChild(r))}));"""


def portfolio_rows(rows: list[dict]) -> list[PortfolioRow]:
    """The summary's rows as the portfolio shows them (each linking to its pair's report.html)."""
    return [PortfolioRow(name=Path(r["input"]).name, title=r["input"],
                         href=f'{quote(r["folder"])}/report.html' if r["status"] == "ok" else None,
                         status=r["status"], detail=r["error"] or "", findings=r.get("findings") or []) for r in rows]


def render_html(rows: list[dict], labels: dict[str, str] | None = None) -> str:
    """summary.html: the portfolio (inputs by risk, the heat map, each input's findings) and a sortable table of every pair."""
    e = html.escape
    body = []
    for r in rows:
        link = f'<a href="{e(quote(r["folder"]))}/report.html">{e(Path(r["input"]).name)}</a>' if r["status"] == "ok" else e(Path(r["input"]).name)
        p = r["max_p_conflict"]
        cells = [
            f'<td title="{e(r["input"])}">{link}</td>', f'<td title="{e(r["reference"])}">{e(Path(r["reference"]).name)}</td>',
            f"<td>{e(r['status'])}{' (unchanged)' if r['skipped'] else ''}</td>",
            *(f'<td class="n" data-v="{r[k]}">{r[k]}</td>' for k in (*SEVERITIES, "deviation", "missing", "added")),
            f'<td class="n" data-v="{-1 if p is None else p}">{"" if p is None else f"{p:.2f}"}</td>',
            f"<td>{e(', '.join(r['top_reasons']))}</td>",
            f'<td class="err">{e(r["error"] or "")}</td>',
        ]
        body.append(f'<tr class="{e(r["status"])}">{"".join(cells)}</tr>')
    failed = sum(r["status"] == "failed" for r in rows)
    heads = "".join(f"<th>{h}</th>" for h in ("input", "reference", "status", *SEVERITIES, "deviations", "missing", "added",
                                               "max P(conflict)", "top reasons", "failure"))
    portfolio = render_portfolio(portfolio_rows(rows), labels or {})
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
        f"<title>conflictkit batch: {len(rows)} pairs</title><style>{_STYLE}{portfolio_css()}</style></head><body>"
        f"<h1>conflictkit batch</h1><p>{len(rows)} pairs, {failed} failed; inputs riskiest first. "
        "Click a document, a finding or a cell to open its report.</p>"
        f"{portfolio}<h2>All pairs</h2><p>Click a column to sort.</p>"
        f"<table class=\"pairs\"><thead><tr>{heads}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        f"<script>{_SCRIPT}</script></body></html>\n"
    )


SUMMARY_FILES = ("summary.csv", "summary.json", "summary.html")


def earlier_summary(folder: Path) -> bool:
    """Whether ``folder`` holds a summary written before conflictkit kept a manifest of it (its JSON says so)."""
    try:
        return json.loads((folder / "summary.json").read_text(encoding="utf-8")).get("schema") == SUMMARY_SCHEMA
    except (OSError, ValueError, AttributeError):
        return False


def check_summary(out_dir: Path) -> None:
    """Refuse, before any work, an --out whose summary files conflictkit did not write."""
    check_beside(out_dir, list(SUMMARY_FILES), earlier_summary)


def write_summary(out_dir: Path, outcomes: Sequence[PairOutcome], labels: dict[str, str] | None = None) -> list[Path]:
    """summary.csv, summary.json and summary.html, each replacing only a summary conflictkit wrote;
    ``labels`` name the severity table's clause subjects."""
    rows = summary_rows(outcomes)
    for row in rows:
        if row["status"] == "ok" and not row["findings"] and any(row[k] for k in ("deviation", "missing", "added", "moved")):
            row["findings"] = _saved_findings(out_dir / row["folder"])  # a pair kept from a run that saved no digest
    contents = (render_csv(rows), render_json(rows), render_html(rows, labels))
    return write_beside(out_dir, dict(zip(SUMMARY_FILES, contents)), earlier_summary)


def _saved_findings(folder: Path) -> list[dict]:
    """The finding digests of a pair's saved report.json (empty when it cannot be read)."""
    from conflictkit.batch.worker import digest_findings

    try:
        return digest_findings(json.loads((folder / "report.json").read_text(encoding="utf-8")))[1]
    except (OSError, ValueError, KeyError, TypeError):
        return []
