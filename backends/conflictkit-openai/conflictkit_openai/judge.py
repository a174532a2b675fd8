"""The ``llm`` judge: an LLM in NLI mode reads each candidate pair both ways.

Each direction is one chat completion at temperature 0 asking for one word (ENTAILMENT,
CONTRADICTION or NEUTRAL) and, after CONTRADICTION, a line quoting the words that change the
effect. Where the server returns log-probabilities, each label's probability is read from the
tokens the model spelt it with (:mod:`conflictkit_openai.labels`); otherwise the answered label
gets ``confidence`` and the other two share the rest. An answer that names no label is asked for
once more, then counted as unreadable and read as no information (1/3 each); if every answer of a
call is unreadable the model is not following the instruction, and that is an error.

The judgement follows the ``nli`` judge's mapping: P(conflict) = max of the two directions' c,
P(differs) = 1 - min of their e, P(same matter) = the larger of the retrieval relevance and the
model's c + e. A contradiction's quotes are checked against the two clauses (typography aside);
those found become the ``llm`` reason's ``reference`` and ``input`` words, the others are dropped
and counted. In a cascade, a verdict that raises P(conflict) above the judge before it stands only
with such a quote (:class:`conflictkit.judges.compose.CascadeJudge`).

Before its first pair the judge asks about one clause and itself (``probe``): a model that calls
that a CONTRADICTION (a small model that answers CONTRADICTION to everything, quotes and all)
cannot judge, so none of its quotes is kept and it cannot raise a cascade's verdict; usage says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar, Literal

from pydantic import Field

from conflictkit.errors import BackendError
from conflictkit.grounding import Verifier
from conflictkit.model import CandidatePair, Judgement, Reason
from conflictkit.stages import Comparison, Judge, Options

from conflictkit_openai.client import ChatAnswer, ChatClient, ChatRequest, key_problem
from conflictkit_openai.labels import LABELS, label_of, label_probabilities
from conflictkit_openai.options import LLMOptions
from conflictkit_openai.prompts import NLI_SYSTEM, NLI_SYSTEM_QUOTE, QUOTE_MARKER, nli_user

LABEL_TOKENS = 8  # room for a label spelt in short tokens ("CON" "TR" "AD" "ICTION")
QUOTE_TOKENS = 120
UNREADABLE = dict.fromkeys(LABELS, 1 / 3)
PROBE_CLAUSE = "The Customer shall pay each invoice within thirty (30) days of receipt."
_QUOTED = re.compile(r'["\u201c\u201d](.+?)["\u201c\u201d]')


class LLMJudgeOptions(LLMOptions):
    context: Literal["none", "neighbours"] = Field("none", description="also show the clauses around the premise")
    confidence: float = Field(0.9, gt=1 / 3, lt=1.0, description="probability of the answered label when the server gives no log-probabilities")
    max_clause_chars: int = Field(6000, ge=200, description="longer clauses are cut (the cut is said in the prompt)")
    reason_at: float = Field(0.5, ge=0.0, le=1.0, description="add an 'llm' reason from this P(contradiction)")
    quote: bool = Field(True, description=(
        "ask for the changed words with a CONTRADICTION: in a cascade, a verdict that raises P(conflict) "
        "stands only with a quote found in both clauses' changed words"))
    probe: bool = Field(True, description=(
        "first ask about a clause and itself; a model that calls it a CONTRADICTION has none of its quotes kept"))


def probabilities(answer: ChatAnswer | str, confidence: float) -> dict[str, float] | None:
    """(c, e, n) of one direction: from the label's token log-probabilities when given, else from the
    answered label; None when the answer names no label."""
    if isinstance(answer, str):
        answer = ChatAnswer(answer)
    if answer.positions:
        read = label_probabilities(answer.positions)
        if read is not None:
            return read
    label = label_of(answer.content)
    if label is None:
        return None
    rest = (1.0 - confidence) / 2
    return {name: (confidence if name == label else rest) for name in LABELS}


def names_a_label(text: str) -> str | None:
    """The answer check: the problem with an answer that names no label."""
    return None if label_of(text) is not None else f"names no label (it began {text.strip()[:40]!r})"


def quoted_words(answer: str) -> tuple[str | None, str | None]:
    """(hypothesis words, premise words) of an answer's QUOTE line, or (None, None)."""
    line = next((ln for ln in answer.splitlines() if ln.strip().upper().startswith(QUOTE_MARKER)), None)
    if line is None:
        return None, None
    body = line.strip()[len(QUOTE_MARKER):].strip()
    parts = _QUOTED.findall(body) or [part.strip() for part in body.split("<>")]
    parts = [part.strip() for part in parts if part.strip()]
    return (parts[0] if parts else None), (parts[1] if len(parts) > 1 else None)


