"""Throughput of the legal-atoms judge: ``python -m conflictkit.judges.atoms.throughput --pairs 5000``.

Generates clause pairs from commercial-contract templates with random terms and random edits
(numbers, negations, parties, governing law, qualifiers, rewording), judges them through the
judge's public ``judge`` method with the extraction cache cleared, and prints pairs per second.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from conflictkit.judges.atoms.extract import extract
from conflictkit.judges.atoms.judge import LegalAtomsJudge
from conflictkit.model import CandidatePair, Clause, Document, IndexedDocument, Span
from conflictkit.normalize import flat, normalize
from conflictkit.stages import Comparison

_TEMPLATES = [
    "{a} shall pay each undisputed invoice within {n} days after receipt, failing which interest accrues at {p}% per month.",
    "{a} shall not disclose the Confidential Information of {b} to any third party without {b}'s prior written consent.",
    "This Agreement is governed by the laws of {law}, and the courts of {law} have exclusive jurisdiction over any dispute.",
    "{a} may terminate this Agreement on {n} days' written notice if {b} commits a material breach and fails to cure it.",
    "{a} grants {b} a non-exclusive, worldwide, royalty-free licence to use the Software for its internal business purposes.",
    "In no event will {a}'s aggregate liability exceed ${m},000, except for liability arising from gross negligence or wilful misconduct.",
    "{a} shall maintain insurance of at least USD {m},000 per claim and provide a certificate by January {d}, 2026.",
]
_PARTIES = ["Provider", "Customer", "Supplier", "Licensee", "Licensor", "the Receiving Party", "the Disclosing Party"]
_LAWS = ["Delaware", "New York", "England and Wales", "California", "Ontario", "Germany"]
_EDITS = [
    lambda t: t.replace(" shall not ", " shall ", 1), lambda t: t.replace(" shall ", " may ", 1),
    lambda t: t.replace("prior written", "prior", 1), lambda t: t.replace("non-exclusive", "exclusive", 1),
    lambda t: t.replace("within", "no later than", 1), lambda t: t.replace(" may ", " must ", 1),
    lambda t: t.replace("worldwide", "United States", 1), lambda t: t,
]


def generate(n: int, seed: int = 7) -> list[tuple[str, str]]:
    """``n`` (reference, input) clause pairs: a filled template and an edited, refilled copy."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        template = rng.choice(_TEMPLATES)
        a, b = rng.sample(_PARTIES, 2)
        terms = {"a": a, "b": b, "n": rng.choice([10, 15, 30, 45, 60, 90]), "p": rng.choice([1, 1.5, 2, 5]),
                 "m": rng.randint(1, 999), "d": rng.randint(1, 28), "law": rng.choice(_LAWS)}
        reference = template.format(**terms)
        if rng.random() < 0.5:
            terms = {**terms, "n": rng.choice([10, 15, 30, 45, 60, 90]), "law": rng.choice(_LAWS)}
        if rng.random() < 0.2:
            terms = {**terms, "a": b, "b": a}
        pairs.append((reference, rng.choice(_EDITS)(template.format(**terms))))
    return pairs


def _indexed(texts: list[str], prefix: str) -> IndexedDocument:
    joined = "\n\n".join(texts)
    norm = normalize(joined)
    clauses, pos = [], 0
    for k, text in enumerate(texts):
        clauses.append(Clause(id=f"{prefix}{k}", text=flat(text), span=Span(start=pos, end=pos + len(text)), order=k))
        pos += len(text) + 2
    document = Document(path=prefix, original=joined, normalized=norm.text, offsets=norm.offsets, sha256="0" * 64)
    return IndexedDocument(document=document, clauses=clauses)


def measure(n: int, seed: int = 7) -> dict[str, float]:
    """Judge ``n`` generated pairs with a cold extraction cache; returns counts and pairs per second."""
    pairs = generate(n, seed)
    comparison = Comparison(reference=_indexed([a for a, _ in pairs], "r"), input=_indexed([b for _, b in pairs], "i"))
    candidates = [CandidatePair(reference_id=f"r{k}", input_id=f"i{k}", similarity=0.8) for k in range(n)]
    judge = LegalAtomsJudge()
    judge.warm_up()
    extract.cache_clear()
    start = time.perf_counter()
    judgements = judge.judge(candidates, comparison)
    seconds = time.perf_counter() - start
    flagged = sum(j.p_conflict >= 0.7 for j in judgements)
    return {"pairs": n, "seconds": seconds, "pairs_per_second": n / seconds, "flagged": flagged}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    r = measure(args.pairs, args.seed)
    print(f"legal-atoms: {r['pairs']} pairs in {r['seconds']:.2f} s = {r['pairs_per_second']:.0f} pairs/s "
          f"({r['flagged']} flagged) on {platform.processor() or platform.machine()}, Python {platform.python_version()}")


if __name__ == "__main__":
    main()
