"""Writing playbooks as YAML: one started from a template, and a loaded one with every text written out.

``playbook init TEMPLATE`` makes one position per operative clause of a template, grouped by the
template's top-level sections, its text the clause's (or, ``--by-reference``, the clause's section
number, read from the template at each use). ``playbook show --format yaml`` writes a loaded
playbook self-contained: every text resolved, rules as written, so it can be uploaded to the
review app or sent to someone without the template.
"""

from __future__ import annotations

import re
from pathlib import PurePath

import yaml

from conflictkit.align.text import defined_term
from conflictkit.model import Clause
from conflictkit.playbook.load import Playbook, PositionText, ResolvedPosition
from conflictkit.playbook.model import Rule

HEADER = """\
# A conflictkit playbook (format: conflictkit/report/schemas/playbook.schema.json).
# Each position: the preferred text; add what else you accept and what you never accept, e.g.
#   fallbacks:
#     - edits: [{replace: "thirty (30) days", with: "sixty (60) days"}]
#       note: acceptable if they insist
#   red_lines:
#     - rule: {below: "30 days"}              # also: above, governing_law_other_than, venue_other_than, contains, lacks
#     - "a text you never accept"
#   guidance: what the negotiator should say
#   severity: high                           # high, medium (default), low
#   missing: optional                        # default: required
# 'template' is the document this was made from: a review matches its clauses that have no position
# here, so that a draft's other clauses are not taken for a position's (delete a position you do not need).
# Review a draft with: conflictkit review --playbook THIS.yaml DRAFT
"""


class _Dumper(yaml.SafeDumper):
    """Multi-line texts as literal blocks (``|``), as a person would write them."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _text)


def dump(data: dict) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def playbook_from_template(clauses: list[Clause], title: str, template: str | None = None, *,
                           by_reference: bool = False, definitions: bool = True) -> str:
    """The YAML of a playbook with one position per operative clause of a template.

    ``template`` is the template's path as the playbook should cite it (relative to where it is
    written); ``by_reference`` cites each clause by section number instead of copying its text.
    """
    by_id = {c.id: c for c in clauses}
    subjects: dict[str, list[dict]] = {}
    used: set[str] = set()
    sections = [c.section for c in clauses if c.section]
    for clause in clauses:
        if not clause.operative or (clause.kind == "definition" and not definitions):
            continue
        position: dict = {"id": _unique_id(clause, used), "title": _title(clause)}
        cite = by_reference and clause.section and sections.count(clause.section) == 1
        position["preferred"] = {"clause": clause.section} if cite else clause.text
        subjects.setdefault(_subject(clause, by_id), []).append(position)
    if not subjects:
        raise ValueError("the template has no operative clause to make a position of")
    data: dict = {"version": 1, "title": title}
    if template is not None:  # cited texts are read from it; a review matches its other clauses (see playbook.review)
        data["template"] = template
    data["subjects"] = [{"subject": name, "positions": positions} for name, positions in subjects.items()]
    return HEADER + dump(data)


def _subject(clause: Clause, by_id: dict[str, Clause]) -> str:
    """The heading of the clause's top-level section ("Term & Termination"), else "General"."""
    chain = [clause]
    while chain[-1].parent in by_id:
        chain.append(by_id[chain[-1].parent])
    tops = [c for c in chain if c.kind == "heading" and c.parent in by_id]  # below the document's title
    top = tops[-1] if tops else next((c for c in reversed(chain) if c.kind == "heading"), None)
    return (top.heading or top.text).strip().rstrip(".") if top is not None else "General"


def _title(clause: Clause) -> str:
    if clause.kind == "definition" and (term := defined_term(clause.text)):
        return f'Definition of "{_original_case(clause.text, term)}"'
    words = clause.text.split()
    fallback = " ".join(words[:8]) + (" …" if len(words) > 8 else "")
    return (clause.heading or "").strip().rstrip(".") or fallback


def _original_case(text: str, term: str) -> str:
    at = text.casefold().find(term)
    return text[at: at + len(term)] if at >= 0 else term


def _unique_id(clause: Clause, used: set[str]) -> str:
    base = "-".join(x for x in (_slug(clause.section or ""), _slug(_title(clause))[:40].strip("-")) if x) or clause.id
    candidate, n = base, 2
    while candidate in used:
        candidate, n = f"{base}-{n}", n + 1
    used.add(candidate)
    return candidate


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def resolved_yaml(playbook: Playbook) -> str:
    """A loaded playbook as self-contained YAML: every text written out (no template), rules as written."""
    subjects = []
    for subject in playbook.subjects:
        positions = [_position_data(p) for p in playbook.positions if p.subject == subject]
        entry: dict = {"subject": subject}
        if subject in playbook.subject_guidance:
            entry["guidance"] = playbook.subject_guidance[subject]
        entry["positions"] = positions
        subjects.append(entry)
    name = PurePath(playbook.path).name
    header = f"# {name} with every text written out (conflictkit playbook show --format yaml)\n"
    return header + dump({"version": 1, "title": playbook.title, "subjects": subjects})


def _position_data(position: ResolvedPosition) -> dict:
    data: dict = {"id": position.id, "title": position.title, "severity": position.severity}
    if not position.required:
        data["missing"] = "optional"
    data["preferred"] = _text_data(position.preferred)
    if position.accepted[1:]:
        data["fallbacks"] = [_text_data(t) for t in position.accepted[1:]]
    red = sorted([*position.red_texts, *position.rules], key=lambda r: r.rank)
    if red:
        data["red_lines"] = [_text_data(r) if isinstance(r, PositionText) else _rule_data(r.rule.rule, r.note) for r in red]
    if position.guidance:
        data["guidance"] = position.guidance
    return data


def _text_data(text: PositionText) -> str | dict:
    return {"text": text.text, "note": text.note} if text.note else text.text


def _rule_data(rule: Rule, note: str | None) -> dict:
    data: dict = {"rule": rule.model_dump(exclude_none=True, by_alias=True)}
    if note:
        data["note"] = note
    return data


def as_json(playbook: Playbook) -> dict:
    """A loaded playbook as plain data: its positions with their resolved texts (and where each came from) and rules."""
    def text(t: PositionText) -> dict:
        return {"id": t.id, "label": t.label, "text": t.text, "note": t.note, "origin": t.origin}

    return {
        "title": playbook.title, "path": playbook.path, "sha256": playbook.sha256, "template": playbook.template,
        "positions": [{
            "id": p.id, "subject": p.subject, "title": p.title, "severity": p.severity, "required": p.required,
            "guidance": p.guidance, "accepted": [text(t) for t in p.accepted], "red_line_texts": [text(t) for t in p.red_texts],
            "red_line_rules": [{"id": r.id, "label": r.label, "rule": r.rule.describe(), "note": r.note} for r in p.rules],
        } for p in playbook.positions],
    }
