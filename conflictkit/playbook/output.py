"""review.json (``conflictkit.playbook-review/1``): the models of a review, and the one place its JSON Schema comes from.

``conflictkit/report/schemas/playbook-review.schema.json`` is generated from :class:`ReviewDocument`
(``python -m conflictkit.playbook.schemas`` writes it; a test checks it is current). Quotes of the
playbook (``reference``) index ``playbook.md``, the playbook rendered as Markdown (its sha256 is
``playbook.rendered_sha256``); quotes of the input index the input file's text, as in report.json.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from conflictkit.model import Edit, Quote, Reason

from conflictkit.report.schemas import PLAYBOOK_REVIEW_SCHEMA as REVIEW_SCHEMA
Verdict = Literal["standard", "fallback", "not-acceptable", "missing", "absent"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TextMatch(_Strict):
    """The judge's verdict on the input passage against one text of the position."""

    text: str = Field(description="the text's label: 'preferred', 'fallback N' or 'red line N'")
    text_id: str = Field(description="'<position>/preferred', '<position>/fallback-N' or '<position>/red-line-N'")
    p_match: float = Field(ge=0, le=1, description="P(the input says what this text says) = P(same) x (1 - P(differs))")
    p_same: float = Field(ge=0, le=1)
    p_differs: float = Field(ge=0, le=1)
    p_conflict: float = Field(ge=0, le=1)
    judge: str = Field(description="the judge that decided ('identical': the same text, no judge asked)")


class RedLineHit(_Strict):
    """A red line the input passage hits: a rule it breaks, with the words that break it, or a red-line text it says."""

    red_line: str = Field(description="'red line N', numbered as in the playbook")
    rule: str | None = Field(None, description="the rule in words (null: a red-line text)")
    detail: str = Field(description="what breaks it, in words")
    p: float = Field(ge=0, le=1, description="1 for a broken rule (read, not judged); the red-line text's share of the verdict")
    input: Quote | None = Field(None, description="the input's words that break the rule (null: an absence, or a text)")


class PositionVerdict(_Strict):
    """The verdict on one position, with the quotes, probabilities and reasons behind it."""

    id: str = Field(description="the position's id in the playbook")
    subject: str
    title: str
    severity: Literal["high", "medium", "low"]
    required: bool = Field(description="false: an optional position, whose absence is accepted")
    verdict: Verdict = Field(description="standard: the input says what the preferred text says; fallback: what fallback N "
                             "says; not-acceptable: neither, or a red line is hit; missing: required and absent; absent: "
                             "optional and absent")
    fallback: int | None = Field(None, description="N for a fallback verdict, else null")
    label: str = Field(description="the verdict as people say it: 'standard', 'fallback 2', 'not acceptable', 'missing', 'absent'")
    p_verdict: float = Field(ge=0, le=1, description="the verdict's probability (missing/absent: 1 - best P(same matter))")
    probabilities: dict[str, float] = Field(description="every verdict's probability ('standard', 'fallback N', 'not acceptable')")
    p_same: float | None = Field(None, ge=0, le=1, description="P(the quoted input passage deals with this position's matter)")
    reference: Quote | None = Field(None, description="the playbook text the verdict is about (the one matched, or the nearest "
                                    "accepted one), in playbook.md")
    nearest: str | None = Field(None, description="that text's label")
    input: Quote | None = Field(None, description="the input passage for this position (null when missing or absent)")
    texts: list[TextMatch] = Field(default_factory=list, description="the passage judged against every text of the position")
    red_lines: list[RedLineHit] = Field(default_factory=list)
    reasons: list[Reason] = Field(default_factory=list, description="red lines hit, then the judge's reasons against the quoted text")
    edits: list[Edit] = Field(default_factory=list, description="the judge's edits against the quoted text (judges that judge edits)")
    redline: dict | None = Field(None, description="word-level ops from the quoted playbook text to the input passage, as in report.json")
    guidance: str | None = Field(None, description="the subject's and the position's guidance")
    judge: str | None = None
    grounded: bool = Field(False, description="every quote was checked against its document")


class UncoveredClause(_Strict):
    """An operative input clause no position covers."""

    id: str
    input: Quote
    p_same: float = Field(ge=0, le=1, description="its best P(same matter) with a position's text (0 when none was judged)")
    nearest_position: str | None = None
    definition: bool = False
    template: str | None = Field(None, description="the template clause it matches, one the playbook takes no position on "
                                 "(null: not in the template either)")
    p_template: float | None = Field(None, ge=0, le=1, description="P(same matter) with that template clause")
    grounded: bool = False


class PlaybookSummary(_Strict):
    path: str
    sha256: str
    title: str
    template: str | None
    positions: int
    template_clauses_without_position: int = Field(description="template clauses the review matched as context")
    notes: list[str] = Field(default_factory=list)
    rendered_sha256: str = Field(description="sha256 of playbook.md, the text playbook quotes index")


class ReviewSummary(_Strict):
    standard: int
    fallback: int
    not_acceptable: int = Field(alias="not-acceptable")
    missing: int
    absent: int
    uncovered: int
    uncovered_not_in_template: int | None = Field(description="of those, the ones no template clause matches either "
                                                  "(new matter; null without template context)")
    positions: int
    red_line_hits: int
    clauses: dict[str, int]
    filtered: int
    all_pairs: int
    candidate_pairs: int
    judged_pairs: int
    spans_checked: int

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ReviewDocument(_Strict):
    """review.json: a verdict per position of the playbook, and the input clauses no position covers."""

    schema_: Literal["conflictkit.playbook-review/1"] = Field(REVIEW_SCHEMA, alias="schema")
    playbook: PlaybookSummary
    input: dict = Field(description="the input document: path, sha256, clauses, filtered, source (as in report.json)")
    thresholds: dict[str, float]
    summary: ReviewSummary
    positions: list[PositionVerdict]
    uncovered: list[UncoveredClause]

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    def to_json(self) -> dict:
        return self.model_dump(mode="json", by_alias=True)


def review_json_schema() -> dict:
    """The JSON Schema (draft 2020-12) of review.json, generated from :class:`ReviewDocument`."""
    schema = ReviewDocument.model_json_schema(by_alias=True, mode="serialization")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:conflictkit:schema:playbook-review:1",
        "title": f"conflictkit review.json ({REVIEW_SCHEMA})",
        **{k: v for k, v in schema.items() if k != "title"},
    }
