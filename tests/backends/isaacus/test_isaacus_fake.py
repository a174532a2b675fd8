"""The fake Isaacus API: checked through the real SDK with strict response validation, and on its own."""

from __future__ import annotations

import json

import httpx
import isaacus
import numpy as np
import pytest

from conflictkit.testing.isaacus import FakeIsaacus, respond, tokens

from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[3] / "samples"
REFERENCE, INPUT = SAMPLES / "reference-saas-agreement.md", SAMPLES / "input-vendor-draft.md"
KEY = "test-key"  # the fake's key (conftest)


@pytest.fixture
def sdk(fake):
    return isaacus.Isaacus(api_key=KEY, base_url="http://fake.isaacus.test", max_retries=0,
                           http_client=isaacus.DefaultHttpxClient(transport=fake.transport()),
                           _strict_response_validation=True)


@pytest.mark.parametrize("path", [REFERENCE, INPUT])
def test_enrichment_of_the_samples_passes_the_sdk_models(sdk, path):
    text = path.read_text()
    doc = sdk.enrichments.create(model="kanon-2-enricher", texts=[text], overflow_strategy="auto").results[0].document
    kinds = {s.kind for s in doc.segments}
    assert {"container", "unit", "item"} <= kinds
    assert {"front_matter", "main", "back_matter"} <= {s.category for s in doc.segments}
    assert doc.title is not None and doc.title.decode(text).startswith("Software-as-a-Service")
    assert any(t.name.decode(text) == "Affiliate" for t in doc.terms)
    by_id = {s.id: s for s in doc.segments}
    for seg in doc.segments:
        piece = seg.span.decode(text)
        assert piece and not piece[0].isspace() and not piece[-1].isspace()
        for child in seg.children:  # children nest inside their parent and point back to it
            c = by_id[child]
            assert c.parent == seg.id and seg.span.start <= c.span.start < c.span.end <= seg.span.end
            assert c.level == seg.level + 1
    spans = [(s.span.start, s.span.end) for s in doc.segments]
    assert not [(a, b) for a in spans for b in spans if a[0] < b[0] < a[1] < b[1]]  # well nested


def test_items_nest_under_their_clause_with_codes_and_titles(sdk):
    text = "## 2. Access\n\n2.3 **Restrictions.** Customer shall not:\n\n(a) sell the Services;\n\n(b) copy them.\n"
    doc = sdk.enrichments.create(model="kanon-2-enricher", texts=text).results[0].document
    container, unit, a, b = doc.segments
    assert (container.kind, container.code.decode(text), container.title.decode(text)) == ("container", "2", "Access")
    assert (unit.kind, unit.code.decode(text), unit.title.decode(text)) == ("unit", "2.3", "Restrictions")
    assert [a.kind, a.code.decode(text), a.parent] == ["item", "(a)", unit.id]
    assert unit.children == [a.id, b.id]


def test_results_are_sorted_by_score_and_carry_their_index(sdk):
    texts = ["## Fees", "Customer shall pay all fees within thirty (30) days.", "By: ____\nName:"]
    res = sdk.classifications.universal.create(
        model="kanon-universal-classifier", query="this is a footnote, citation, editorial note, heading or signature, not a contractual provision",
        texts=texts, is_iql=True)
    scores = [c.score for c in res.classifications]
    assert scores == sorted(scores, reverse=True)
    by_index = {c.index: c.score for c in res.classifications}
    assert by_index[0] > 0.5 and by_index[2] > 0.5 and by_index[1] < 0.5
    rr = sdk.rerankings.create(model="kanon-2-reranker", query="payment of fees", texts=texts[1:], top_n=1)
    assert [r.index for r in rr.results] == [0]


def test_similar_texts_get_closer_embeddings_than_unrelated_ones(sdk):
    texts = ["Customer shall pay all fees within thirty days of the invoice date.",
             "Customer shall pay all fees within sixty days of the invoice date.",
             "This Agreement is governed by the laws of the State of New York."]
    res = sdk.embeddings.create(model="kanon-2-embedder", texts=texts, task="retrieval/document", dimensions=256)
    v = np.array([e.embedding for e in sorted(res.embeddings, key=lambda e: e.index)])
    assert v.shape == (3, 256)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0)
    assert v[0] @ v[1] > 0.6 > v[0] @ v[2]


def test_usage_is_about_1_3_tokens_per_word(sdk):
    res = sdk.embeddings.create(model="kanon-2-embedder", texts=["one two three four five six seven eight nine ten"])
    assert res.usage.input_tokens == tokens("x " * 10) == 13


@pytest.mark.parametrize("path, body, status", [
    ("/enrichments", {"model": "kanon-2-enricher", "texts": ["x"] * 9}, 422),
    ("/embeddings", {"model": "kanon-2-embedder", "texts": ["x"] * 129}, 422),
    ("/embeddings", {"model": "kanon-2-reranker", "texts": ["x"]}, 422),
    ("/embeddings", {"model": "kanon-2-embedder", "texts": ["  "]}, 422),
    ("/embeddings", {"model": "kanon-2-embedder", "texts": ["x"], "dimensions": "256"}, 422),
    ("/embeddings", {"model": "kanon-2-embedder", "texts": ["x"], "task": "search"}, 422),
    ("/classifications/universal", {"model": "kanon-universal-classifier", "query": "", "texts": ["x"]}, 422),
    ("/classifications/universal", {"model": "kanon-universal-classifier", "query": "q" * 5001, "texts": ["x"]}, 422),
    ("/classifications/universal", {"model": "kanon-universal-classifier", "query": "q", "texts": "x"}, 422),
    ("/rerankings", {"model": "kanon-2-reranker", "query": "q", "texts": []}, 422),
    ("/rerankings", {"model": "kanon-2-reranker", "query": "q", "texts": ["x"], "top_n": 0}, 422),
    ("/nowhere", {}, 404),
])
def test_invalid_requests_are_refused_like_the_api(path, body, status):
    assert respond(path, body)[0] == status


def test_bad_json_is_400_and_a_wrong_key_401():
    fake = FakeIsaacus(api_key="right")
    assert fake.handle("POST", "/embeddings", {"authorization": "Bearer right"}, b"{not json")[0] == 400
    assert fake.handle("POST", "/embeddings", {"authorization": "Bearer wrong"}, b"{}")[0] == 401


def test_injected_faults_apply_to_the_next_matching_requests():
    fake = FakeIsaacus()
    fake.fail(429, times=2, path="/embeddings", retry_after=0.25)
    body = json.dumps({"model": "kanon-2-embedder", "texts": ["x"]}).encode()
    assert fake.handle("POST", "/rerankings", {}, b"{}")[0] == 422  # another path: not affected
    first = fake.handle("POST", "/v1/embeddings", {}, body)
    assert first[0] == 429 and first[1]["retry-after-ms"] == "250"
    assert fake.handle("POST", "/embeddings", {}, body)[0] == 429
    assert fake.handle("POST", "/embeddings", {}, body)[0] == 200
    assert fake.count("/embeddings", status=429) == 2


def test_the_loopback_server_serves_the_same_answers(fake):
    with fake.serve() as server:
        response = httpx.post(f"{server.base_url}/embeddings", json={"model": "kanon-2-embedder", "texts": ["a b"]},
                              headers={"Authorization": f"Bearer {KEY}"})
    assert response.status_code == 200
    assert response.json() == respond("/embeddings", {"model": "kanon-2-embedder", "texts": ["a b"]})[1]
