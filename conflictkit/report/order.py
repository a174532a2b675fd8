"""The one order of findings every view lists them in: by severity (high, medium, low), then document order.

Kept apart from :mod:`conflictkit.report.severity` (the table that sets a severity) and light: a re-run
printed from the store, and ``--fail-on``, read it without importing pydantic or the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SEVERITIES = ("high", "medium", "low")
SORTS = ("severity", "document", "kind")
KIND_ORDER = ("deviation", "missing", "added", "moved")


def severity_rank(finding: dict) -> int:
    """0 for high, 1 medium, 2 low; 3 for a finding of a report made before severities."""
    severity = finding.get("severity")
    return SEVERITIES.index(severity) if severity in SEVERITIES else len(SEVERITIES)


def _number(finding: dict) -> int:
    digits = "".join(ch for ch in str(finding.get("id") or "") if ch.isdigit())
    return int(digits) if digits else 0


def ordered(findings: Sequence[dict], sort: str = "severity") -> list[dict]:
    """Findings in the order every view lists them: ``severity`` (high first, then document order),
    ``document`` (ids are given in document order) or ``kind`` (deviations, missing, added, moved)."""
    if sort not in SORTS:
        raise ValueError(f"unknown sort {sort!r}; use one of {', '.join(SORTS)}")
    keyed = list(enumerate(findings))
    if sort == "severity":
        keyed.sort(key=lambda item: (severity_rank(item[1]), _number(item[1]), item[0]))
    elif sort == "document":
        keyed.sort(key=lambda item: (_number(item[1]), item[0]))
    else:
        kinds = {k: n for n, k in enumerate(KIND_ORDER)}
        keyed.sort(key=lambda item: (kinds.get(item[1].get("kind"), len(kinds)), _number(item[1]), item[0]))
    return [f for _, f in keyed]


def severity_counts(findings: Iterable[dict]) -> dict[str, int]:
    """``{"high": 9, "medium": 11, "low": 4}``."""
    counts = dict.fromkeys(SEVERITIES, 0)
    for finding in findings:
        if finding.get("severity") in counts:
            counts[finding["severity"]] += 1
    return counts


def counts_phrase(findings: Sequence[dict]) -> str:
    """``9 high, 11 medium, 4 low`` (empty for a report made before severities)."""
    if not any(f.get("severity") for f in findings):
        return ""
    return ", ".join(f"{n} {s}" for s, n in severity_counts(findings).items())
