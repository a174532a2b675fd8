"""The ``llm`` explainer: summaries, recommendations and rewrites for every finding, every quote verified.

Once per comparison the model names the input's parties; then findings go in batches, with both
full documents (up to ``document_chars`` each, none with 0) in the prompt. Each answer is read as
real models write it (:mod:`conflictkit_openai.answers`: prose and fences around the JSON, lists
for maps, items keyed by id, an answer cut off mid-list) and checked before anything of it is
kept or cached:
- an answer that explains no finding of its batch (empty, no JSON, or the findings echoed back
  with no summary, comment, action, quote or rewrite) is asked for once more and never cached;
  its findings are "not explained", each with the problem named in ``explainer.problems``;
- a finding id that is not in the batch is ignored; a finding the model skipped, or answered with
  an echo, is listed in ``explainer.unexplained``;
- actions name known parties only (others are dropped and counted) and are one of ignore / remove /
  rewrite / null; "remove" is never kept for a missing clause, nor for a passage another clause
  cites by its section number (it becomes "rewrite");
- every quote is checked against both documents with the grounding verifier: an ungrounded quote
  is dropped and counted on its recommendation;
- a rewrite keeps the input passage's own label ("7.2", "(b)", a bullet) and comes with its redline
  against the input passage; an added passage (no reference position) gets no rewrite; a missing
  clause's ``insert_after`` anchor must be grounded in the input.
The results go into the report as ``summaries``, ``recommendations`` and ``explainer`` (the model
id, the parties, how many findings were explained and the counts of what was dropped), as each
batch's answer arrives (``updated``). Explanations already in the report for the same model are
kept: only findings without one are sent.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import Field

from conflictkit.grounding import Verifier, redline
from conflictkit.stages import NOT_ANSWERED_YET, Comparison, Explainer, Options

from conflictkit_openai.answers import as_map, items_of, json_value, short_text, texts
from conflictkit_openai.client import ChatAnswer, ChatClient, ChatRequest, key_problem
from conflictkit_openai.options import LLMOptions
from conflictkit_openai.prompts import EXPLAIN_SYSTEM, PARTIES_TASK, explain_user

ACTIONS = ("ignore", "remove", "rewrite")
ID_FIELDS = ("id", "finding", "finding_id")
PARTY_FIELDS = ("party", "party_id", "id", "name")
ANSWER_FIELDS = ("summary", "comment", "actions", "quotes", "rewrite", "insert")
_LABEL = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|\(?[a-z0-9]{1,4}\)|[-*+•])\s+", re.I)


class LLMExplainerOptions(LLMOptions):
    batch_size: int = Field(8, ge=1, le=100, description="findings per request (1-2 for a small local model)")
    document_chars: int = Field(60_000, ge=0, description=(
        "characters of each document given as context; 0 sends only the findings' own passages "
        "(a small local model's context, and its speed, are better spent on them)"))
    max_tokens: int = Field(4000, ge=256, le=100_000, description="answer length per batch")


def echo_problem(item: dict[str, Any], finding: dict) -> str | None:
    """What is wrong with one finding's item, or None: an echo of the request, an empty item, a copied clause."""
    if not any(item.get(field) for field in ANSWER_FIELDS):
        if {"kind", "reference", "input", "reasons", "section"} & set(item):
            return "an echo of the finding (no summary, comment, action, quote or rewrite)"
        return "an empty explanation"
    summary = _plain(item.get("summary"))
    passages = {_plain((finding.get(side) or {}).get("text")) for side in ("reference", "input")} - {""}
    if summary and summary in passages and not any(item.get(f) for f in ANSWER_FIELDS if f != "summary"):
        return "the summary only copies the clause"
    return None


def _plain(value: Any) -> str:
    return " ".join(value.split()).lower() if isinstance(value, str) else ""


