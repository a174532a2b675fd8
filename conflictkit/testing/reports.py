"""Build ``conflictkit.report/1`` dicts from two texts, for tests of report writers and viewers.

A writer test needs a report whose spans are right without running a pipeline: cite substrings,
and :func:`make_report` computes their offsets (first occurrence) and the summary counts.
"""

from __future__ import annotations

import hashlib

from conflictkit.report import REPORT_SCHEMA

Cite = tuple[str, "str | None", "str | None", list[dict]]
"""``(kind, reference substring or None, input substring or None, reasons)``."""


def _quote(text: str, part: str | None, n: int) -> dict | None:
    if part is None:
        return None
    start = text.index(part)  # a ValueError here means the test cites text that is not there
    return {"start": start, "end": start + len(part), "text": part, "heading": None, "section": str(n), "clause_id": f"c{n}"}


def make_report(reference: str, input: str, cites: list[Cite], reference_name: str = "reference.md",
                input_name: str = "input.md") -> dict:
    """A report citing each ``cites`` entry as one finding, ids ``F0001``..., P(conflict) rising with n."""
    findings = [
        {
            "id": f"F{n:04d}", "kind": kind, "p_conflict": round(0.5 + n / 100, 4), "p_same": 0.8,
            "reference": _quote(reference, ref, n), "input": _quote(input, inp, n),
            "reasons": reasons, "judge": "fixed", "grounded": True,
        }
        for n, (kind, ref, inp, reasons) in enumerate(cites, 1)
    ]
    counts = {k: sum(1 for f in findings if f["kind"] == k) for k in ("deviation", "missing", "added")}
    clauses = {"reference": len(cites), "input": len(cites)}
    return {
        "schema": REPORT_SCHEMA,
        "reference": {"path": reference_name, "sha256": hashlib.sha256(reference.encode()).hexdigest(),
                      "clauses": clauses["reference"], "filtered": 0},
        "input": {"path": input_name, "sha256": hashlib.sha256(input.encode()).hexdigest(),
                  "clauses": clauses["input"], "filtered": 0},
        "thresholds": {"same_matter": 0.3, "conflict": 0.7},
        "findings": findings,
        "summary": {**counts, "covered": 0, "filtered": {"reference": 0, "input": 0}, "clauses": clauses,
                    "all_pairs": clauses["reference"] * clauses["input"], "candidate_pairs": 0, "judged_pairs": 0,
                    "spans_checked": sum((f["reference"] is not None) + (f["input"] is not None) for f in findings)},
    }
