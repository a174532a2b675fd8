"""Check the clause-pair files and print their counts.

Usage: python benchmarks/data/clause-pairs/validate.py [DIR]

Checks: every line parses as a JSON object with the required keys; label and category are known and
agree; ids are unique across both splits; no clause text (reference or input) appears in both splits;
reference and input differ; each split meets the minimum count per category. Exit code 1 on any problem.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

CONFLICT = ["negation", "modal", "number", "date", "party", "jurisdiction", "scope", "qualifier", "context",
            "list-edit", "trigger", "duty"]
CONSISTENT = ["paraphrase", "format", "unrelated", "typo", "non-binding"]
MINIMUM = {  # category: (tune, report)
    "negation": (10, 15), "modal": (10, 15), "number": (10, 15), "date": (6, 10), "party": (8, 12),
    "jurisdiction": (6, 10), "scope": (8, 12), "qualifier": (8, 12), "context": (6, 10),
    "paraphrase": (14, 20), "format": (10, 14), "unrelated": (10, 14),
    "list-edit": (6, 8), "trigger": (6, 8), "duty": (6, 8), "typo": (6, 8), "non-binding": (6, 8),
}
SPLITS = ["tune", "report"]
REQUIRED = {"id", "category", "label", "reference", "input"}


def norm(text: str) -> str:
    return " ".join(text.split())


def main(directory: Path) -> int:
    problems: list[str] = []
    ids: dict[str, str] = {}
    texts: dict[str, set[str]] = {}
    counts: dict[str, Counter] = {}
    for split in SPLITS:
        path = directory / f"{split}.jsonl"
        texts[split] = set()
        counts[split] = Counter()
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.name}:{lineno}"
            if not line.strip():
                problems.append(f"{where}: blank line")
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                problems.append(f"{where}: invalid JSON ({exc})")
                continue
            if not isinstance(row, dict) or not REQUIRED <= row.keys():
                problems.append(f"{where}: missing keys {sorted(REQUIRED - set(row))}")
                continue
            cat, label = row["category"], row["label"]
            if label not in ("conflict", "consistent"):
                problems.append(f"{where}: unknown label {label!r}")
            expected = "conflict" if cat in CONFLICT else "consistent" if cat in CONSISTENT else None
            if expected is None:
                problems.append(f"{where}: unknown category {cat!r}")
            elif expected != label:
                problems.append(f"{where}: category {cat} must be labelled {expected}")
            if row["id"] in ids:
                problems.append(f"{where}: duplicate id {row['id']} (also in {ids[row['id']]})")
            ids[row["id"]] = where
            if norm(row["reference"]) == norm(row["input"]):
                problems.append(f"{where}: reference and input are identical")
            texts[split].update({norm(row["reference"]), norm(row["input"])})
            counts[split][cat] += 1
    shared = texts["tune"] & texts["report"]
    for text in sorted(shared):
        problems.append(f"clause text in both splits: {text[:80]!r}")
    for cat, (t_min, r_min) in MINIMUM.items():
        for split, minimum in zip(SPLITS, (t_min, r_min)):
            if counts[split][cat] < minimum:
                problems.append(f"{split}: {cat} has {counts[split][cat]} pairs, minimum {minimum}")

    print(f"{'category':<14}{'label':<12}{'tune':>6}{'report':>8}{'total':>7}")
    for cat in CONFLICT + CONSISTENT:
        label = "conflict" if cat in CONFLICT else "consistent"
        t, r = counts["tune"][cat], counts["report"][cat]
        print(f"{cat:<14}{label:<12}{t:>6}{r:>8}{t + r:>7}")
    t, r = sum(counts["tune"].values()), sum(counts["report"].values())
    print(f"{'all':<26}{t:>6}{r:>8}{t + r:>7}")
    for problem in problems:
        print("PROBLEM:", problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent))
