"""``--format redline``: every change of the input against the reference, as a Markdown list.

What a reviewer pastes into an e-mail or an LLM prompt: each change with a few words of context
either side, its verdict (``substantive``: a finding says it changes the legal effect;
``editorial``: renumbering, typography and every change the engine found no conflict in) and
where it is in both documents; a moved block is listed once, where it now stands. Deleted text is
``~~struck~~`` and inserted text ``{+marked+}``, as in report.md. With ``changes="findings"`` only
the changes that belong to a finding are listed.
"""

from __future__ import annotations

import re

from conflictkit.report.escape import escape_markdown
from conflictkit.report.order import SEVERITIES
from conflictkit.report.view import ReportView

CONTEXT_WORDS = 5
WHOLE_WORDS = 40
"""Words of a deleted, inserted or moved paragraph shown before it is cut."""
_WORD_RUNS = re.compile(r"\S+")
_DOUBLE_SPACES = re.compile(r" {2,}")


def render_redline_markdown(view: ReportView, changes: str = "all") -> str:
    """The redline of ``view``'s two documents as Markdown (``changes``: ``all`` or ``findings``)."""
    diff = view.diff()
    report = view.report
    listed = [c for c in diff.changes if changes == "all" or c.tracked_in_findings_view]
    listed = [c for c in listed if c.op != "moved-from"]  # a move is listed once, where it now stands
    substantive = sum(1 for c in listed if c.verdict == "substantive")
    moves = sum(1 for c in listed if c.op == "moved-to" and (c is _first_of_move(diff, c)))
    out = [
        "# Redline",
        "",
        f"- Reference: {escape_markdown(report['reference']['path'])}",
        f"- Input: {escape_markdown(report['input']['path'])}",
        f"- {len(listed)} change{'s' * (len(listed) != 1)}: {substantive} substantive, {len(listed) - substantive} editorial"
        + (f", {moves} move{'s' * (moves != 1)}" if moves else "")
        + ("; only the changes of findings are listed" if changes == "findings" else "")
        + ". Deleted text is ~~struck~~, inserted text is {+marked+}.",
        *_by_severity(view),
        "",
    ]
    number = 0
    for group in _grouped(diff, listed):
        change = group[0]
        if change.op == "moved-to" and change is not _first_of_move(diff, change):
            continue
        number += 1
        out.append(f"{number}. {_heading(view, diff, change)}: {_shown(view, diff, group)}")
    if not listed:
        out.append("No changes: the input reads as the reference.")
    return "\n".join(out) + "\n"


def _by_severity(view: ReportView) -> list[str]:
    """``- Findings by severity: high F0006 (4.5 Disputed invoices), ...``: what to read first, the changes being in document order."""
    lines = []
    for severity in SEVERITIES:
        picked = [f for f in view.findings if f.get("severity") == severity]
        if picked:
            lines.append(f"- {severity.capitalize()}: " + ", ".join(
                f"{escape_markdown(f['id'])} ({escape_markdown(view.title(f) or f['kind'], midline=True)})" for f in picked))
    return (["- Findings by severity (the changes below are in document order):", *[f"  {line}" for line in lines]]
            if lines else [])


def _grouped(diff, changes: list) -> list[list]:
    """Changes as entries: inline changes of one paragraph (or cell) with the same verdict and finding
    that stand within a few words of each other are one entry."""
    groups: list[list] = []
    for change in changes:
        last = groups[-1][-1] if groups else None
        if (last is not None and change.inline and last.inline and not change.label and not last.label
                and (change.step, change.cell, change.verdict, change.finding) == (last.step, last.cell, last.verdict, last.finding)
                and len(_WORD_RUNS.findall(diff.input.text[last.input[1]:change.input[0]])) <= 2 * CONTEXT_WORDS):
            groups[-1].append(change)
        else:
            groups.append([change])
    return groups


def _first_of_move(diff, change):
    return next(c for c in diff.changes if c.move == change.move and c.op == "moved-to")


def _heading(view: ReportView, diff, change) -> str:
    verdict = change.verdict + (f" ({change.kind})" if change.kind and change.kind not in ("deviation",) else "")
    where = _where(view, diff, change)
    finding = ""
    if change.finding:
        found = next((f for f in view.findings if f["id"] == change.finding), {})
        severity = f" {found['severity']}" if found.get("severity") else ""
        finding = f", {escape_markdown(change.finding)}{severity} {found.get('kind', '')}".rstrip()
    return f"{verdict}{finding}, {escape_markdown(where, midline=True)}"


