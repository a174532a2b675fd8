"""Fixtures for the llm backends: the fake OpenAI-compatible server in-process or on a loopback port."""

from __future__ import annotations

import pytest

pytest.importorskip("openai")
httpx = pytest.importorskip("httpx")

from conflictkit.store import Store  # noqa: E402
from conflictkit.testing.openai import FakeOpenAI  # noqa: E402


@pytest.fixture
def fake() -> FakeOpenAI:
    return FakeOpenAI()


@pytest.fixture
def http_client(fake):
    client = httpx.Client(transport=fake.transport(), base_url="http://127.0.0.1:9/v1")
    yield client
    client.close()


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "cache.sqlite")


LOCAL = {"model": "fake-model", "base_url": "http://127.0.0.1:9/v1", "backoff_s": 0.0, "max_retries": 8}
