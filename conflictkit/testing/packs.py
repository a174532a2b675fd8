"""The contract every language pack passes: its ``cases.jsonl``, judged by the legal-atoms judge.

A pack ships ``cases.jsonl`` beside its YAML files, one JSON object per line::

    {"family": "negation", "expect": "flag", "reason": "negation",
     "reference": "The Supplier shall deliver the Goods.", "input": "The Supplier shall not deliver the Goods."}
    {"family": "negation", "expect": "same",
     "reference": "The Supplier is not liable for delay.", "input": "The Supplier shall not be liable for delay."}

- ``family``: the rule family the case is about (a registered family's name);
- ``expect``: ``flag`` for a near miss that must be flagged (P(conflict) at or above ``threshold``,
  0.7 by default, and a reason of type ``reason`` when given), ``same`` for a pair with the same
  effect that must not be (P(conflict) below ``threshold``);
- ``reason`` (optional): the reason type a flagged pair must give; ``id``, ``note`` (optional).

Every built-in family needs at least one case, and every family that reports differences at least
one ``flag`` case; a family another package adds needs them in the packs that hold its words (its
table). :func:`check_pack` runs the contract and raises with one line per failure; any pack, built
in or third-party, calls it from its tests::

    from conflictkit.testing.packs import check_pack

    def test_the_pack_keeps_its_contract():
        check_pack("de")                      # a pack's code, or a LanguagePack
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from conflictkit.lexicon import LanguagePack, LexiconError, load

CASES_FILE = "cases.jsonl"


class Case(BaseModel):
    """One line of ``cases.jsonl``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    family: str = Field(description="the rule family the case is about")
    expect: Literal["flag", "same"] = Field(description="flag: a near miss that must be flagged; same: must not be")
    reference: str = Field(min_length=1)
    input: str = Field(min_length=1)
    reason: str | None = Field(None, description="the reason type a flagged pair must give")
    id: str | None = None
    note: str | None = None


@dataclass
class Outcome:
    """One case judged: whether it kept the contract, and what the judge said."""

    case: Case
    line: int
    p_conflict: float
    reasons: list[str]
    passed: bool

    def describe(self) -> str:
        said = ", ".join(self.reasons) or "no reason"
        want = f"flag ({self.case.reason})" if self.case.expect == "flag" and self.case.reason else self.case.expect
        return (f"line {self.line} [{self.case.family}] expected {want}, got P(conflict) {self.p_conflict:.2f} ({said}): "
                f"{self.case.reference!r} -> {self.case.input!r}")


@dataclass
class ContractReport:
    """A pack's contract run: every case's outcome, and the families its cases leave uncovered."""

    language: str
    outcomes: list[Outcome] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)

    @property
    def failures(self) -> list[str]:
        return [o.describe() for o in self.outcomes if not o.passed] + self.uncovered

    @property
    def passed(self) -> bool:
        return not self.failures


def read_cases(path: Path | str) -> list[tuple[int, Case]]:
    """The cases of a ``cases.jsonl`` with their line numbers; :class:`LexiconError` naming a bad line."""
    out = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            out.append((n, Case.model_validate(json.loads(line))))
        except (json.JSONDecodeError, ValidationError) as exc:
            problem = str(exc).splitlines()[0] if isinstance(exc, json.JSONDecodeError) else "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'line'}: {e['msg']}" for e in exc.errors())
            raise LexiconError(f"{path}:{n}: not a contract case ({problem})") from None
    return out


