"""The Ray engine on Ray started here and on a real head (`ray start --head`): the same folders, byte for byte,
as the local engine; relative paths from another folder; --workers; a killed worker's pair run again."""

import json
import shutil
import threading
import time

import pytest
import yaml

from conflictkit.batch import pairs_from_inputs, run_batch
from conflictkit.batch.engines import LocalEngine, available_engines, get_engine
from conflictkit.config import config_data
from conflictkit.report.sets import MANIFEST
from tests.cli.test_compare import run
from tests.conftest import FAST_CONFIG, INPUT, REFERENCE

pytest.importorskip("ray")
pytestmark = [pytest.mark.slow]


@pytest.fixture(scope="module")
def head():
    from conflictkit_ray.testing import LocalRayHead

    with LocalRayHead(cpus=2) as started:
        yield started


@pytest.fixture
def work(tmp_path):
    """A project folder: reference.md, contracts/ (two drafts and a binary file), fast.yaml."""
    (tmp_path / "contracts").mkdir()
    (tmp_path / "reference.md").write_text(REFERENCE.read_text())
    (tmp_path / "contracts/draft.md").write_text(INPUT.read_text())
    (tmp_path / "contracts/longer.md").write_text(REFERENCE.read_text().replace("thirty (30) days", "ninety (90) days"))
    (tmp_path / "contracts/broken.md").write_bytes(b"\x00\x01\x02 not text")
    (tmp_path / "fast.yaml").write_text(yaml.safe_dump(FAST_CONFIG))
    return tmp_path


TIMED = ("params.json", "batch-row.json")  # files whose only difference between two runs is a timing


def same_folders(a, b) -> None:
    """Every pair folder of two batch outputs holds the same bytes (timings aside)."""
    folders = sorted(p.name for p in a.iterdir() if p.is_dir())
    assert folders == sorted(p.name for p in b.iterdir() if p.is_dir()) and folders
    for folder in folders:
        names = sorted(f.name for f in (a / folder).iterdir())
        assert names == sorted(f.name for f in (b / folder).iterdir())
        for name in names:
            x, y = (a / folder / name).read_bytes(), (b / folder / name).read_bytes()
            if name == "params.json":
                x, y = ({k: v for k, v in json.loads(d).items() if k != "timings"} for d in (x, y))
            elif name == "batch-row.json":
                x, y = ({k: v for k, v in json.loads(d).items() if k != "seconds"} for d in (x, y))
            elif name == MANIFEST:  # the same files; the digests of those holding timings differ
                x, y = ({n: h for n, h in json.loads(d)["files"].items() if n not in TIMED} for d in (x, y))
            assert x == y, f"{folder}/{name} differs"


def test_the_plugin_registers_the_ray_engine():
    assert "ray" in available_engines()


def test_ray_started_here_writes_what_the_local_engine_writes(portfolio, fast_config, tmp_path):
    reference, folder = portfolio
    pairs = pairs_from_inputs(str(reference), [str(folder)])
    data = config_data(fast_config)
    local = run_batch(pairs, data, tmp_path / "local", LocalEngine(workers=1))
    on_ray = run_batch(pairs, data, tmp_path / "ray", get_engine("ray", 2, None))
    strip = lambda o: {**o.to_dict(), "seconds": 0}  # noqa: E731
    assert [strip(o) for o in on_ray.outcomes] == [strip(o) for o in local.outcomes]
    same_folders(tmp_path / "local", tmp_path / "ray")
    assert not (tmp_path / "ray" / ".conflictkit-ray-token").exists()


def test_a_cluster_batch_from_another_folder_with_relative_paths(head, work):
    local = run("batch", "--reference", "reference.md", "contracts", "--out", "local", "--config", "fast.yaml",
                "--workers", "1", cwd=work)
    assert local.returncode == 4, local.stderr  # the binary file fails, the batch goes on
    proc = run("batch", "--engine", "ray", "--address", head.address, "--workers", "2", "--reference", "reference.md",
               "contracts", "--out", "ray", "--config", "fast.yaml", cwd=work)
    assert proc.returncode == 4, proc.stderr
    assert "ray: 2 workers on the cluster at" in proc.stderr and "the workers write the pair folders" in proc.stderr
    assert "looks like binary data" in proc.stderr and "Traceback" not in proc.stderr
    same_folders(work / "local", work / "ray")
    rows = json.loads((work / "ray/summary.json").read_text())
    assert [r["status"] for r in sorted(rows["pairs"], key=lambda r: r["input"])] == ["failed", "ok", "ok"]


