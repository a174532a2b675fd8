"""Playbook review benchmark: verdict accuracy per class on scripted drafts, and whether benign rewording moves a verdict.

    python benchmarks/playbook_bench.py [--config offline] [--config fast] [--rounds 2] [--out benchmarks/results/playbook.md]

For each playbook in benchmarks/data/playbooks/ (written for this benchmark from a corpus template,
which is read from ../shared/corpus, never copied) and its drafts spec, drafts are scripted from the
template with every position set to its preferred text, a fallback, a red-line text, a breach (a rule
broken, or another change of effect) or removed (:mod:`conflictkit.bench.playbooks`); each draft is
reviewed as written, with its texts reworded, and reworded with a section moved and one sentence a line.
Accuracy is per expected verdict class; a benign variant whose verdict differs from the plain draft's
is a moved verdict. Each plain draft is reviewed again with every change of its conforming redline
accepted: each refused passage should then be within the playbook, every other verdict unchanged.
Exit 1 when a target is missed (accuracy < 0.95 in a class, any moved verdict, a conforming redline
that leaves a position refused or moves another).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from conflictkit.bench.datasets import corpus_root
from conflictkit.bench.playbooks import DraftsSpec, draft_sites, script_drafts, variants
from conflictkit.config import load_config
from conflictkit.engine import Engine
from conflictkit.loaders import document_from_text, read_document
from conflictkit.playbook.conform import conformed_text, proposals
from conflictkit.playbook.load import playbook_from_bytes
from conflictkit.playbook.review import review

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "playbooks"
TARGET = 0.95


def verdict_class(position: dict) -> str:
    return f"fallback {position['fallback']}" if position["verdict"] == "fallback" else position["verdict"]


def run(config_name: str, rounds: int, failures: list[str], context: bool = True) -> tuple[list[str], dict]:
    engine = Engine(load_config(config_name))
    corpus = corpus_root()
    totals: dict[str, Counter] = defaultdict(Counter)  # variant -> class -> count
    right: dict[str, Counter] = defaultdict(Counter)
    by_kind: dict[str, Counter] = defaultdict(Counter)  # plain: state kind -> (total, right)
    moved, reviews, seconds, positions = 0, 0, 0.0, 0
    conform = Counter()  # the conforming redline: not-acceptable passages brought within, other verdicts kept
    label = config_name if context else f"{config_name} (no template context)"
    misses = failures if context else []  # without context: listed with the table, not targets
    for spec_path in sorted(DATA.glob("*.drafts.yaml")):
        spec = DraftsSpec.load(spec_path)
        playbook = playbook_from_bytes((DATA / spec.playbook).read_bytes(), spec.playbook, corpus, engine.clauses)
        template = read_document(corpus / playbook.template)
        if not context:  # as the review app sees an uploaded playbook: the texts, no template to match the rest with
            playbook = dataclasses.replace(playbook, template_document=None, template_clauses=())
        clauses = engine.clauses(template)
        sites = draft_sites(playbook, spec, template, clauses)
        for draft in script_drafts(playbook, spec, template, clauses, rounds):
            texts = {"plain": draft.text, **variants(draft, template, sites)}
            plain: dict[str, str] = {}
            for variant, text in texts.items():
                started = time.perf_counter()
                result = review(engine, playbook, document_from_text(text, f"{spec.playbook}:{draft.name}:{variant}.md"))
                seconds += time.perf_counter() - started
                reviews += 1
                for position in result.review["positions"]:
                    state = draft.states[position["id"]]
                    got = verdict_class(position)
                    totals[variant][state.expected] += 1
                    right[variant][state.expected] += got == state.expected
                    if variant == "plain":
                        positions += 1
                        plain[position["id"]] = got
                        by_kind[state.kind]["total"] += 1
                        by_kind[state.kind]["right"] += got == state.expected
                    elif got != plain[position["id"]]:
                        moved += 1
                        misses.append(f"{label} {spec.playbook} {draft.name} {variant}: {position['id']} "
                                        f"{plain[position['id']]} -> {got} (expected {state.expected}, {state.label})")
                    if got != state.expected and variant == "plain":
                        misses.append(f"{label} {spec.playbook} {draft.name}: {position['id']} is {got} "
                                        f"(P {position['p_verdict']:.2f}), expected {state.expected} ({state.label})")
                if variant == "plain":
                    _conform(engine, playbook, result, plain, conform, misses, f"{label} {spec.playbook} {draft.name}")
    name = f"`{config_name}`" + ("" if context else ", without the template's other clauses (an uploaded playbook)")
    lines = [f"### {name}", "",
             f"{reviews} reviews ({positions} positions in plain drafts), {seconds:.1f} s in all, "
             f"{seconds / max(reviews, 1):.2f} s per review (in-process, warm engine).", "",
             "| expected verdict | plain drafts | reworded | reformatted |", "|---|---|---|---|"]
    summary = {"moved": moved, "reviews": reviews, "classes": {}}
    for cls in sorted(totals["plain"], key=_class_order):
        cells = []
        for variant in ("plain", "reworded", "reformatted"):
            n, ok = totals[variant][cls], right[variant][cls]
            cells.append(f"{ok}/{n} = {ok / n:.3f}" if n else "—")
            if n and ok / n < TARGET and context:
                failures.append(f"{label}: {cls} accuracy {ok / n:.3f} < {TARGET} ({variant})")
        summary["classes"][cls] = right["plain"][cls] / totals["plain"][cls]
        lines.append(f"| {cls} | " + " | ".join(cells) + " |")
    lines += ["", "By what the draft did (plain drafts): " + ", ".join(
        f"{kind} {c['right']}/{c['total']}" for kind, c in sorted(by_kind.items())) + ".",
        f"Verdicts moved by a benign variant: {moved} of {2 * positions}.",
        f"Conforming redline (every proposed change of review.docx accepted, the draft reviewed again): "
        f"{conform['within']} of {conform['refused']} not-acceptable positions with a passage within the playbook "
        f"after it ({conform['standard']} standard, {conform['within'] - conform['standard']} a fallback); "
        f"{conform['other_moved']} of {conform['others']} other verdicts changed.", ""]
    summary["conform"] = dict(conform)
    if context and (conform["within"] < conform["refused"] or conform["other_moved"]):
        failures.append(f"{label}: the conforming redline brought {conform['within']} of {conform['refused']} "
                        f"positions within, and changed {conform['other_moved']} other verdicts")
    if not context and misses:
        lines += ["Misses:", ""] + [f"- {m}" for m in misses] + [""]
    return lines, summary


def _conform(engine, playbook, result, plain: dict[str, str], conform: Counter, misses: list[str], where: str) -> None:
    """Accept the conforming redline's changes and review again: each refused passage should now be within."""
    refused = {p["id"] for p in result.review["positions"] if p["verdict"] == "not-acceptable" and p.get("input")}
    if not refused:
        return
    text = conformed_text(result.input.document.original, proposals(result))
    again = review(engine, playbook, document_from_text(text, f"{where}:conformed.md"))
    for position in again.review["positions"]:
        got = verdict_class(position)
        if position["id"] in refused:
            conform["refused"] += 1
            conform["within"] += position["verdict"] in ("standard", "fallback")
            conform["standard"] += position["verdict"] == "standard"
            if position["verdict"] not in ("standard", "fallback"):
                misses.append(f"{where} conformed: {position['id']} is still {got} (P {position['p_verdict']:.2f})")
        else:
            conform["others"] += 1
            conform["other_moved"] += got != plain[position["id"]]
            if got != plain[position["id"]]:
                misses.append(f"{where} conformed: {position['id']} {plain[position['id']]} -> {got}")


