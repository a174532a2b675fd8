"""The summary line of a report: kept apart (and light) so that printing only it loads no view."""

from __future__ import annotations


def summary_line(report: dict) -> str:
    """``16 deviations, 4 missing, 4 added; 64 covered, ...``: the counts of a report in one line."""
    s = report["summary"]
    return (
        f"{s['deviation']} deviation{'s' * (s['deviation'] != 1)}, {s['missing']} missing, {s['added']} added"
        f"{f', {moved} moved' if (moved := s.get('moved')) else ''}; "
        f"{s['covered']} covered, {s['filtered']['reference'] + s['filtered']['input']} non-operative filtered; "
        f"{s['judged_pairs']} pairs judged of {s['all_pairs']} possible; {s['spans_checked']} spans grounded"
    )
