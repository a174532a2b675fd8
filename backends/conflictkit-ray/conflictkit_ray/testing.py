"""A real Ray head on this machine for tests and benchmarks: ``ray start --head --block`` in its own session.

It is what a user runs, with its own temp folder and ports, token authentication off (a token file
another user left in ~/.ray would otherwise switch it on), listening on 127.0.0.1 only. Closing it
stops exactly the processes it started: the ``ray start`` process group, politely, then by force.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalRayHead:
    """``with LocalRayHead(cpus=2) as head: ... head.address ... head.client_address``."""

    def __init__(self, cpus: int = 2, start_timeout_s: float = 180.0) -> None:
        self.cpus = cpus
        self.start_timeout_s = start_timeout_s
        self.port = free_port()
        self.client_port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.client_address = f"ray://127.0.0.1:{self.client_port}"
        self.temp_dir = Path(tempfile.mkdtemp(prefix="ckray-", dir="/tmp"))  # short: Ray's socket paths have a length limit
        self._process: subprocess.Popen | None = None

    def __enter__(self) -> LocalRayHead:
        ray = Path(sys.executable).with_name("ray")
        command = [str(ray), "start", "--head", "--block", "--node-ip-address", "127.0.0.1", "--port", str(self.port),
                   "--ray-client-server-port", str(self.client_port), "--num-cpus", str(self.cpus),
                   "--temp-dir", str(self.temp_dir), "--include-dashboard", "false", "--disable-usage-stats",
                   "--min-worker-port", "0", "--max-worker-port", "0"]
        env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
        self._log = open(self.temp_dir / "head.log", "wb")
        self._process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + self.start_timeout_s
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"ray start exited with {self._process.returncode}: {self.log()[-2000:]}")
            if "Ray runtime started" in self.log() and _listening(self.port) and _listening(self.client_port):
                return self
            time.sleep(0.5)
        self.close()
        raise RuntimeError(f"ray start did not come up within {self.start_timeout_s:g} s: {self.log()[-2000:]}")

    def worker_pids(self, name: str = "MapWorker") -> list[int]:
        """Process ids of this head's Ray workers whose title holds ``name`` (children of its own raylet)."""
        raylets = [pid for pid in _group_members(self._process.pid) if "raylet" in _cmdline(pid)] if self._process else []
        return [pid for pid in _all_pids() if _parent(pid) in raylets and name in _cmdline(pid)]

    def log(self) -> str:
        try:
            return (self.temp_dir / "head.log").read_text(errors="replace")
        except OSError:
            return ""

    def close(self) -> None:
        """Stop the head's process group (SIGTERM, then SIGKILL after 30 s) and remove its folder."""
        if self._process is not None:
            group = self._process.pid  # start_new_session: the group id is the ray start process's id
            _signal_group(group, signal.SIGTERM)
            try:
                self._process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
            _signal_group(group, signal.SIGKILL)
            self._process.wait(timeout=30)
            self._process = None
            self._log.close()
        shutil.rmtree(self.temp_dir, ignore_errors=True)

    def __exit__(self, *exc) -> None:
        self.close()


def _signal_group(group: int, sig: int) -> None:
    try:
        os.killpg(group, sig)
    except ProcessLookupError:
        pass


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _all_pids() -> list[int]:
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def _group_members(group: int) -> list[int]:
    members = []
    for pid in _all_pids():
        try:
            if os.getpgid(pid) == group:
                members.append(pid)
        except OSError:
            continue
    return members
