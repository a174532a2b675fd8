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
page, an ``empty`` body, ``no_choices``: ``choices: []``, ``no_content``, ``nan_logprobs``; a streamed answer
``cut`` off halfway by a dropped connection), and completions whose
text is broken (``truncated`` JSON, ``prose`` around the JSON, ``missing_ids``, ``unknown_party``,
``hallucinated_quote``).

Like a real server it streams (``stream: true``: server-sent events, one piece per token, usage
last when ``stream_options.include_usage`` asks) and reports log-probabilities per token of its
``tokenizer``; it can be slow (``prompt_delay`` seconds per 1,000 prompt tokens before the first
token, ``token_delay`` per token) and notices a client that hangs up mid-answer (``cancelled``,
``tokens_sent``). :meth:`FakeOpenAI.small_model` answers as a 1.5B local model did: CONTRADICTION
to every pair, the findings echoed back instead of explained, labels split into short tokens.

Use it in-process with ``httpx.MockTransport`` (:meth:`FakeOpenAI.transport`) or on a loopback
port (:meth:`FakeOpenAI.serve`).
"""

from __future__ import annotations

import difflib
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
CORRUPTIONS = ("malformed", "html", "empty", "no_choices", "no_content", "nan_logprobs", "cut",
               "truncated", "prose", "missing_ids", "unknown_party", "hallucinated_quote")
JUDGES = ("rules", "contradiction", "paranoid")
"""How the fake judges: by a fixed rule; CONTRADICTION to everything; CONTRADICTION to all but identical texts."""
EXPLAINERS = ("good", "echo", "lists")  # explains; echoes the findings back; gives lists where maps are asked for
SPLIT_LABELS = {"NEUTRAL": ["NE", "UT", "RAL"], "CONTRADICTION": ["CON", "TR", "ADICTION"], "ENTAILMENT": ["ENT", "AIL", "MENT"]}
"""How a small model's tokenizer spells the labels: the first token of NEUTRAL is two letters."""
_WORD = re.compile(r"[a-z0-9]+")
_NEGATORS = {"not", "no", "never", "neither", "nor", "without"}
_MODALS = {"shall": "duty", "must": "duty", "will": "duty", "may": "permission"}


def tokens(text: str) -> int:
    """A rough token count (4 characters a token), as usage reports it."""
    return max(1, math.ceil(len(text) / 4))


def pieces(text: str, size: int = 4) -> list[str]:
    """The default tokenizer: pieces of ``size`` characters (CONT RADI CTIO N, ENTA ILME NT, NEUT RAL)."""
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def split_labels(text: str) -> list[str]:
    """A tokenizer that spells the labels as :data:`SPLIT_LABELS` and everything else in pieces of 4."""
    head, _, rest = text.partition("\n")
    if head in SPLIT_LABELS:
        return SPLIT_LABELS[head] + (["\n"] + pieces(rest, 4) if rest else [])
    return pieces(text, 4)


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


def changed_words(premise: str, hypothesis: str) -> tuple[str, str]:
    """The first run of words the hypothesis changes, and the premise's words there: what a quote of the change cites."""
    a, b = premise.split(), hypothesis.split()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            return " ".join(b[max(0, j1 - 1) : max(j2, j1 + 1)]), " ".join(a[max(0, i1 - 1) : max(i2, i1 + 1)])
    return " ".join(b[:3]), " ".join(a[:3])


def lists_for_maps(answer: dict) -> dict:
    """An explain answer with ``actions`` and ``reasons`` as lists of {party, ...}, as small models write them."""
    for item in answer.get("findings", []):
        item["actions"] = [{"party": k, "action": v} for k, v in item.get("actions", {}).items()]
        item["reasons"] = [{"party": k, "reason": v} for k, v in item.get("reasons", {}).items()]
    return answer


