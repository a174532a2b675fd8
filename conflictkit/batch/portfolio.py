"""The portfolio view of many comparisons: what to act on first.

Inputs are ordered by risk (most high-severity findings first, then medium, then low); each lists
its findings by severity, linked to its report; a heat map crosses the inputs with the clause
subjects of the severity table (liability, payment...), each cell the number of findings and its
worst severity, linked to that pair's report filtered to that subject. ``conflictkit batch`` writes
it as ``summary.html``; ``conflictkit serve`` shows the same on a batch's page (:func:`render_portfolio`
is the fragment both use). Every value is escaped here.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import quote

from conflictkit.report.order import SEVERITIES, severity_rank

_e = html.escape
OTHER = "other"


@dataclass
class PortfolioRow:
    """One input of a portfolio: where its report is, and what it found (or why it failed, or that it is still running).

    ``findings`` are digests (id, kind, severity, subject, title, p_conflict) in the report's order.
    """

    name: str
    title: str = ""
    href: str | None = None
    """The pair's report; ``#F0006`` opens a finding, ``#subject=payment`` filters to a subject."""
    status: str = "ok"  # ok | failed | pending
    detail: str = ""
    findings: list[dict] = field(default_factory=list)

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.get("severity") == severity)

    @property
    def risk(self) -> tuple:
        """Sorts riskiest first: most high findings, then medium, then low, then the most findings."""
        return tuple(-self.count(s) for s in SEVERITIES) + (-len(self.findings), self.name)


def by_risk(rows: Sequence[PortfolioRow]) -> list[PortfolioRow]:
    """Compared inputs riskiest first; those still running, then those that failed, after them."""
    order = {"ok": 0, "pending": 1, "failed": 2}
    return sorted(rows, key=lambda r: (order.get(r.status, 3), r.risk if r.status == "ok" else (r.name,)))


def subject_columns(rows: Sequence[PortfolioRow], labels: dict[str, str]) -> list[tuple[str, str]]:
    """``(subject, label)`` of every subject some input has a finding in, in the table's order, "other" last."""
    found = {f.get("subject") or OTHER for r in rows for f in r.findings}
    columns = [(name, label) for name, label in labels.items() if name in found and name != OTHER]
    columns += [(name, name) for name in sorted(found - set(labels) - {OTHER})]
    if OTHER in found:
        columns.append((OTHER, labels.get(OTHER, "other terms")))
    return columns


def _link(href: str | None, fragment: str, text: str, title: str = "") -> str:
    attr = f' title="{_e(title)}"' if title else ""
    if href is None:
        return f"<span{attr}>{text}</span>"
    return f'<a href="{_e(href + fragment)}"{attr}>{text}</a>'


def _heat_cell(row: PortfolioRow, subject: str, label: str) -> str:
    mine = [f for f in row.findings if (f.get("subject") or OTHER) == subject]
    if not mine:
        return '<td class="cell empty"></td>'
    worst = min(mine, key=severity_rank).get("severity") or "none"
    counts = ", ".join(f"{n} {s}" for s in SEVERITIES if (n := sum(1 for f in mine if f.get("severity") == s)))
    title = f"{row.name}: {len(mine)} finding{'s' * (len(mine) != 1)} in {label}" + (f" ({counts})" if counts else "")
    fragment = "" if subject == OTHER else f"#subject={quote(subject)}"
    return f'<td class="cell s-{_e(worst)}" data-worst="{_e(worst)}">{_link(row.href, fragment, str(len(mine)), title)}</td>'


def _findings_list(row: PortfolioRow) -> str:
    if row.status != "ok":
        return f'<p class="detail">{_e(row.detail)}</p>' if row.detail else ""
    if not row.findings:
        return '<p class="detail">No findings.</p>'
    items = []
    for f in row.findings:
        severity = f.get("severity") or ""
        text = (f'<span class="sev s-{_e(severity)}">{_e(severity)}</span> <span class="fid">{_e(f.get("id"))}</span> '
                f'{_e(f.get("kind"))} <span class="t">{_e(f.get("title") or "")}</span>')
        items.append(f"<li>{_link(row.href, '#' + quote(str(f.get('id'))), text)}</li>")
    return f'<ol class="findings">{"".join(items)}</ol>'


def render_portfolio(rows: Sequence[PortfolioRow], labels: dict[str, str]) -> str:
    """The portfolio as an HTML fragment: a table of inputs by risk, a heat map (inputs x clause subjects),
    and each input's findings by severity. ``labels`` name the subjects (the severity table's, in its order)."""
    ranked = by_risk(rows)
    columns = subject_columns(ranked, labels)
    heads = "".join(f'<th class="subject" scope="col"><span>{_e(label)}</span></th>' for _, label in columns)
    body = []
    for n, row in enumerate(ranked, 1):
        counts = "".join(f'<td class="n s-{s}">{row.count(s) if row.status == "ok" else ""}</td>' for s in SEVERITIES)
        state = "" if row.status == "ok" else f' <span class="state {row.status}">{_e(row.status)}</span>'
        name = _link(row.href, "", _e(row.name), row.title)
        cells = "".join(_heat_cell(row, s, label) for s, label in columns)
        body.append(f'<tr class="{_e(row.status)}" data-input="{_e(row.name)}"><td class="rank">{n}</td>'
                    f'<th scope="row" class="input">{name}{state}</th>{counts}{cells}</tr>')
    heat = (
        '<table class="heat"><thead><tr><th>#</th><th scope="col">input (riskiest first)</th>'
        + "".join(f'<th class="n s-{s}" scope="col">{s}</th>' for s in SEVERITIES)
        + f'{heads}</tr></thead><tbody>{"".join(body)}</tbody></table>'
    )
    details = "".join(
        f'<section class="input-findings"><h3>{n}. {_link(row.href, "", _e(row.name), row.title)}</h3>{_findings_list(row)}</section>'
        for n, row in enumerate(ranked, 1)
    )
    legend = ('<p class="legend">Each cell: the findings of an input in a clause subject, coloured by the worst '
              '(<span class="sev s-high">high</span> <span class="sev s-medium">medium</span> '
              '<span class="sev s-low">low</span>); click it for that pair\'s report showing those findings.</p>')
    return f'<div class="portfolio">{heat}{legend}<h2>Findings of each input, by severity</h2>{details}</div>'


def portfolio_css() -> str:
    """The portfolio's style sheet (``report/templates/portfolio.css``): summary.html inlines it, the review app serves it."""
    from conflictkit.report.html import asset

    return asset("portfolio.css")
