"""The ``llm`` judge: an LLM in NLI mode reads each candidate pair both ways.

Each direction is one chat completion at temperature 0 asking for one word (ENTAILMENT,
CONTRADICTION or NEUTRAL). Where the server returns log-probabilities, the three labels' first-token
probabilities are renormalised into (c, e, n); otherwise the answered label gets ``confidence``
and the other two share the rest. The judgement follows the ``nli`` judge's mapping:
P(conflict) = max of the two directions' c, P(differs) = 1 - min of their e, P(same matter) = the
larger of the retrieval relevance and the model's c + e. Used last in a cascade, it sees only the
pairs the cheaper judges could not settle; its answer joins the reasons as a reason of its own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import ClassVar, Literal

from pydantic import Field

from conflictkit.errors import BackendError
from conflictkit.model import CandidatePair, Judgement, Reason
from conflictkit.stages import Comparison, Judge, Options

from conflictkit_openai.client import ChatClient, ChatRequest, key_problem
from conflictkit_openai.options import LLMOptions
from conflictkit_openai.prompts import NLI_SYSTEM, nli_user

LABELS = ("CONTRADICTION", "ENTAILMENT", "NEUTRAL")


class LLMJudgeOptions(LLMOptions):
    context: Literal["none", "neighbours"] = Field("none", description="also show the clauses around the premise")
    confidence: float = Field(0.9, gt=1 / 3, lt=1.0, description="probability of the answered label when the server gives no log-probabilities")
    max_clause_chars: int = Field(6000, ge=200, description="longer clauses are cut (the cut is said in the prompt)")
    reason_at: float = Field(0.5, ge=0.0, le=1.0, description="add an 'llm' reason from this P(contradiction)")


def label_of(answer: str) -> str | None:
    """The label an answer (or a log-probability token such as "CON") names: its first word, case-insensitive."""
    match = re.search(r"[A-Za-z]+", answer)
    word = match.group().upper() if match else ""
    if len(word) < 3:
        return None
    found = [label for label in LABELS if label.startswith(word) or word.startswith(label)]
    return found[0] if len(found) == 1 else None


def probabilities(answer: str, top_logprobs: list[tuple[str, float]] | None, confidence: float) -> dict[str, float]:
    """(c, e, n) of one direction, from log-probabilities when given, else from the answered label."""
    if top_logprobs:
        mass = {label: 0.0 for label in LABELS}
        for token, logprob in top_logprobs:
            label = label_of(token)
            if label is not None:
                mass[label] += math.exp(logprob)
        total = sum(mass.values())
        if total > 0:
            return {label: p / total for label, p in mass.items()}
    label = label_of(answer)
    if label is None:
        raise BackendError(f"the llm answered {answer[:60]!r}, not ENTAILMENT, CONTRADICTION or NEUTRAL; use an instruction-following model")
    rest = (1.0 - confidence) / 2
    return {name: (confidence if name == label else rest) for name in LABELS}


class LLMJudge(Judge):
    """Asks an OpenAI-compatible chat model, in NLI mode, about each pair in both directions."""

    name: ClassVar[str] = "llm"
    Options: ClassVar[type[Options]] = LLMJudgeOptions

    def __init__(self, options: Options | dict | None = None, http_client=None) -> None:
        super().__init__(options)
        self.client: ChatClient | None = None
        self._http_client = http_client
        self.pairs_sent = 0

    def unavailable(self) -> str | None:
        return key_problem(self.options)

    def warm_up(self) -> None:
        if self._warm:
            return
        self.client = ChatClient(self.options, self.store, self._http_client)
        super().warm_up()

    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]:
        self.warm_up()
        requests = []
        for pair in pairs:
            a = self._text(comparison.reference.clause(pair.reference_id).text)
            b = self._text(comparison.input.clause(pair.input_id).text)
            requests.append(self._request(a, b, self._context(comparison.reference, pair.reference_id)))
            requests.append(self._request(b, a, self._context(comparison.input, pair.input_id)))
        answers = self.client.complete(requests)
        self.pairs_sent += len(pairs)
        out = []
        for k, pair in enumerate(pairs):
            fwd, bwd = (probabilities(a.content, a.top_logprobs, self.options.confidence) for a in answers[2 * k : 2 * k + 2])
            out.append(self._judgement(pair, fwd, bwd))
        return out

    def _text(self, text: str) -> str:
        limit = self.options.max_clause_chars
        return text if len(text) <= limit else text[:limit] + " [... cut]"

    def _request(self, premise: str, hypothesis: str, context: str | None) -> ChatRequest:
        return ChatRequest(messages=(("system", NLI_SYSTEM), ("user", nli_user(premise, hypothesis, context))), max_tokens=4, logprobs=True)

    def _context(self, document, clause_id: str) -> str | None:
        if self.options.context == "none":
            return None
        i = document.position(clause_id)
        around = [c.text for c in document.clauses[max(0, i - 1) : i + 2] if c.id != clause_id and c.filtered is None]
        return self._text("\n".join(around)) if around else None

    def _judgement(self, pair: CandidatePair, fwd: dict[str, float], bwd: dict[str, float]) -> Judgement:
        c = max(fwd["CONTRADICTION"], bwd["CONTRADICTION"])
        e = min(fwd["ENTAILMENT"], bwd["ENTAILMENT"])
        related = max(fwd["CONTRADICTION"] + fwd["ENTAILMENT"], bwd["CONTRADICTION"] + bwd["ENTAILMENT"])
        reasons = []
        if c >= self.options.reason_at:
            reasons.append(Reason(type="llm", detail=f"{self.options.model} reads the clauses as contradicting each other (P={c:.2f})"))
        signals = {f"llm.{tag}.{label.lower()}": p for tag, d in (("fwd", fwd), ("bwd", bwd)) for label, p in d.items()}
        return Judgement(
            reference_id=pair.reference_id, input_id=pair.input_id,
            p_same=min(1.0, max(pair.relevance, related)), p_differs=min(1.0, max(0.0, 1.0 - e)),
            p_conflict=min(1.0, max(0.0, c)), reasons=reasons, judge=self.name, signals=signals,
        )

    def describe(self) -> dict:
        info = super().describe()
        info["model"] = self.options.model
        return info

    def usage(self) -> dict:
        if self.client is None:
            return {}
        return {**self.client.report(), "pairs_sent": self.pairs_sent}
