"""The real HTTP paths against the fake served on loopback: base URL, retries, rate limits, 5xx, timeouts."""

from __future__ import annotations

import socket

import pytest

from conflictkit.errors import BackendError, ConfigError
from conflictkit_isaacus.embedder import IsaacusEmbedder

KEY = "test-key"


@pytest.fixture
def server(fake):
    with fake.serve() as srv:
        yield srv


def _embedder(server=None, **options):
    opts = {"api_key": KEY, "max_retries": 2, "timeout": 5.0, "strict_responses": True, **options}
    if server is not None:
        opts["base_url"] = server.base_url
    embedder = IsaacusEmbedder(opts)
    embedder.warm_up()
    return embedder


def test_isaacus_base_url_is_honoured_like_the_sdk_does(server, fake, monkeypatch):
    monkeypatch.setenv("ISAACUS_BASE_URL", server.base_url)
    vectors = _embedder().embed(["hello there"])
    assert vectors.shape == (1, 1792) and fake.count("/embeddings") == 1


def test_rate_limits_are_retried_after_the_advertised_delay(server, fake):
    fake.fail(429, times=2, retry_after=0.01)
    assert _embedder(server).embed(["hello"]).shape == (1, 1792)
    assert fake.count("/embeddings", status=429) == 2 and fake.count("/embeddings") == 1


def test_persistent_rate_limit_is_a_clear_error_after_the_budget(server, fake):
    fake.fail(429, times=1000, retry_after=0.01)
    with pytest.raises(BackendError, match=r"^Isaacus API /embeddings: rate limit \(429\) still hit after [\d.]+ s of retrying \(retry_budget_s 0.2 s"):
        _embedder(server, rate_limit_budget=0.2).embed(["hello"])  # the option's former name still works
    assert fake.count("/embeddings", status=429) > 3  # past the SDK's own 2 retries: backing off until the budget


def test_server_errors_are_retried_then_reported(server, fake):
    fake.fail(503, times=1, retry_after=0.01)
    _embedder(server).embed(["hello"])  # one 503, then success
    fake.fail(503, times=10, retry_after=0.01)
    with pytest.raises(BackendError, match=r"^Isaacus API /embeddings: server error \(503\) after 1 retry in [\d.]+ s$"):
        _embedder(server, max_retries=1).embed(["hello"])


def test_a_timeout_is_a_clear_error(server, fake):
    fake.delay(2.0, times=2)
    with pytest.raises(BackendError, match=r"request timed out \(timeout 0.2 s; raise timeout in the config.*\) after 1 retry"):
        _embedder(server, timeout=0.2, max_retries=1).embed(["hello"])


def test_an_invalid_key_is_not_retried(server, fake):
    with pytest.raises(ConfigError, match=r"refused the API key \(401\)"):
        _embedder(server, api_key="wrong").embed(["hello"])
    assert fake.count("/embeddings", status=401) == 1


def test_an_unreachable_api_is_a_clear_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed when the block ends: nothing listens there
    with pytest.raises(BackendError, match=rf"^Isaacus API /embeddings: cannot reach http://127.0.0.1:{port} \(.*Connection refused\) after 0 retries"):
        _embedder(base_url=f"http://127.0.0.1:{port}", max_retries=0).embed(["hello"])
