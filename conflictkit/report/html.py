"""The HTML view of a report: both documents side by side, every finding highlighted in both.

:func:`render_html` writes one self-contained page (inline CSS and JS, no network asset, a
Content-Security-Policy that forbids any fetch) for ``compare --format html`` and review exports,
its review kept in the browser (exportable as a review file); :func:`render_view` is the same view
as a fragment, which ``conflictkit serve`` wraps in its own page, its review kept by the server.
Findings are listed in the view's order (by severity, then document order); the paragraphs both
documents share carry sync points (:func:`sync_points`) that the script brings level, with a gap
where one document has text the other lacks, and an overview marks every finding beside them. The documents are shown as the text a reader sees
(:mod:`conflictkit.report.doctext`: headings, lists, bold, tables; tags and entities gone), each
highlight placed where the finding's offsets fall in it; every piece of document text is
HTML-escaped here, in Python, so the page reads (and prints) the same with scripts off and a
clause cannot inject markup.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from conflictkit.errors import GroundingError
from conflictkit.report.docview import VIEW_KINDS, Event, event, render_document_html
from conflictkit.report.order import SEVERITIES, counts_phrase, ordered, severity_rank
from conflictkit.report.view import ReportView, section_title, settle

KINDS = ("deviation", "missing", "added", "moved")
VERDICTS = tuple(k for k in VIEW_KINDS if k not in KINDS)
"""A playbook review's entries (:mod:`conflictkit.playbook.html`): each verdict, and input clauses no position covers."""
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


_NUMBER_PREFIX = re.compile(r"\s*(?:#+\s*)?(?:\(?[0-9a-zA-Z]{1,4}[.)]|\d+(?:\.\d+)+\.?)?\s*")
CONTEXT_CHARS = 60