class LLMJudge(Judge):
    """Asks an OpenAI-compatible chat model, in NLI mode, about each pair in both directions."""

    name: ClassVar[str] = "llm"
    Options: ClassVar[type[Options]] = LLMJudgeOptions
    version: ClassVar[str] = "2"

    def __init__(self, options: Options | dict | None = None, http_client=None) -> None:
        super().__init__(options)
        self.client: ChatClient | None = None
        self._http_client = http_client
        self.pairs_sent = 0
        self.unreadable = 0
        self.ungrounded_quotes = 0
        self.failed_probe: str | None = None
        self._probed = False

    def unavailable(self) -> str | None:
        return key_problem(self.options)

    def warm_up(self) -> None:
        if self._warm:
            return
        self.client = ChatClient(self.options, self.store, self._http_client)
        super().warm_up()

    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]:
        self.warm_up()
        if pairs and self.options.probe and not self._probed:
            self._probe()
        requests = []
        for pair in pairs:
            a = self._text(comparison.reference.clause(pair.reference_id).text)
            b = self._text(comparison.input.clause(pair.input_id).text)
            requests.append(self._request(a, b, self._context(comparison.reference, pair.reference_id)))
            requests.append(self._request(b, a, self._context(comparison.input, pair.input_id)))
        answers = self.client.complete(requests, check=names_a_label)
        self.pairs_sent += len(pairs)
        read = [probabilities(a, self.options.confidence) for a in answers]
        unreadable = [a for a, r in zip(answers, read) if r is None]
        self.unreadable += len(unreadable)
        if unreadable and len(unreadable) == len(answers):
            raise BackendError(f"the llm answered {unreadable[0].content[:60]!r}, not ENTAILMENT, CONTRADICTION or NEUTRAL, "
                               f"to all {len(answers)} questions; use an instruction-following model")
        out = []
        for k, pair in enumerate(pairs):
            fwd, bwd = (r or UNREADABLE for r in read[2 * k : 2 * k + 2])
            quotes = self._quotes(pair, comparison, answers[2 * k].content, answers[2 * k + 1].content)
            out.append(self._judgement(pair, fwd, bwd, quotes))
        return out

    def _probe(self) -> None:
        """Ask about one clause and itself: CONTRADICTION there means the model's contradictions carry no information."""
        (answer,) = self.client.complete([self._request(PROBE_CLAUSE, PROBE_CLAUSE, None)], check=names_a_label)
        read = probabilities(answer, self.options.confidence)
        if read is not None and read["CONTRADICTION"] > 0.5:
            self.failed_probe = "answered CONTRADICTION to a clause and itself: its quotes are not kept"
        self._probed = True

    def _text(self, text: str) -> str:
        limit = self.options.max_clause_chars
        return text if len(text) <= limit else text[:limit] + " [... cut]"

    def _request(self, premise: str, hypothesis: str, context: str | None) -> ChatRequest:
        system, tokens = (NLI_SYSTEM_QUOTE, LABEL_TOKENS + QUOTE_TOKENS) if self.options.quote else (NLI_SYSTEM, LABEL_TOKENS)
        return ChatRequest(messages=(("system", system), ("user", nli_user(premise, hypothesis, context))),
                           max_tokens=tokens, logprobs=True)

    def _context(self, document, clause_id: str) -> str | None:
        if self.options.context == "none":
            return None
        i = document.position(clause_id)
        around = [c.text for c in document.clauses[max(0, i - 1) : i + 2] if c.id != clause_id and c.filtered is None]
        return self._text("\n".join(around)) if around else None

    def _quotes(self, pair: CandidatePair, comparison: Comparison, forward: str, backward: str) -> tuple[str | None, str | None]:
        """(reference words, input words) the answers quote and the clauses contain; the first direction that gives any."""
        texts = {"reference": comparison.reference.clause(pair.reference_id).text,
                 "input": comparison.input.clause(pair.input_id).text}
        if self.failed_probe:
            return None, None
        for answer, (hypothesis_side, premise_side) in ((forward, ("input", "reference")), (backward, ("reference", "input"))):
            if label_of(answer) != "CONTRADICTION":
                continue
            said = dict(zip((hypothesis_side, premise_side), quoted_words(answer)))
            found = {side: self._found(words, texts[side]) for side, words in said.items() if words}
            self.ungrounded_quotes += sum(1 for words in found.values() if words is None)
            if any(found.values()):
                return found.get("reference"), found.get("input")
        return None, None

    @staticmethod
    def _found(words: str, clause: str) -> str | None:
        span = Verifier(clause).locate(words)
        return clause[span[0] : span[1]] if span else None

    def _judgement(self, pair: CandidatePair, fwd: dict[str, float], bwd: dict[str, float],
                   quotes: tuple[str | None, str | None]) -> Judgement:
        c = max(fwd["CONTRADICTION"], bwd["CONTRADICTION"])
        e = min(fwd["ENTAILMENT"], bwd["ENTAILMENT"])
        related = max(fwd["CONTRADICTION"] + fwd["ENTAILMENT"], bwd["CONTRADICTION"] + bwd["ENTAILMENT"])
        reasons = []
        if c >= self.options.reason_at:
            reference, input = quotes
            reasons.append(Reason(type="llm", reference=reference, input=input,
                                  detail=f"{self.options.model} reads the clauses as contradicting each other (P={c:.2f})"))
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
        used = {**self.client.report(), "pairs_sent": self.pairs_sent, "unreadable_answers": self.unreadable,
                "ungrounded_quotes_dropped": self.ungrounded_quotes}
        if self.failed_probe:
            used["failed_probe"] = self.failed_probe
        return used
