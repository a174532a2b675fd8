"""How much a finding matters: a severity (high, medium, low) from what changed and where, and the one order of findings.

The rules are data: a severity table per language (``lang/<code>/tables/severity.yaml``, an extra
table of the language pack, read through :meth:`conflictkit.lexicon.LanguagePack.table`), or the file a config names
(``severity: {table: FILE}``). A finding scores the points of its *change* (the class of its
substantive edits' kinds: a right or duty reversed, terms changed, a clause removed...) plus the
points of its clause's *subject* (liability and indemnity, payment and fees...: from the clause's
heading, else its sections' headings, else, under no heading at all, its text); the table's levels
turn the score into a severity, and the finding keeps the rule that set it (``severity_rule``).

Findings are numbered in document order (the input's order, a missing clause where it would stand)
and every view lists them by severity, then document order (:func:`conflictkit.report.order.ordered`), so an id names the
same finding in the terminal, report.md, report.json, the HTML report, the review app and Word.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from conflictkit.errors import ConfigError
from conflictkit.report.order import KIND_ORDER
from conflictkit.lexicon import AUTO, DEFAULT_LANGUAGE

SEVERITY_TABLE = "severity"
"""The pack table (``tables/severity.yaml``) that holds a language's severity table."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChangeClass(_Strict):
    """What changed: a class of change, the finding kinds or edit kinds it names, and its points."""

    name: str
    label: str
    points: int = Field(0, ge=0)
    severity: Literal["high", "medium", "low"] | None = None
    kinds: list[str] = Field(default_factory=list)
    findings: list[Literal["deviation", "missing", "added", "moved"]] = Field(default_factory=list)


class Subject(_Strict):
    """Where: a clause subject, the words of headings (and of text, for a clause under no heading) that name it."""

    name: str
    label: str
    points: int = Field(0, ge=0)
    headings: list[str] = Field(default_factory=list)
    text: list[str] = Field(default_factory=list)


class Levels(_Strict):
    high: int
    medium: int

    @model_validator(mode="after")
    def _ordered(self) -> Levels:
        if self.high < self.medium:
            raise ValueError(f"high ({self.high}) must be at least medium ({self.medium})")
        return self


class TableSpec(_Strict):
    """A severity table as written in YAML (see ``lang/en/tables/severity.yaml``)."""

    levels: Levels
    changes: list[ChangeClass]
    default_change: str
    subjects: list[Subject]
    default_subject: Subject

    @model_validator(mode="after")
    def _consistent(self) -> TableSpec:
        names = [c.name for c in self.changes]
        if self.default_change not in names:
            raise ValueError(f"default_change {self.default_change!r} names no class of changes ({', '.join(names)})")
        for label, seen in (("change class", names), ("subject", [s.name for s in self.subjects])):
            twice = sorted({n for n in seen if seen.count(n) > 1})
            if twice:
                raise ValueError(f"{label} {', '.join(twice)} given twice")
        return self


@dataclass(frozen=True)
class Assessment:
    """A finding's severity, its subject (None: no listed subject) and the rule that set it, in words."""

    severity: str
    subject: str | None
    rule: str

    def fields(self) -> dict[str, Any]:
        return {"severity": self.severity, "subject": self.subject, "severity_rule": self.rule}


