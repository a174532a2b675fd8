"""Exceptions and conditions: unless / except / other than / subject to / provided that / only."""

from __future__ import annotations

from conflictkit.judges.atoms.words import phrase_family

FAMILY = phrase_family(
    "exceptions", atoms="exception", claims=71, compares=81,
    weights={"exception": (0.78, "unless / except / subject to / provided that / only on one side")},
)
