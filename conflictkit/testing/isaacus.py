"""A faithful fake of the Isaacus API, for testing backends without network access or a key.

Written once as a pure function from a request to a response (:func:`respond`: path and JSON
body in, status and JSON body out) and used two ways:

- in-process, through ``httpx.MockTransport`` (:meth:`FakeIsaacus.transport`), for fast unit
  tests of the real ``isaacus`` SDK::

      fake = FakeIsaacus()
      client = isaacus.Isaacus(api_key="test", base_url="http://fake",
                               http_client=isaacus.DefaultHttpxClient(transport=fake.transport()),
                               _strict_response_validation=True)

- served on 127.0.0.1 (:meth:`FakeIsaacus.serve`), for integration tests of the real base URL,
  retry and timeout paths, including from a subprocess (``ISAACUS_BASE_URL=server.base_url``).

Like the real API it validates model names, field types and batch limits (422 on a violation,
400 on a body that is not JSON) and returns results sorted by score, each with its ``index``.
Answers are deterministic: enrichments from the text's layout (:mod:`conflictkit.testing._ilgs`),
embeddings from hashed tokens (similar texts get similar vectors), classifier and reranker
scores from lexical cues. Usage is about 1.3 tokens per word. Faults can be injected for the next
N matching requests or on every n-th request (a storm): a status (401, 429 with ``retry-after``,
503...), a delay (a hang), a dropped connection (``drop``), or a broken answer with status 200
(``corrupt``: an HTML page, an empty body, malformed JSON, NaN, an embedding of the wrong size).

No SDK dependency: httpx is imported only by :meth:`FakeIsaacus.transport`.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conflictkit.testing._ilgs import enrich
from conflictkit.testing import loopback
from conflictkit.testing.loopback import BROKEN_BODIES, Fault, LoopbackServer, Reset, Storm, mock_transport, take_fault

MODELS = {
    "/enrichments": ("kanon-2-enricher",),
    "/embeddings": ("kanon-2-embedder",),
    "/classifications/universal": ("kanon-universal-classifier", "kanon-universal-classifier-mini"),
    "/rerankings": ("kanon-2-reranker",),
}
LIMITS = {"/enrichments": 8, "/embeddings": 128, "/classifications/universal": 1000, "/rerankings": 1000}
DIMENSIONS = 1792
# Broken answers with status 200 (``FakeIsaacus.corrupt``): what a proxy, a bug or a bad deploy might send.
CORRUPTIONS = ("html", "empty", "malformed", "nan", "short_vector", "wrong_size", "out_of_range")
QUERY_MAX_CHARS = 5000
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_STOP = frozenset("a an and the of to in on for or by with as at be is are this that any its it".split())


class InvalidRequest(Exception):
    """A request the real API would refuse; ``status`` is 400 or 422."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


# ---- the pure function -------------------------------------------------------------------


def tokens(text: str) -> int:
    """Usage tokens the fake charges for ``text``: about 1.3 per word, at least 1."""
    return max(1, math.ceil(len(text.split()) * 1.3))


def respond(path: str, body: Any) -> tuple[int, dict]:
    """The API's answer to ``POST path`` with JSON ``body``: ``(status, json_body)``."""
    route = _ROUTES.get(path)
    if route is None:
        return 404, {"detail": f"no such endpoint {path}"}
    try:
        if not isinstance(body, dict):
            raise InvalidRequest(422, "the request body must be a JSON object")
        _check_model(path, body)
        return 200, route(body)
    except InvalidRequest as exc:
        return exc.status, {"detail": str(exc)}


def _check_model(path: str, body: dict) -> None:
    model = body.get("model")
    if model not in MODELS[path]:
        raise InvalidRequest(422, f"model: unknown model {model!r} for {path}; expected one of {', '.join(MODELS[path])}")


def _texts(body: dict, path: str, allow_str: bool) -> list[str]:
    texts = body.get("texts")
    if allow_str and isinstance(texts, str):
        texts = [texts]
    if not isinstance(texts, list) or not texts:
        raise InvalidRequest(422, "texts: must be a non-empty list of strings")
    if len(texts) > LIMITS[path]:
        raise InvalidRequest(422, f"texts: at most {LIMITS[path]} texts per request, got {len(texts)}")
    for i, text in enumerate(texts):
        if not isinstance(text, str) or not text.strip():
            raise InvalidRequest(422, f"texts.{i}: must be a string with at least one non-whitespace character")
    return texts


