"""Reading a playbook: YAML -> validated format -> every position with its texts resolved and checked.

Every problem is collected and reported at once, each with its YAML path, like a bad config:
format errors, a clause the template does not have, an edit whose words are not in its base text,
two accepted texts that say the same, a rule that cannot be read, an accepted text that breaks
its own position's red line.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import yaml
from pydantic import ValidationError

from conflictkit.config import format_errors, joined_problems
from conflictkit.configfile import load_yaml, yaml_problem
from conflictkit.errors import UserError
from conflictkit.model import Clause, Document
from conflictkit.normalize import flat
from conflictkit.playbook.model import PlaybookFile, Position, RedLine, Replacement, TextSpec
from conflictkit.playbook.rules import CompiledRule, Reading, RuleError

Role = Literal["preferred", "fallback", "red-line"]
Segment = Callable[[Document], list[Clause]]
"""A document's clauses as the engine segments and filters them (``Engine.clauses``)."""
MAX_PLAYBOOK_BYTES = 5_000_000


class PlaybookError(UserError):
    """A playbook that cannot be read or used; the message lists every problem with its YAML path."""


@dataclass(frozen=True)
class PositionText:
    """One text of a position. ``id`` is ``<position>/preferred``, ``/fallback-N`` or ``/red-line-N``."""

    id: str
    label: str  # "preferred", "fallback 2", "red line 1"
    role: Role
    rank: int  # 0 for the preferred text; N for fallback N and red line N
    text: str
    note: str | None = None
    origin: str = "written"  # "written", "template 5.3", "preferred, 1 edit"


@dataclass(frozen=True)
class RedLineRule:
    """A red line stated as a rule, numbered among the position's red lines."""

    id: str
    label: str  # "red line N"
    rank: int  # N
    rule: CompiledRule
    note: str | None = None


@dataclass(frozen=True)
class ResolvedPosition:
    """A position with its texts resolved: accepted ones (preferred first), red-line texts and rules."""

    id: str
    subject: str
    title: str
    severity: str
    required: bool
    guidance: str | None
    accepted: tuple[PositionText, ...]
    red_texts: tuple[PositionText, ...] = ()
    rules: tuple[RedLineRule, ...] = ()

    @property
    def preferred(self) -> PositionText:
        return self.accepted[0]

    @property
    def texts(self) -> tuple[PositionText, ...]:
        """Every text of the position: accepted ones, then red-line texts."""
        return self.accepted + self.red_texts


@dataclass(frozen=True)
class Playbook:
    """A loaded playbook: its positions in the order written, grouped by subject."""

    path: str
    sha256: str
    title: str
    template: str | None
    positions: tuple[ResolvedPosition, ...]
    subject_guidance: dict[str, str] = field(default_factory=dict)
    template_document: Document | None = None
    template_clauses: tuple[Clause, ...] = ()
    """The template and its clauses, when it could be read: a review matches the ones no position stands
    for, so that the other party's indemnity is never taken for ours (empty: no template, or not readable here)."""
    notes: tuple[str, ...] = ()

    def position(self, position_id: str) -> ResolvedPosition:
        return next(p for p in self.positions if p.id == position_id)

    @property
    def subjects(self) -> list[str]:
        return list(dict.fromkeys(p.subject for p in self.positions))


def load_playbook(path: str | Path, segment: Segment | None = None, *, templates: bool = True) -> Playbook:
    """Read and check a playbook file; ``segment`` reads its template's clauses (needed when texts cite them).

    ``templates=False`` refuses texts taken from a template file (an uploaded playbook names no file
    on this machine), saying how to make the playbook self-contained.
    """
    file = Path(path)
    if not file.is_file():
        raise PlaybookError(f"playbook {path} {'is a directory' if file.is_dir() else 'does not exist'}; give a YAML file")
    data = file.read_bytes()
    if len(data) > MAX_PLAYBOOK_BYTES:
        raise PlaybookError(f"playbook {path} is over {MAX_PLAYBOOK_BYTES // 1_000_000} MB; a playbook holds clauses, not documents")
    return playbook_from_bytes(data, str(path), file.resolve().parent if templates else None, segment)


