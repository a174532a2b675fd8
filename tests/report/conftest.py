"""Report fixtures built from texts, so the HTML view is tested without running the engine."""

from __future__ import annotations

import pytest


def make_report(reference: str, input: str, cites: list[tuple[str, str | None, str | None, list[dict]]]) -> dict:
    """A ``conflictkit.report/1`` dict citing the given substrings (their first occurrence)."""

    def quote(text: str, part: str | None, n: int) -> dict | None:
        if part is None:
            return None
        start = text.index(part)
        return {"start": start, "end": start + len(part), "text": part, "heading": None,
                "section": f"{n}", "clause_id": f"c{n}"}

    findings = []
    for n, (kind, ref, inp, reasons) in enumerate(cites, 1):
        findings.append({
            "id": f"F{n:04d}", "kind": kind, "p_conflict": round(0.5 + n / 100, 4), "p_same": 0.8,
            "reference": quote(reference, ref, n), "input": quote(input, inp, n),
            "reasons": reasons, "judge": "legal-atoms", "grounded": True,
        })
    counts = {k: sum(1 for f in findings if f["kind"] == k) for k in ("deviation", "missing", "added")}
    return {
        "schema": "conflictkit.report/1",
        "reference": {"path": "reference.md", "sha256": "0" * 64, "clauses": 3, "filtered": 0},
        "input": {"path": "input.md", "sha256": "1" * 64, "clauses": 3, "filtered": 0},
        "findings": findings,
        "summary": {**counts, "covered": 1, "filtered": 0, "candidate_pairs": 3, "judged_pairs": 3, "spans_checked": 4},
    }


REFERENCE = """# Agreement

1. Payment. Customer shall pay each invoice within thirty (30) days of receipt.

2. Liability. Provider shall not be liable for indirect damages.

3. Audit. Customer may audit Provider once per year on prior written notice.
"""

INPUT = """# Agreement

1. Payment. Customer shall pay each invoice within sixty (60) days of receipt.

2. Liability. Provider shall be liable for indirect damages.

4. Publicity. Provider may name Customer in its marketing.
"""


@pytest.fixture
def small_report() -> tuple[dict, str, str]:
    cites = [
        ("deviation", "Customer shall pay each invoice within thirty (30) days of receipt.",
         "Customer shall pay each invoice within sixty (60) days of receipt.",
         [{"type": "number", "reference": "thirty (30) days", "input": "sixty (60) days", "detail": None}]),
        ("deviation", "Provider shall not be liable for indirect damages.", "Provider shall be liable for indirect damages.",
         [{"type": "negation", "reference": "shall not", "input": "shall", "detail": "negation dropped"}]),
        ("missing", "Customer may audit Provider once per year on prior written notice.", None, []),
        ("added", None, "Provider may name Customer in its marketing.", []),
    ]
    return make_report(REFERENCE, INPUT, cites), REFERENCE, INPUT