def _choice(body: dict, key: str, allowed: tuple, default: Any = None) -> Any:
    value = body.get(key, default)
    if value not in allowed:
        raise InvalidRequest(422, f"{key}: must be one of {allowed}, got {value!r}")
    return value


def _query(body: dict) -> str:
    query = body.get("query")
    if not isinstance(query, str) or not query.strip() or len(query) > QUERY_MAX_CHARS:
        raise InvalidRequest(422, f"query: must be a string of 1 to {QUERY_MAX_CHARS} characters")
    return query


def _scoring(body: dict) -> None:
    _choice(body, "is_iql", (True, False), True)
    _choice(body, "scoring_method", ("auto", "chunk_max", "chunk_avg", "chunk_min"), "auto")
    options = body.get("chunking_options")
    if options is not None and not isinstance(options, dict):
        raise InvalidRequest(422, "chunking_options: must be an object or null")


def _enrichments(body: dict) -> dict:
    texts = _texts(body, "/enrichments", allow_str=True)
    _choice(body, "overflow_strategy", ("auto", "drop_end", "chunk", None))
    results = [{"index": i, "document": enrich(text)} for i, text in enumerate(texts)]
    return {"results": results, "usage": {"input_tokens": sum(tokens(t) for t in texts)}}


def _embeddings(body: dict) -> dict:
    texts = _texts(body, "/embeddings", allow_str=True)
    _choice(body, "task", ("retrieval/query", "retrieval/document", None))
    dims = body.get("dimensions")
    if dims is not None and (not isinstance(dims, int) or isinstance(dims, bool) or not 1 <= dims <= DIMENSIONS):
        raise InvalidRequest(422, f"dimensions: must be a whole number from 1 to {DIMENSIONS}")
    dims = dims or DIMENSIONS
    embeddings = [{"index": i, "embedding": embed(text, dims).tolist()} for i, text in enumerate(texts)]
    return {"embeddings": embeddings, "usage": {"input_tokens": sum(tokens(t) for t in texts)}}


def _classifications(body: dict) -> dict:
    query = _query(body)
    texts = _texts(body, "/classifications/universal", allow_str=False)
    _scoring(body)
    scored = [{"index": i, "score": classify(query, text), "chunks": None} for i, text in enumerate(texts)]
    usage = sum(tokens(query) + tokens(t) for t in texts)
    return {"classifications": _ranked(scored), "usage": {"input_tokens": usage}}


def _rerankings(body: dict) -> dict:
    query = _query(body)
    texts = _texts(body, "/rerankings", allow_str=False)
    _scoring(body)
    top_n = body.get("top_n")
    if top_n is not None and (not isinstance(top_n, int) or isinstance(top_n, bool) or top_n < 1):
        raise InvalidRequest(422, "top_n: must be a whole number >= 1 or null")
    ranked = _ranked([{"index": i, "score": rerank(query, text)} for i, text in enumerate(texts)])
    usage = sum(tokens(query) + tokens(t) for t in texts)
    return {"results": ranked[:top_n] if top_n else ranked, "usage": {"input_tokens": usage}}


def _ranked(results: list[dict]) -> list[dict]:
    return sorted(results, key=lambda r: (-r["score"], r["index"]))


_ROUTES = {
    "/enrichments": _enrichments,
    "/embeddings": _embeddings,
    "/classifications/universal": _classifications,
    "/rerankings": _rerankings,
}


