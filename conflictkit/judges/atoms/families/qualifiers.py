"""Qualifiers: prior, written, reasonable, material, sole discretion, gross negligence, efforts
standards, who bears a cost ("at the Buyer's expense"), damages heads."""

from __future__ import annotations

from conflictkit.judges.atoms.words import expense_payers, phrase_family

FAMILY = phrase_family(
    "qualifiers", atoms="qualifier", claims=70, compares=80, prepare=expense_payers,
    weights={
        "qualifier": (0.8, "prior, written, reasonable, material, sole discretion, gross negligence..."),
        "qualifier_minor": (0.35, "promptly, immediately, good faith, mutual"),
    },
    topic_groups=frozenset({("qualifier", "fault"), ("qualifier", "damages"), ("qualifier", "efforts"),
                            ("qualifier", "discretion"), ("qualifier", "consent_standard")}),
)
