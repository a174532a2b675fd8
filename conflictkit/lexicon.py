"""Word lists of legal drafting that carry meaning, shared by the judges and grounding.

These are the tokens that typographic normalization must never touch and that a redline marks
as meaning-reversing or meaning-shifting when they change.
"""

from __future__ import annotations

NEGATORS = frozenset({"not", "no", "never", "neither", "nor", "without", "none", "nothing", "nobody", "cannot", "n't"})
"""Tokens that negate what follows. ("cannot" is "can not"; "n't" covers "won't", "shan't"...)"""

MODALS_OBLIGATION = frozenset({"shall", "must", "will", "agrees", "agree", "undertakes", "required", "obligated"})
MODALS_PERMISSION = frozenset({"may", "can", "might", "could", "entitled", "permitted"})
MODALS_RECOMMENDATION = frozenset({"should", "would", "endeavour", "endeavor", "efforts"})
MODALS = MODALS_OBLIGATION | MODALS_PERMISSION | MODALS_RECOMMENDATION

EXCEPTIONS = frozenset({"except", "unless", "only", "excluding", "notwithstanding", "save", "other", "than"})
CONDITIONS = frozenset({"if", "provided", "subject", "conditional", "contingent", "until", "upon", "when", "where"})
EXCEPTION_PHRASES = ("subject to", "provided that", "provided, however", "except as", "except that", "other than",
                     "save as", "unless otherwise", "to the extent", "only if", "if and only if", "in no event")

QUANTIFIERS = frozenset({"any", "all", "each", "every", "some", "either", "both", "sole", "solely", "exclusive",
                         "exclusively", "entire", "whole"})
SCOPE_WORDS = frozenset({"exclusive", "non-exclusive", "nonexclusive", "worldwide", "perpetual", "irrevocable",
                         "revocable", "transferable", "non-transferable", "sublicensable", "non-sublicensable",
                         "royalty-free", "fully", "paid-up", "including", "excluding", "limited", "unlimited"})
QUALIFIERS = frozenset({"reasonable", "reasonably", "prior", "written", "material", "materially", "promptly",
                        "immediately", "sole", "absolute", "discretion", "good", "faith", "best", "commercially",
                        "substantially", "gross", "negligence", "wilful", "willful", "misconduct", "unreasonably",
                        "withheld", "delayed", "conditioned", "mutual", "mutually", "jointly", "severally"})

REVERSING = NEGATORS | EXCEPTIONS | CONDITIONS | MODALS | QUANTIFIERS
"""Tokens whose change can reverse or shift a clause's meaning (numbers are detected separately)."""