def _words_pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern for whole words and phrases; a trailing ``*`` matches any ending of the last word."""
    parts = []
    for word in words:
        word = " ".join(word.split())
        if not word:
            continue
        tail = word.endswith("*")
        body = r"\s+".join(re.escape(w) for w in word.rstrip("*").split())
        parts.append(body + (r"\w*" if tail else r"\b"))
    if not parts:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(sorted(parts, key=len, reverse=True)) + ")", re.IGNORECASE)


class SeverityTable:
    """A severity table, compiled: :meth:`assess` gives a finding its severity and the rule that set it."""

    def __init__(self, spec: TableSpec, source: str) -> None:
        self.spec = spec
        self.source = source
        self.fingerprint = hashlib.sha256(json.dumps(spec.model_dump(mode="json"), sort_keys=True).encode()).hexdigest()[:16]
        self._by_kind: dict[str, ChangeClass] = {}
        self._by_finding: dict[str, ChangeClass] = {}
        for change in spec.changes:
            for kind in change.kinds:
                self._by_kind.setdefault(kind, change)
            for kind in change.findings:
                self._by_finding.setdefault(kind, change)
        self._default_change = next(c for c in spec.changes if c.name == spec.default_change)
        self._headings = [(s, _words_pattern(s.headings)) for s in spec.subjects]
        self._texts = [(s, _words_pattern(s.text)) for s in spec.subjects]

    @property
    def subjects(self) -> list[Subject]:
        """The listed subjects in the table's order (a portfolio's columns), then the default one."""
        return [*self.spec.subjects, self.spec.default_subject]

    def label(self, subject: str | None) -> str:
        return next((s.label for s in self.spec.subjects if s.name == subject), self.spec.default_subject.label)

    # -- what changed ---------------------------------------------------------------------------

    def change_of(self, kind: str, edit_kinds: Sequence[str] | None, reason_types: Sequence[str]) -> tuple[ChangeClass, str]:
        """The class of a finding's change and the kind that put it there.

        A missing, added or moved finding is its kind's class; a deviation the strongest class of its
        substantive edits' kinds (``edit_kinds``, None when its judge gave no edits), else of its
        reasons' types. A class with a fixed severity (a version stamp) counts only when nothing else changed.
        """
        if kind in self._by_finding and kind != "deviation":
            return self._by_finding[kind], kind
        kinds = [k for k in (edit_kinds if edit_kinds else reason_types) if k and k != "moved"]
        classes = [(self._by_kind.get(k, self._default_change), k) for k in kinds]
        ranked = [c for c in classes if c[0].severity is None] or classes
        if not ranked:
            return self._by_finding.get(kind, self._default_change), kind
        return max(ranked, key=lambda c: c[0].points)

    # -- where ----------------------------------------------------------------------------------

    def subject_of(self, headings: Sequence[Sequence[str]], texts: Sequence[str]) -> tuple[Subject, str]:
        """The subject of a finding's clauses and what named it (``'Limitation of Liability'``, ``its text``).

        ``headings``: per side (input first), the clause's heading then its sections', nearest first.
        """
        for side in headings:
            for heading in side:
                for subject, pattern in self._headings:
                    if pattern is not None and pattern.search(heading):
                        return subject, f"'{heading}'"
        if not any(side for side in headings):
            counts = [(sum(len(p.findall(t)) for t in texts), -n, s) for n, (s, p) in enumerate(self._texts) if p is not None]
            best = max(counts, default=None, key=lambda c: c[:2])
            if best is not None and best[0] > 0:
                return best[2], "its text"
        return self.spec.default_subject, ""

    # -- both -----------------------------------------------------------------------------------

    def assess(self, kind: str, edit_kinds: Sequence[str] | None, reason_types: Sequence[str],
               headings: Sequence[Sequence[str]], texts: Sequence[str]) -> Assessment:
        change, why = self.change_of(kind, edit_kinds, reason_types)
        subject, named = self.subject_of(headings, texts)
        listed = subject is not self.spec.default_subject
        where = f"{subject.label}" + (f" ({named})" if named else "")
        what = f"{change.label} ({why})" if why and why not in KIND_ORDER else change.label
        if change.severity is not None:
            return Assessment(change.severity, subject.name if listed else None,
                              f"{what} in {where}: {change.severity} whatever the subject")
        score = change.points + subject.points
        levels = self.spec.levels
        severity = "high" if score >= levels.high else "medium" if score >= levels.medium else "low"
        bound = f"high from {levels.high}" if severity == "high" else \
            f"medium from {levels.medium}" if severity == "medium" else f"low below {levels.medium}"
        rule = f"{what} in {where}: {change.points} + {subject.points} = {score} points ({bound})"
        return Assessment(severity, subject.name if listed else None, rule)

    def describe(self) -> dict[str, Any]:
        """What a report keeps of the table: where it came from, its fingerprint, levels and subjects' labels."""
        return {"table": self.source, "fingerprint": self.fingerprint, "levels": self.spec.levels.model_dump(),
                "subjects": {s.name: s.label for s in self.subjects}}


def _problems(exc: ValidationError) -> list[str]:
    return [f"{'.'.join(str(p) for p in err['loc']) or '(top level)'}: {err['msg']}" for err in exc.errors()]


def table_from_data(data: Any, source: str) -> SeverityTable:
    """A table from parsed YAML; one ConfigError listing every problem with its path."""
    try:
        return SeverityTable(TableSpec.model_validate(data), source)
    except ValidationError as exc:
        problems = _problems(exc)
        raise ConfigError(f"severity table {source} ({len(problems)} problem{'s' * (len(problems) != 1)}): "
                          + "; ".join(problems), problems) from None


@lru_cache(maxsize=16)
def _table_file(path: str, stamp: tuple[int, int]) -> SeverityTable:
    from conflictkit.config import load_yaml

    try:
        data = load_yaml(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the severity table {path}: {exc}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"severity table {path} is not valid YAML: {str(exc).splitlines()[0]}") from None
    return table_from_data(data, path)


def load_table(path: str | None = None, language: str = DEFAULT_LANGUAGE) -> SeverityTable:
    """The severity table of a config: the file ``path`` when given, else the language's
    ``tables/severity.yaml`` (English's when the language has none)."""
    if path:
        file = Path(path).expanduser()
        try:
            stat = file.stat()
        except OSError:
            raise ConfigError(f"severity.table {path} does not exist; give a YAML file shaped like "
                              "conflictkit/judges/atoms/lang/en/tables/severity.yaml") from None
        return _table_file(str(file), (stat.st_mtime_ns, stat.st_size))
    return _language_table(language)


def _language_table(language: str) -> SeverityTable:
    from conflictkit.lexicon import load

    pack = load(language)
    if SEVERITY_TABLE not in pack.tables() and language != DEFAULT_LANGUAGE:
        return _language_table(DEFAULT_LANGUAGE)
    # kept on the pack, so a pack read anew (another $CONFLICTKIT_LEXICON_PATH) brings its own table
    return pack.memo("severity-table", lambda: table_from_data(
        pack.table(SEVERITY_TABLE), f"lang/{language}/tables/{SEVERITY_TABLE}.yaml"))


def table_of_config(config, language: str | None = None) -> SeverityTable:
    """The table a :class:`~conflictkit.config.Config` ranks with: its ``severity.table``, else the table of
    ``language`` (the comparison's), else of the config's ``language`` (English's when that is ``auto``)."""
    if language is None:
        language = config.language if config.language != AUTO else DEFAULT_LANGUAGE
    return load_table(config.severity.table, language)
