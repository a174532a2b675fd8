"""Scope words: exclusive, worldwide, perpetual, irrevocable, transferable, including / excluding, all / some."""

from __future__ import annotations

from conflictkit.judges.atoms.words import phrase_family

FAMILY = phrase_family(
    "scope", atoms="scope", claims=72, compares=82,
    weights={
        "scope": (0.9, "exclusive <-> non-exclusive, worldwide <-> a country, revocable <-> irrevocable..."),
        "scope_presence": (0.85, "a scope word (perpetual, irrevocable, exclusive...) on one side only"),
        "scope_minor": (0.3, "including / excluding on one side only"),
        "quantity": (0.8, "all <-> some"),
    },
    topic_groups=frozenset({("scope", "exclusivity"), ("scope", "transfer"), ("scope", "sublicense"),
                            ("scope", "revocability"), ("scope", "royalty"), ("scope", "refund")}),
)