def playbook_from_bytes(data: bytes, name: str, base_dir: Path | None, segment: Segment | None) -> Playbook:
    """Check a playbook given as bytes; its template is looked up relative to ``base_dir`` (None: refused)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PlaybookError(f"playbook {name} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None
    try:
        raw = load_yaml(text)
    except yaml.YAMLError as exc:
        raise PlaybookError(f"playbook {name} is not valid YAML{yaml_problem(exc)}") from None
    if not isinstance(raw, dict):
        raise PlaybookError(f"playbook {name}: the top level must be a mapping (title, subjects), not {type(raw).__name__}")
    try:
        spec = PlaybookFile.model_validate(raw)
    except ValidationError as exc:
        raise PlaybookError(joined_problems(name, format_errors(exc), "playbook")) from None
    resolver = _Resolver(spec, name, base_dir, segment)
    positions = tuple(resolver.positions())
    template, notes = resolver.template_for_context()
    playbook = Playbook(
        path=name, sha256=hashlib.sha256(data).hexdigest(), title=spec.title, template=spec.template,
        positions=positions, subject_guidance={s.subject: s.guidance for s in spec.subjects if s.guidance},
        template_document=resolver.template_document if template else None, template_clauses=tuple(template),
        notes=tuple(notes),
    )
    if resolver.problems:
        raise PlaybookError(joined_problems(name, resolver.problems, "playbook"))
    return playbook


class _Resolver:
    """Resolves every text of every position, collecting problems with their YAML paths."""

    def __init__(self, spec: PlaybookFile, name: str, base_dir: Path | None, segment: Segment | None) -> None:
        self.spec, self.name, self.base_dir, self.segment = spec, name, base_dir, segment
        self.problems: list[str] = []
        self._template: list[Clause] | None = None
        self.template_document: Document | None = None

    def positions(self) -> list[ResolvedPosition]:
        out = []
        for s, subject in enumerate(self.spec.subjects):
            for p, position in enumerate(subject.positions):
                resolved = self._position(position, subject.subject, f"subjects.{s}.positions.{p}")
                if resolved is not None:
                    out.append(resolved)
        return out

    def _position(self, position: Position, subject: str, path: str) -> ResolvedPosition | None:
        texts: dict[str, str] = {}  # label -> text, for edits' bases
        accepted: list[PositionText] = []
        for rank, spec in enumerate([position.preferred, *position.fallbacks]):
            label = "preferred" if rank == 0 else f"fallback {rank}"
            where = f"{path}.preferred" if rank == 0 else f"{path}.fallbacks.{rank - 1}"
            resolved = self._text(position, spec, label, "preferred" if rank == 0 else "fallback", rank, texts, where)
            if resolved is not None:
                texts[label] = resolved.text
                accepted.append(resolved)
        red_texts, rules = [], []
        for n, red in enumerate(position.red_lines, 1):
            where, label = f"{path}.red_lines.{n - 1}", f"red line {n}"
            if red.rule is not None:
                try:
                    rules.append(RedLineRule(f"{position.id}/red-line-{n}", label, n, CompiledRule(red.rule), red.note))
                except RuleError as exc:
                    self.problems.append(f"{where}.rule: {exc}")
                continue
            resolved = self._text(position, red, label, "red-line", n, texts, where)
            if resolved is not None:
                red_texts.append(resolved)
        if not accepted or accepted[0].role != "preferred":
            return None
        self._check_distinct(accepted + red_texts, path)
        self._check_rules(accepted, rules, path)
        title = position.title or self._default_title(position, accepted[0])
        return ResolvedPosition(
            id=position.id, subject=subject, title=title, severity=position.severity,
            required=position.missing == "required", guidance=position.guidance,
            accepted=tuple(accepted), red_texts=tuple(red_texts), rules=tuple(rules),
        )

    def _text(self, position: Position, spec: TextSpec | RedLine, label: str, role: Role, rank: int,
              texts: dict[str, str], where: str) -> PositionText | None:
        text_id = f"{position.id}/{label.replace(' ', '-')}"
        if spec.text is not None:
            return PositionText(text_id, label, role, rank, spec.text.strip(), spec.note)
        if spec.clause is not None:
            text = self._template_text(spec.clause, f"{where}.clause")
            return None if text is None else PositionText(text_id, label, role, rank, text, spec.note, f"template {spec.clause}")
        base = spec.base or "preferred"
        if base not in texts:
            known = ", ".join(texts) or "none yet"
            self.problems.append(f"{where}.base: '{base}' is not a text given before this one (texts so far: {known})")
            return None
        text = self._edited(texts[base], spec.edits or [], f"{where}.edits")
        if text is None:
            return None
        count = len(spec.edits or [])
        return PositionText(text_id, label, role, rank, text, spec.note, f"{base}, {count} edit{'s' * (count != 1)}")

    def _edited(self, base: str, edits: list[Replacement], where: str) -> str | None:
        try:
            return apply_edits(base, edits)
        except EditError as exc:
            self.problems.append(f"{where}{exc.where}: {exc}")
            return None

    def template_for_context(self) -> tuple[list[Clause], list[str]]:
        """The template's clauses for a review's context (read now if no text cited it), and a note when it cannot be read."""
        if self._template is not None or self.spec.template is None:
            return self._template or [], []
        if self.base_dir is None or self.segment is None:
            return [], [f"the template {self.spec.template} is not read here: input clauses are matched with the positions only"]
        try:
            self._read_template(self.base_dir / self.spec.template)
        except UserError as exc:
            return [], [f"the template cannot be read ({exc}): input clauses are matched with the positions only"]
        return self._template or [], []

    def _read_template(self, path: Path) -> None:
        from conflictkit.loaders import read_document

        self.template_document = read_document(path)
        self._template = self.segment(self.template_document)

    def _template_clauses(self, where: str) -> list[Clause] | None:
        if self._template is not None:
            return self._template
        if self.spec.template is None:
            self.problems.append(f"{where}: the playbook names no template to take clauses from (add 'template: FILE')")
            return None
        if self.base_dir is None:
            self.problems.append(f"{where}: this playbook takes texts from its template file, which cannot be read here; "
                                 "write the texts into it ('conflictkit playbook show P.yaml --format yaml' does)")
            return None
        if self.segment is None:
            raise PlaybookError("a playbook that cites its template needs a segmenter to read it (a bug: please report it)")
        try:
            self._read_template(self.base_dir / self.spec.template)
        except UserError as exc:
            raise PlaybookError(f"playbook {self.name}: template: {exc}") from None
        return self._template

    def _template_text(self, section: str, where: str) -> str | None:
        clauses = self._template_clauses(where)
        if clauses is None:
            return None
        text = template_text(clauses, section)
        if text is None:
            numbered = [c.section for c in clauses if c.section and c.operative]
            hint = f" (its clauses run {numbered[0]} to {numbered[-1]})" if numbered else ""
            self.problems.append(f"{where}: the template has no operative clause {section}{hint}")
        return text

    def _default_title(self, position: Position, preferred: PositionText) -> str:
        if position.preferred.clause is not None and self._template:
            clause = next((c for c in self._template if c.section == position.preferred.clause), None)
            if clause is not None and clause.heading:
                return clause.heading
        words = preferred.text.split()
        return " ".join(words[:8]) + (" …" if len(words) > 8 else "")

    def _check_distinct(self, texts: list[PositionText], path: str) -> None:
        seen: dict[str, str] = {}
        for t in texts:
            key = flat(t.text).casefold()
            if key in seen:
                self.problems.append(f"{path}: {t.label} is the same text as {seen[key]}; each text must say something else")
            seen.setdefault(key, t.label)

    def _check_rules(self, accepted: list[PositionText], rules: list[RedLineRule], path: str) -> None:
        for text in accepted:
            reading = Reading.of(text.text, 0, len(text.text))
            for rule in rules:
                hits = rule.rule.check(reading)
                if hits:
                    self.problems.append(f"{path}: the {text.label} text breaks its own {rule.label} "
                                         f"({rule.rule.describe()}: {hits[0].detail}); an accepted text cannot be a red line")


class EditError(ValueError):
    """Edits that cannot be applied; ``where`` is the YAML path below the edits (``.0.replace``)."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.where = where


