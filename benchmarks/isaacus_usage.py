"""Requests, tokens and estimated cost of the Isaacus pipeline, measured against the fake API.

Runs ``configs/isaacus.yaml`` in-process on the samples with a cold cache, then again warm (a new
engine, the same cache), then on a synthetic pair of 50-page agreements (the samples repeated
with renumbered sections and a distinct tag in every paragraph, so nothing is deduplicated).
The fake is served on 127.0.0.1 and counts every HTTP request. Its tokenizer is ~1.3 tokens per
word: the real Kanon tokenizer differs, so these are fake-API smoke figures of request and
token volume, not quality and not a bill. Writes ``benchmarks/results/isaacus.md``:

    python benchmarks/isaacus_usage.py [--out benchmarks/results/isaacus.md]
"""

from __future__ import annotations

import argparse
import math
import os
import re
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "samples" / "reference-saas-agreement.md"
INPUT = ROOT / "samples" / "input-vendor-draft.md"
WORDS_PER_PAGE = 500
PAGES = 50
ENDPOINTS = ("/enrichments", "/embeddings", "/classifications/universal", "/rerankings")


def _renumbered(text: str, copy: int, offset: int) -> str:
    """One copy of a sample with sections shifted by ``offset`` and every paragraph tagged."""
    def shift(m: re.Match[str]) -> str:
        return f"{m.group(1)}{int(m.group(2)) + offset}{m.group(3)}"

    lines = []
    for line in text.splitlines():
        line = re.sub(r"^(#+ |)(\d+)(\.)", shift, line)
        if line.strip() and not line.startswith(("#", "|", "By:", "Name:", "Title:", "Date:")):
            line = f"{line} (Schedule {copy}.)"
        lines.append(line)
    return "\n".join(lines)


def fifty_pages(text: str) -> str:
    copies = math.ceil(PAGES * WORDS_PER_PAGE / len(text.split()))
    body = text.split("## Signatures")[0]  # one signature block, at the end
    return "\n\n".join(_renumbered(text if k == copies - 1 else body, k + 1, 16 * k) for k in range(copies))


def _run(fake, reference: Path, input: Path, cache: Path) -> dict:
    from conflictkit.config import load_config
    from conflictkit.engine import Engine
    from conflictkit.store import Store

    fake.reset()
    store = Store(cache / "cache.sqlite")
    started = time.perf_counter()
    result = Engine(load_config(ROOT / "configs" / "isaacus.yaml"), store=store).compare(str(reference), str(input))
    seconds = time.perf_counter() - started
    store.close()
    models: dict[str, dict] = {}
    for stage in result.params["usage"].values():
        for model, entry in stage["models"].items():
            agg = models.setdefault(model, {"requests": 0, "input_tokens": 0, "cost_usd": 0.0, "cached_texts": 0})
            for key in agg:
                agg[key] += entry[key] or 0
    summary = result.report["summary"]
    return {
        "http": {p: fake.count(p, status=None) for p in ENDPOINTS},
        "models": models,
        "seconds": seconds,
        "timings": dict(result.timings),
        "clauses": summary["clauses"],
        "pairs": summary["candidate_pairs"],
        "words": len(reference.read_text().split()) + len(input.read_text().split()),
    }


def _table(name: str, run: dict) -> list[str]:
    rows = [f"### {name}", "",
            f"{run['clauses']['reference']} + {run['clauses']['input']} clauses, {run['pairs']} candidate pairs, "
            f"{run['words']:,} words; {sum(run['http'].values())} HTTP requests "
            f"({', '.join(f'{p} {n}' for p, n in run['http'].items())}).", "",
            f"Wall time on 2 shared cores against the loopback fake: {run['seconds']:.1f} s, of which index (segment, filter, embed) "
            f"{run['timings'].get('index', 0):.1f} s, retrieve and judge {run['timings'].get('judge', 0):.1f} s, "
            f"partition, grounding and report {run['timings'].get('report', 0):.1f} s.", "",
            "| model | requests | input tokens | texts from cache | est. cost (USD) |", "|---|---:|---:|---:|---:|"]
    for model, m in sorted(run["models"].items()):
        rows.append(f"| {model} | {m['requests']} | {m['input_tokens']:,} | {m['cached_texts']} | {m['cost_usd']:.4f} |")
    total_tokens = sum(m["input_tokens"] for m in run["models"].values())
    total_cost = sum(m["cost_usd"] for m in run["models"].values())
    rows += [f"| **total** | {sum(m['requests'] for m in run['models'].values())} | {total_tokens:,} | "
             f"{sum(m['cached_texts'] for m in run['models'].values())} | {total_cost:.4f} |", ""]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "isaacus.md"))
    args = parser.parse_args()
    from conflictkit.testing.isaacus import FakeIsaacus

    fake = FakeIsaacus(api_key="bench-key")
    with fake.serve() as server, tempfile.TemporaryDirectory() as tmp:
        os.environ.update(ISAACUS_API_KEY="bench-key", ISAACUS_BASE_URL=server.base_url)
        tmp_path = Path(tmp)
        cold = _run(fake, REFERENCE, INPUT, tmp_path / "samples")
        warm = _run(fake, REFERENCE, INPUT, tmp_path / "samples")
        big_ref, big_inp = tmp_path / "reference-50p.md", tmp_path / "input-50p.md"
        big_ref.write_text(fifty_pages(REFERENCE.read_text()))
        big_inp.write_text(fifty_pages(INPUT.read_text()))
        big = _run(fake, big_ref, big_inp, tmp_path / "big")
    big_cost = sum(m["cost_usd"] for m in big["models"].values())
    lines = [
        "# Isaacus backend: requests, tokens and estimated cost (fake-API smoke figures)",
        "",
        "Measured with `python benchmarks/isaacus_usage.py` against `conflictkit.testing.isaacus.FakeIsaacus` served on",
        "127.0.0.1, `configs/isaacus.yaml`, isaacus==0.22.1. **These are not quality figures and not a bill**: the fake",
        "counts ~1.3 tokens per word (the Kanon tokenizer differs) and its lexical answers decide how many pairs",
        "survive retrieval. Prices are the public list (USD per 1M input tokens): embedder 0.35, reranker 0.35,",
        "classifier 1.00, enricher 3.50 (configurable: `prices`). Requests are logical API calls; retries are not counted.",
        "",
        "## The samples (reference-saas-agreement.md vs input-vendor-draft.md)",
        "",
        *_table("Cold cache", cold),
        *_table("Warm cache (a new engine, the same cache)", warm),
        f"## Two {PAGES}-page agreements",
        "",
        f"Synthetic: each sample repeated to {PAGES} pages x {WORDS_PER_PAGE} words, sections renumbered and every paragraph",
        "tagged so no text repeats. Cost grows with the number of clauses (retrieval keeps at most top_k x (n + m)",
        "pairs), not with its square. The copies are near-duplicates, so almost every clause fills its top 3 above",
        "cosine 0.5: the pair count, and the judge's share of the cost, sit near that bound (an upper estimate).",
        "",
        *_table(f"{PAGES}-page pair, cold cache", big),
        f"**Estimated cost of comparing two {PAGES}-page agreements: ${big_cost:.2f}** (fake token counts at list prices).",
        "A warm re-run, or a re-run with only a threshold changed, sends no request and costs $0.",
        "",
    ]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