def default_answer(messages: list[dict], judge: str = "rules", explainer: str = "good", quote: bool | None = None) -> str:
    """The fake model's answer; ``quote`` None quotes the changed words when the system prompt asks for them."""
    user = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
    if quote is None:
        quote = any(m.get("role") == "system" and "QUOTE:" in m.get("content", "") for m in messages)
    if "PREMISE:" in user and "HYPOTHESIS:" in user:
        premise, hypothesis = _section(user, "PREMISE"), _section(user, "HYPOTHESIS")
        if judge == "contradiction" or (judge == "paranoid" and premise != hypothesis):
            label = "CONTRADICTION"
        else:
            label = nli_label(premise, hypothesis)[0]
        if quote and label == "CONTRADICTION":
            changed, original = changed_words(premise, hypothesis)
            return f'{label}\nQUOTE: "{changed}" <> "{original}"'
        return label
    if "TASK: parties" in user:
        return json.dumps({"parties": parties_of(_section(user, "DOCUMENT"))})
    if "TASK: explain" in user:
        findings = json.loads(_section(user, "FINDINGS") or "[]")
        parties = json.loads(_section(user, "PARTIES") or "[]")
        if explainer == "echo":
            return json.dumps({"findings": findings})
        answer = explain_findings(findings, parties)
        return json.dumps(lists_for_maps(answer) if explainer == "lists" else answer)
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
    judge: str = "rules"  # one of JUDGES
    explainer: str = "good"  # one of EXPLAINERS
    quote: bool | None = None  # a CONTRADICTION adds a QUOTE line citing the first changed words (None: when asked to)
    tokenizer: Callable[[str], list[str]] = pieces
    continuation: float = 1.0  # probability of each token after a label's first
    prompt_delay: float = 0.0  # seconds per 1,000 prompt tokens before the first token
    token_delay: float = 0.0  # seconds per answer token
    stream_usage: bool = True  # False: refuse stream_options with a 400, as older servers do
    cancelled: int = 0  # streamed answers the client hung up on
    tokens_sent: int = 0  # streamed tokens sent, all answers together
    requests: list[Request] = field(default_factory=list)
    _faults: deque = field(default_factory=deque)
    _storm: Storm | None = None
    faults_injected: int = 0  # answers a fault replaced or delayed
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def small_model(cls, **overrides: Any) -> FakeOpenAI:
        """A fake that answers as a 1.5B local model did (issue 28): CONTRADICTION to every pair, with
        label log-probabilities over short tokens (NE UT RAL), and the findings echoed back."""
        return cls(**{"judge": "contradiction", "explainer": "echo", "tokenizer": split_labels, "continuation": 0.97,
                      "quote": False, **overrides})

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
        if not problem and not self.stream_usage and "stream_options" in request.body:
            problem = "Unrecognized request argument supplied: stream_options"
        if problem:
            return 400, {}, _error(problem, "invalid_request_error")
        if request.body["model"] not in self.models:
            return 404, {}, _error(f"The model `{request.body['model']}` does not exist", "model_not_found")
        content = (self.script or (lambda body: default_answer(body["messages"], self.judge, self.explainer, self.quote)))(request.body)
        corruption = fault.corruption if fault is not None else None
        if corruption == "malformed":
            return 200, {}, b'{"id": "chatcmpl-broken", "choices": [{"message": '
        if corruption in BROKEN_BODIES:  # what a proxy or a broken server sends, to a streamed request too
            content_type, broken = BROKEN_BODIES[corruption]
            return 200, {"content-type": content_type}, broken
        content = _corrupted(content, corruption)
        body = request.body
        prompt = sum(tokens(str(m.get("content", ""))) for m in body["messages"])
        answer = self.tokenizer(content)[: int(body.get("max_tokens") or 1 << 30)]
        positions = self._positions(body, answer)
        if corruption == "nan_logprobs" and positions:
            for top in positions[0]["top_logprobs"]:
                top["logprob"] = math.nan
        if body.get("stream"):
            return 200, {"content-type": "text/event-stream"}, self._events(body, prompt, answer, positions, corruption)
        time.sleep(self.prompt_delay * prompt / 1000 + self.token_delay * len(answer))
        return 200, {}, json.dumps(self._completion(body, prompt, answer, positions, corruption)).encode()

    def _positions(self, body: dict, answer: list[str]) -> list[dict] | None:
        """Per answer token: its log-probability and the top alternatives (the three labels' first tokens at a label's start)."""
        if not (self.logprobs and body.get("logprobs")):
            return None
        top_n = int(body.get("top_logprobs") or 1)
        label = "".join(answer).split("\n")[0]
        probs = None
        if label in NLI_LABELS:
            user = next(m["content"] for m in reversed(body["messages"]) if m.get("role") == "user")
            probs = nli_label(_section(user, "PREMISE"), _section(user, "HYPOTHESIS"))[1]
            if label == "CONTRADICTION" and self.judge != "rules":
                probs = {"CONTRADICTION": 0.9, "ENTAILMENT": 0.04, "NEUTRAL": 0.06}
        out = []
        for k, token in enumerate(answer):
            if k == 0 and probs is not None:
                top = sorted(((self.tokenizer(name)[0], p) for name, p in probs.items()), key=lambda tp: -tp[1])
                chosen = math.log(probs[label])
            else:
                p = self.continuation if probs is not None and k < len(self.tokenizer(label)) else 1.0
                top = [(token, p)] + ([("X", 1.0 - p)] if p < 1.0 else [])
                chosen = math.log(p)
            out.append({"token": token, "logprob": chosen, "bytes": None,
                        "top_logprobs": [{"token": t, "logprob": math.log(p), "bytes": None} for t, p in top[:top_n]]})
        return out

    def _completion(self, body: dict, prompt: int, answer: list[str], positions: list[dict] | None,
                    corruption: str | None = None) -> dict:
        content = None if corruption == "no_content" else "".join(answer)
        choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": content},
                                  "finish_reason": "length" if content is None else "stop",
                                  "logprobs": {"content": positions} if positions is not None else None}
        choices = [] if corruption == "no_choices" else [choice]
        return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": body["model"], "choices": choices,
                "usage": {"prompt_tokens": prompt, "completion_tokens": len(answer), "total_tokens": prompt + len(answer)}}

    def _events(self, body: dict, prompt: int, answer: list[str], positions: list[dict] | None,
                corruption: str | None = None) -> Iterator[bytes]:
        """The answer as server-sent events, one token a piece, at the fake's speed; a hang-up is counted.
        ``no_choices``: only pieces with ``choices: []``; ``no_content``: a choice that ends with no text."""
        def event(data: Any) -> bytes:
            return f"data: {json.dumps(data) if not isinstance(data, str) else data}\n\n".encode()

        def chunk(delta: dict, logprobs: list[dict] | None, finish: str | None) -> dict:
            return {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": body["model"],
                    "choices": [{"index": 0, "delta": delta, "logprobs": {"content": logprobs} if logprobs else None,
                                 "finish_reason": finish}]}

        finished = False
        try:
            time.sleep(self.prompt_delay * prompt / 1000)
            if corruption == "no_choices":
                answer = []
            elif corruption == "no_content":
                answer = []
                yield event(chunk({"role": "assistant"}, None, "length"))
            for k, token in enumerate(answer):
                if corruption == "cut" and k == len(answer) // 2:
                    raise Reset  # the connection drops mid-answer
                time.sleep(self.token_delay)
                delta = {"role": "assistant", "content": token} if k == 0 else {"content": token}
                yield event(chunk(delta, [positions[k]] if positions else None, None))
                with self._lock:
                    self.tokens_sent += 1
            if corruption not in ("no_choices", "no_content"):
                yield event(chunk({}, None, "stop"))
            if (body.get("stream_options") or {}).get("include_usage"):
                yield event({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": body["model"],
                             "choices": [], "usage": {"prompt_tokens": prompt, "completion_tokens": len(answer),
                                                      "total_tokens": prompt + len(answer)}})
            yield event("[DONE]")
            finished = True
        finally:
            if not finished:
                with self._lock:
                    self.cancelled += 1

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


__all__ = ["FakeOpenAI", "Fault", "Request", "CORRUPTIONS", "EXPLAINERS", "JUDGES", "NLI_LABELS", "SPLIT_LABELS",
           "nli_label", "default_answer", "pieces", "split_labels", "tokens"]
