"""The HTML view of a report: both documents side by side, every finding highlighted in both.

:func:`render_html` writes one self-contained page (inline CSS and JS, no network asset, a
Content-Security-Policy that forbids any fetch) for ``compare --format html`` and review exports;
:func:`render_view` is the same view as a fragment, which ``conflictkit serve`` wraps in its own
page with review controls. The documents are shown as their original text, so a finding's offsets
are exactly what is highlighted; every piece of document text is HTML-escaped here, in Python,
so the page reads (and prints) the same with scripts off and a clause cannot inject markup.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from pathlib import Path
from typing import Any

from conflictkit.errors import GroundingError
from conflictkit.report.explanations import explanation_lines

KINDS = ("deviation", "missing", "added")
SIDES = ("reference", "input")
STATUSES = ("accepted", "dismissed")
TEMPLATES = Path(__file__).resolve().parent / "templates"
_PLACEHOLDER = re.compile(r"\{\{ (\w+) \}\}")


def esc(value: Any) -> str:
    """Escape text for an HTML element or a double-quoted attribute."""
    return html.escape("" if value is None else str(value), quote=True)


def asset(name: str) -> str:
    """The text of a file shipped in ``conflictkit/report/templates``."""
    return (TEMPLATES / name).read_text(encoding="utf-8")


def fill(template: str, parts: dict[str, str]) -> str:
    """Replace ``{{ name }}`` placeholders in one pass, so inserted text is never rescanned.

    One pass matters: a document may itself contain ``{{ script }}``, and a second replacement
    pass would splice code into it.
    """
    return _PLACEHOLDER.sub(lambda m: parts[m.group(1)], template)


def check_spans(report: dict, texts: dict[str, str]) -> None:
    """Raise GroundingError unless every cited span is exactly the text it claims to be.

    The view highlights offsets; a report rendered against the wrong document would highlight
    the wrong words without this check.
    """
    for finding in report.get("findings", []):
        for side in SIDES:
            quote = finding.get(side)
            if quote is None:
                continue
            start, end = quote["start"], quote["end"]
            if not (0 <= start <= end <= len(texts[side])) or texts[side][start:end] != quote["text"]:
                raise GroundingError(
                    f"finding {finding.get('id')}: {side} span [{start}, {end}) does not match the {side} text; "
                    "render the report with the documents it was computed from"
                )


def highlight(text: str, findings: list[dict], side: str) -> str:
    """The escaped ``text`` with each finding's span on ``side`` wrapped in ``<mark>``.

    Spans may overlap (two findings citing one clause), so the text is cut at every span
    boundary and each piece lists all the findings covering it in ``data-f``. An empty
    ``<span class="anchor" id="<side>-f<index>">`` marks where each finding starts: the target
    that selecting a finding scrolls to, even when two findings start at the same offset.
    """
    events: list[tuple[int, int, int]] = []  # (offset, -1 end / +1 start, finding index)
    for i, finding in enumerate(findings):
        quote = finding.get(side)
        if quote is not None and quote["end"] > quote["start"]:
            events.append((quote["start"], 1, i))
            events.append((quote["end"], -1, i))
    events.sort()
    out: list[str] = []
    active: set[int] = set()
    pos = 0
    for offset, delta, index in events:
        if offset > pos:
            out.append(_piece(text[pos:offset], sorted(active), findings))
            pos = offset
        if delta > 0:
            active.add(index)
            out.append(f'<span class="anchor" id="{side}-f{index}"></span>')
        else:
            active.discard(index)
    out.append(esc(text[pos:]))
    return "".join(out)


def _piece(text: str, active: list[int], findings: list[dict]) -> str:
    if not active:
        return esc(text)
    kinds = {findings[i]["kind"] for i in active}
    kind = next((k for k in KINDS if k in kinds), "other")
    multi = " multi" if len(active) > 1 else ""
    data = " ".join(str(i) for i in active)
    return f'<mark class="hl k-{kind}{multi}" data-f="{data}">{esc(text)}</mark>'


def redline_ops(finding: dict) -> list[dict] | None:
    """The word-level redline of a deviation: the report's own, else computed by grounding.

    Each op is ``{"op": "equal"|"delete"|"insert", "gap", "text", "reversing", "kinds"}``; None when the finding
    has one side only (missing, added), where the whole clause is the change.
    """
    ref, inp = finding.get("reference"), finding.get("input")
    if ref is None or inp is None:
        return None
    data = finding.get("redline")
    if data is None:
        from conflictkit.grounding import redline

        data = redline(ref["text"], inp["text"]).to_dict()
    return _normalise_ops(data, ref["text"], inp["text"])


def _normalise_ops(data: Any, a: str, b: str) -> list[dict]:
    """Ops as runs of original text, each with the original text between it and the previous run.

    Grounding's ops carry offsets into both originals; text is taken from there (not from the
    normalized ``text``) so the redline shows the clauses exactly as written, spacing included.
    """
    ops = data.get("ops", []) if isinstance(data, dict) else data
    out, last_a, last_b = [], 0, 0
    for op in ops:
        if op["op"] == "delete":
            gap, text = a[last_a : op["a_start"]], a[op["a_start"] : op["a_end"]]
        else:
            gap, text = b[last_b : op["b_start"]], b[op["b_start"] : op["b_end"]]
        if op["op"] != "insert":
            last_a = max(last_a, op["a_end"])
        if op["op"] != "delete":
            last_b = max(last_b, op["b_end"])
        out.append({"op": op["op"], "gap": gap, "text": text, "reversing": bool(op.get("reversing")),
                    "kinds": list(op.get("kinds") or [])})
    return out


def render_redline(finding: dict) -> str:
    """The redline of a finding as HTML: deletions struck, insertions underlined, reversals flagged."""
    ops = redline_ops(finding)
    if ops is None:
        side = "reference" if finding.get("reference") else "input"
        tag = "del" if side == "reference" else "ins"
        quote = finding.get(side) or {"text": ""}
        return f'<div class="redline"><{tag}>{esc(quote["text"])}</{tag}></div>'
    parts = []
    for op in ops:
        text = esc(op["text"])
        parts.append(esc(op["gap"]))
        title = f"meaning-reversing change ({', '.join(op['kinds'])})" if op["kinds"] else "meaning-reversing change"
        rev = f' class="rev" title="{esc(title)}"' if op["reversing"] else ""
        if op["op"] == "equal":
            parts.append(text)
        elif op["op"] == "delete":
            parts.append(f"<del{rev}>{text}</del>")
        else:
            parts.append(f"<ins{rev}>{text}</ins>")
    return f'<div class="redline">{"".join(parts)}</div>'


def render_reasons(reasons: list[dict]) -> str:
    """Typed reasons as a list: ``number: thirty (30) days → sixty (60) days``."""
    if not reasons:
        return ""
    items = []
    for reason in reasons:
        change = ""
        if reason.get("reference") is not None or reason.get("input") is not None:
            change = f' <q class="r">{esc(reason.get("reference") or "—")}</q> → <q class="i">{esc(reason.get("input") or "—")}</q>'
        detail = f' <span class="detail">{esc(reason["detail"])}</span>' if reason.get("detail") else ""
        items.append(f'<li><b class="rtype">{esc(reason.get("type"))}</b>{change}{detail}</li>')
    return f'<ul class="reasons">{"".join(items)}</ul>'


def _where(quote: dict | None, label: str) -> str:
    if quote is None:
        return ""
    where = " ".join(x for x in (quote.get("section"), quote.get("heading")) if x) or quote.get("clause_id", "")
    return f'<span class="where"><span class="side">{label}</span> {esc(where)}</span>'


def _percent(p: Any) -> str:
    return "—" if p is None else f"{100 * float(p):.0f}%"


def render_finding(index: int, finding: dict, decision: dict | None, controls: bool, explained: list[str] | None = None) -> str:
    """One entry of the findings list (its redline is shown when the entry is selected); ``explained``: an explainer's lines."""
    kind = finding["kind"] if finding.get("kind") in KINDS else "other"
    status = (decision or {}).get("status")
    status = status if status in STATUSES else ""
    note = (decision or {}).get("note") or ""
    p = float(finding.get("p_conflict") or 0.0)
    head = (
        f'<div class="fhead"><span class="badge k-{kind}">{esc(kind)}</span> <span class="fid">{esc(finding.get("id"))}</span>'
        f' <span class="p" title="P(conflict)">{_percent(p)}</span>'
        f'<span class="status">{esc(status)}</span></div>'
    )
    where = f'<div class="wheres">{_where(finding.get("reference"), "ref")}{_where(finding.get("input"), "in")}</div>'
    meta = (
        f'<div class="meta">P(conflict) {_percent(p)} · P(same matter) {_percent(finding.get("p_same"))}'
        f' · judge {esc(finding.get("judge") or "—")} · {"grounded" if finding.get("grounded") else "not grounded"}</div>'
    )
    review = _review_controls(note) if controls else (f'<p class="note">{esc(note)}</p>' if note else "")
    return (
        f'<li class="finding k-{kind}" tabindex="0" id="finding-{index}" data-i="{index}" data-kind="{kind}"'
        f' data-p="{p:.6f}" data-fid="{esc(finding.get("id"))}" data-status="{status}">'
        f"{head}{where}{render_reasons(finding.get('reasons') or [])}{_explanation(explained)}{meta}{render_redline(finding)}{review}</li>"
    )


