"""Build scripted-edit document pairs from the project's sample agreement.

Each edit is applied on its own (one pair per edit type) and all together (one pair), to
``samples/reference-saas-agreement.md``; the edited files and a manifest listing the expected
findings go to ``benchmarks/data/documents/edits/``. The edits are fixed strings, so the output is
the same on every run; an anchor that no longer occurs exactly once in the sample stops the script.

    python benchmarks/make_edits.py        # then: conflictkit bench --dataset benchmarks/data/documents/edits/edits.yaml ...
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "reference-saas-agreement.md"
OUT = ROOT / "benchmarks" / "data" / "documents" / "edits"


@dataclass(frozen=True)
class Edit:
    id: str
    old: str  # occurs exactly once in the sample
    new: str
    kind: str | None  # expected finding: deviation / missing / added, or None (must not be flagged)
    quote: str  # in the input (deviation, added, consistent) or the reference (missing)
    note: str


EDITS = [
    Edit("drop-not", "User credentials may not be shared,", "User credentials may be shared,",
         "deviation", "User credentials may be shared", "negation dropped: sharing of credentials becomes allowed"),
    Edit("change-number", "within thirty (30) days after the invoice date", "within sixty (60) days after the invoice date",
         "deviation", "within sixty (60) days after the invoice date", "payment term 30 -> 60 days"),
    Edit("swap-party",
         "Customer may terminate this Agreement for convenience on ninety (90) days' written notice to Provider.",
         "Provider may terminate this Agreement for convenience on ninety (90) days' written notice to Customer.",
         "deviation", "Provider may terminate this Agreement for convenience", "the right to terminate for convenience moves to Provider"),
    Edit("delete-clause",
         "7.7 **Data location.** Provider shall store Customer Data only in data centres located in the United States.\n\n",
         "", "missing", "Provider shall store Customer Data only in data centres located in the United States.",
         "the data-location commitment is gone"),
    Edit("insert-clause",
         "16.8 **Counterparts.**",
         "16.8 **Non-solicitation.** During the Subscription Term and for twelve (12) months after it, neither party "
         "shall solicit for employment any employee of the other party who was directly involved in providing or "
         "receiving the Services.\n\n16.9 **Counterparts.**",
         "added", "neither party shall solicit for employment any employee of the other party",
         "a non-solicitation covenant the template does not have"),
    Edit("paraphrase",
         "A party's failure to enforce any provision is not a waiver of its right to enforce that provision later.",
         "If a party does not enforce a provision, that does not waive its right to enforce the provision later.",
         None, "If a party does not enforce a provision, that does not waive its right",
         "same meaning, reworded: must not be flagged"),
    # content edits in operative text (issue 12)
    Edit("add-list-item", "(a) sell, resell, rent or lease the Services to any third party;",
         "(a) sell, resell, rent, lease or sublicense the Services to any third party;",
         "deviation", "sell, resell, rent, lease or sublicense the Services", "'sublicense' added to the prohibited acts"),
    Edit("drop-list-item", "(d) interfere with or disrupt the integrity", "(d) interfere with the integrity",
         "deviation", "interfere with the integrity", "'disrupt' cut from the prohibited acts"),
    Edit("trigger-swap", "upon becoming aware of any such access", "upon confirming any such access",
         "deviation", "upon confirming any such access", "the duty to notify starts on confirmation, not on awareness"),
    Edit("duty-dropped", "Provider shall notify Customer without undue delay", "Provider notifies Customer without undue delay",
         "deviation", "Provider notifies Customer without undue delay", "a duty to notify becomes a description"),
    Edit("formality-dropped", "notifies Provider of the dispute in writing before the due date",
         "notifies Provider of the dispute before the due date",
         "deviation", "notifies Provider of the dispute before the due date", "'in writing' dropped from the dispute notice"),
    Edit("typo", "Except as expressly stated in this Agreement", "Expect as expressly stated in this Agreement",
         None, "Expect as expressly stated", "a typo, no change of meaning: must not be flagged"),
    # non-binding text printed with the terms: never a finding
    Edit("update-banner", "**Company template, version 3.2 (Customer paper)**",
         "**Company template, version 3.2 (Customer paper)**\n\nWe have updated this template. The new version takes "
         "effect on March 1, 2027.", None, "We have updated this template.", "an update banner: must not be flagged"),
    Edit("summary", "(e) access the Services in order to build a competing product.",
         "(e) access the Services in order to build a competing product.\n\nIn short: do not resell the Services, "
         "copy their code or use them to build a rival product.",
         None, "In short: do not resell the Services", "a plain-language summary: must not be flagged"),
    Edit("change-log", "## Signatures",
         "## Change log\n\n- 2026-11-02: Clarified the notice period for security incidents.\n\n"
         "- 2026-06-15: Added the publicity clause.\n\n## Signatures",
         None, "2026-11-02: Clarified the notice period", "a change log: must not be flagged"),
]


def apply(text: str, edits: list[Edit]) -> str:
    for edit in edits:
        count = text.count(edit.old)
        if count != 1:
            sys.exit(f"make_edits: anchor of {edit.id!r} occurs {count} times in {SAMPLE.name}; update the edit")
        text = text.replace(edit.old, edit.new)
    return text


def entry(pair_id: str, input_name: str, edits: list[Edit]) -> dict:
    reference = Path("..") / ".." / ".." / ".." / SAMPLE.relative_to(ROOT)
    item: dict = {"id": pair_id, "reference": reference.as_posix(), "input": input_name}
    item["expected"] = [{"kind": e.kind, "quote": e.quote, "note": f"{e.id}: {e.note}"} for e in edits if e.kind]
    item["consistent"] = [{"quote": e.quote, "note": f"{e.id}: {e.note}"} for e in edits if not e.kind]
    return item


def main() -> None:
    original = SAMPLE.read_text(encoding="utf-8")
    OUT.mkdir(parents=True, exist_ok=True)
    pairs = []
    for edit in EDITS:
        name = f"{edit.id}.md"
        (OUT / name).write_text(apply(original, [edit]), encoding="utf-8")
        pairs.append(entry(edit.id, name, [edit]))
    (OUT / "all-edits.md").write_text(apply(original, EDITS), encoding="utf-8")
    pairs.append(entry("all-edits", "all-edits.md", EDITS))
    header = (
        "# Generated by benchmarks/make_edits.py from samples/reference-saas-agreement.md: do not edit by hand.\n"
        "# One pair per scripted edit, and one with every edit applied.\n"
    )
    (OUT / "edits.yaml").write_text(header + yaml.safe_dump({"pairs": pairs}, sort_keys=False, width=120), encoding="utf-8")
    print(f"wrote {len(pairs)} pairs to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
