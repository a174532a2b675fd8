"""Fixtures for ``conflictkit serve``: the app in-process (Starlette's TestClient) or as a real server.

Every comparison uses the model-free ``fast`` preset (hashing embedder), so no model is loaded.
"""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'conflictkit[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install 'conflictkit[web]')")

from starlette.testclient import TestClient  # noqa: E402

from conflictkit.web.app import Settings, create_app  # noqa: E402
from conflictkit.web.reviews import ReviewStore  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
CONFIG = "fast"
LOCAL = "http://127.0.0.1:8000"


def sample_pair() -> tuple[Path, Path]:
    """The project's SaaS sample pair."""
    return SAMPLES / "reference-saas-agreement.md", SAMPLES / "input-vendor-draft.md"


@pytest.fixture
def make_client(tmp_path):
    """``make_client(**settings)``: a TestClient on a fresh app (loopback, fast preset) unless overridden."""
    clients = []

    def make(base_url: str = LOCAL, **overrides) -> TestClient:
        settings = Settings(**{"db_path": tmp_path / "reviews.sqlite", "config_path": CONFIG, **overrides})
        client = TestClient(create_app(settings), base_url=base_url, follow_redirects=False)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.app.conflictkit.runner.shutdown()
        client.close()


@pytest.fixture
def reviews(tmp_path) -> ReviewStore:
    return ReviewStore(tmp_path / "reviews.sqlite")


def wait_for_job(client: TestClient, location: str, timeout: float = 120.0) -> dict:
    """Poll a job (as the page does) until it is done or failed."""
    job_id = location.rsplit("/", 1)[1]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.get(f"/api/jobs/{job_id}").json()
        if state["state"] in ("done", "failed"):
            return state
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish in {timeout}s")


class Server:
    """``conflictkit serve`` in a subprocess on a free port (``--port 0``; the server prints its address)."""

    def __init__(self, *args: str, env: dict | None = None) -> None:
        self.args, self.env = list(args), {**os.environ, **(env or {})}
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        self.url = ""

    def start(self, timeout: float = 60.0) -> Server:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "conflictkit", "serve", "--port", "0", *self.args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=self.env, cwd=ROOT,
        )
        threading.Thread(target=self._pump, args=(self.proc,), daemon=True).start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            match = re.search(r"serving on (http://\S+?)/?(\?token=\S+)? ", line)
            if match:
                self.url = match.group(1)
                return self
        raise AssertionError(f"server did not start: {''.join(self.output)}")

    def _pump(self, proc: subprocess.Popen) -> None:
        for line in proc.stdout:
            self.output.append(line)
            self.lines.put(line)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None


@pytest.fixture
def servers():
    """``servers(*args)`` starts a server; every one started is stopped after the test."""
    started: list[Server] = []

    def start(*args: str, env: dict | None = None) -> Server:
        server = Server(*args, env=env).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
