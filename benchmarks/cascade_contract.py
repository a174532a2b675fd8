"""Issue 28: the cascade's contract against a deliberately poor LLM tier, on the clause-pair splits.

    python benchmarks/cascade_contract.py [--out benchmarks/results/cascade-contract.md]

Judges tune, report and fresh with the ``llm-cascade`` preset's judges (legal-atoms, then the llm
judge on the pairs it cannot settle) pointed at the fake server answering CONTRADICTION to every
pair (as a 1.5B local model did), with and without a quote of the first changed words, next to the
rules judge alone and to the cascade before the contract (``overrule: free``). Prints and writes the
false-positive rate on the consistent categories (the target: paraphrase and format no higher than
the rules judge's) and recall on the conflict categories. fresh.jsonl is reported per category only.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

from conflictkit.bench.contract import VARIANTS, false_positive_rate, measure
from conflictkit.bench.datasets import load_clause_pairs

ROOT = Path(__file__).resolve().parent.parent
SPLITS = ("tune", "report", "fresh")
TARGET = ("paraphrase", "format")
CONSISTENT = ("paraphrase", "format", "unrelated", "typo", "non-binding")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/cascade-contract.md"))
    args = parser.parse_args()
    datasets = [load_clause_pairs(ROOT / f"benchmarks/data/clause-pairs/{s}.jsonl") for s in SPLITS]
    started, load = time.perf_counter(), os.getloadavg()[0]
    results = measure(datasets, progress=lambda name: print(f"... {name}", flush=True))
    lines = [
        "# The cascade's contract against a poor LLM tier (issue 28)",
        "",
        "Command: `python benchmarks/cascade_contract.py`. The `llm-cascade` preset's judges (legal-atoms, then the `llm`",
        "judge on the pairs it escalates: P(same) >= 0.3 and P(conflict) in [0.2, 0.8] or no typed reason), the llm tier",
        "pointed at `conflictkit.testing.openai.FakeOpenAI`; conflict threshold 0.7, same-matter 0.3.",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, load average {load:.1f} at the start; "
        f"{time.perf_counter() - started:.0f} s in all. Deterministic: the figures do not depend on the load.",
        "",
        "## False positives on paraphrase + format (the target: the cascade no higher than the rules judge)",
        "",
        "| variant | " + " | ".join(SPLITS) + " |",
        "|---|" + "---|" * len(SPLITS),
    ]
    for variant in VARIANTS:
        cells = []
        for split in SPLITS:
            flagged, n = false_positive_rate(results[variant.name][split], TARGET)
            cells.append(f"{flagged}/{n} ({flagged / n:.1%})")
        lines.append(f"| {variant.name} | " + " | ".join(cells) + " |")
    lines += ["", "## Per category (FPR for consistent categories, recall for conflict ones)", ""]
    for split in SPLITS:
        categories = list(results[VARIANTS[0].name][split])
        lines += [f"### {split}", "", "| variant | " + " | ".join(categories) + " |", "|---|" + "---|" * len(categories)]
        for variant in VARIANTS:
            metrics = results[variant.name][split]
            lines.append(f"| {variant.name} | " + " | ".join(
                f"{'fpr' if metrics[c]['metric'] == 'fpr' else 'rec'} {metrics[c]['value']:.2f}" for c in categories) + " |")
        lines.append("")
    lines += [
        "Reading: without the contract (`overrule: free`) a model that answers CONTRADICTION to everything turns",
        "every escalated consistent pair into a finding. With it, its word alone moves nothing (the model as it was",
        "seen: target met on every split); a raise needs a quote of words on an edit the legal-atoms judge found",
        "substantive (its edit verdicts, issue 21; editorial and same-effect edits cannot be quoted against it),",
        "and a model that calls a clause and itself a CONTRADICTION fails the llm judge's probe and has no quote",
        "kept. What still gets through: a poor model that passes the probe and quotes a substantive edit of a pair",
        "the rules judge was unsure of (modality or party wording it weighed low): paraphrase FPR 0.40 on report.",
        "On such pairs the second tier decides by design, and a poor second tier decides poorly; a model that",
        "fails the probe, or answers in one word, cannot.",
    ]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