def _explanation(lines: list[str] | None) -> str:
    if not lines:
        return ""
    return '<div class="explanation">' + "".join(f"<p>{esc(line)}</p>" for line in lines) + "</div>"


def _review_controls(note: str) -> str:
    return (
        '<div class="review">'
        '<button type="button" data-action="accepted">Accept</button> '
        '<button type="button" data-action="dismissed">Dismiss</button> '
        '<button type="button" data-action="clear">Clear</button>'
        f'<textarea rows="2" maxlength="4000" placeholder="Note" aria-label="Note">{esc(note)}</textarea>'
        '<button type="button" data-action="note">Save note</button>'
        '<span class="saved" aria-live="polite"></span></div>'
    )


def render_toolbar(findings: list[dict]) -> str:
    """Kind filters with counts and the sort order."""
    counts = {k: sum(1 for f in findings if f.get("kind") == k) for k in KINDS}
    boxes = "".join(
        f'<label class="k-{k}"><input type="checkbox" name="kind" value="{k}" checked> {k} ({counts[k]})</label>'
        for k in KINDS
    )
    return (
        f'<div class="toolbar" role="group" aria-label="Filter and sort findings">{boxes}'
        '<label>Sort <select id="ck-sort"><option value="p-desc">probability ↓</option>'
        '<option value="p-asc">probability ↑</option><option value="order">document order</option></select></label></div>'
    )


