"""Synthetic documents of N one-line clauses, and an edited version of each, for scaling runs.

Clauses are numbered lines built from a legal vocabulary (parties, obligations, objects,
durations, amounts, places), so neighbouring clauses share words the way real agreements do and
retrieval has real work to do. The edited version changes numbers, drops a "not", deletes,
inserts and rewords a few percent of the clauses, like a negotiated draft.
"""

from __future__ import annotations

import random

PARTIES = ["the Supplier", "the Customer", "the Provider", "the Licensee", "the Licensor", "each party", "the Contractor", "the Client"]
MODALS = ["shall", "may", "shall not", "must", "will"]
ACTIONS = ["deliver", "provide", "maintain", "pay for", "indemnify the other party against", "notify the other party of",
           "keep confidential", "insure", "retain records of", "return or destroy", "audit", "support", "repair", "replace"]
OBJECTS = ["the Goods", "the Services", "all Confidential Information", "the Deliverables", "the Software", "any Personal Data",
           "the Fees", "the Equipment", "the Documentation", "all invoices", "the Premises", "any Subcontractor work"]
CONDITIONS = ["within {n} days of each order", "no later than {n} business days after notice", "for a period of {n} months",
              "up to a cap of ${amount}", "at its own cost", "unless otherwise agreed in writing", "in accordance with the laws of {place}",
              "with prior written consent", "on a worldwide basis", "except as required by law", "at least {n} days in advance"]
PLACES = ["Delaware", "England and Wales", "New York", "Ontario", "Ireland", "California", "Singapore", "Germany"]


def clause(rng: random.Random, number: int) -> str:
    condition = rng.choice(CONDITIONS).format(n=rng.randint(2, 120), amount=f"{rng.randint(1, 900) * 1000:,}", place=rng.choice(PLACES))
    party = rng.choice(PARTIES)
    text = f"{party[0].upper()}{party[1:]} {rng.choice(MODALS)} {rng.choice(ACTIONS)} {rng.choice(OBJECTS)} {condition}"
    if rng.random() < 0.4:
        text += f" and {rng.choice(MODALS)} {rng.choice(ACTIONS)} {rng.choice(OBJECTS)}"
    return f"{number}. {text} (clause {number})."


def document(n: int, seed: int = 0) -> list[str]:
    """``n`` distinct one-line clauses."""
    rng = random.Random(seed)
    return [clause(rng, i) for i in range(1, n + 1)]


def edited(clauses: list[str], seed: int = 1, rate: float = 0.05) -> list[str]:
    """A negotiated version: about ``rate`` of the clauses changed, deleted, inserted or reworded."""
    rng = random.Random(seed)
    out = []
    for line in clauses:
        roll = rng.random()
        if roll < rate * 0.3:
            out.append(line.replace(" shall ", " shall not ", 1) if " shall " in line else line.replace(" days", " weeks", 1))
        elif roll < rate * 0.5:
            continue  # deleted
        elif roll < rate * 0.7:
            out.append(line)
            out.append(clause(rng, 10_000_000 + len(out)))  # inserted
        elif roll < rate:
            out.append(line.replace("within", "no later than", 1).replace("each party", "both parties", 1))
        else:
            out.append(line)
    return out


def as_text(clauses: list[str]) -> str:
    return "\n".join(clauses) + "\n"
