"""The findings of a fixed set of document pairs, to check that a speed change leaves them alone.

    python benchmarks/findings_snapshot.py dump OUT.json [--config offline]
    python benchmarks/findings_snapshot.py diff BEFORE.json AFTER.json

``dump`` compares, with the installed (or ``PYTHONPATH``-first) conflictkit, the corpus version
pairs of ``embedder_bench.py`` (Common Paper, Bonterms, 40 Basecamp revisions; read from
$CONFLICTKIT_CORPUS, never copied), the ~50-page pair of ``default_targets.py``, every pair of
the project's document manifests (samples, scripted edits, corpus.yaml) and the 25 labelled
development revisions of ../shared/revisions ($CONFLICTKIT_REVISIONS), and writes each pair's
findings. ``diff`` counts the findings both snapshots share: a finding is its kind and both cited
spans; its probabilities are compared apart (they may move without any finding changing). For the
labelled revisions it also counts the hunks a finding overlaps, substantive and editorial, before
and after.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import os

from default_targets import CORPUS, fifty_pages
from embedder_bench import DOCUMENT_PAIRS, basecamp_pairs

ROOT = Path(__file__).resolve().parent.parent
REVISIONS = Path(os.environ.get("CONFLICTKIT_REVISIONS", ROOT.parent / "shared" / "revisions"))
MANIFESTS = ("benchmarks/data/documents/samples.yaml", "benchmarks/data/documents/edits/edits.yaml",
             "benchmarks/data/documents/corpus.yaml")


def pairs_to_compare(work: Path) -> list[tuple[str, Path, Path]]:
    from conflictkit.bench.datasets import load_dataset

    pairs = [(f"{a} -> {b}", CORPUS / a, CORPUS / b) for a, b in [*DOCUMENT_PAIRS, *basecamp_pairs(CORPUS, 40)]]
    pairs.append(("~50 pages", *fifty_pages(work)))
    for manifest in MANIFESTS:
        dataset = load_dataset(ROOT / manifest)
        pairs += [(f"{dataset.name}:{p.id}", p.reference, p.input) for p in dataset.pairs]
    for name, labels in revision_labels().items():
        pairs.append((f"revisions:{name}", CORPUS / labels["reference"], CORPUS / labels["input"]))
    return pairs


def revision_labels() -> dict[str, dict]:
    """The labelled development revisions (pair name -> its label file), empty when absent."""
    return {f.stem: json.loads(f.read_text(encoding="utf-8")) for f in sorted((REVISIONS / "labels").glob("*.json"))}


def flagged_hunks(findings: list, labels: dict) -> dict[str, list[int]]:
    """Per hunk label, [hunks that some finding's cited span overlaps, hunks]."""
    counts: dict[str, list[int]] = {}
    for hunk in labels["hunks"]:
        hit = any(_overlaps(f[1], hunk["ref_span"]) or _overlaps(f[2], hunk["inp_span"]) for f in findings)
        tally = counts.setdefault(hunk["label"], [0, 0])
        tally[0] += hit
        tally[1] += 1
    return counts


def _overlaps(span: list[int] | None, hunk: list[int] | None) -> bool:
    return bool(span and hunk) and span[0] < hunk[1] and hunk[0] < span[1]


def dump(out: Path, config_name: str) -> None:
    from conflictkit.config import load_config
    from conflictkit.engine import Engine

    work = Path(tempfile.mkdtemp(prefix="ck-snapshot-"))
    engine = Engine(load_config(config_name))
    snapshot = {}
    for name, ref, inp in pairs_to_compare(work):
        report = engine.compare(str(ref), str(inp)).report
        snapshot[name] = {
            "findings": [[f["kind"], _span(f.get("reference")), _span(f.get("input")), f["p_same"], f["p_conflict"]]
                         for f in report["findings"]],
            "judged": report["summary"].get("judged_pairs"),
        }
    out.write_text(json.dumps(snapshot, indent=1))
    print(f"{len(snapshot)} pairs, {sum(len(v['findings']) for v in snapshot.values())} findings -> {out}")


def _span(side: dict | None) -> list[int] | None:
    return [side["start"], side["end"]] if side else None


def diff(before_path: Path, after_path: Path) -> None:
    before, after = json.loads(before_path.read_text()), json.loads(after_path.read_text())
    same = total = moved_p = 0
    for name in before:
        a = {tuple(map(str, f[:3])): f[3:] for f in before[name]["findings"]}
        b = {tuple(map(str, f[:3])): f[3:] for f in after.get(name, {"findings": []})["findings"]}
        shared = a.keys() & b.keys()
        same += len(shared)
        total += len(a.keys() | b.keys())
        moved_p += sum(a[k] != b[k] for k in shared)
        if a.keys() != b.keys():
            print(f"{name}: {len(shared)} shared, only before {sorted(a.keys() - b.keys())}, only after {sorted(b.keys() - a.keys())}")
    print(f"{len(before)} pairs: {same} / {total} findings identical ({100 * same / max(total, 1):.1f}%); "
          f"{moved_p} shared findings with other probabilities")
    labels = revision_labels()
    for name, snapshot in (("before", before), ("after", after)):
        tallies: dict[str, list[int]] = {}
        for pair, pair_labels in labels.items():
            for label, (hit, count) in flagged_hunks(snapshot.get(f"revisions:{pair}", {"findings": []})["findings"],
                                                     pair_labels).items():
                tally = tallies.setdefault(label, [0, 0])
                tally[0] += hit
                tally[1] += count
        if tallies:
            print(f"revisions, {name}: hunks a finding cites: " +
                  ", ".join(f"{label} {hit} of {count}" for label, (hit, count) in sorted(tallies.items())))


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--config", default="offline")
    c = sub.add_parser("diff")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.out, args.config)
    else:
        diff(args.before, args.after)


if __name__ == "__main__":
    main()