# ---- deterministic "models" --------------------------------------------------------------


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _bucket(feature: str, dims: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % dims, 1.0 if (value >> 63) & 1 else -1.0


def embed(text: str, dims: int = DIMENSIONS) -> np.ndarray:
    """A unit vector from hashed words and word pairs: texts sharing words get close vectors."""
    vector = np.zeros(dims, dtype=np.float64)
    words = _words(text) or [text.strip().lower() or "empty"]
    for word in words:
        index, sign = _bucket(word, dims)
        vector[index] += sign
    for pair in zip(words, words[1:]):
        index, sign = _bucket(" ".join(pair), dims)
        vector[index] += 0.5 * sign
    return vector / np.linalg.norm(vector)


def _content(text: str) -> set[str]:
    return {w for w in _words(text) if w not in _STOP}


def _overlap(query: str, text: str) -> float:
    q, t = _content(query), _content(text)
    if not q or not t:
        return 0.0
    return len(q & t) / math.sqrt(len(q) * len(t))


_NON_OPERATIVE = re.compile(r"footnote|heading|signature|boilerplate", re.IGNORECASE)
_MONEY_QUERY = re.compile(r"amount|percentage|money|\bcap\b", re.IGNORECASE)
_MONEY_TEXT = re.compile(r"[$\u20ac\u00a3]|\b(?:USD|EUR|GBP|dollars?|percent)\b|%|\b\d", re.IGNORECASE)
_SIGNATURE_TEXT = re.compile(r"^(?:By|Name|Title|Signature|Date)\s*:|IN WITNESS|\[\^", re.IGNORECASE | re.MULTILINE)
_DEFINITION_TEXT = re.compile(r"[\"\u201c][^\"\u201d]+[\"\u201d]\s+(?:means|shall mean|has the meaning)", re.IGNORECASE)


def _looks_non_operative(text: str, definitions_count: bool) -> bool:
    words = text.split()
    heading_like = len(words) <= 6 and not text.rstrip().endswith((".", ";", ":"))
    return heading_like or bool(_SIGNATURE_TEXT.search(text)) or (definitions_count and bool(_DEFINITION_TEXT.search(text)))


def classify(query: str, text: str) -> float:
    """The fake universal classifier's score: lexical cues for known questions, else word overlap."""
    if _NON_OPERATIVE.search(query):
        return 0.93 if _looks_non_operative(text, "definition" in query.lower()) else 0.06
    if _MONEY_QUERY.search(query):
        return 0.88 if _MONEY_TEXT.search(text) else 0.09
    return round(0.02 + 0.96 * _overlap(query, text), 6)


def rerank(query: str, text: str) -> float:
    """The fake reranker's relevance score: the same cues, else word overlap."""
    return classify(query, text)


# ---- the stateful fake: logging, auth, faults --------------------------------------------


@dataclass
class Request(loopback.Request):
    """One request the fake received, as it received it."""

    @property
    def texts(self) -> int:
        texts = self.body.get("texts") if isinstance(self.body, dict) else None
        return 1 if isinstance(texts, str) else len(texts or [])


@dataclass
class FakeIsaacus:
    """The fake API with state: a request log, an optional expected key, injected faults.

    ``api_key`` set: any other bearer token gets 401, like a revoked key. ``latency`` adds a
    sleep to every request (to observe concurrency). Thread-safe.
    """

    api_key: str | None = None
    latency: float = 0.0
    requests: list[Request] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    _faults: deque = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _storm: Storm | None = None
    faults_injected: int = 0  # answers a fault replaced or delayed

    def fail(self, status: int, times: int = 1, *, path: str | None = None, retry_after: float | None = None) -> None:
        """Answer the next ``times`` matching requests with ``status`` (and a retry-after header)."""
        with self._lock:
            self._faults.append(Fault(status=status, times=times, path=path, retry_after=retry_after))

    def rate_limit(self, every: int, *, retry_after: float | None = None) -> None:
        """A storm: every ``every``-th request from now on gets 429 (with a retry-after), until :meth:`reset`."""
        self.storm(429, every, retry_after=retry_after)

    def storm(self, status: int | None, every: int, *, retry_after: float | None = None, delay: float = 0.0,
              reset: bool = False, corruption: str | None = None) -> None:
        """Every ``every``-th request from now on (any path) gets ``status``, or hangs ``delay`` seconds first,
        or has its connection dropped (``reset``), or a broken answer (``corruption``), until :meth:`reset`."""
        _check_corruption(corruption)
        with self._lock:
            self._storm = Storm(every, Fault(status=status, retry_after=retry_after, delay=delay, reset=reset, corruption=corruption))

    def drop(self, times: int = 1, *, path: str | None = None) -> None:
        """Drop the connection of the next ``times`` matching requests without answering."""
        with self._lock:
            self._faults.append(Fault(reset=True, times=times, path=path))

    def corrupt(self, kind: str, times: int = 1, *, path: str | None = None) -> None:
        """Answer the next ``times`` matching requests with status 200 and a broken body: one of :data:`CORRUPTIONS`."""
        _check_corruption(kind)
        with self._lock:
            self._faults.append(Fault(corruption=kind, times=times, path=path))

    def delay(self, seconds: float, times: int = 1, *, path: str | None = None) -> None:
        """Sleep ``seconds`` before answering the next ``times`` matching requests."""
        with self._lock:
            self._faults.append(Fault(delay=seconds, times=times, path=path))

    def count(self, path: str | None = None, status: int | None = 200) -> int:
        """How many requests reached ``path`` (any when None) and got ``status`` (any when None)."""
        with self._lock:
            return sum(1 for r in self.requests if (path is None or r.path == path) and (status is None or r.status == status))

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self._faults.clear()
            self.max_in_flight = 0
            self._storm = None
            self.faults_injected = 0

    def _take_fault(self, path: str) -> Fault | None:
        with self._lock:
            stormy = self._storm.take() if self._storm is not None else None
            fault = stormy or take_fault(self._faults, path)
            self.faults_injected += fault is not None
            return fault

    def handle(self, method: str, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, dict[str, str], bytes]:
        """Answer one HTTP request: ``(status, headers, body)``."""
        path = "/" + path.split("?")[0].strip("/").removeprefix("v1/")
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = None
        request = Request(path, body, authorization=headers.get("authorization"))
        with self._lock:
            self.requests.append(request)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            fault = self._take_fault(path)
            status, extra, payload = self._answer(method, path, request, fault)
        finally:
            with self._lock:
                self.in_flight -= 1
        if fault is not None and fault.reset:
            request.status = -1  # never answered
            raise Reset
        request.status = status
        if fault is not None and fault.corruption and status == 200:
            request.corrupted = fault.corruption
            return status, *_broken(fault.corruption, payload)
        return status, {"content-type": "application/json", **extra}, json.dumps(payload).encode()

    def _answer(self, method: str, path: str, request: Request, fault: Fault | None) -> tuple[int, dict[str, str], dict]:
        if self.latency:
            time.sleep(self.latency)
        if fault is not None and fault.delay:
            time.sleep(fault.delay)
        if fault is not None and fault.status:
            extra = {"retry-after-ms": str(int(fault.retry_after * 1000))} if fault.retry_after is not None else {}
            return fault.status, extra, {"detail": f"injected fault {fault.status}"}
        if self.api_key is not None and request.authorization != f"Bearer {self.api_key}":
            return 401, {}, {"detail": "invalid API key"}
        if method != "POST":
            return 405, {}, {"detail": "method not allowed"}
        if request.body is None:
            return 400, {}, {"detail": "the request body is not valid JSON"}
        status, payload = respond(path, request.body)
        return status, {}, payload

    def transport(self):
        """An ``httpx.MockTransport`` serving this fake in-process (needs httpx, which the SDK brings)."""
        return mock_transport(self.handle)

    @contextmanager
    def serve(self) -> Iterator[FakeServer]:
        """Serve this fake on a free port of 127.0.0.1 until the block exits."""
        server = FakeServer(self)
        try:
            yield server
        finally:
            server.close()


def _check_corruption(kind: str | None) -> None:
    if kind is not None and kind not in CORRUPTIONS:
        raise ValueError(f"unknown corruption {kind!r}; one of {', '.join(CORRUPTIONS)}")


def _broken(kind: str, payload: dict) -> tuple[dict[str, str], bytes]:
    """Headers and body of a broken 200 answer in place of ``payload``."""
    if kind in BROKEN_BODIES:
        content_type, body = BROKEN_BODIES[kind]
        return {"content-type": content_type}, body
    if kind == "malformed":
        return {"content-type": "application/json"}, json.dumps(payload).encode()[:40]
    payload = json.loads(json.dumps(payload))
    for item in payload.get("embeddings", []):
        vector = item["embedding"]
        item["embedding"] = {"nan": [math.nan] + vector[1:], "short_vector": vector[:3],
                             "wrong_size": vector[:256], "out_of_range": vector}[kind]
    for item in payload.get("results", []) + payload.get("classifications", []):
        if "score" in item:
            item["score"] = {"nan": math.nan, "out_of_range": 1.7}.get(kind, item["score"])
    return {"content-type": "application/json"}, json.dumps(payload).encode()  # NaN is written as the bare word, as Python does


class FakeServer(LoopbackServer):
    """The fake on a loopback HTTP server, one thread per request; ``base_url`` for the SDK."""

    def __init__(self, fake: FakeIsaacus) -> None:
        super().__init__(fake.handle, name="fake-isaacus")
        self.fake = fake


__all__ = ["FakeIsaacus", "FakeServer", "Fault", "Request", "InvalidRequest", "CORRUPTIONS", "respond", "enrich", "embed", "classify", "rerank", "tokens"]