class LLMExplainer(Explainer):
    """Explains findings with an OpenAI-compatible chat model; keeps only what the documents ground."""

    name: ClassVar[str] = "llm"
    Options: ClassVar[type[Options]] = LLMExplainerOptions
    version: ClassVar[str] = "2"

    def __init__(self, options: Options | dict | None = None, http_client=None) -> None:
        super().__init__(options)
        self.client: ChatClient | None = None
        self._http_client = http_client

    def unavailable(self) -> str | None:
        return key_problem(self.options)

    def warm_up(self) -> None:
        if self._warm:
            return
        self.client = ChatClient(self.options, self.store, self._http_client)
        super().warm_up()

    def explain(self, report: dict, comparison: Comparison, updated: Callable[[dict], None] | None = None) -> dict:
        self.warm_up()
        reference, input = comparison.reference.document.original, comparison.input.document.original
        previous = report.get("explainer") or {}
        same_model = previous.get("model") == self.options.model
        kept = {r["finding"]: r for r in report.get("recommendations", []) if same_model}
        summaries = {s["finding"]: s for s in report.get("summaries", []) if same_model}
        todo = [f for f in report["findings"] if f["id"] not in kept]
        parties = previous.get("parties") if same_model and previous.get("parties") else self._parties(input) if todo else []
        checker = _Checker(reference, input, comparison, {p["id"] for p in parties})
        problems: dict[str, str] = {}
        n = self.options.batch_size
        batches = [todo[i : i + n] for i in range(0, len(todo), n)]
        prompts = [self._request(reference, input, parties, batch) for batch in batches]
        lock = threading.Lock()

        def current() -> dict:
            return self._report(report, parties, summaries, kept, problems, checker)

        def arrived(k: int, answer: ChatAnswer) -> None:
            with lock:
                read = read_batch(answer.content, batches[k])
                for finding in batches[k]:
                    item, problem = read[finding["id"]]
                    if problem is not None:
                        problems[finding["id"]] = problem
                        continue
                    summary, recommendation = checker.check(finding, item)
                    if summary:
                        summaries[finding["id"]] = {"finding": finding["id"], "text": summary}
                    kept[finding["id"]] = recommendation
                if updated is not None:
                    updated(current())

        # each answer is checked against its own batch before it is cached
        self.client.complete(prompts, check=[_batch_check(batch) for batch in batches], on_answer=arrived)
        return current()

    def _report(self, report: dict, parties: list[dict], summaries: dict, kept: dict, problems: dict[str, str],
                checker: _Checker) -> dict:
        order = {f["id"]: i for i, f in enumerate(report["findings"])}
        unexplained = [f["id"] for f in report["findings"] if f["id"] not in kept]
        reasons = Counter(problems.get(fid, NOT_ANSWERED_YET) for fid in unexplained)
        return {
            **report,
            "summaries": sorted(summaries.values(), key=lambda s: order.get(s["finding"], 0)),
            "recommendations": sorted(kept.values(), key=lambda r: order.get(r["finding"], 0)),
            "explainer": {
                "name": self.name, "model": self.options.model, "parties": parties,
                "explained": len(kept), "unexplained": unexplained,
                "problems": [{"problem": why, "findings": n} for why, n in reasons.most_common()],
                "unknown_parties_dropped": checker.unknown_parties, "ungrounded_quotes_dropped": checker.ungrounded,
            },
        }

    def _parties(self, input: str) -> list[dict]:
        request = ChatRequest(messages=(("system", EXPLAIN_SYSTEM), ("user", PARTIES_TASK + input[: max(self.options.document_chars, 4000)])),
                              max_tokens=300)
        (answer,) = self.client.complete([request], check=lambda text: None if parties_of(text) else "names no party")
        return parties_of(answer.content)

    def _request(self, reference: str, input: str, parties: list[dict], batch: list[dict]) -> ChatRequest:
        limit = self.options.document_chars
        payload = [{
            "id": f["id"], "kind": f["kind"],
            "section": (f.get("input") or f.get("reference") or {}).get("section"),
            "reference": (f.get("reference") or {}).get("text"), "input": (f.get("input") or {}).get("text"),
            "reasons": [r.get("detail") or r.get("type") for r in f.get("reasons") or []],
        } for f in batch]
        user = explain_user(reference[:limit], input[:limit], parties, payload)
        return ChatRequest(messages=(("system", EXPLAIN_SYSTEM), ("user", user)), max_tokens=self.options.max_tokens)

    def usage(self) -> dict:
        return {} if self.client is None else self.client.report()


def parties_of(text: str) -> list[dict]:
    """The parties an answer names: ``{"parties": [{"id", "name"}]}``, or a list of names (given ids p1, p2...)."""
    parties, seen = [], set()
    raw = items_of(text, "parties", ("id",))
    if not raw:
        data = json_value(text)
        names = data.get("parties") if isinstance(data, dict) else None
        raw = [{"id": f"p{i + 1}", "name": n} for i, n in enumerate(texts(names))]
    for i, p in enumerate(raw):
        pid = p.get("id") if isinstance(p.get("id"), str) and p.get("id").strip() else f"p{i + 1}"
        name = short_text(p.get("name"), 80)
        if name and pid not in seen:
            seen.add(pid)
            parties.append({"id": pid[:20], "name": name})
    return parties


def _batch_check(batch: list[dict]) -> Callable[[str], str | None]:
    """The answer check of one batch: the problem when the answer explains none of its findings."""
    def check(text: str) -> str | None:
        problems = [problem for _, problem in read_batch(text, batch).values()]
        return None if None in problems else Counter(problems).most_common(1)[0][0]
    return check