def gap_offset(source: str, target: str, start: int, end: int) -> int | None:
    """Where in ``target`` the clause ``source[start:end]`` would be, or None when that cannot be told.

    The clause has no counterpart, but its neighbours usually do: the text that ends the block
    before it (found in ``target``: the gap is just after it), else the text that opens the block
    after it, its number left out (the gap is at the start of that line).
    """
    line_start = source.rfind("\n", 0, start) + 1
    before = source[:line_start].rstrip()
    after = source[end:].lstrip()
    after = after[_NUMBER_PREFIX.match(after).end():]
    for size in (CONTEXT_CHARS, CONTEXT_CHARS // 3):
        found = _unique(target, before[-size:])
        if found is not None:
            return found + len(before[-size:])
        found = _unique(target, after[:size])
        if found is not None:
            return target.rfind("\n", 0, found) + 1
    return None


def _unique(text: str, part: str) -> int | None:
    """Where ``part`` (at least a few words) occurs in ``text``, when it occurs exactly once."""
    if len(part.strip()) < 12:
        return None
    found = text.find(part)
    return found if found >= 0 and text.find(part, found + 1) < 0 else None


def _gap_label(finding: dict, side: str) -> str:
    other = "reference" if side == "input" else "input"
    quote = finding.get(other) or {}
    where = section_title(quote) or quote.get("clause_id", "")
    what = "missing here" if finding.get("kind") == "missing" else "added here (not in the reference)"
    return f"{finding.get('id')} {what}: {where}".rstrip(": ")


def sync_points(view: ReportView) -> list[tuple[int, int]]:
    """Where the two documents' shared paragraphs start (matched, or changed in place), as document text
    offsets of each side, increasing on both: the pairs a script brings level (:mod:`conflictkit.report.docdiff`)."""
    diff = view.diff()
    points: list[tuple[int, int]] = []
    for step in diff.steps:
        if step.status not in ("same", "changed") or step.reference is None or step.input is None:
            continue
        a = int(diff.reference.offsets[diff.reference_units[step.reference].start])
        b = int(diff.input.offsets[diff.input_units[step.input].start])
        if not points or (a > points[-1][0] and b > points[-1][1]):
            points.append((a, b))
    return points


def pane_events(view: ReportView, side: str, points: list[tuple[int, int]] | None = None) -> list[Event]:
    """The highlights of one document: each finding's span, its changed words, gaps for the other side's clauses,
    and the starts of the paragraphs both documents share (``points``, from :func:`sync_points`)."""
    other = "input" if side == "reference" else "reference"
    texts = view.texts
    at_side = 0 if side == "reference" else 1
    events: list[Event] = [event(p[at_side], "sync", -1, target=str(k)) for k, p in enumerate(points or [])]
    for i, finding in enumerate(view.findings):
        quote = finding.get(side)
        if quote is None:
            if finding.get("kind") not in ("missing", "added"):  # only a clause with no counterpart leaves a gap
                continue
            theirs = finding.get(other)
            at = gap_offset(texts[other], texts[side], theirs["start"], theirs["end"]) if theirs else None
            if at is not None:
                events.append(event(at, "gap", i, target=f"{side}-f{i}", label=_gap_label(finding, side),
                                    css_kind=finding.get("kind", "other")))
            continue
        if quote["end"] <= quote["start"]:
            continue
        events += [event(quote["start"], "anchor", i, target=f"{side}-f{i}"), event(quote["start"], "open", i),
                   event(quote["end"], "close", i)]
        for start, end, op, verdict in view.change_spans(finding, side):
            events += [event(start, "change", i, op=op, verdict=verdict or ""), event(end, "unchange", i)]
    return events


def finding_positions(findings: list[dict], texts: dict[str, str]) -> list[int]:
    """Each entry's place in document order, in input offsets (a missing clause: where it would be); a
    playbook review's entries, which carry no ids in document order, are placed by it."""
    positions = []
    for finding in findings:
        if finding.get("input"):
            positions.append(finding["input"]["start"])
            continue
        quote = finding.get("reference") or {"start": 0, "end": 0}
        at = gap_offset(texts["reference"], texts["input"], quote["start"], quote["end"])
        if at is None:  # no neighbour to go by: the same relative place
            at = int(len(texts["input"]) * quote["start"] / max(1, len(texts["reference"])))
        positions.append(at)
    return positions


def render_pane(view: ReportView, side: str, points: list[tuple[int, int]] | None = None) -> str:
    """One document as formatted text, the text a reader sees, with its highlights."""
    kinds = [f.get("kind") if f.get("kind") in VIEW_KINDS else "other" for f in view.findings]
    body = render_document_html(view.document(side), pane_events(view, side, points), kinds)
    return f'<div class="doc md" id="doc-{side}" tabindex="0">{body}</div>'


def render_redline(view: ReportView, finding: dict) -> str:
    """The redline of a finding as HTML: deletions struck, insertions underlined, reversals flagged.

    Editorial and same-effect edits (when the judge gave edits) are dimmed (class ``ed``).
    """
    pieces = view.pieces(finding)
    if pieces is None:
        side = "reference" if finding.get("reference") else "input"
        tag = "del" if side == "reference" else "ins"
        quote = finding.get(side)
        text = view.quote_text(quote, side) if quote else ""
        return f'<div class="redline"><{tag}>{esc(text)}</{tag}></div>'
    parts = []
    previous = ""
    for piece in settle(pieces, editorial=True):
        text = esc(piece.text)
        classes = (["rev"] if piece.reversing else []) + (["ed"] if piece.op != "equal" and not piece.marked else [])
        title = ""
        if piece.reversing:
            title = f"meaning-reversing change ({', '.join(piece.kinds)})" if piece.kinds else "meaning-reversing change"
        elif "ed" in classes:
            title = f"{piece.verdict} edit" + (f" ({', '.join(piece.kinds)})" if piece.kinds else "")
        attrs = (f' class="{" ".join(classes)}"' if classes else "") + (f' title="{esc(title)}"' if title else "")
        if piece.op == "insert" and previous == "delete" and piece.spaced:
            parts.append(" ")
        if piece.op == "delete":
            parts.append(f"<del{attrs}>{text}</del>")
        elif piece.op == "insert":
            parts.append(f"<ins{attrs}>{text}</ins>")
        else:
            parts.append(text)
        previous = piece.op
    return f'<div class="redline">{"".join(parts).strip()}</div>'


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


def quote_where(view: ReportView, quote: dict | None, side: str, label: str) -> str:
    """Where a quote is, for the list: as a reader finds it (and how many more clauses a run has)."""
    if quote is None:
        return ""
    where = view.located(quote, side)
    if quote.get("spans"):
        where += f" (+{len(quote['spans']) - 1} more clause{'s' * (len(quote['spans']) > 2)})"
    return f'<span class="where"><span class="side">{label}</span> {esc(where)}</span>'


def _percent(p: Any) -> str:
    return "—" if p is None else f"{100 * float(p):.0f}%"


def render_finding(view: ReportView, index: int, finding: dict, decision: dict | None, controls: bool, position: int = 0) -> str:
    """One entry of the findings list (its redline is shown when the entry is selected), with an explainer's lines.

    ``position`` is its place in document order (the toolbar sorts by it).
    """
    kind = finding["kind"] if finding.get("kind") in KINDS else "other"
    status, note = decision_state(decision)
    p = float(finding.get("p_conflict") or 0.0)
    severity = finding.get("severity") if finding.get("severity") in SEVERITIES else ""
    rule = finding.get("severity_rule") or ""
    badge = (f'<span class="sev s-{severity}" title="{esc(severity)}: {esc(rule)}">{esc(severity)}</span> '
             if severity else "")
    head = (
        f'<div class="fhead">{badge}<span class="badge k-{kind}">{esc(kind)}</span> <span class="fid">{esc(finding.get("id"))}</span>'
        f' <span class="ftitle">{esc(view.title(finding))}</span>'
        f' <span class="p" title="P(conflict)">{_percent(p)}</span>'
        f'<span class="status">{esc(status)}</span></div>'
    )
    where = (f'<div class="wheres">{quote_where(view, finding.get("reference"), "reference", "ref")}'
             f'{quote_where(view, finding.get("input"), "input", "in")}</div>')
    meta = (
        (f'<div class="meta rule">Severity {esc(severity)}: {esc(rule)}</div>' if rule else "")
        + f'<div class="meta">P(conflict) {_percent(p)} · P(same matter) {_percent(finding.get("p_same"))}'
        f' · judge {esc(finding.get("judge") or "—")} · {"grounded" if finding.get("grounded") else "not grounded"}</div>'
    )
    review = review_controls(note) if controls else (f'<p class="note">{esc(note)}</p>' if note else "")
    body = (f"{head}{where}{render_reasons(finding.get('reasons') or [])}{_explanation(view.explained(finding))}{meta}"
            f"{render_redline(view, finding)}{review}")
    extra = (f' data-sev="{severity_rank(finding)}" data-severity="{severity}"'
             f' data-subject="{esc(finding.get("subject") or "")}"{_spans(finding)}')
    return list_item(index, kind, finding.get("id"), p, position, finding.get("reasons") or [], status, body, extra)


def decision_state(decision: dict | None) -> tuple[str, str]:
    """(status, note) of a reviewer's decision on an entry: status "" when undecided."""
    status = (decision or {}).get("status")
    return (status if status in STATUSES else ""), (decision or {}).get("note") or ""


def list_item(index: int, kind: str, entry_id: Any, p: float, position: int, reasons: list[dict], status: str, body: str,
              extra: str = "") -> str:
    """One entry of the list as the script reads it: kind, P, id, review status, place and reason types as data
    (``extra``: more data attributes, escaped already: a finding's severity, subject and spans)."""
    reason_types = " ".join(sorted({_reason_type(r) for r in reasons}))
    return (
        f'<li class="finding k-{kind}" tabindex="0" id="finding-{index}" data-i="{index}" data-kind="{kind}"'
        f' data-p="{p:.6f}" data-fid="{esc(entry_id)}" data-status="{status}" data-pos="{position}"'
        f' data-reasons="{esc(reason_types)}"{extra}>{body}</li>'
    )


def _spans(finding: dict) -> str:
    """Both quotes' offsets, so an exported review can be matched to the comparison it was made on."""
    out = ""
    for side, name in (("reference", "data-ref-span"), ("input", "data-inp-span")):
        quote = finding.get(side)
        if quote:
            out += f' {name}="{int(quote["start"])}:{int(quote["end"])}"'
    return out


def _reason_type(reason: dict) -> str:
    # A token for data-reasons: reason types are identifiers (number, governing_law), but never trust them.
    return re.sub(r"[^\w-]", "_", str(reason.get("type") or "other"))


def _explanation(lines: list[str] | None) -> str:
    if not lines:
        return ""
    return '<div class="explanation">' + "".join(f"<p>{esc(line)}</p>" for line in lines) + "</div>"


def review_controls(note: str) -> str:
    """The review app's accept / dismiss / clear buttons and the note box of one entry."""
    return (
        '<div class="review">'
        '<button type="button" data-action="accepted" title="Accept (a)">Accept</button> '
        '<button type="button" data-action="dismissed" title="Dismiss (d)">Dismiss</button> '
        '<button type="button" data-action="clear" title="Clear the decision (u)">Clear</button>'
        f'<textarea rows="2" maxlength="4000" placeholder="Note (n): saved as you type" aria-label="Note">{esc(note)}</textarea>'
        '<span class="saved" aria-live="polite"></span></div>'
    )


SORTS = (("severity", "severity, then document order"), ("document", "document order"), ("kind", "kind"),
         ("p-desc", "P(conflict) high to low"), ("p-asc", "P(conflict) low to high"))
SEVERITY_FILTERS = (("", "any severity"), ("0", "high"), ("1", "medium or high"))
REVIEW_FILTERS = (("", "any review status"), ("undecided", "undecided"), ("accepted", "accepted"), ("dismissed", "dismissed"))


def render_toolbar(findings: list[dict], decisions: dict | None = None, sort: str = "severity", review: str | None = None,
                   subjects: dict[str, str] | None = None, kinds: tuple[str, ...] = KINDS,
                   sorts: tuple[tuple[str, str], ...] = ()) -> str:
    """Filters (kind, severity, reason type, review status, free text), the sort order, the reviewed count, the keys
    (the review keys only with review controls; an export button for a review kept in the browser).

    ``kinds`` are the kinds to filter by (a playbook review's verdicts); ``sorts`` come before the usual orders.
    """
    counts = {k: sum(1 for f in findings if f.get("kind") == k) for k in kinds}
    boxes = "".join(
        f'<label class="k-{k}"><input type="checkbox" name="kind" value="{k}" checked> {k.replace("-", " ")} ({counts[k]})</label>'
        for k in kinds
    )
    types = sorted({_reason_type(r) for f in findings for r in f.get("reasons") or []})
    reason_options = '<option value="">any reason</option>' + "".join(f'<option value="{esc(t)}">{esc(t)}</option>' for t in types)
    status_options = "".join(f'<option value="{v}">{label}</option>' for v, label in REVIEW_FILTERS)
    sort_options = "".join(f'<option value="{v}"{" selected" if v == sort else ""}>{label}</option>'
                           for v, label in (*sorts, *SORTS))
    severity_options = "".join(f'<option value="{v}">{label}</option>' for v, label in SEVERITY_FILTERS)
    present = {f.get("subject") for f in findings if f.get("subject")}
    named = [(name, label) for name, label in (subjects or {}).items() if name in present]
    named += [(name, name) for name in sorted(present - {n for n, _ in named})]
    subject_options = '<option value="">any subject</option>' + "".join(
        f'<option value="{esc(name)}">{esc(label)}</option>' for name, label in named)
    by_severity = counts_phrase(findings)
    decided = sum(1 for f in findings if ((decisions or {}).get(f.get("id")) or {}).get("status") in STATUSES)
    return (
        f'<div class="toolbar" role="group" aria-label="Filter and sort findings">{boxes}'
        + (f'<select id="ck-severity" aria-label="Severity">{severity_options}</select>' if by_severity else "")
        + (f'<select id="ck-subject" aria-label="Clause subject">{subject_options}</select>' if named else "")
        + f'<select id="ck-reason" aria-label="Reason type">{reason_options}</select>'
        f'<select id="ck-status" aria-label="Review status">{status_options}</select>'
        '<input type="search" id="ck-search" placeholder="Search (/)" aria-label="Search findings">'
        f'<label>Sort <select id="ck-sort">{sort_options}</select></label>'
        '<label title="Scrolling one document scrolls the other by as much"><input type="checkbox" id="ck-together" checked>'
        ' scroll together</label>'
        f'<p class="counts"><span id="ck-reviewed" data-total="{len(findings)}">{decided} of {len(findings)} reviewed</span>'
        f' · <span id="ck-shown">{len(findings)} shown</span>' + (f' · {esc(by_severity)}' if by_severity else "") + '</p>'
        + (LOCAL_REVIEW if review == "local" else "")
        + '<p class="keys">Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous'
        + (' · <kbd>a</kbd> accept · <kbd>d</kbd> dismiss · <kbd>u</kbd> clear · <kbd>n</kbd> note' if review else "")
        + ' · <kbd>/</kbd> search</p></div>'
    )


LOCAL_REVIEW = (
    '<p class="local-review">Decisions and notes are kept in this browser for this report. '
    '<button type="button" id="ck-export" hidden>Export review (JSON)</button> '
    '<span class="hint">(the review app imports it: <i>Import review</i> on the comparison of the same documents)</span></p>'
)


def render_summary(report: dict) -> str:
    """The counts line under the title."""
    summary = report.get("summary") or {}
    keys = ("deviation", "missing", "added", "moved", "covered", "filtered")
    parts = [f'<span class="k-{k}">{esc(k)}: {esc(_count(summary.get(k, 0)))}</span>' for k in keys]
    return f'<p class="summary">{" · ".join(parts)}</p>'


def _count(value: Any) -> str:
    # "filtered" is counted per side: {"reference": 2, "input": 3}.
    if isinstance(value, dict):
        return " / ".join(f"{side} {n}" for side, n in value.items())
    return str(value)


REVIEWS = ("local", "server")


def render_view(report: dict, reference_text: str, input_text: str, decisions: dict | None = None, *,
                review: str | None = None, view: ReportView | None = None) -> str:
    """The view as an HTML fragment: toolbar, findings list (in the view's order: by severity, then document
    order, unless told) and both documents, formatted.

    ``review`` shows each finding's review controls (accept, dismiss, note) kept by ``local`` storage of the
    browser (report.html) or by the ``server`` (``conflictkit serve``); None shows decisions read-only.
    """
    if review not in (None, *REVIEWS):
        raise ValueError(f"review is one of {', '.join(REVIEWS)} or None, not {review!r}")
    texts = {"reference": reference_text, "input": input_text}
    check_spans(report, texts)
    view = view or ReportView(report, texts)
    findings = view.findings
    decisions = decisions or {}
    panes = render_panes(report, texts, view)  # first: the findings list then reads the rendered documents
    place = {id(f): n for n, f in enumerate(ordered(findings, "document"))}
    # Listed in the view's order (the toolbar's choice), so the script has nothing to reorder on load.
    items = "".join(render_finding(view, i, f, decisions.get(f.get("id")), review is not None, place[id(f)])
                    for i, f in enumerate(findings))
    empty = '<p class="empty">No findings: every operative clause is covered.</p>' if not findings else ""
    return (
        f'<div class="ck-view" data-aligned{_review_attributes(report, review)}><aside class="side-list">'
        f'<h2>Findings ({len(findings)})</h2>'
        f'{render_toolbar(findings, decisions, view.sort, review, (report.get("materiality") or {}).get("subjects"))}'
        f'{empty}<ol id="ck-findings">{items}</ol></aside><div class="panes">{panes}</div></div>'
    )


def review_key(report: dict) -> str:
    """What a browser files a report's local review under: both documents and every finding's id, kind and spans."""
    parts = [((report.get(side) or {}).get("sha256") or "") for side in SIDES]
    for f in report.get("findings") or []:
        spans = [f"{q['start']}:{q['end']}" if (q := f.get(side)) else "-" for side in SIDES]
        parts.append(f"{f.get('id')}/{f.get('kind')}/{'/'.join(spans)}")
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:24]


