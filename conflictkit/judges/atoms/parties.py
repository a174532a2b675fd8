"""Party mentions and the side of the deal each party is on.

A role swap ("Provider shall indemnify Customer" -> "Customer shall indemnify Provider") is a
change of the *side* that acts, so names are mapped to sides: the party that supplies (provider,
supplier, vendor, licensor, discloser, landlord...) and the party that receives (customer,
client, licensee, recipient, tenant...), or both ("each party", "either party", "neither party").
Names on the same side ("Provider" / "Supplier", "Customer" / "Client") count as one role, so a
template's party names can be renamed without every clause becoming a finding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SIDES: dict[str, tuple[str, ...]] = {
    "supplier": (
        "service provider", "provider", "supplier", "vendor", "seller", "licensor", "contractor", "consultant",
        "lessor", "landlord", "franchisor", "lender", "disclosing party", "discloser", "processor",
        "sub-processor", "subprocessor", "manufacturer", "developer", "employee", "we", "us", "our",
    ),
    "receiver": (
        "customer", "client", "buyer", "purchaser", "licensee", "subscriber", "lessee", "tenant", "franchisee",
        "borrower", "receiving party", "recipient", "controller", "employer", "distributor", "reseller",
        "you", "your",
    ),
    "both": (
        "each party", "either party", "both parties", "the parties", "neither party", "each of the parties",
        "either of the parties", "neither of the parties", "any party", "a party", "the party hereto",
    ),
    "company": ("company",),
}
# Parties with no fixed side in a supply deal: each is its own role.
_OWN_ROLES = ("guarantor", "agent", "principal", "investor", "shareholder", "trustee", "owner", "operator", "sponsor",
              "institution", "investigator", "author", "publisher", "artist", "producer", "partner", "member",
              "subcontractor", "carrier", "shipper", "consignee", "insurer", "insured", "executive", "bank")
SIDE_OF: dict[str, str] = {name: side for side, names in _SIDES.items() for name in names} | {n: n for n in _OWN_ROLES}
_PATTERN = re.compile(
    r"\b(?:" + "|".join(re.escape(n) for n in sorted(SIDE_OF, key=len, reverse=True)) + r")\b(?!-)"
)


@dataclass(frozen=True)
class PartyMention:
    """A party named in a clause: its side of the deal and where it is."""

    name: str
    side: str
    start: int
    end: int


def find_parties(text: str, low: str) -> list[PartyMention]:
    """Every party mention, in order. "US" in capitals is a country, not "us"."""
    mentions = []
    for m in _PATTERN.finditer(low):
        name = m.group()
        if name == "us" and text[m.start():m.end()] == "US":
            continue
        mentions.append(PartyMention(name, SIDE_OF[name], m.start(), m.end()))
    return mentions
