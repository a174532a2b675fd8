"""The cascade's contract, measured: what a poor LLM tier does to the rules judge's false positives.

Issue 28's 1.5B local model answered CONTRADICTION to every pair; as the second tier of the
``llm-cascade`` preset it turned harmless clauses into findings. :func:`measure` judges the
clause-pair splits with the preset's judges pointed at :class:`conflictkit.testing.openai.FakeOpenAI`
answering like that model, and returns per split and category the false-positive rate (consistent
pairs) or recall (conflict pairs) of each variant next to the rules judge alone. Needs the
``conflictkit-openai`` plugin (the fake speaks its wire format).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from conflictkit.bench.datasets import ClausePairDataset
from conflictkit.bench.harness import pair_scores
from conflictkit.bench.metrics import per_category
from conflictkit.config import Config, load_config, resolve
from conflictkit.engine import Engine
from conflictkit.store import Store


@dataclass(frozen=True)
class Variant:
    """One judge set-up: the fake's behaviour (None: the rules judge alone), the cascade's overrule, the llm probe."""

    name: str
    fake: dict | None = None
    overrule: str = "quoted"
    probe: bool = True


VARIANTS = (
    Variant("rules judge alone (legal-atoms)"),
    Variant("always-CONTRADICTION, one word (as the 1.5B model answered)", {"judge": "contradiction", "quote": False}),
    Variant("always-CONTRADICTION, quoting the first changed words", {"judge": "contradiction", "quote": True}),
    Variant("always-CONTRADICTION, quoting, probe off", {"judge": "contradiction", "quote": True}, probe=False),
    Variant("CONTRADICTION unless identical, quoting (passes the probe)", {"judge": "paranoid", "quote": True}),
    Variant("always-CONTRADICTION, one word, overrule: free (before the contract)", {"judge": "contradiction", "quote": False}, "free"),
    Variant("rule-following fake, quoting", {"judge": "rules", "quote": True}),
)


def cascade_config(base_url: str | None, overrule: str = "quoted", probe: bool = True) -> Config:
    """The ``llm-cascade`` preset's judges (its llm tier at ``base_url``), or legal-atoms alone for None."""
    data = load_config("llm-cascade").model_dump(mode="json")
    data["pipeline"]["explainer"] = None
    judge = data["pipeline"]["judge"]
    if base_url is None:
        data["pipeline"]["judge"] = judge["options"]["judges"][0]
    else:
        for spec in judge["options"]["judges"]:
            if spec["use"] == "llm":
                spec["options"].update(model="fake-model", base_url=base_url, prices={}, max_usd=None, backoff_s=0.0, probe=probe)
        judge["options"]["overrule"] = overrule
    return resolve(data, "llm-cascade (bench)")


def judged_scores(config: Config, datasets: Sequence[ClausePairDataset]) -> list[list[float]]:
    """The score the pipeline acts on (P(conflict) of a same-matter pair, else 0) for every pair of each dataset."""
    engine = Engine(config, store=Store(Path(tempfile.mkdtemp(prefix="contract-")) / "cache.sqlite"))
    out = []
    for dataset in datasets:
        judged = engine.judge_texts([(p.reference, p.input) for p in dataset.pairs])
        out.append(list(pair_scores(judged, config.thresholds.same_matter)))
    return out


def measure(datasets: Sequence[ClausePairDataset], variants: Sequence[Variant] = VARIANTS,
            progress: Callable[[str], None] = lambda _: None) -> dict[str, dict[str, dict]]:
    """``{variant: {dataset: {category: per-category metric}}}`` at the preset's conflict threshold."""
    from conflictkit.testing.openai import FakeOpenAI

    results: dict[str, dict[str, dict]] = {}
    for variant in variants:
        progress(variant.name)
        fake = FakeOpenAI(**variant.fake) if variant.fake is not None else None
        if fake is None:
            config = cascade_config(None)
            scores = judged_scores(config, datasets)
        else:
            with fake.serve() as server:
                config = cascade_config(server.base_url, variant.overrule, variant.probe)
                scores = judged_scores(config, datasets)
        threshold = config.thresholds.conflict
        results[variant.name] = {
            dataset.name: per_category([p.category for p in dataset.pairs], [int(p.label == "conflict") for p in dataset.pairs],
                                       [s >= threshold for s in dataset_scores])
            for dataset, dataset_scores in zip(datasets, scores)
        }
    return results


def false_positive_rate(metrics: dict[str, dict], categories: Sequence[str]) -> tuple[int, int]:
    """(flagged, pairs) over the given consistent categories of one dataset's per-category metrics."""
    flagged = sum(metrics[c]["flagged"] for c in categories if c in metrics)
    return flagged, sum(metrics[c]["n"] for c in categories if c in metrics)
