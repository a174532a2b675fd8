"""A runaway upload or comparison fails its job, with its error shown, in a worker process of its own:
the server keeps answering and the next job runs. Slow clients are cut off."""

from __future__ import annotations

import socket
import threading
import time

import pytest
import yaml

from conflictkit.testing.hostile import one_line
from conflictkit.web.reviews import ReviewStore
from tests.web.conftest import sample_pair, wait_for_job

FAST = {"pipeline": {"segmenter": {"use": "rules"}, "embedder": {"use": "hashing"}, "retriever": {"use": "cosine"},
                     "judge": {"use": "legal-atoms"}}}


def config_file(tmp_path, **limits) -> str:
    path = tmp_path / "server.yaml"
    path.write_text(yaml.safe_dump({**FAST, "limits": limits}))
    return str(path)


def compare_samples(client) -> dict:
    ref, inp = sample_pair()
    response = client.post("/compare", data={"config": "default"},
                           files={"reference": (ref.name, ref.read_bytes()), "input": (inp.name, inp.read_bytes())})
    assert response.status_code == 303, response.text[-400:]
    return wait_for_job(client, response.headers["location"])


def test_a_job_that_overruns_its_time_fails_and_the_next_one_runs(make_client, tmp_path):
    ref, _ = sample_pair()
    store = ReviewStore(tmp_path / "reviews.sqlite")
    slow = one_line(1_500_000).encode()  # tens of seconds of judging: far past a 2 s limit
    store.add_job("0123456789abcdef", None, "default", ref.name, "slow.txt", ref.read_bytes(), slow)
    client = make_client(config_path=config_file(tmp_path), job_timeout=2.0)
    failed = wait_for_job(client, "/jobs/0123456789abcdef")
    assert failed["state"] == "failed" and "stopped after 2 s" in failed["error"] and "--job-timeout" in failed["error"]
    assert client.get("/").status_code == 200
    client.app.conflictkit.settings.job_timeout = 600.0  # the same server, with time enough
    client.app.conflictkit.runner.workers[0].limits = client.app.conflictkit.settings.worker_limits
    assert compare_samples(client)["state"] == "done"


def test_an_upload_or_a_job_over_its_memory_fails_and_the_server_lives(make_client, tmp_path):
    pytest.importorskip("pypdfium2")
    from conflictkit_pdf.testing import flate_bomb_pdf

    ref, _ = sample_pair()
    # a worker's address space: what this process has mapped (its imports are a worker's, and more), and room
    # for a comparison of the samples; the bomb inflates past it
    memory_mb = _mapped_mb() + 300
    bomb = flate_bomb_pdf((memory_mb + 300) * 2**20)  # a MB or so, the limits in the config allowing it
    store = ReviewStore(tmp_path / "reviews.sqlite")
    store.add_job("0123456789abcdef", None, "default", ref.name, "bomb.pdf", ref.read_bytes(), bomb)  # queued, unchecked
    client = make_client(config_path=config_file(tmp_path, max_unpacked_bytes=10**10, max_document_bytes=10**8),
                         job_memory_mb=memory_mb, max_upload_bytes=10**8)
    failed = wait_for_job(client, "/jobs/0123456789abcdef")
    assert failed["state"] == "failed" and "--job-memory-mb" in failed["error"], failed["error"]
    refused = client.post("/compare", data={"config": "default"},
                          files={"reference": (ref.name, ref.read_bytes()), "input": ("bomb.pdf", bomb)})
    assert refused.status_code == 400 and "--job-memory-mb" in refused.text  # the upload's check died, not the server
    assert client.get("/").status_code == 200
    assert compare_samples(client)["state"] == "done"


def _mapped_mb() -> int:
    status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines() if ":" in line)
    return int(status["VmSize"].split()[0]) // 1024


def test_an_upload_is_read_in_a_process_of_its_own(make_client):
    client = make_client()
    ref, _ = sample_pair()
    response = client.post("/compare", data={"config": "default"},
                           files={"reference": (ref.name, ref.read_bytes()), "input": ("empty.md", b"")})
    assert response.status_code == 400 and "empty.md is empty" in response.text  # the loader's own words, from the worker
    assert not any(worker.running for worker in client.app.conflictkit.runner.workers)  # no comparison worker started


@pytest.fixture
def live_server(tmp_path):
    """The app on a real socket with uvicorn and the timed protocol, with short timeouts."""
    import uvicorn

    from conflictkit.web.app import Settings, create_app
    from conflictkit.web.timeouts import TimedH11Protocol

    class Quick(TimedH11Protocol):
        header_seconds = 1.0
        body_pause_seconds = 1.0

    app = create_app(Settings(db_path=tmp_path / "r.sqlite", config_path="fast"))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(256)
    server = uvicorn.Server(uvicorn.Config(app, http=Quick, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield sock.getsockname()
    server.should_exit = True
    thread.join(10)
    app.conflictkit.runner.shutdown()


def _closed(connection: socket.socket, within: float) -> bool:
    connection.settimeout(within)
    try:
        return connection.recv(1024) == b""
    except OSError:
        return False


def test_slow_headers_and_stalled_bodies_are_cut_off_and_the_server_answers(live_server):
    import httpx

    host, port = live_server
    slow = []
    for _ in range(50):
        connection = socket.create_connection((host, port))
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line that ends the headers
        slow.append(connection)
    stalled = socket.create_connection((host, port))
    stalled.sendall(b"POST /compare HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                    b"Content-Length: 100000\r\n\r\n--b\r\n")
    assert httpx.get(f"http://{host}:{port}/", timeout=10).status_code == 200  # answered while they hang
    assert all(_closed(connection, within=5) for connection in slow)
    assert _closed(stalled, within=5)
    assert httpx.get(f"http://{host}:{port}/", timeout=10).status_code == 200


def test_serve_defaults_are_the_workers_own():
    from conflictkit.cli.serve import serve
    from conflictkit.web.app import Settings
    from conflictkit.web.workers import MEMORY_MB, SECONDS

    defaults = {p.name: p.default for p in serve.params}
    assert defaults["job_memory_mb"] == MEMORY_MB == Settings(db_path=None).job_memory_mb  # type: ignore[arg-type]
    assert defaults["job_timeout"] == SECONDS == Settings(db_path=None).job_timeout  # type: ignore[arg-type]