def _where(view: ReportView, diff, change) -> str:
    parts = []
    for side in ("reference", "input"):
        unit = _unit(diff, change, side)
        if unit is None:
            continue
        document = diff.reference if side == "reference" else diff.input
        start, end = (change.reference if side == "reference" else change.input)
        if end <= start:
            start, end = unit.start, unit.end
        label = _section(document.text[unit.label[0]:unit.label[1]])
        origin = (int(document.offsets[start]), int(document.offsets[max(start, end - 1)]) + 1)
        parts.append(f"{side} {view.place_at(side, *origin, section=label)}".rstrip())
    return "; ".join(parts)


def _section(label: str) -> str | None:
    """A label as the section it numbers: "4.2." -> "4.2", "(b)" stays."""
    from conflictkit.segmenters.labels import parse_label

    parsed = parse_label(label.strip() + " ") if label.strip() else None
    return (parsed.text if parsed is not None and parsed.kind != "bullet" else label.strip()) or None


def _unit(diff, change, side):
    step = diff.steps[change.step]
    index = step.reference if side == "reference" else step.input
    if index is None:
        return None
    return (diff.reference_units if side == "reference" else diff.input_units)[index]


def _shown(view: ReportView, diff, group: list) -> str:
    ref_text, inp_text = diff.reference.text, diff.input.text
    change = group[0]
    if change.op in ("deleted", "inserted", "moved-to"):
        if change.op == "deleted":
            return f"~~{_md(_cut(ref_text[change.reference[0]:change.reference[1]]))}~~"
        body = f"{{+{_md(_cut(inp_text[change.input[0]:change.input[1]]))}+}}"
        if change.op == "moved-to":
            origin = [c for c in diff.changes if c.move == change.move and c.op == "moved-from"]
            count = sum(1 for c in diff.changes if c.move == change.move and c.op == "moved-to")
            what = f"{count} paragraphs moved" if count > 1 else "moved"
            source = _where(view, diff, origin[0]) if origin else ""
            return f"{what} from {escape_markdown(source, midline=True)}: {body}"
        return body
    unit = _unit(diff, change, "input")
    cell = unit.cells[change.cell] if not change.label else (unit.start, unit.end)
    raw_before = inp_text[cell[0]:change.input[0]]
    parts = [_md(_last_words(raw_before)) + (" " if raw_before[-1:].isspace() else "")]
    for k, item in enumerate(group):
        raw_deleted = ref_text[item.reference[0]:item.reference[1]]
        raw_inserted = inp_text[item.input[0]:item.input[1]]
        deleted, inserted = raw_deleted.strip(), raw_inserted.strip()
        if (raw_deleted[:1].isspace() or raw_inserted[:1].isspace()) and not parts[-1].endswith(" "):
            parts.append(" ")
        parts.append(" ".join(x for x in (f"~~{_md(deleted)}~~" if deleted else "",
                                          f"{{+{_md(inserted)}+}}" if inserted else "") if x))
        if raw_inserted[-1:].isspace() or (not inserted and raw_deleted[-1:].isspace()):
            parts.append(" ")
        following = inp_text[item.input[1]:group[k + 1].input[0]] if k + 1 < len(group) else None
        if following is not None:
            parts.append(_spaced(following))
    raw_after = inp_text[group[-1].input[1]:cell[1]]
    parts.append((" " if raw_after[:1].isspace() else "") + _md(_first_words(raw_after)))
    return _DOUBLE_SPACES.sub(" ", "".join(parts)).strip()


def _spaced(text: str) -> str:
    """Unchanged text between two changes of one entry, its own spacing at both ends kept."""
    if not text.strip():
        return " " if text else ""
    return (" " if text[:1].isspace() else "") + _md(text) + (" " if text[-1:].isspace() else "")


def _md(text: str) -> str:
    return escape_markdown(text, midline=True)


def _cut(text: str) -> str:
    words = _WORD_RUNS.findall(text)
    return " ".join(words[:WHOLE_WORDS]) + (" …" if len(words) > WHOLE_WORDS else "")


def _last_words(text: str) -> str:
    words = _WORD_RUNS.findall(text)
    return ("… " if len(words) > CONTEXT_WORDS else "") + " ".join(words[-CONTEXT_WORDS:])


def _first_words(text: str) -> str:
    words = _WORD_RUNS.findall(text)
    return " ".join(words[:CONTEXT_WORDS]) + (" …" if len(words) > CONTEXT_WORDS else "")
