"""The playbook file format (YAML): subjects, positions, accepted texts, red lines, guidance.

A playbook states, per subject, the positions a negotiator holds: for each, the preferred text,
fallback texts the firm accepts (in order of preference), red lines it never accepts (texts, or
rules on what a clause says: "any duration below 12 months", "governing law other than
Delaware"), whether the clause is required, guidance and a severity. These pydantic models are the
format's one definition: the loader validates against them and the shipped JSON Schema
(``conflictkit/report/schemas/playbook.schema.json``) is generated from them.

A text is given literally, taken from the playbook's ``template`` by section number, or derived
from another text of its position by literal replacements, so a fallback reads as what it
changes ("sixty (60) days" instead of "thirty (30) days").
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from conflictkit.report.schemas import PLAYBOOK_SCHEMA
POSITION_ID = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$"
Severity = Literal["high", "medium", "low"]
SEVERITIES: tuple[str, ...] = ("high", "medium", "low")


class _Strict(BaseModel):
    # YAML reads "replace: 30" as a number: numbers where text is expected are taken as written
    model_config = ConfigDict(extra="forbid", populate_by_name=True, coerce_numbers_to_str=True)


class Replacement(_Strict):
    """One literal replacement: every occurrence of ``replace`` in the base text becomes ``with``."""

    replace: str = Field(min_length=1, description="words of the base text, as written there (each occurrence is replaced)")
    with_: str = Field("", alias="with", description="what replaces them (empty: they are deleted)")


class TextSpec(_Strict):
    """One text of a position: literal (``text``), a clause of the template (``clause``), or ``edits`` of another text."""

    text: str | None = Field(None, description="the text itself (Markdown or plain text)")
    clause: str | None = Field(None, description="the template's clause with this section number (e.g. '5.3'), with its sub-clauses")
    edits: list[Replacement] | None = Field(None, min_length=1, description="replacements applied, in order, to the text named by 'base'")
    base: str | None = Field(None, description="the text 'edits' apply to: 'preferred' (the default) or 'fallback N'")
    note: str | None = Field(None, description="why this text, for the negotiator (shown beside it)")

    @model_validator(mode="before")
    @classmethod
    def _string_is_text(cls, value: Any) -> Any:
        return {"text": value} if isinstance(value, str) else value

    SOURCES: ClassVar[tuple[str, ...]] = ("text", "clause", "edits")

    @model_validator(mode="after")
    def _one_source(self) -> TextSpec:
        given = [name for name in self.SOURCES if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of {', '.join(self.SOURCES)} (got {', '.join(given) or 'none'})")
        if self.base is not None and self.edits is None:
            raise ValueError("'base' names the text that 'edits' change: give edits with it")
        if self.text is not None and not self.text.strip():
            raise ValueError("the text is empty")
        return self


class Rule(_Strict):
    """A red line stated as a rule on what the input clause says (exactly one kind per rule)."""

    below: str | None = Field(None, description="any number of this kind below this quantity is a red line, e.g. '12 months', '$1,000,000', '10%'")
    above: str | None = Field(None, description="any number of this kind above this quantity is a red line")
    near: str | None = Field(None, description="with below/above: only numbers within a few words of these words (e.g. 'fees')")
    governing_law_other_than: list[str] | str | None = Field(None, min_length=1, description="a governing law other than these is a red line")
    venue_other_than: list[str] | str | None = Field(None, min_length=1, description="courts or a venue other than these is a red line")
    contains: list[str] | str | None = Field(None, min_length=1, description="any of these words in the clause is a red line")
    lacks: list[str] | str | None = Field(None, min_length=1, description="any of these words missing from the clause is a red line")

    @field_validator("contains", "lacks", "governing_law_other_than", "venue_other_than", mode="before")
    @classmethod
    def _one_is_a_list(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value

    @model_validator(mode="after")
    def _one_kind(self) -> Rule:
        kinds = [name for name in RULE_KINDS if getattr(self, name) is not None]
        if len(kinds) != 1:
            raise ValueError(f"a rule has exactly one of {', '.join(RULE_KINDS)} (got {', '.join(kinds) or 'none'})")
        if self.near is not None and kinds[0] not in ("below", "above"):
            raise ValueError("'near' narrows a below/above rule; it does nothing here")
        return self

    @property
    def kind(self) -> str:
        return next(name for name in RULE_KINDS if getattr(self, name) is not None)


RULE_KINDS = ("below", "above", "governing_law_other_than", "venue_other_than", "contains", "lacks")


class RedLine(TextSpec):
    """A red line: a text the firm never accepts (as a text spec), or a ``rule``."""

    SOURCES: ClassVar[tuple[str, ...]] = ("text", "clause", "edits", "rule")
    rule: Rule | None = Field(None, description="a red line stated as a rule instead of a text")


class Position(_Strict):
    """One position: the preferred text, accepted fallbacks in order, red lines, guidance, severity."""

    id: str = Field(pattern=POSITION_ID, description="unique id (letters, digits, '.', '_', '-'), used in reports and --fail-on output")
    title: str | None = Field(None, description="what the position is about (default: the template clause's heading)")
    severity: Severity = Field("medium", description="how much a deviation from this position matters: high, medium or low")
    missing: Literal["required", "optional"] = Field(
        "required", description="required: a draft without this clause is 'missing'; optional: its absence is accepted")
    preferred: TextSpec = Field(description="the text the firm proposes")
    fallbacks: list[TextSpec] = Field(default_factory=list, description="texts the firm also accepts, most preferred first")
    red_lines: list[RedLine] = Field(default_factory=list, description="texts and rules the firm never accepts")
    guidance: str | None = Field(None, description="what the negotiator should know or say")


class Subject(_Strict):
    """Positions on one subject (limitation of liability, termination...)."""

    subject: str = Field(min_length=1, description="the subject's name")
    guidance: str | None = Field(None, description="guidance for every position of the subject")
    positions: list[Position] = Field(min_length=1)


class PlaybookFile(_Strict):
    """A playbook as written in YAML."""

    version: Literal[1] = Field(1, description="the format version")
    title: str = Field(min_length=1, description="the playbook's name")
    template: str | None = Field(None, description="the template document texts may be taken from (a path relative to the playbook)")
    subjects: list[Subject] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> PlaybookFile:
        seen: set[str] = set()
        for subject in self.subjects:
            for position in subject.positions:
                if position.id in seen:
                    raise ValueError(f"position id {position.id!r} is used twice; ids must be unique")
                seen.add(position.id)
        return self


def playbook_json_schema() -> dict:
    """The JSON Schema (draft 2020-12) of the playbook format, generated from the models above."""
    schema = _strings_allowed(PlaybookFile.model_json_schema(by_alias=True))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:conflictkit:schema:playbook:1",
        "title": f"conflictkit playbook ({PLAYBOOK_SCHEMA})",
        **{k: v for k, v in schema.items() if k != "title"},
    }


def _strings_allowed(node: Any) -> Any:
    """A text or red line may be written as a bare string: the schema says so where the models'
    before-validators do it (a union in the models would double every error message)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref in ("#/$defs/TextSpec", "#/$defs/RedLine"):
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return {"anyOf": [{"type": "string", "minLength": 1, "description": "the text itself"}, {"$ref": ref}], **rest}
        return {k: _strings_allowed(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_strings_allowed(v) for v in node]
    return node
