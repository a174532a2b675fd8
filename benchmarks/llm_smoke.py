"""Issue 16 smoke test (against the FAKE server, not a real model): what the llm cascade sends and costs.

    python benchmarks/llm_smoke.py [--out benchmarks/results/llm-smoke.md]

Runs the ``llm-cascade`` preset (legal-atoms, then the llm judge on the pairs it cannot settle,
then the llm explainer) with its base_url pointed at :class:`conflictkit.testing.openai.FakeOpenAI`
on a loopback port, on the sample and corpus document pairs, with a fresh cache. Reports per pair:
requests, prompt and completion tokens, the estimated cost at the preset's prices, and the pairs
sent to the LLM judge against max(n, m). The fake's answers are rules, not a model: the findings
and explanations say nothing about quality; the counts and costs are what a real endpoint would see.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
from pathlib import Path

from conflictkit.config import load_config, resolve
from conflictkit.engine import Engine
from conflictkit.store import Store
from conflictkit.testing.openai import FakeOpenAI

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from core_bench import PAIRS  # noqa: E402  (the same document pairs as the core benchmark)


def pointed_at(config, base_url: str):
    """The preset with every llm backend's model and base_url pointed at the fake."""
    data = config.model_dump(mode="json")
    for judge in data["pipeline"]["judge"]["options"]["judges"]:
        if judge["use"] == "llm":
            judge["options"].update(model="fake-model", base_url=base_url)
    data["pipeline"]["explainer"]["options"].update(model="fake-model", base_url=base_url)
    return resolve(data, "llm-cascade (fake)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/llm-smoke.md"))
    args = parser.parse_args()
    fake = FakeOpenAI()
    rows = []
    with fake.serve() as server:
        config = pointed_at(load_config("llm-cascade"), server.base_url)
        for name, ref, inp in PAIRS:
            if not (ref.is_file() and inp.is_file()):
                continue
            engine = Engine(config, store=Store(Path(tempfile.mkdtemp()) / "cache.sqlite"))
            result = engine.compare(str(ref), str(inp))
            usage = result.params["usage"]
            judge, explainer = usage["judge"].get("llm", {}), usage.get("explainer", {})
            n = max(len(result.reference.clauses), len(result.input.clauses))
            rows.append((name, len(result.candidates), judge.get("pairs_sent", 0), n, judge, explainer, len(result.report["findings"])))
    lines = [
        "# LLM cascade: requests, tokens and cost (SMOKE TEST against the fake server)",
        "",
        "Command: `python benchmarks/llm_smoke.py` (preset `llm-cascade`, model and base_url pointed at",
        "`conflictkit.testing.openai.FakeOpenAI`; prices as in the preset: $0.15 / $0.60 per million input / output tokens).",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}.",
        "The fake answers by rules: these rows measure what is sent, not how good the answers are.",
        "",
        "| pair | candidate pairs | pairs sent to the LLM judge | / max(n, m) | judge requests | explainer requests | prompt tokens | completion tokens | est. cost USD | findings |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, candidates, sent, n, judge, explainer, findings in rows:
        prompt = judge.get("prompt_tokens", 0) + explainer.get("prompt_tokens", 0)
        completion = judge.get("completion_tokens", 0) + explainer.get("completion_tokens", 0)
        cost = (judge.get("cost_usd") or 0) + (explainer.get("cost_usd") or 0)
        lines.append(f"| {name} | {candidates} | {sent} | {sent / n:.2f} | {judge.get('requests', 0)} | {explainer.get('requests', 0)} | "
                     f"{prompt} | {completion} | {cost:.4f} | {findings} |")
    lines += ["", "The judge sends two requests per pair (both directions); the explainer one for the parties and one per",
              "batch of 8 findings, each with both documents as context (which is where most prompt tokens go)."]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