def test_workers_is_honoured_even_past_the_cluster_cpus(head, work):
    shutil.rmtree(work / "contracts")
    (work / "contracts").mkdir()
    for k in range(4):
        (work / f"contracts/draft{k}.md").write_text(INPUT.read_text().replace("Customer", f"Customer {k}", 1))
    proc = run("batch", "--engine", "ray", "--address", head.address, "--workers", "4", "--reference", "reference.md",
               "contracts", "--out", "out", "--config", "fast.yaml", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert "ray: 4 workers on 2 CPUs: each gets 0.50 of a CPU" in proc.stderr and "ray: 4 workers on the cluster" in proc.stderr


def test_ray_client_addresses_work(head, work):
    pytest.importorskip("grpc")
    proc = run("batch", "--engine", "ray", "--address", head.client_address, "--workers", "1", "--reference",
               "reference.md", "contracts/draft.md", "--out", "out", "--config", "fast.yaml", cwd=work)
    assert proc.returncode == 0, proc.stderr


def test_an_address_where_nothing_listens_is_a_quick_clear_error(work):
    from conflictkit_ray.testing import free_port

    started = time.monotonic()
    proc = run("batch", "--engine", "ray", "--address", f"127.0.0.1:{free_port()}", "--reference", "reference.md",
               "contracts", "--out", "out", "--config", "fast.yaml", cwd=work)
    assert proc.returncode == 2 and "cannot reach Ray at 127.0.0.1:" in proc.stderr and "ray start --head" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and time.monotonic() - started < 60


def test_a_killed_worker_s_pair_is_run_again_without_a_rerun(head, work):
    """The worker is killed (SIGKILL, by its process id) while its pair waits on a slow LLM answer."""
    import os
    import signal

    from conflictkit.testing.openai import FakeOpenAI

    fake = FakeOpenAI()
    with fake.serve() as server:
        config = {**FAST_CONFIG, "pipeline": {**FAST_CONFIG["pipeline"], "judge": {"use": "llm", "options": {
            "model": "fake-model", "base_url": server.base_url, "probe": False, "backoff_s": 0.0}}}}
        (work / "llm.yaml").write_text(yaml.safe_dump(config))
        (work / "contracts/broken.md").unlink()
        fake.delay(120.0, times=1)  # the first request hangs until its worker is gone
        result: dict = {}
        batch = threading.Thread(target=lambda: result.update(proc=run(
            "batch", "--engine", "ray", "--address", head.address, "--workers", "1", "--reference", "reference.md",
            "contracts", "--out", "out", "--config", "llm.yaml", cwd=work)))
        batch.start()
        deadline = time.monotonic() + 300
        while not fake.requests and time.monotonic() < deadline:
            time.sleep(0.2)
        (victim,) = head.worker_pids()
        os.kill(victim, signal.SIGKILL)
        batch.join(timeout=600)
    proc = result["proc"]
    assert proc.returncode == 0, proc.stderr
    rows = json.loads((work / "out/summary.json").read_text())["pairs"]
    assert [r["status"] for r in rows] == ["ok", "ok"]
    assert victim not in head.worker_pids()
    first = json.dumps(fake.requests[0].body["messages"])
    assert sum(json.dumps(r.body["messages"]) == first for r in fake.requests) >= 2  # the killed pair was asked again


def test_a_pair_that_kills_its_worker_every_time_fails_alone(head, work):
    """After PAIR_RETRIES runs the pair is recorded as failed, and the other pairs are done."""
    import os
    import signal

    from conflictkit.testing.openai import FakeOpenAI
    from conflictkit_ray.engine import PAIR_RETRIES

    fake = FakeOpenAI()
    with fake.serve() as server:
        config = {**FAST_CONFIG, "pipeline": {**FAST_CONFIG["pipeline"], "judge": {"use": "llm", "options": {
            "model": "fake-model", "base_url": server.base_url, "probe": False, "backoff_s": 0.0, "max_concurrency": 1}}}}
        (work / "llm.yaml").write_text(yaml.safe_dump(config))
        (work / "contracts/broken.md").unlink()
        (work / "contracts/longer.md").unlink()
        (work / "contracts/doomed.md").write_text("The Customer shall pay within 90 days.\n")
        doomed = "within 90 days"
        fake.script = lambda body: (time.sleep(60), "NEUTRAL")[1] if doomed in json.dumps(body["messages"]) else "ENTAILMENT"
        result: dict = {}
        batch = threading.Thread(target=lambda: result.update(proc=run(
            "batch", "--engine", "ray", "--address", head.address, "--workers", "1", "--reference", "reference.md",
            "contracts", "--out", "out", "--config", "llm.yaml", cwd=work)))
        batch.start()
        killed: set[int] = set()
        deadline = time.monotonic() + 900
        while batch.is_alive() and time.monotonic() < deadline:
            asked = sum(doomed in json.dumps(r.body["messages"]) for r in list(fake.requests))
            if asked > len(killed):  # the doomed pair is in flight on a worker not killed yet
                for pid in head.worker_pids():
                    if pid not in killed:
                        os.kill(pid, signal.SIGKILL)
                        killed.add(pid)
            time.sleep(0.2)
        batch.join(timeout=60)
    proc = result["proc"]
    assert proc.returncode == 4, proc.stderr
    rows = {r["input"]: r for r in json.loads((work / "out/summary.json").read_text())["pairs"]}
    assert rows["contracts/draft.md"]["status"] == "ok"
    assert rows["contracts/doomed.md"]["status"] == "failed"
    assert f"died on this pair {PAIR_RETRIES + 1} times" in rows["contracts/doomed.md"]["error"]
    assert len(killed) == PAIR_RETRIES + 1