def apply_edits(base: str, edits: list[Replacement]) -> str:
    """``base`` with each replacement applied in order (every occurrence); EditError when words are absent or nothing changes."""
    text = base
    for k, edit in enumerate(edits):
        if edit.replace not in text and flat(edit.replace) in flat(text):
            text = flat(text)  # the words are there, written with other typography (quotes, line breaks)
        if edit.replace not in text:
            raise EditError(f"'{_short(edit.replace)}' is not in the text it edits; quote its words exactly", f".{k}.replace")
        text = text.replace(edit.replace, edit.with_)
    if flat(text) == flat(base):
        raise EditError("the edits leave the text as it was")
    return text


def section_clauses(clauses: list[Clause], section: str) -> list[Clause]:
    """The clause numbered ``section`` and every clause under it, in order (empty when there is none)."""
    top = next((c for c in clauses if c.section == section), None)
    if top is None:
        return []
    ids, out = {top.id}, [top]
    for clause in clauses[clauses.index(top) + 1:]:
        if clause.parent not in ids and clause.section != section:
            break
        ids.add(clause.id)
        out.append(clause)
    return out


def template_text(clauses: list[Clause], section: str) -> str | None:
    """The text of the template's clause ``section`` and its sub-clauses (each labelled), or None when it has none.

    A section that is only a heading gives its sub-clauses' texts.
    """
    parts = []
    for clause in section_clauses(clauses, section):
        if clause.operative:
            label = _sub_label(clause.section, section)
            parts.append(f"{label} {clause.text}" if label else clause.text)
    return "\n\n".join(parts) or None


def _sub_label(section: str | None, parent: str) -> str:
    """``(a)`` for clause 5.3(a) under 5.3: the label that tells sub-clauses apart once joined."""
    if not section or section == parent or not section.startswith(parent):
        return ""
    return section[len(parent):].lstrip(".")


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
