"""The ``llm`` explainer: summaries, recommendations and rewrites for every finding, every quote verified.

Once per comparison the model names the input's parties; then findings go in batches, with both
full documents (up to ``document_chars`` each) in the prompt. Each answer is read as JSON and
checked before anything of it is kept:
- a finding id that is not in the batch is ignored; a finding the model skipped is listed in
  ``explainer.unexplained``;
- actions name known parties only (others are dropped and counted) and are one of ignore / remove /
  rewrite / null; "remove" is never kept for a missing clause, nor for a passage another clause
  cites by its section number (it becomes "rewrite");
- every quote is checked against both documents with the grounding verifier: an ungrounded quote
  is dropped and counted on its recommendation;
- a rewrite keeps the input passage's own label ("7.2", "(b)", a bullet) and comes with its redline
  against the input passage; an added passage (no reference position) gets no rewrite; a missing
  clause's ``insert_after`` anchor must be grounded in the input.
The results go into the report as ``summaries``, ``recommendations`` and ``explainer`` (the model
id, the parties and the counts of what was dropped). Explanations already in the report for the
same model are kept: only findings without one are sent.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pydantic import Field

from conflictkit.grounding import Verifier, redline
from conflictkit.stages import Comparison, Explainer, Options

from conflictkit_openai.answers import has_list, json_object, short_text
from conflictkit_openai.client import ChatClient, ChatRequest, key_problem
from conflictkit_openai.options import LLMOptions
from conflictkit_openai.prompts import EXPLAIN_SYSTEM, PARTIES_TASK, explain_user

ACTIONS = ("ignore", "remove", "rewrite")
_LABEL = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|\(?[a-z0-9]{1,4}\)|[-*+•])\s+", re.I)


class LLMExplainerOptions(LLMOptions):
    batch_size: int = Field(8, ge=1, le=100, description="findings per request")
    document_chars: int = Field(60_000, ge=1000, description="characters of each document given as context")
    max_tokens: int = Field(4000, ge=256, le=100_000, description="answer length per batch")


class LLMExplainer(Explainer):
    """Explains findings with an OpenAI-compatible chat model; keeps only what the documents ground."""

    name: ClassVar[str] = "llm"
    Options: ClassVar[type[Options]] = LLMExplainerOptions

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

    def explain(self, report: dict, comparison: Comparison) -> dict:
        self.warm_up()
        reference, input = comparison.reference.document.original, comparison.input.document.original
        previous = report.get("explainer") or {}
        same_model = previous.get("model") == self.options.model
        kept = {r["finding"]: r for r in report.get("recommendations", []) if same_model}
        summaries = {s["finding"]: s for s in report.get("summaries", []) if same_model}
        todo = [f for f in report["findings"] if f["id"] not in kept]
        parties = previous.get("parties") if same_model and previous.get("parties") else self._parties(input) if todo else []
        checker = _Checker(reference, input, comparison, {p["id"] for p in parties})
        unexplained: list[str] = []
        n = self.options.batch_size
        batches = [todo[i : i + n] for i in range(0, len(todo), n)]
        prompts = [self._request(reference, input, parties, batch) for batch in batches]
        for batch, answer in zip(batches, self.client.complete(prompts, accept=has_list("findings"))):
            items = _items(answer.content)
            for finding in batch:
                item = items.get(finding["id"])
                if item is None:
                    unexplained.append(finding["id"])
                    continue
                summary, recommendation = checker.check(finding, item)
                if summary:
                    summaries[finding["id"]] = {"finding": finding["id"], "text": summary}
                kept[finding["id"]] = recommendation
        order = {f["id"]: i for i, f in enumerate(report["findings"])}
        return {
            **report,
            "summaries": sorted(summaries.values(), key=lambda s: order.get(s["finding"], 0)),
            "recommendations": sorted(kept.values(), key=lambda r: order.get(r["finding"], 0)),
            "explainer": {
                "name": self.name, "model": self.options.model, "parties": parties,
                "unexplained": unexplained, "unknown_parties_dropped": checker.unknown_parties,
                "ungrounded_quotes_dropped": checker.ungrounded,
            },
        }

    def _parties(self, input: str) -> list[dict]:
        request = ChatRequest(messages=(("system", EXPLAIN_SYSTEM), ("user", PARTIES_TASK + input[: self.options.document_chars])),
                              max_tokens=300)
        (answer,) = self.client.complete([request], accept=has_list("parties"))
        data = json_object(answer.content) or {}
        parties, seen = [], set()
        for p in data.get("parties") or []:
            if isinstance(p, dict) and isinstance(p.get("id"), str) and short_text(p.get("name"), 80) and p["id"] not in seen:
                seen.add(p["id"])
                parties.append({"id": p["id"][:20], "name": short_text(p["name"], 80)})
        return parties

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


def _items(content: str) -> dict[str, dict]:
    data = json_object(content) or {}
    return {item["id"]: item for item in data.get("findings") or [] if isinstance(item, dict) and isinstance(item.get("id"), str)}


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
        recommendation: dict[str, Any] = {
            "finding": finding["id"], "comment": short_text(item.get("comment")),
            "actions": self._actions(finding, item.get("actions")),
            "reasons": {k: short_text(v, 400) for k, v in (item.get("reasons") or {}).items()
                        if isinstance(item.get("reasons"), dict) and k in self.party_ids and short_text(v, 400)},
            "quotes": quotes, "ungrounded_quotes": dropped,
        }
        recommendation.update(self._rewrite(finding, item))
        return short_text(item.get("summary"), 600), recommendation

    def _actions(self, finding: dict, actions: Any) -> dict[str, str | None]:
        if not isinstance(actions, dict):
            return {}
        kept = {}
        for party, action in actions.items():
            if party not in self.party_ids:
                self.unknown_parties += 1
                continue
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
        for quote in quotes if isinstance(quotes, list) else []:
            if not isinstance(quote, str) or not quote.strip():
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
            result = self.verifiers[side].verify(quote)
            if result.status in ("grounded", "ambiguous"):
                start, end = (result.start, result.end) if result.status == "grounded" else result.found_at[0]
                return {"side": side, "start": start, "end": end, "text": self.verifiers[side].original[start:end]}
        return None

    def _rewrite(self, finding: dict, item: dict[str, Any]) -> dict:
        rewrite = item.get("rewrite")
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
