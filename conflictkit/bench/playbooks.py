"""Scripted drafts for the playbook benchmark: a template with each position set to a known state.

A draft is the playbook's template with, for every position, the clause replaced by one of the
position's texts: the preferred text (expected verdict ``standard``), fallback N (``fallback`` N),
a red-line text or a *breach* (``not-acceptable``; a breach is a text the drafts spec writes that
breaks a rule or changes the effect otherwise, so rules and the judge are measured, not only red-line
texts), or the clause removed (``missing``; ``absent`` for an optional position). Each state of each
position occurs in several drafts, next to other positions' states.

*Benign* variants must not move any verdict: :func:`reword` rewrites each placed text without
changing what it says (number formats, "will" -> "shall", curly apostrophes, the serial comma);
:func:`variants` also moves a section of the draft two sections later and puts each sentence on its own line.

The drafts spec (``benchmarks/data/playbooks/*.drafts.yaml``) says where a position without a
clause of its own in the template goes (``replaces`` / ``after`` a section) and lists the breaches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from conflictkit.bench.transform import move_section, one_sentence_per_line
from conflictkit.config import load_yaml
from conflictkit.model import Clause, Document
from conflictkit.playbook.load import Playbook, ResolvedPosition, apply_edits, section_clauses
from conflictkit.playbook.model import Replacement

StateKind = Literal["preferred", "fallback", "red-line", "breach", "removed"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Placement(_Strict):
    replaces: str | None = None
    after: str | None = None


class Breach(_Strict):
    why: Literal["rule", "deviation"]
    base: str = "preferred"
    edits: list[Replacement] = Field(min_length=1)


class DraftsSpec(_Strict):
    playbook: str
    placements: dict[str, Placement] = Field(default_factory=dict)
    breaches: dict[str, list[Breach]] = Field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> DraftsSpec:
        return cls.model_validate(load_yaml(path.read_text(encoding="utf-8")))


@dataclass(frozen=True)
class State:
    """What a draft does with one position, and the verdict a review must give it."""

    kind: StateKind
    label: str  # "preferred", "fallback 2", "red line 1", "breach 1 (rule)", "removed"
    text: str | None
    verdict: str
    fallback: int | None = None

    @property
    def expected(self) -> str:
        """The verdict class: standard, fallback N, not-acceptable, missing or absent."""
        return f"fallback {self.fallback}" if self.verdict == "fallback" else self.verdict


@dataclass
class Draft:
    name: str
    text: str
    states: dict[str, State] = field(default_factory=dict)


def position_states(position: ResolvedPosition, breaches: list[Breach]) -> list[State]:
    """Every state a draft may put ``position`` in, each with its expected verdict."""
    states = [State("preferred", "preferred", position.preferred.text, "standard")]
    states += [State("fallback", t.label, t.text, "fallback", t.rank) for t in position.accepted[1:]]
    states += [State("red-line", t.label, t.text, "not-acceptable") for t in position.red_texts]
    texts = {t.label: t.text for t in position.accepted}
    states += [State("breach", f"breach {n} ({b.why})", apply_edits(texts[b.base], b.edits), "not-acceptable")
               for n, b in enumerate(breaches, 1)]
    states.append(State("removed", "removed", None, "missing" if position.required else "absent"))
    return states


class _Site:
    """Where a position's text goes in the template's original text: a span to replace, or a point to insert at."""

    def __init__(self, start: int, end: int, indent: str, insert: bool) -> None:
        self.start, self.end, self.indent, self.insert = start, end, indent, insert


def draft_sites(playbook: Playbook, spec: DraftsSpec, template: Document, clauses: list[Clause]) -> dict[str, _Site]:
    """Each position's site: the hull of its template section (the one it cites, or its placement)."""
    sites = {}
    original = template.original
    for position in playbook.positions:
        placement = spec.placements.get(position.id)
        origin = position.preferred.origin
        if placement is None and not origin.startswith("template "):
            raise ValueError(f"position {position.id} cites no template clause: give it a placement in the drafts spec")
        section = (placement.replaces or placement.after) if placement else origin.removeprefix("template ")
        members = section_clauses(clauses, section or "")
        if not members:
            raise ValueError(f"the template has no clause {section}")
        start, end = members[0].span.start, max(c.span.end for c in members)
        line_start = original.rfind("\n", 0, start) + 1
        if placement is not None and placement.after:  # a new paragraph after the section, at its indentation
            line = original[line_start:start]
            sites[position.id] = _Site(end, end, line[: len(line) - len(line.lstrip())], insert=True)
        else:  # continuation lines at the column the clause starts at
            sites[position.id] = _Site(start, end, " " * (start - line_start), insert=False)
    return sites


