"""Alignment benchmark: benign transformations of the corpus agreements, and alignment speed.

Every benign transformation (conflictkit.bench.transform.BENIGN) of every agreement must give no
deviation, missing or added finding (a moved section or list item: one ``moved`` notice); every
one-finding edit exactly one finding. Documents are read from the third-party corpus
($CONFLICTKIT_CORPUS, else ../shared/corpus) and never copied into the project.

    python benchmarks/alignment_bench.py generate /tmp/benign            # transformed copies + manifest.json
    python benchmarks/alignment_bench.py run /tmp/benign --config offline --config fast --label new --out /tmp/new.json
    PYTHONPATH=/path/to/main python benchmarks/alignment_bench.py run ... --label main --out /tmp/main.json
    python benchmarks/alignment_bench.py speed --out /tmp/speed.json     # alignment of two 1,000-clause documents
    python benchmarks/alignment_bench.py table /tmp/new.json /tmp/main.json --speed /tmp/speed.json > benchmarks/results/alignment.md

``run`` only uses the engine's public API, so the same step measures another checkout (``main``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CONFLICTKIT_CORPUS", ROOT.parent / "shared" / "corpus"))
DOCUMENTS = [
    "commonpaper/csa/CSA_v2.1.md", "commonpaper/dpa/DPA_v1.1.md", "commonpaper/mnda/Mutual-NDA_v1.0.md",
    "commonpaper/psa/PSA_v1.1.md", "commonpaper/baa/BAA_v1.0.md",
    "bonterms/Bonterms-Cloud-Terms_v1.0.md", "bonterms/Bonterms-Mutual-NDA_v1.0.md",
    "openagreements/employment-offer-letter.md", "openagreements/restrictive-covenant-texas.md",
    "basecamp/terms/2023-01-10_9141097.md",
]
LEGAL_KINDS = ("deviation", "missing", "added")


def generate(out: Path) -> None:
    from conflictkit.bench.transform import BENIGN, ONE_FINDING

    out.mkdir(parents=True, exist_ok=True)
    cases = []
    for rel in DOCUMENTS:
        source = CORPUS / rel
        if not source.is_file():
            sys.exit(f"alignment_bench: {source} not found; set CONFLICTKIT_CORPUS to the corpus directory")
        text = source.read_text(encoding="utf-8")
        stem = rel.replace("/", "__").removesuffix(".md")
        (out / f"{stem}.md").write_text(text, encoding="utf-8")
        for t in [*BENIGN, *ONE_FINDING]:
            edited = t.apply(text)
            case = {"document": rel, "transformation": t.id, "reference": f"{stem}.md",
                    "expected_findings": t.expected_findings, "expected_moves": t.expected_moves,
                    "set": "benign" if t in BENIGN else "one-finding"}
            if edited is None or edited == text:
                case["input"] = None  # nothing to apply it to in this document
            else:
                case["input"] = f"{stem}.{t.id}.md"
                (out / case["input"]).write_text(edited, encoding="utf-8")
            cases.append(case)
    (out / "manifest.json").write_text(json.dumps(cases, indent=1), encoding="utf-8")


def run(directory: Path, configs: list[str], label: str, out: Path) -> None:
    from conflictkit.config import load_config
    from conflictkit.engine import Engine
    from conflictkit.store import Store

    cases = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    rows = []
    for config_name in configs:
        engine = Engine(load_config(config_name), store=Store(directory / f"cache-{label}.sqlite"))
        for case in cases:
            if case["input"] is None:
                rows.append({**case, "config": config_name, "applied": False})
                continue
            started = time.perf_counter()
            result = engine.compare(str(directory / case["reference"]), str(directory / case["input"]))
            findings = result.report["findings"]
            summary = result.report["summary"]
            rows.append({
                **case, "config": config_name, "applied": True, "seconds": round(time.perf_counter() - started, 3),
                "kinds": {k: sum(1 for f in findings if f["kind"] == k) for k in (*LEGAL_KINDS, "moved")},
                "judged_per_clause": round((summary["judged_pairs"] + summary.get("judged_runs", 0))
                                           / max(summary["clauses"]["reference"], summary["clauses"]["input"], 1), 2),
                "findings": [{"kind": f["kind"], "p": f["p_conflict"], "moved": f.get("moved", False),
                              "reasons": [r["type"] for r in f["reasons"]][:3],
                              "text": ((f.get("input") or f.get("reference") or {}).get("text") or "")[:90]}
                             for f in findings],
            })
            print(f"{label} {config_name} {case['document']} {case['transformation']}: {rows[-1]['kinds']}", file=sys.stderr)
    out.write_text(json.dumps({"label": label, "rows": rows}, indent=1), encoding="utf-8")


def speed(out: Path, sizes: list[int]) -> None:
    """Time align() alone on two documents of n clauses each, judged by the model-free pipeline."""
    from conflictkit.align import align
    from conflictkit.config import load_config
    from conflictkit.engine import Engine

    sentences = []
    for rel in DOCUMENTS:
        for line in (CORPUS / rel).read_text(encoding="utf-8").splitlines():
            line = line.strip(" #*-")
            if len(line) > 40 and "|" not in line:
                sentences.append(line)
    engine = Engine(load_config("fast"))
    config = engine.config
    results = []
    for n in sizes:
        ref_text = [f"{sentences[k % len(sentences)]} (clause {k})" for k in range(n)]
        inp_text = list(ref_text)
        for k in range(0, n, 50):  # every 50th clause changed, every 97th deleted, a block of 20 moved
            inp_text[k] = inp_text[k].replace("(clause", "(changed clause")
        del inp_text[::97]
        inp_text = inp_text[: n // 2] + inp_text[n // 2 + 20 :] + inp_text[n // 2 : n // 2 + 20]
        result = engine.compare_texts("\n\n".join(ref_text), "\n\n".join(inp_text), "ref", "inp")
        options = config.alignment.options(config.thresholds)
        def judge_runs(runs, ref=result.reference, inp=result.input):
            return engine.judge_runs(runs, ref, inp)

        times = []
        for _ in range(5):
            started = time.perf_counter()
            align(result.reference, result.input, result.judgements, options, judge_runs)
            times.append(time.perf_counter() - started)
        clauses = max(len(result.reference.clauses), len(result.input.clauses))
        results.append({"clauses": clauses, "judged_pairs": len(result.judgements),
                        "judged_per_clause": round(len(result.judgements) / clauses, 2),
                        "align_seconds_median": round(statistics.median(times), 4), "align_seconds_max": round(max(times), 4)})
        print(results[-1], file=sys.stderr)
    out.write_text(json.dumps(results, indent=1), encoding="utf-8")


def table(files: list[Path], speed_file: Path | None) -> None:
    runs = [json.loads(f.read_text(encoding="utf-8")) for f in files]
    print("# Alignment benchmark: benign transformations and one-finding edits\n")
    print(f"Machine: {platform.machine()}, {os.cpu_count()} CPUs (shared), Python {platform.python_version()}.")
    print("Commands: see the docstring of `benchmarks/alignment_bench.py` (generate, run per checkout, speed, table).\n")
    print("Documents (read from the corpus): " + ", ".join(f"`{d}`" for d in DOCUMENTS) + ".\n")
    print("A cell gives how many documents met the expectation out of those the transformation applies to,")
    print("and the findings counted (deviation/missing/added; `moved` notices apart: a moved section or list")
    print("item is expected to give one `moved` finding and nothing else). The transformations are in")
    print("`conflictkit/bench/transform.py`. Re-wrapping (one sentence per line) and added bullets also depend on")
    print("the segmenter (branch `markdown` makes segmentation independent of line wrapping; merged later):")
    print("they are measured here with the segmenter as it is on this branch.\n")
    for run_ in runs:
        by_key: dict[tuple[str, str], list[dict]] = {}
        for row in run_["rows"]:
            by_key.setdefault((row["config"], row["transformation"]), []).append(row)
        configs = list(dict.fromkeys(r["config"] for r in run_["rows"]))
        print(f"## {run_['label']}\n")
        print("| transformation | expected | " + " | ".join(configs) + " |")
        print("|---|---|" + "---|" * len(configs))
        for t in dict.fromkeys(r["transformation"] for r in run_["rows"]):
            first = by_key[(configs[0], t)][0]
            expected = f"{first['expected_findings']} finding(s)" + (f", {first['expected_moves']} moved" if first["expected_moves"] else "")
            cells = []
            for c in configs:
                applied = [r for r in by_key[(c, t)] if r["applied"]]
                ok = sum(1 for r in applied if _meets(r))
                legal = sum(sum(r["kinds"][k] for k in LEGAL_KINDS) for r in applied)
                moved = sum(r["kinds"].get("moved", 0) for r in applied)
                cells.append(f"{ok}/{len(applied)} ok · {legal} findings · {moved} moved")
            print(f"| {t} | {expected} | " + " | ".join(cells) + " |")
        judged = [r["judged_per_clause"] for r in run_["rows"] if r["applied"]]
        print(f"\nJudged pairs per max(n, m): median {statistics.median(judged):.2f}, max {max(judged):.2f}.\n")
        failures = [r for r in run_["rows"] if r["applied"] and not _meets(r)]
        if failures:
            print("<details><summary>Cases that missed the expectation</summary>\n")
            for r in failures:
                print(f"- {r['config']} · `{r['document']}` · {r['transformation']}: {r['kinds']}")
                for f in r["findings"][:2]:
                    print(f"  - {f['kind']}{' (moved)' if f['moved'] else ''} p={f['p']:.2f} {f['reasons']}: `{f['text']}`")
            print("\n</details>\n")
    if speed_file is not None:
        print("## Alignment speed\n")
        print("`align()` alone (exact pairs, sparse chain DP, runs, moves; runs judged by legal-atoms), median of 5,")
        print("on two generated documents of n clauses (every 50th changed, every 97th deleted, 20 moved), `fast` preset.\n")
        print("| clauses | judged pairs | judged / max(n, m) | align median (s) | align max (s) |")
        print("|---|---|---|---|---|")
        for s in json.loads(speed_file.read_text(encoding="utf-8")):
            print(f"| {s['clauses']:,} | {s['judged_pairs']:,} | {s['judged_per_clause']} | {s['align_seconds_median']} | {s['align_seconds_max']} |")


def _meets(row: dict) -> bool:
    legal = sum(row["kinds"][k] for k in LEGAL_KINDS)
    return legal == row["expected_findings"] and row["kinds"].get("moved", 0) <= max(row["expected_moves"], 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("out", type=Path)
    r = sub.add_parser("run")
    r.add_argument("directory", type=Path)
    r.add_argument("--config", action="append", required=True)
    r.add_argument("--label", required=True)
    r.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("speed")
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--sizes", type=int, nargs="+", default=[1000, 4000])
    t = sub.add_parser("table")
    t.add_argument("files", type=Path, nargs="+")
    t.add_argument("--speed", type=Path)
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.out)
    elif args.command == "run":
        run(args.directory, args.config, args.label, args.out)
    elif args.command == "speed":
        speed(args.out, args.sizes)
    else:
        table(args.files, args.speed)


if __name__ == "__main__":
    main()