def read_batch(text: str, batch: list[dict]) -> dict[str, tuple[dict, str | None]]:
    """Each finding of the batch: the answer's item for it and the problem with it (None when usable)."""
    if not isinstance(text, str) or not text.strip():
        return {f["id"]: ({}, "an empty answer") for f in batch}
    items = items_of(text, "findings", ID_FIELDS)
    if not items:
        problem = "no JSON in the answer" if "{" not in text else "no findings in the answer"
        return {f["id"]: ({}, problem) for f in batch}
    by_id: dict[str, dict] = {}
    for item in items:
        fid = next((item[f] for f in ID_FIELDS if isinstance(item.get(f), str)), None)
        if fid is not None:
            by_id.setdefault(fid.strip(), item)
    if len(batch) == 1 and len(items) == 1 and not by_id:
        by_id[batch[0]["id"]] = items[0]  # one finding asked about, one answer given without its id
    out = {}
    for finding in batch:
        item = by_id.get(finding["id"])
        out[finding["id"]] = ({}, "skipped by the model") if item is None else (item, echo_problem(item, finding))
    return out


class _Checker:
    """Keeps of a model's answer only what the rules and the documents allow; counts what it drops."""

    def __init__(self, reference: str, input: str, comparison: Comparison, party_ids: set[str]) -> None:
        self.verifiers = {"input": Verifier(input), "reference": Verifier(reference)}
        self.comparison = comparison
        self.party_ids = party_ids
        self.unknown_parties = 0
        self.ungrounded = 0

    def check(self, finding: dict, item: dict[str, Any]) -> tuple[str | None, dict]:
        quotes, dropped = self._quotes(item.get("quotes"))
        reasons = as_map(item.get("reasons"), PARTY_FIELDS, ("reason", "text", "why"))
        recommendation: dict[str, Any] = {
            "finding": finding["id"], "comment": short_text(item.get("comment")),
            "actions": self._actions(finding, as_map(item.get("actions"), PARTY_FIELDS, ("action", "value"))),
            "reasons": {k: short_text(v, 400) for k, v in reasons.items() if k in self.party_ids and short_text(v, 400)},
            "quotes": quotes, "ungrounded_quotes": dropped,
        }
        recommendation.update(self._rewrite(finding, item))
        return short_text(item.get("summary"), 600), recommendation

    def _actions(self, finding: dict, actions: dict[str, Any]) -> dict[str, str | None]:
        kept = {}
        for party, action in actions.items():
            if party not in self.party_ids:
                self.unknown_parties += 1
                continue
            action = action.strip().lower() if isinstance(action, str) else None
            if action not in ACTIONS:
                action = None
            if action == "remove" and finding["kind"] == "missing":
                action = None
            elif action == "remove" and self._cited(finding):
                action = "rewrite"
            kept[party] = action
        return kept

    def _cited(self, finding: dict) -> bool:
        """Whether another input clause refers to this finding's section ("Section 7.2", "clause 7.2")."""
        side = finding.get("input") or {}
        section = side.get("section")
        if not section:
            return False
        pattern = re.compile(rf"\b(?:section|clause|paragraph|§)\s*{re.escape(section.rstrip('.'))}(?![\d.])", re.I)
        return any(pattern.search(c.text) for c in self.comparison.input.clauses if c.id != side.get("clause_id"))

    def _quotes(self, quotes: Any) -> tuple[list[dict], int]:
        kept, dropped = [], 0
        for quote in texts(quotes):
            if not quote.strip():
                continue
            found = self._ground(quote)
            if found is None:
                dropped += 1
            else:
                kept.append(found)
        self.ungrounded += dropped
        return kept, dropped

    def _ground(self, quote: str, sides: tuple[str, ...] = ("input", "reference")) -> dict | None:
        for side in sides:
            span = self.verifiers[side].locate(quote)
            if span is not None:
                start, end = span
                return {"side": side, "start": start, "end": end, "text": self.verifiers[side].original[start:end]}
        return None

    def _rewrite(self, finding: dict, item: dict[str, Any]) -> dict:
        rewrite = item.get("rewrite") or item.get("insert")
        if finding["kind"] == "added" or not isinstance(rewrite, str) or not rewrite.strip():
            return {}
        rewrite = rewrite.strip()
        if finding["kind"] == "missing":
            anchor = item.get("insert_after")
            grounded = self._ground(anchor, ("input",)) if isinstance(anchor, str) and anchor.strip() else None
            return {"insert": rewrite, "insert_after": grounded}
        passage = finding["input"]["text"]
        label = _LABEL.match(passage)
        if label and not rewrite.startswith(label.group().strip()):
            rewrite = label.group() + _LABEL.sub("", rewrite, count=1)
        changes = redline(passage, rewrite)
        return {"rewrite": rewrite, "redline": {**changes.to_dict(), "markdown": changes.to_markdown()}}
