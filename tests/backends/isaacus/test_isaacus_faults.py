"""Every fault a hosted API can throw at a comparison, from the fake: storms of 500/503/429, hangs and
dropped connections on every 2nd request are ridden out; a broken answer (an HTML page, an empty
body, malformed JSON, NaN, a vector of the wrong size) fails in one line (exit 2) naming the
endpoint, is never cached, and a re-run sends only what was not answered."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from conflictkit.errors import ResponseError
from conflictkit.store import Store
from conflictkit.testing.loopback import STORMS
from conflictkit_isaacus.cache import NS_EMBEDDINGS, NS_SCORES, embedding_key, json_bytes, score_key, vector_bytes
from conflictkit_isaacus.embedder import IsaacusEmbedder
from conflictkit_isaacus.scorer import IsaacusScorer
from tests.backends.isaacus.conftest import INPUT, REFERENCE
from tests.backends.isaacus.test_isaacus_storms import compare, isaacus_config

FAST = {"backoff_s": 0.01}  # the policy's own backoff, shortened so the storms take seconds, not minutes


def answered(fake) -> set[str]:
    import json

    return {json.dumps([r.path, r.body], sort_keys=True) for r in fake.requests if r.answered}


@pytest.mark.slow
@pytest.mark.parametrize("fault", STORMS)
def test_a_comparison_completes_with_a_fault_on_every_second_request(served, fake, tmp_path, fault):
    calm = compare(isaacus_config(**FAST), Store(tmp_path / "calm.sqlite"))
    fake.reset()
    fake.storm(every=2, **STORMS[fault])
    stormy = compare(isaacus_config(**FAST, timeout=0.5), Store(tmp_path / "storm.sqlite"))
    assert fake.faults_injected > 5  # the storm did hit
    assert stormy.report["findings"] == calm.report["findings"]


@pytest.mark.parametrize("kind, path, message", [
    ("html", "/rerankings", "answered 200 with an HTML page instead of JSON"),
    ("empty", "/classifications/universal", "answered 200 with an empty body"),
    ("malformed", "/enrichments", "answered 200 with malformed JSON"),
    ("nan", "/rerankings", "answered a score of nan"),
    ("out_of_range", "/classifications/universal", "answered a score of 1.7"),
    ("nan", "/embeddings", "answered an embedding holding NaN"),
    ("short_vector", "/embeddings", "answered an embedding of 3 numbers where kanon-2-embedder gives 1792"),
])
def test_a_broken_answer_fails_keeps_what_was_answered_and_is_never_cached(served, fake, tmp_path, kind, path, message):
    store = Store(tmp_path / "c.sqlite")
    fake.corrupt(kind, path=path)
    with pytest.raises(ResponseError, match=rf"^Isaacus API {path} {message}") as raised:
        compare(isaacus_config(**FAST), store)
    assert raised.value.exit_code == 2
    first, broken = answered(fake), [r for r in fake.requests if r.corrupted]
    assert len(broken) == 1
    fake.reset()
    done = compare(isaacus_config(**FAST), store)  # the API healthy again
    assert done.report["summary"]["judged_pairs"] > 0
    assert not first & answered(fake), "a request answered in the failed run was sent again"
    assert any(r.path == path and r.body == broken[0].body for r in fake.requests)  # the broken one was asked again


def test_vectors_of_another_size_are_refused_not_used(make, fake):
    """A run with every embedding at 256 dimensions used to complete, with other findings."""
    fake.storm(every=1, status=None, corruption="wrong_size")
    with pytest.raises(ResponseError, match="embedding of 256 numbers where kanon-2-embedder gives 1792"):
        make(IsaacusEmbedder).embed(["Customer shall pay.", "Provider shall deliver."])
    fake.reset()
    assert make(IsaacusEmbedder, dimensions=256).embed(["Customer shall pay."]).shape == (1, 256)  # asked for: fine


def test_bad_answers_cached_by_an_earlier_version_are_asked_again(make, fake, store):
    """A NaN score or a 3-number vector in the cache used to fail every later run until the cache was deleted."""
    store.put(NS_EMBEDDINGS, embedding_key("kanon-2-embedder", "retrieval/document", None, "hello"), vector_bytes([0.1, 0.2, 0.3]))
    store.put(NS_SCORES, score_key("rerank", "kanon-2-reranker", False, "auto", "q", "t"), json_bytes(math.nan))
    vectors = make(IsaacusEmbedder).embed(["hello"])
    assert vectors.shape == (1, 1792) and np.isfinite(vectors).all() and fake.count("/embeddings") == 1
    (score,) = make(IsaacusScorer).score([("q", "t")])
    assert 0.0 <= score <= 1.0 and fake.count("/rerankings") == 1
    make(IsaacusEmbedder).embed(["hello"])
    assert fake.count("/embeddings") == 1  # the good answer replaced the bad one in the cache


def test_through_the_cli_a_broken_answer_is_one_line_and_exit_2(served, fake, tmp_path):
    fake.corrupt("html", path="/embeddings")
    env = {"CONFLICTKIT_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin",
           "ISAACUS_API_KEY": "test-key", "ISAACUS_BASE_URL": served.base_url}
    proc = subprocess.run([sys.executable, "-m", "conflictkit", "compare", REFERENCE, INPUT, "--config", "isaacus",
                           "--out", tmp_path / "out"], capture_output=True, text=True, env=env, timeout=300)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr
    assert lines[0].startswith("conflictkit: error: Isaacus API /embeddings answered 200 with an HTML page")
    assert not (tmp_path / "out").exists()
