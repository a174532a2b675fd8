"""A deterministic fake of an OpenAI-compatible chat-completions server, for the ``conflictkit-openai`` tests.

It speaks the real wire format (``POST /v1/chat/completions``: ``model``, ``messages``,
``max_tokens``, ``temperature``, ``logprobs``/``top_logprobs``; answers with ``choices``,
``usage``, ``logprobs.content[].top_logprobs``) and checks requests as a server would. Its "model"
answers conflictkit's three tasks deterministically, recognised by the prompt markers the plugin
uses (``PREMISE:``/``HYPOTHESIS:``, ``TASK: parties``, ``TASK: explain``), so tests can assert
exact outcomes. ``script`` replaces the model with a function of the request.

Faults, for the retry and robustness tests: HTTP statuses (``fail``), a status, a hang or a dropped
connection on every n-th request (``storm``), delays (``delay``), dropped connections (``drop``),
and broken answers (``corrupt``): bodies that are not a completion (``malformed`` JSON, an ``html``
page, an ``empty`` body, ``no_choices``: ``choices: []``, ``no_content``, ``nan_logprobs``), and completions whose
text is broken (``truncated`` JSON, ``prose`` around the JSON, ``missing_ids``, ``unknown_party``,
``hallucinated_quote``).

Use it in-process with ``httpx.MockTransport`` (:meth:`FakeOpenAI.transport`) or on a loopback
port (:meth:`FakeOpenAI.serve`).
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from conflictkit.testing.loopback import (
    BROKEN_BODIES,
    Fault,
    LoopbackServer,
    Request,
    Reset,
    Storm,
    mock_transport,
    take_fault,
)

NLI_LABELS = ("ENTAILMENT", "CONTRADICTION", "NEUTRAL")
CORRUPTIONS = ("malformed", "html", "empty", "no_choices", "no_content", "nan_logprobs",
               "truncated", "prose", "missing_ids", "unknown_party", "hallucinated_quote")
_WORD = re.compile(r"[a-z0-9]+")
_NEGATORS = {"not", "no", "never", "neither", "nor", "without"}
_MODALS = {"shall": "duty", "must": "duty", "will": "duty", "may": "permission"}


def tokens(text: str) -> int:
    """A rough token count (4 characters a token), as usage reports it."""
    return max(1, math.ceil(len(text) / 4))


# ---- the fake model: deterministic answers to conflictkit's prompts ----------------------------


def nli_label(premise: str, hypothesis: str) -> tuple[str, dict[str, float]]:
    """ENTAILMENT / CONTRADICTION / NEUTRAL by a fixed rule, with the probabilities it reports."""
    a, b = _WORD.findall(premise.lower()), _WORD.findall(hypothesis.lower())
    sa, sb = set(a), set(b)
    numbers_differ = {w for w in sa if w.isdigit()} != {w for w in sb if w.isdigit()}
    modal_differs = {_MODALS[w] for w in sa if w in _MODALS} != {_MODALS[w] for w in sb if w in _MODALS}
    overlap = len(sa & sb) / max(1, len(sa | sb))
    if overlap >= 0.35 and ((sa & _NEGATORS) != (sb & _NEGATORS) or numbers_differ or modal_differs):
        label = "CONTRADICTION"
    elif overlap >= 0.6:
        label = "ENTAILMENT"
    else:
        label = "NEUTRAL"
    probs = {name: (0.85 if name == label else 0.075) for name in NLI_LABELS}
    return label, probs


def _section(text: str, marker: str) -> str:
    match = re.search(rf"^{marker}:\s*\n(.*?)(?=^[A-Z][A-Z ]*:\s*$|\Z)", text, re.S | re.M)
    return match.group(1).strip() if match else ""


PARTY_WORDS = {"Provider", "Customer", "Company", "Supplier", "Client", "Licensor", "Licensee", "Vendor", "Buyer",
               "Seller", "Employer", "Employee", "Contractor", "Consultant", "Discloser", "Recipient", "Landlord", "Tenant"}


def parties_of(document: str) -> list[dict[str, str]]:
    """The two party words (Provider, Customer, Licensor...) the document uses most, in that order."""
    counts = {w: len(re.findall(rf"\b{w}\b", document)) for w in PARTY_WORDS}
    names = [w for w, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if n][:2]
    return [{"id": f"p{i + 1}", "name": n} for i, n in enumerate(names or ["Party A", "Party B"])]


def explain_findings(findings: list[dict], parties: list[dict]) -> dict:
    """One explanation per finding, quoting its own text (so every quote is grounded)."""
    ids = [p["id"] for p in parties] or ["p1"]
    out = []
    for f in findings:
        kind, ref, inp = f.get("kind"), f.get("reference") or "", f.get("input") or ""
        quoted = " ".join((inp or ref).split()[:8])
        item = {
            "id": f["id"],
            "summary": f"The {kind} concerns: {quoted}.",
            "comment": "Compare this passage with the template before signing.",
            "actions": {ids[0]: "rewrite" if kind != "added" else "ignore", ids[-1]: None},
            "reasons": {ids[0]: "It departs from the template.", ids[-1]: "A commercial choice."},
            "quotes": [quoted] if quoted else [],
        }
        if kind == "deviation" and ref:
            item["rewrite"] = ref
        if kind == "missing" and ref:
            item["rewrite"] = ref
            item["insert_after"] = f.get("previous_input_text") or ""
        out.append(item)
    return {"findings": out}


def default_answer(messages: list[dict]) -> str:
    user = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
    if "PREMISE:" in user and "HYPOTHESIS:" in user:
        return nli_label(_section(user, "PREMISE"), _section(user, "HYPOTHESIS"))[0]
    if "TASK: parties" in user:
        return json.dumps({"parties": parties_of(_section(user, "DOCUMENT"))})
    if "TASK: explain" in user:
        findings = json.loads(_section(user, "FINDINGS") or "[]")
        parties = json.loads(_section(user, "PARTIES") or "[]")
        return json.dumps(explain_findings(findings, parties))
    return "I can only answer conflictkit's prompts."


# ---- the server: wire format, log, faults ------------------------------------------------------


@dataclass
class FakeOpenAI:
    """The fake server with state: a request log, an optional expected key, injected faults. Thread-safe.

    ``models`` lists the model ids it serves (any other is a 404, as real servers answer).
    ``logprobs`` False behaves like a server that ignores the logprobs request (llama.cpp, some proxies).
    """

    api_key: str | None = None
    models: tuple[str, ...] = ("gpt-4o-mini", "fake-model")
    logprobs: bool = True
    script: Callable[[dict], str] | None = None
    requests: list[Request] = field(default_factory=list)
    _faults: deque = field(default_factory=deque)
    _storm: Storm | None = None
    faults_injected: int = 0  # answers a fault replaced or delayed
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def fail(self, status: int, times: int = 1, *, retry_after: float | None = None) -> None:
        """Answer the next ``times`` requests with ``status`` (and a ``retry-after`` header)."""
        with self._lock:
            self._faults.append(Fault(status=status, times=times, retry_after=retry_after))

    def storm(self, status: int | None, every: int, *, retry_after: float | None = None, delay: float = 0.0,
              reset: bool = False) -> None:
        """Answer every ``every``-th request with ``status`` (or after a ``delay``, or drop it: ``reset``) until :meth:`calm`."""
        with self._lock:
            self._storm = Storm(every, Fault(status=status, retry_after=retry_after, delay=delay, reset=reset))

    def drop(self, times: int = 1) -> None:
        """Drop the connection of the next ``times`` requests without answering."""
        with self._lock:
            self._faults.append(Fault(reset=True, times=times))

    def calm(self) -> None:
        with self._lock:
            self._storm = None

    def delay(self, seconds: float, times: int = 1) -> None:
        with self._lock:
            self._faults.append(Fault(delay=seconds, times=times))

    def corrupt(self, kind: str, times: int = 1) -> None:
        """Break the next ``times`` answers in one of :data:`CORRUPTIONS`."""
        if kind not in CORRUPTIONS:
            raise ValueError(f"unknown corruption {kind!r}; one of {', '.join(CORRUPTIONS)}")
        with self._lock:
            self._faults.append(Fault(corruption=kind, times=times))

    def count(self, status: int | None = 200) -> int:
        with self._lock:
            return sum(1 for r in self.requests if status is None or r.status == status)

    def _take_fault(self) -> Fault | None:
        with self._lock:
            stormy = self._storm.take() if self._storm is not None else None
            fault = stormy or take_fault(self._faults)
            self.faults_injected += fault is not None
            return fault

    def handle(self, method: str, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, dict[str, str], bytes]:
        """Answer one HTTP request: ``(status, headers, body)``."""
        path = "/" + path.split("?")[0].strip("/")
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = None
        request = Request(path, body, authorization=headers.get("authorization"))
        with self._lock:
            self.requests.append(request)
        fault = self._take_fault()
        status, extra, content = self._answer(method, path, request, fault)
        if fault is not None and fault.reset:
            request.status = -1  # never answered
            raise Reset
        request.status = status
        request.corrupted = fault.corruption if fault is not None and status == 200 else None
        return status, {"content-type": "application/json", **extra}, content

    def _answer(self, method: str, path: str, request: Request, fault: Fault | None) -> tuple[int, dict[str, str], bytes]:
        if fault is not None and fault.delay:
            time.sleep(fault.delay)
        if fault is not None and fault.status:
            extra = {"retry-after": f"{fault.retry_after:g}"} if fault.retry_after is not None else {}
            return fault.status, extra, _error(f"injected fault {fault.status}", "rate_limit_exceeded" if fault.status == 429 else "server_error")
        if self.api_key is not None and request.authorization != f"Bearer {self.api_key}":
            return 401, {}, _error("Incorrect API key provided", "invalid_api_key")
        if method != "POST" or not path.endswith("/chat/completions"):
            return 404, {}, _error(f"no route {method} {path}", "not_found")
        problem = _invalid(request.body)
        if problem:
            return 400, {}, _error(problem, "invalid_request_error")
        if request.body["model"] not in self.models:
            return 404, {}, _error(f"The model `{request.body['model']}` does not exist", "model_not_found")
        content = (self.script or (lambda body: default_answer(body["messages"])))(request.body)
        corruption = fault.corruption if fault is not None else None
        if corruption == "malformed":
            return 200, {}, b'{"id": "chatcmpl-broken", "choices": [{"message": '
        if corruption in BROKEN_BODIES:
            content_type, body = BROKEN_BODIES[corruption]
            return 200, {"content-type": content_type}, body
        completion = self._completion(request.body, _corrupted(content, corruption))
        if corruption == "no_choices":
            completion["choices"] = []
        elif corruption == "no_content":
            completion["choices"][0]["message"]["content"] = None
            completion["choices"][0]["finish_reason"] = "length"
        elif corruption == "nan_logprobs" and completion["choices"][0]["logprobs"]:
            for top in completion["choices"][0]["logprobs"]["content"][0]["top_logprobs"]:
                top["logprob"] = math.nan
        return 200, {}, json.dumps(completion).encode()

    def _completion(self, body: dict, content: str) -> dict:
        prompt = sum(tokens(str(m.get("content", ""))) for m in body["messages"])
        choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
        if self.logprobs and body.get("logprobs") and content in NLI_LABELS:
            user = next(m["content"] for m in reversed(body["messages"]) if m.get("role") == "user")
            _, probs = nli_label(_section(user, "PREMISE"), _section(user, "HYPOTHESIS"))
            top = [{"token": name[:3], "logprob": math.log(p), "bytes": None}
                   for name, p in sorted(probs.items(), key=lambda kv: -kv[1])][: int(body.get("top_logprobs") or 1)]
            choice["logprobs"] = {"content": [{"token": content[:3], "logprob": math.log(probs[content]), "bytes": None, "top_logprobs": top}]}
        else:
            choice["logprobs"] = None
        return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": body["model"], "choices": [choice],
                "usage": {"prompt_tokens": prompt, "completion_tokens": tokens(content), "total_tokens": prompt + tokens(content)}}

    def transport(self):
        """An ``httpx.MockTransport`` serving this fake in-process."""
        return mock_transport(self.handle)

    @contextmanager
    def serve(self) -> Iterator[LoopbackServer]:
        """Serve this fake on a free port of 127.0.0.1 until the block exits (``base_url`` ends in ``/v1``)."""
        server = LoopbackServer(self.handle, name="fake-openai")
        server.base_url += "/v1"
        try:
            yield server
        finally:
            server.close()


def _invalid(body: Any) -> str | None:
    if not isinstance(body, dict):
        return "the request body must be a JSON object"
    if not isinstance(body.get("model"), str):
        return "'model' is required"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "'messages' must be a non-empty array"
    for m in messages:
        if not isinstance(m, dict) or m.get("role") not in ("system", "user", "assistant") or not isinstance(m.get("content"), str):
            return "each message needs a role (system, user, assistant) and string content"
    if body.get("top_logprobs") is not None and not body.get("logprobs"):
        return "top_logprobs needs logprobs: true"
    return None


def _error(message: str, code: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": code, "code": code}}).encode()


def _corrupted(content: str, kind: str | None) -> str:
    if kind is None:
        return content
    if kind == "truncated":
        return content[: max(1, len(content) // 2)]
    if kind == "prose":
        return f"Sure! Here is the JSON you asked for:\n```json\n{content}\n```\nLet me know if you need more."
    try:
        data = json.loads(content)
    except ValueError:
        return content
    if kind == "missing_ids" and isinstance(data.get("findings"), list):
        data["findings"] = data["findings"][: len(data["findings"]) // 2]
    elif kind == "unknown_party" and isinstance(data.get("findings"), list):
        for item in data["findings"]:
            item["actions"] = {"p99": "remove", **item.get("actions", {})}
    elif kind == "hallucinated_quote" and isinstance(data.get("findings"), list):
        for item in data["findings"]:
            item["quotes"] = ["the Provider shall not be liable for anything at all"] + item.get("quotes", [])
    return json.dumps(data)


__all__ = ["FakeOpenAI", "Fault", "Request", "CORRUPTIONS", "NLI_LABELS", "nli_label", "default_answer", "tokens"]