def _class_order(cls: str) -> tuple[int, str]:
    order = {"standard": 0, "not-acceptable": 8, "missing": 9, "absent": 10}
    return order.get(cls, 1), cls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", action="append", help="config or preset (repeatable; default: offline and fast)")
    parser.add_argument("--rounds", type=int, default=2, help="times each state of each position occurs")
    parser.add_argument("--out", type=Path, help="write the results as Markdown here")
    parser.add_argument("--no-context", action="store_true",
                        help="also review each draft without the template's other clauses (reported, not a target)")
    args = parser.parse_args()
    if not (corpus_root() / "commonpaper").is_dir():
        sys.exit(f"playbook_bench: the corpus is not at {corpus_root()}; set CONFLICTKIT_CORPUS")
    failures: list[str] = []
    load = os.getloadavg()[0]
    lines = ["# Playbook review: verdict accuracy on scripted drafts", "",
             f"Command: `python benchmarks/playbook_bench.py --rounds {args.rounds}" + (" --no-context" if args.no_context else "")
             + "".join(f" --config {c}" for c in args.config or []) + "`. "
             f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
             f"load average {load:.1f} at the start.", ""]
    for config_name in args.config or ["offline", "fast"]:
        body, _ = run(config_name, args.rounds, failures)
        lines += body
        if args.no_context:
            body, _ = run(config_name, args.rounds, failures, context=False)
            lines += body
    lines[2] += f" Load average {os.getloadavg()[0]:.1f} at the end."
    lines += ["## Misses", ""] + ([f"- {f}" for f in failures] or ["None: every target met."])
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