def render_summary(report: dict) -> str:
    """The counts line under the title."""
    summary = report.get("summary") or {}
    keys = ("deviation", "missing", "added", "covered", "filtered")
    parts = [f'<span class="k-{k}">{esc(k)}: {esc(_count(summary.get(k, 0)))}</span>' for k in keys]
    return f'<p class="summary">{" · ".join(parts)}</p>'


def _count(value: Any) -> str:
    # "filtered" is counted per side: {"reference": 2, "input": 3}.
    if isinstance(value, dict):
        return " / ".join(f"{side} {n}" for side, n in value.items())
    return str(value)


def render_view(report: dict, reference_text: str, input_text: str, decisions: dict | None = None, *, controls: bool = False) -> str:
    """The view as an HTML fragment: toolbar, findings list and both highlighted documents."""
    texts = {"reference": reference_text, "input": input_text}
    check_spans(report, texts)
    findings = report.get("findings") or []
    decisions = decisions or {}
    # Listed most probable first (the toolbar's default), so the script has nothing to reorder on load.
    order = sorted(range(len(findings)), key=lambda i: (-float(findings[i].get("p_conflict") or 0.0), i))
    items = "".join(render_finding(i, findings[i], decisions.get(findings[i].get("id")), controls,
                                   explanation_lines(report, findings[i].get("id"))) for i in order)
    empty = '<p class="empty">No findings: every operative clause is covered.</p>' if not findings else ""
    panes = "".join(
        f'<section class="pane" aria-label="{side} document"><h2>{side}: {esc(_name(report, side))}</h2>'
        f'<div class="doc" id="doc-{side}" tabindex="0">{highlight(texts[side], findings, side)}</div></section>'
        for side in SIDES
    )
    return (
        f'<div class="ck-view"><aside class="side-list"><h2>Findings ({len(findings)})</h2>{render_toolbar(findings)}'
        f'{empty}<ol id="ck-findings">{items}</ol></aside><div class="panes">{panes}</div></div>'
    )


def _name(report: dict, side: str) -> str:
    return ((report.get(side) or {}).get("path")) or side


def _csp_hash(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode() + "'"


def render_html(report: dict, reference_text: str, input_text: str, decisions: dict | None = None) -> str:
    """One self-contained HTML page of ``report`` (with review ``decisions`` when given).

    ``decisions`` maps a finding id to ``{"status": "accepted"|"dismissed"|None, "note": str}``.
    The page loads nothing: its policy allows only its own inline style and script (by hash).
    """
    css, js = asset("report.css"), asset("report.js")
    csp = (
        f"default-src 'none'; style-src {_csp_hash(css)}; script-src {_csp_hash(js)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    title = f"conflictkit: {_name(report, 'input')} vs {_name(report, 'reference')}"
    reviewed = ""
    if decisions:
        done = sum(1 for d in decisions.values() if (d or {}).get("status") in STATUSES)
        reviewed = f'<p class="reviewed">Review: {done} of {len(report.get("findings") or [])} findings decided.</p>'
    return fill(
        asset("report.html"),
        {
            "csp": esc(csp),
            "title": esc(title),
            "css": css,
            "js": js,
            "summary": render_summary(report) + reviewed,
            "view": render_view(report, reference_text, input_text, decisions),
        },
    )