def script_drafts(playbook: Playbook, spec: DraftsSpec, template: Document, clauses: list[Clause],
                  rounds: int = 2) -> list[Draft]:
    """Drafts in which every state of every position occurs ``rounds`` times, each next to other positions' states."""
    states = {p.id: position_states(p, spec.breaches.get(p.id, [])) for p in playbook.positions}
    sites = draft_sites(playbook, spec, template, clauses)
    most = max(len(s) for s in states.values())
    drafts = []
    for d in range(most * rounds):
        chosen = {pid: options[(d + k * (d // most + 1)) % len(options)]
                  for k, (pid, options) in enumerate(states.items())}
        drafts.append(Draft(f"draft-{d + 1:02d}", _write(template.original, sites, chosen), chosen))
    return drafts


def _write(original: str, sites: dict[str, _Site], chosen: dict[str, State], rewrite=None) -> str:
    text = original
    for pid in sorted(sites, key=lambda p: sites[p].start, reverse=True):
        site, state = sites[pid], chosen[pid]
        if state.text is None:
            if not site.insert:  # the clause's lines go, label and all
                line_start = text.rfind("\n", 0, site.start) + 1
                line_end = text.find("\n", site.end)
                text = text[:line_start] + text[line_end + 1 if line_end >= 0 else len(text):]
            continue
        body = rewrite(state.text) if rewrite else state.text
        body = body.replace("\n", "\n" + site.indent)  # continuation paragraphs stay inside the list item
        if site.insert:
            text = text[: site.end] + "\n\n" + site.indent + body + "\n" + text[site.end:]
        else:
            text = text[: site.start] + body + text[site.end:]
    return text


def variants(draft: Draft, template: Document, sites: dict[str, _Site]) -> dict[str, str]:
    """The draft's benign variants: its texts reworded, and reworded with a section moved and one sentence a line.

    (Renumbering is left out: renumbering a nested Markdown list so that it starts at 2 makes its first
    item part of the paragraph before it, which changes what the document says in CommonMark.)
    """
    reworded = _write(template.original, sites, draft.states, reword)
    moved = move_section(reworded) or reworded
    reformatted = one_sentence_per_line(moved) or moved
    return {"reworded": reworded, "reformatted": reformatted}


_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 10: "ten", 12: "twelve",
          14: "fourteen", 15: "fifteen", 20: "twenty", 24: "twenty-four", 30: "thirty", 45: "forty-five", 60: "sixty",
          75: "seventy-five", 90: "ninety", 120: "one hundred twenty"}
_NUMBERS = {w: n for n, w in _WORDS.items()}
_NUMBER_WORDS = "|".join(sorted(map(re.escape, _NUMBERS), key=len, reverse=True))
_PERIOD = re.compile(rf"\b(?:(?P<words>{_NUMBER_WORDS}) \((?P<digits>\d{{1,3}})\)|(?P<bare>\d{{1,3}})) (?P<unit>days|months)\b")


def _other_number_format(m: re.Match[str]) -> str:
    """"30 days" <-> "thirty (30) days": the same period written the other way (each match once)."""
    if m.group("bare") is not None:
        n = int(m.group("bare"))
        return f"{_WORDS[n]} ({n}) {m.group('unit')}" if n in _WORDS else m.group()
    return f"{m.group('digits')} {m.group('unit')}" if _NUMBERS.get(m.group("words")) == int(m.group("digits")) else m.group()


REWORDINGS: list[tuple[re.Pattern[str], object]] = [
    (_PERIOD, _other_number_format),
    (re.compile(r"\bwill\b(?! not\b)"), "shall"),  # the same duty
    (re.compile(r"(?<=\w)'(?=s\b)"), "\u2019"),  # typography
    (re.compile(r", and\b"), " and"),  # the serial comma
]


def reword(text: str) -> str:
    """``text`` said otherwise without changing what it says (see :data:`REWORDINGS`)."""
    for pattern, replacement in REWORDINGS:
        text = pattern.sub(replacement, text)
    return text
