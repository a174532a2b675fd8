"""Rate-limit storms: 429 on every n-th request. A comparison rides them out (backoff, retry-after,
adaptive concurrency), gives up only after its time budget with a message saying how far it got,
and a re-run sends no request that was already answered."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from conflictkit.config import resolve
from conflictkit.engine import Engine
from conflictkit.errors import BackendError
from conflictkit.store import Store
from conflictkit.ratelimit import AdaptiveLimit, advertised_delay, backoff_delay

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "samples"
MNDA = ROOT.parent / "shared" / "corpus" / "commonpaper" / "mnda"
PRESET = yaml.safe_load((ROOT / "configs" / "isaacus.yaml").read_text())


def isaacus_config(judge: dict | None = None, **options) -> dict:
    """The published preset, each Isaacus stage with ``options``."""
    pipeline = {}
    for stage, spec in PRESET["pipeline"].items():
        if spec and spec.get("use") == "isaacus":
            extra = {**options, **(judge or {})} if stage == "judge" else options
            spec = {**spec, "options": {**spec.get("options", {}), **extra}}
        pipeline[stage] = spec
    return resolve({**PRESET, "pipeline": pipeline})


def compare(config, store, reference=SAMPLES / "reference-saas-agreement.md", input=SAMPLES / "input-vendor-draft.md"):
    return Engine(config, store=store).compare(str(reference), str(input))


def answered(fake) -> set[str]:
    return {json.dumps([r.path, r.body], sort_keys=True) for r in fake.requests if r.status == 200}


def test_backoff_honours_retry_after_and_jitters_otherwise():
    assert advertised_delay({"retry-after-ms": "250"}) == 0.25
    assert advertised_delay({"retry-after": "3"}) == 3.0
    assert advertised_delay({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) is None
    waits = {round(backoff_delay(2, None), 6) for _ in range(20)}
    assert len(waits) > 1 and all(1.0 <= w <= 2.0 for w in waits)  # window 0.5 * 2**2, jittered in its upper half
    assert all(0.25 <= backoff_delay(5, 0.25) <= 0.3 for _ in range(20))  # never earlier than the server asked


def test_adaptive_limit_halves_on_429_and_grows_back():
    limit = AdaptiveLimit(8)
    limit.throttled()
    limit.throttled()
    assert limit.limit == 2.0 and limit.lowest == 2.0
    for _ in range(40):
        limit.succeeded()
    assert limit.limit == 8.0


@pytest.mark.slow
@pytest.mark.parametrize("every", [2, 3, 4])
def test_a_comparison_completes_under_a_storm(served, fake, tmp_path, every):
    calm = compare(isaacus_config(), Store(tmp_path / "calm.sqlite"))
    fake.reset()
    fake.rate_limit(every, retry_after=0.002)
    stormy = compare(isaacus_config(), Store(tmp_path / "storm.sqlite"))
    assert fake.count(None, status=429) > 0
    assert stormy.report["findings"] == calm.report["findings"]


def test_persistent_429_gives_up_after_the_budget_saying_how_far_it_got(served, fake, tmp_path):
    fake.rate_limit(1, retry_after=0.02)  # every request refused
    with pytest.raises(BackendError, match=r"^Isaacus API /enrichments: rate limit \(429\) still hit after [\d.]+ s of retrying "
                                           r"\(retry_budget_s 0.1 s"):
        compare(isaacus_config(retry_budget_s=0.1), Store(tmp_path / "c.sqlite"))
    assert fake.count(None, status=429) >= 2  # it did back off and retry before giving up


@pytest.mark.slow
def test_a_rerun_after_a_failure_resends_no_answered_request(served, fake, tmp_path):
    """The judge's classifier answers of a call that failed part-way used to be dropped and asked again."""
    store = Store(tmp_path / "c.sqlite")
    fake.rate_limit(2, retry_after=0.05)
    budget = isaacus_config(rate_limit_budget=0.01, judge={"batch_size": 4})  # gives up at the first 429
    with pytest.raises(BackendError, match="requests of this step answered"):
        compare(budget, store)
    first = answered(fake)
    assert first
    fake.reset()
    done = compare(isaacus_config(judge={"batch_size": 4}), store)
    assert done.report["summary"]["judged_pairs"] > 0
    assert not first & answered(fake), "a request answered in the failed run was sent again"


@pytest.mark.slow
@pytest.mark.corpus
def test_the_mnda_pair_completes_with_429_on_every_second_request(served, fake, tmp_path):
    old, new = MNDA / "Mutual-NDA_v0.1.md", MNDA / "Mutual-NDA_v1.0.md"
    if not (old.is_file() and new.is_file()):
        pytest.skip(f"the Common Paper MNDA versions are not in {MNDA}")
    fake.rate_limit(2, retry_after=0.002)
    result = compare(isaacus_config(), Store(tmp_path / "c.sqlite"), old, new)
    assert fake.count(None, status=429) > 10
    assert result.report["summary"]["judged_pairs"] > 0


def test_the_budget_counts_only_time_without_an_answer(make, fake):
    """A long step that keeps getting answers through a storm never gives up, however long it takes."""
    from conflictkit_isaacus.embedder import IsaacusEmbedder

    embedder = make(IsaacusEmbedder, max_concurrency=1, batch_size=1, rate_limit_budget=0.3)
    fake.rate_limit(2, retry_after=0.05)
    started = time.monotonic()
    vectors = embedder.embed([f"clause number {n} of the agreement" for n in range(16)])
    assert vectors.shape[0] == 16
    assert fake.count("/embeddings", status=429) >= 15
    assert time.monotonic() - started > 0.3  # longer than the budget in all, never that long without an answer