def _review_attributes(report: dict, review: str | None) -> str:
    if review is None:
        return ""
    documents = "".join(f' data-{side}-path="{esc(_name(report, side))}" data-{side}-sha256="{esc((report.get(side) or {}).get("sha256") or "")}"'
                        for side in SIDES)
    return f' data-review="{review}" data-review-key="{review_key(report)}"{documents}'


_PANES: OrderedDict[str, str] = OrderedDict()
_PANES_KEPT = 8
_PANES_LOCK = threading.Lock()


def render_panes(report: dict, texts: dict[str, str], view: ReportView | None = None) -> str:
    """Both documents, formatted and highlighted; the last few are kept, as they never change.

    Rendering two long documents is most of a page's cost, and the documents do not depend on
    the review decisions, so the review app renders them once per comparison (the job does it as
    it stores the result) and every later view reuses them.
    """
    view = view or ReportView(report, texts)
    digest = hashlib.sha256()
    for part in (texts["reference"], texts["input"], _name(report, "reference"), _name(report, "input"),
                 view.format("reference"), view.format("input")):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(json.dumps(view.findings, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    key = digest.hexdigest()
    with _PANES_LOCK:
        if key in _PANES:
            _PANES.move_to_end(key)
            return _PANES[key]
    points = sync_points(view)
    panes = "".join(
        f'<section class="pane" aria-label="{side} document"><h2>{side}: {esc(_name(report, side))}</h2>'
        f'{render_pane(view, side, points)}</section>'
        for side in SIDES
    ) + '<div class="overview" role="navigation" aria-label="Where the findings are (by kind and severity)"></div>'
    with _PANES_LOCK:
        _PANES[key] = panes
        while len(_PANES) > _PANES_KEPT:
            _PANES.popitem(last=False)
    return panes


def view_title(reference_name: str, input_name: str) -> str:
    """``reference -> input``: the direction of the comparison, as every title says it."""
    return f"{reference_name} -> {input_name}"


def _name(report: dict, side: str) -> str:
    return ((report.get(side) or {}).get("path")) or side


def _csp_hash(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode() + "'"


def render_html(report: dict, reference_text: str, input_text: str, decisions: dict | None = None,
                view: ReportView | None = None) -> str:
    """One self-contained HTML page of ``report`` (with review ``decisions`` when given).

    ``decisions`` maps a finding id to ``{"status": "accepted"|"dismissed"|None, "note": str}``.
    The page loads nothing: its policy allows only its own inline style and script (by hash).
    """
    title = f"conflictkit: {view_title(_name(report, 'reference'), _name(report, 'input'))}"
    reviewed = ""
    if decisions:
        done = sum(1 for d in decisions.values() if (d or {}).get("status") in STATUSES)
        reviewed = f'<p class="reviewed">Review: {done} of {len(report.get("findings") or [])} findings decided.</p>'
    return render_page(title, render_summary(report) + reviewed,
                       render_view(report, reference_text, input_text, decisions, review="local", view=view))


def render_page(title: str, summary: str, view: str) -> str:
    """The self-contained page around a view (``summary`` and ``view`` are HTML already; ``title`` is text)."""
    css, js = asset("report.css"), asset("report.js")
    csp = (
        f"default-src 'none'; style-src {_csp_hash(css)}; script-src {_csp_hash(js)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    return fill(asset("report.html"), {"csp": esc(csp), "title": esc(title), "css": css, "js": js, "summary": summary, "view": view})
