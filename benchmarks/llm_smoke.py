"""Smoke benchmark of the LLM stage: against a local OpenAI-compatible server you run, or the fake.

    # a real local server (llama.cpp, Ollama, vLLM, LM Studio...): see README, "A local model"
    python benchmarks/llm_smoke.py --base-url http://127.0.0.1:8080/v1 --model qwen2.5-1.5b-instruct \
        [--preset llm-local] [--pairs samples|all] [--out /tmp/llm-smoke-local.md]
    # the fake server (what CI-free runs of this script commit): a rule-following model, or one like a 1.5B model
    python benchmarks/llm_smoke.py [--fake good|small] [--out benchmarks/results/llm-smoke.md]

Kept out of CI (it needs a server, and a real model takes minutes). For each document pair it runs
what ``conflictkit compare --out`` runs: the comparison, the report written, then the explanations
added as they arrive. It reports when the report was on disk, how many findings were explained
and why the others were not, the llm judge's pairs, unreadable answers and probe, requests,
tokens, the endpoint's measured speeds, cancelled requests and the cost at the preset's prices.
The fake's answers are rules, not a model: with it, the rows measure what is sent, not quality.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from conflictkit.config import load_config, resolve
from conflictkit.engine import Engine
from conflictkit.errors import ConflictkitError
from conflictkit.report.writer import write_outputs
from conflictkit.store import Store

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from core_bench import PAIRS  # noqa: E402  (the same document pairs as the core benchmark)


def pointed_at(preset: str, base_url: str, model: str):
    """The preset with every llm backend's model and base_url set (prices and the cost ceiling kept)."""
    data = load_config(preset).model_dump(mode="json")
    specs = [data["pipeline"]["explainer"]] if data["pipeline"].get("explainer") else []
    judge = data["pipeline"]["judge"]
    specs += [s for s in (judge.get("options") or {}).get("judges", [judge]) if s["use"] == "llm"]
    for spec in specs:
        spec["options"].update(model=model, base_url=base_url)
    return resolve(data, f"{preset} ({base_url})")


def smoke(config, ref: Path, inp: Path, out: Path) -> dict:
    """One pair as `compare --out` runs it: findings written first, explanations added as they arrive."""
    engine = Engine(config, store=Store(Path(tempfile.mkdtemp(prefix="llm-smoke-")) / "cache.sqlite"))
    started = time.perf_counter()
    result = engine.compare(str(ref), str(inp), explain=False)
    write_outputs(result, out)
    written = time.perf_counter() - started
    error = None
    try:
        engine.explain(result, lambda done: write_outputs(done, out))
    except ConflictkitError as exc:
        error = str(exc)
    usage = engine.params()["usage"]
    judge = usage.get("judge", {})
    judge = judge.get("llm", judge) if isinstance(judge, dict) else {}
    info = result.report.get("explainer") or {}
    return {"findings": len(result.report["findings"]), "written_s": written, "total_s": time.perf_counter() - started,
            "explained": info.get("explained", 0), "problems": info.get("problems", []), "error": error,
            "judge": judge, "explainer": usage.get("explainer", {}),
            "n": max(len(result.reference.clauses), len(result.input.clauses))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint (default: the fake server, on a loopback port)")
    parser.add_argument("--model", default="fake-model", help="the model id the endpoint serves")
    parser.add_argument("--preset", default=None, help="llm-cascade (default with the fake) or llm-local (default with --base-url)")
    parser.add_argument("--fake", choices=("good", "small"), default="good", help="the fake's model: rule-following, or like a 1.5B model")
    parser.add_argument("--pairs", choices=("samples", "all"), default=None, help="default: all with the fake, samples with a server")
    parser.add_argument("--only", default="", help="only the pairs whose name holds this text (e.g. NDA)")
    parser.add_argument("--out", default=None, help="the Markdown table (default: benchmarks/results/llm-smoke.md with the fake)")
    args = parser.parse_args()
    preset = args.preset or ("llm-local" if args.base_url else "llm-cascade")
    chosen = PAIRS[:2] if (args.pairs or ("samples" if args.base_url else "all")) == "samples" else PAIRS
    chosen = [pair for pair in chosen if args.only in pair[0]]
    out_file = args.out or (None if args.base_url else str(ROOT / "benchmarks/results/llm-smoke.md"))
    rows = []
    with contextlib.ExitStack() as stack:
        if args.base_url:
            base_url, endpoint = args.base_url, f"`{args.base_url}`, model `{args.model}`"
        else:
            from conflictkit.testing.openai import FakeOpenAI

            fake = FakeOpenAI.small_model() if args.fake == "small" else FakeOpenAI()
            base_url = stack.enter_context(fake.serve()).base_url
            endpoint = f"the fake server (`FakeOpenAI{'.small_model()' if args.fake == 'small' else '()'}`)"
        config = pointed_at(preset, base_url, args.model)
        for name, ref, inp in chosen:
            if not (ref.is_file() and inp.is_file()):
                continue
            print(f"... {name}", file=sys.stderr, flush=True)
            rows.append((name, smoke(config, ref, inp, Path(tempfile.mkdtemp(prefix="llm-smoke-out-")))))
    lines = [
        f"# LLM stage smoke test: preset `{preset}` against {endpoint}",
        "",
        f"Command: `python {' '.join(['benchmarks/llm_smoke.py', *sys.argv[1:]])}`.",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.1f} at the end.",
        "" if args.base_url else "The fake answers by rules: these rows measure what is sent, not how good the answers are.",
        "",
        "| pair | findings | report on disk (s) | explained | not explained, why | judge pairs / max(n, m) | unreadable | probe | "
        "requests | prompt / completion tokens | prompt tok/s | tok/s | cancelled | est. cost USD | total s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in rows:
        judge, explainer = r["judge"], r["explainer"]
        why = "; ".join(f"{p['findings']} {p['problem']}" for p in r["problems"]) or "-"
        if r["error"]:
            why = f"explainer failed: {r['error'][:120]}"
        requests = judge.get("requests", 0) + explainer.get("requests", 0)
        tokens = (f"{judge.get('prompt_tokens', 0) + explainer.get('prompt_tokens', 0)} / "
                  f"{judge.get('completion_tokens', 0) + explainer.get('completion_tokens', 0)}")
        speeds = [explainer.get("prompt_tokens_per_s") or judge.get("prompt_tokens_per_s"),
                  explainer.get("tokens_per_s") or judge.get("tokens_per_s")]
        cost = (judge.get("cost_usd") or 0) + (explainer.get("cost_usd") or 0)
        sent = judge.get("pairs_sent", 0)
        lines.append(
            f"| {name} | {r['findings']} | {r['written_s']:.1f} | {r['explained']} | {why} | {sent} / {r['n']} | "
            f"{judge.get('unreadable_answers', 0)} | {'failed' if judge.get('failed_probe') else 'passed' if judge else '-'} | "
            f"{requests} | {tokens} | {speeds[0] if speeds[0] is not None else '-'} | {speeds[1] if speeds[1] is not None else '-'} | "
            f"{judge.get('cancelled', 0) + explainer.get('cancelled', 0)} | {cost:.4f} | {r['total_s']:.1f} |")
    lines += ["", "The judge sends two requests per pair (both directions) and one probe; the explainer one for the parties",
              "and one per batch of findings. A failed probe means the model called a clause and itself a contradiction:",
              "its quotes are not kept, so it cannot raise a verdict of the rules judge."]
    text = "\n".join(lines) + "\n"
    if out_file:
        Path(out_file).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
