"""The client wrapper: batch limits, bounded concurrency, results by index, usage and cost, keys."""

from __future__ import annotations

import pytest

from conflictkit.errors import BackendError, ConfigError, ResponseError
from conflictkit_isaacus.embedder import IsaacusEmbedder
from conflictkit_isaacus.scorer import IsaacusScorer
from conflictkit_isaacus.segmenter import IsaacusSegmenter


def _sizes(fake, path):
    return sorted((r.texts for r in fake.requests if r.path == path), reverse=True)


def test_enrichment_sends_at_most_8_texts_per_request(make, fake):
    segmenter = make(IsaacusSegmenter)
    docs = segmenter.enrich([f"{i}. The Customer shall pay fee number {i}." for i in range(20)])
    assert len(docs) == 20 and docs[13]["text"].startswith("13.")
    assert _sizes(fake, "/enrichments") == [8, 8, 4]


def test_embedding_sends_at_most_128_texts_per_request(make, fake):
    vectors = make(IsaacusEmbedder).embed([f"clause number {i}" for i in range(300)])
    assert vectors.shape == (300, 1792)
    assert _sizes(fake, "/embeddings") == [128, 128, 44]


def test_a_smaller_batch_size_is_honoured(make, fake):
    make(IsaacusEmbedder, batch_size=50).embed([f"clause {i}" for i in range(120)])
    assert _sizes(fake, "/embeddings") == [50, 50, 20]


def test_requests_in_flight_never_exceed_max_concurrency(make, fake):
    fake.latency = 0.02  # long enough for requests to overlap
    make(IsaacusEmbedder, batch_size=1, max_concurrency=3).embed([f"text {i}" for i in range(24)])
    assert fake.count("/embeddings") == 24
    assert 2 <= fake.max_in_flight <= 3


def test_scores_are_mapped_by_index_not_by_position(make, fake):
    # The API sorts results by score: here the last text scores highest.
    texts = ["governing law", "notices by email", "fees payable within thirty days"]
    scores = make(IsaacusScorer).score([("fees payable within thirty days", t) for t in texts])
    assert scores[2] == max(scores) and scores[0] < scores[2]


def test_usage_counts_requests_tokens_and_cost_per_model(make, fake):
    embedder = make(IsaacusEmbedder, prices={"kanon-2-embedder": 2.0})
    embedder.embed(["one two three four five six seven eight nine ten"] * 1 + ["alpha beta"])
    usage = embedder.usage()
    model = usage["models"]["kanon-2-embedder"]
    assert (model["requests"], model["input_tokens"], model["texts"]) == (1, 13 + 3, 2)
    assert model["cost_usd"] == pytest.approx(16 * 2.0 / 1e6)
    assert usage["cost_usd"] == model["cost_usd"] and usage["requests"] == 1


def test_default_prices_are_the_public_list(make):
    prices = make(IsaacusEmbedder).options.prices
    assert (prices["kanon-2-embedder"], prices["kanon-2-reranker"], prices["kanon-universal-classifier"],
            prices["kanon-2-enricher"]) == (0.35, 0.35, 1.00, 3.50)


def test_missing_key_fails_at_warm_up_and_says_how_to_set_it():
    embedder = IsaacusEmbedder({})
    with pytest.raises(ConfigError, match=r"export ISAACUS_API_KEY=\.\.\. or set api_key"):
        embedder.warm_up()


def test_key_from_the_environment_is_used(monkeypatch, fake):
    import isaacus

    monkeypatch.setenv("ISAACUS_API_KEY", "test-key")
    embedder = IsaacusEmbedder({"base_url": "http://fake.isaacus.test", "max_retries": 0},
                               http_client=isaacus.DefaultHttpxClient(transport=fake.transport()))
    embedder.warm_up()
    embedder.embed(["hello"])
    assert fake.requests[-1].authorization == "Bearer test-key"


def test_wrong_key_is_a_one_line_invalid_key_error(fake, make):
    fake.api_key = "another-key"
    with pytest.raises(ConfigError, match=r"^Isaacus API refused the API key \(401\): check ISAACUS_API_KEY"):
        make(IsaacusEmbedder).embed(["hello"])


def test_a_refused_request_is_a_backend_error_and_no_partial_answer(make, fake):
    fake.fail(422, times=1, path="/embeddings")
    embedder = make(IsaacusEmbedder, batch_size=2)
    with pytest.raises(BackendError, match=r"refused a request \(422\)"):
        embedder.embed([f"t{i}" for i in range(6)])


def test_unknown_options_are_refused():
    with pytest.raises(Exception, match="extra"):
        IsaacusEmbedder({"modle": "kanon-2-embedder"})


def _drifted(request):
    import httpx

    return httpx.Response(200, json={"embeddings": [{"index": 0, "embedding": "not numbers"}], "usage": {"input_tokens": 1}})


@pytest.mark.parametrize("strict, message", [(True, "does not match the SDK's models"), (False, "not a list of numbers")])
def test_a_response_that_drifts_from_the_sdk_models_is_refused(strict, message):
    import httpx
    import isaacus

    embedder = IsaacusEmbedder({"api_key": "k", "base_url": "http://fake.isaacus.test", "max_retries": 0, "strict_responses": strict},
                               http_client=isaacus.DefaultHttpxClient(transport=httpx.MockTransport(_drifted)))
    embedder.warm_up()
    with pytest.raises(ResponseError, match=message) as raised:
        embedder.embed(["hello"])
    assert raised.value.exit_code == 2