def run_cases(pack: LanguagePack | str, path: Path | str | None = None, threshold: float = 0.7) -> ContractReport:
    """Judge every case of the pack's ``cases.jsonl`` (or of ``path``) with the legal-atoms judge reading
    the pack, and check that the cases cover the families."""
    from conflictkit.judges.atoms import LegalAtomsJudge
    from conflictkit.judges.atoms.family import families
    from conflictkit.model import CandidatePair, Clause, Span

    pack = load(pack) if isinstance(pack, str) else pack
    path = Path(path) if path is not None else _cases_path(pack)
    cases = read_cases(path)
    judge = LegalAtomsJudge(language=pack)
    report = ContractReport(pack.language)
    for line, case in cases:
        ref = Clause(id="r1", text=case.reference, span=Span(start=0, end=len(case.reference)), order=0)
        inp = Clause(id="i1", text=case.input, span=Span(start=0, end=len(case.input)), order=0)
        j = judge.judge_clauses(CandidatePair(reference_id="r1", input_id="i1"), ref, inp)
        types = [r.type for r in j.reasons]
        flagged = j.p_conflict >= threshold
        passed = (flagged and (case.reason is None or case.reason in types)) if case.expect == "flag" else not flagged
        report.outcomes.append(Outcome(case, line, j.p_conflict, types, passed))
    report.uncovered = _uncovered(pack, [c for _, c in cases], families())
    return report


def _cases_path(pack: LanguagePack) -> Path:
    if pack.folder is None or not (pack.folder / CASES_FILE).is_file():
        raise LexiconError(f"language pack {pack.language!r} has no {CASES_FILE} (its contract: same-effect pairs that "
                           f"must not flag and near misses that must, one per family at least; see conflictkit.testing.packs)")
    return pack.folder / CASES_FILE


def _uncovered(pack: LanguagePack, cases: list[Case], found) -> list[str]:
    """The families a pack's cases must cover and do not, one line each."""
    from conflictkit.registry import get_registry

    registry = get_registry()
    known = {f.name for f in found}
    problems = [f"cases name the family {name!r}, which no plugin registers (known: {', '.join(sorted(known))})"
                for name in sorted({c.family for c in cases} - known)]
    for family in found:
        builtin = registry.family_package(family.name) == "conflictkit"
        if not builtin and (family.table is None or family.table not in pack.tables()):
            continue  # a family of another package is the contract of the packs that hold its words
        mine = [c for c in cases if c.family == family.name]
        if not mine:
            problems.append(f"no case for the family {family.name!r}")
        elif family.weights and not any(c.expect == "flag" for c in mine):
            problems.append(f"no near miss (expect: flag) for the family {family.name!r}")
    return problems


def check_pack(pack: LanguagePack | str, path: Path | str | None = None, threshold: float = 0.7) -> ContractReport:
    """Run the contract and raise ``AssertionError`` listing every failure, one per line; return the report."""
    report = run_cases(pack, path, threshold)
    if not report.passed:
        raise AssertionError(f"language pack {report.language!r} breaks its contract "
                             f"({len(report.failures)} of {len(report.outcomes)} cases or coverage):\n  "
                             + "\n  ".join(report.failures))
    return report


def derived_pack(root: Path | str, code: str, base: str = "en", changes: dict[str, dict] | None = None,
                 remove: tuple[str, ...] = ()) -> Path:
    """Write a pack ``code`` into ``root`` (a folder to put on ``$CONFLICTKIT_LEXICON_PATH``): a copy of
    the pack ``base`` with ``changes`` ({"words.negators": [...]} sets a key of a file, {"words": None}
    drops a file) and the files of ``remove`` left out. For tests of a mechanism (a negator added, a
    number grammar that compounds), never for a real language. Returns the pack's folder."""
    import shutil

    import yaml

    source = load(base).folder
    folder = Path(root) / code
    shutil.copytree(str(source), folder)
    for name in remove:
        (folder / name).unlink()
    for path, value in (changes or {}).items():
        file, _, key = path.partition(".")
        target = folder / f"{file}.yaml"
        if not key:
            if value is None:
                target.unlink()
            else:
                target.write_text(yaml.safe_dump(value, allow_unicode=True), encoding="utf-8")
            continue
        data = yaml.safe_load(target.read_text(encoding="utf-8"))
        data[key] = value
        target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return folder
