"""End to end: `conflictkit compare --config configs/isaacus.yaml` on the samples, through the CLI, against
the fake served on loopback, with injected 429s and 503s; then warm cache, a threshold change, and failure."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
REFERENCE = ROOT / "samples" / "reference-saas-agreement.md"
INPUT = ROOT / "samples" / "input-vendor-draft.md"
CONFIG = ROOT / "configs" / "isaacus.yaml"

pytestmark = pytest.mark.slow


@pytest.fixture
def server(fake):
    with fake.serve() as srv:
        yield srv


@pytest.fixture
def run(server, tmp_path):
    env = {**os.environ, "ISAACUS_API_KEY": "test-key", "ISAACUS_BASE_URL": server.base_url,
           "CONFLICTKIT_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("CONFLICTKIT_LOAD_PLUGINS", None)
    env.pop("CONFLICTKIT_NO_ENTRY_POINTS", None)

    def compare(out: str, config: Path = CONFIG, *extra: str) -> subprocess.CompletedProcess:
        args = [sys.executable, "-m", "conflictkit", "compare", "--config", str(config), str(REFERENCE), str(INPUT),
                "--out", str(tmp_path / out), "--format", "json", *extra]
        return subprocess.run(args, capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)

    return compare


def test_compare_through_the_cli_survives_rate_limits_and_server_errors(run, fake, tmp_path):
    fake.fail(429, times=2, path="/enrichments", retry_after=0.01)
    fake.fail(429, times=2, path="/embeddings", retry_after=0.01)
    fake.fail(503, times=2, path="/classifications/universal", retry_after=0.01)
    fake.fail(503, times=2, path="/rerankings", retry_after=0.01)
    done = run("cold")
    assert done.returncode == 0, done.stderr
    assert fake.count(None, status=429) == 4 and fake.count(None, status=503) == 4
    report = json.loads((tmp_path / "cold" / "report.json").read_text())
    params = json.loads((tmp_path / "cold" / "params.json").read_text())
    assert report["summary"]["candidate_pairs"] > 0 and report["summary"]["judged_pairs"] == report["summary"]["candidate_pairs"]
    usage = params["usage"]
    assert set(usage) == {"segmenter", "filter", "embedder", "judge"}
    assert usage["segmenter"]["models"]["kanon-2-enricher"]["requests"] == 2
    assert usage["judge"]["cost_usd"] > 0
    assert "test-key" not in json.dumps(params)
    for finding in report["findings"]:
        for side, path in (("reference", REFERENCE), ("input", INPUT)):
            quote = finding.get(side)
            if quote:
                assert path.read_text()[quote["start"] : quote["end"]] == quote["text"]

    fake.reset()
    warm = run("warm")
    assert warm.returncode == 0, warm.stderr
    assert fake.requests == []  # every answer came from the cache
    assert json.loads((tmp_path / "warm" / "report.json").read_text())["findings"] == report["findings"]

    lower = tmp_path / "lower.yaml"
    lower.write_text(CONFIG.read_text().replace("conflict: 0.728", "conflict: 0.2"))
    changed = run("threshold", lower)
    assert changed.returncode == 0, changed.stderr
    assert fake.requests == []  # a threshold is not part of any cache key


def test_persistent_server_errors_fail_in_one_line_with_no_report(run, fake, tmp_path):
    fake.fail(503, times=1000, path="/rerankings", retry_after=0.01)
    done = run("failed")
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("conflictkit: error: Isaacus API /rerankings: server error (503) after 6 retries")
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "failed" / "report.json").exists()


def test_missing_key_fails_before_any_request(server, fake, tmp_path):
    env_free = {k: v for k, v in os.environ.items() if k != "ISAACUS_API_KEY"}
    env_free["ISAACUS_BASE_URL"] = server.base_url  # reachable: nothing may be sent all the same
    args = [sys.executable, "-m", "conflictkit", "compare", "--config", str(CONFIG), str(REFERENCE), str(INPUT)]
    done = subprocess.run(args, capture_output=True, text=True, env={**env_free, "CONFLICTKIT_CACHE_DIR": str(tmp_path / "c")},
                          timeout=120, cwd=ROOT)
    assert done.returncode == 2
    assert "export ISAACUS_API_KEY=..." in done.stderr and "Traceback" not in done.stderr
    assert fake.requests == []
