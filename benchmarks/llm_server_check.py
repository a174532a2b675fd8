"""What an OpenAI-compatible server does with conflictkit's requests: log-probabilities, streaming, cancellation.

    python benchmarks/llm_server_check.py --base-url http://127.0.0.1:8080/v1 --model NAME [--long-tokens 4000]

Kept out of CI (it needs your server). Prints, for one NLI question, the answer's tokens with their
log-probabilities and the label probabilities the llm judge reads from them; then sends a long
request, cancels it after one second (``max_request_s``) and times the next short request: a
server that stopped computing the cancelled answer answers at once, one that did not makes it wait
for the whole long answer (which is then timed in full, for comparison).
"""

from __future__ import annotations

import argparse
import json
import time

from conflictkit.errors import BackendError
from conflictkit.model import CandidatePair
from conflictkit.stages import Comparison
from conflictkit.store import Store
from conflictkit.testing.clauses import indexed_document
from conflictkit_openai.client import ChatClient, ChatRequest
from conflictkit_openai.judge import LLMJudge
from conflictkit_openai.labels import label_probabilities
from conflictkit_openai.options import LLMOptions

QUESTION = ChatRequest(messages=(("user", "PREMISE:\nCustomer may not share its credentials.\n\nHYPOTHESIS:\n"
                                          "Customer may share its credentials.\n\nANSWER:\nENTAILMENT, CONTRADICTION or NEUTRAL"),),
                       max_tokens=8, logprobs=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--long-tokens", type=int, default=4000, help="max_tokens of the request that is cancelled")
    args = parser.parse_args()
    options = {"model": args.model, "base_url": args.base_url, "max_retries": 0}
    store = Store.disabled()
    client = ChatClient(LLMOptions(**options), store)
    (answer,) = client.complete([QUESTION])
    print(f"answer {answer.content!r}; tokens (token, logprob, top alternatives):")
    for token, logprob, top in answer.positions or []:
        print(f"  {token!r} {logprob:.3f} {[(t, round(p, 3)) for t, p in top]}")
    print("label probabilities read from them:", label_probabilities(answer.positions or []))
    reference = indexed_document(["Customer may not share its credentials with any third party."])
    input = indexed_document(["Customer may share its credentials with any third party."])
    pair = CandidatePair(reference_id=reference.clauses[0].id, input_id=input.clauses[0].id, relevance=0.9)
    judge = LLMJudge(options)
    judge.use_store(store)
    (judgement,) = judge.judge([pair], Comparison(reference=reference, input=input))
    print(f"llm judge on a dropped 'not': P(conflict) {judgement.p_conflict:.3f}; usage {json.dumps(judge.usage())}")

    long = ChatRequest(messages=(("user", "Write a long story about contracts."),), max_tokens=args.long_tokens)
    started = time.monotonic()
    try:
        ChatClient(LLMOptions(**{**options, "max_request_s": 1.0}), store).complete([long])
        print(f"the long request finished within {time.monotonic() - started:.1f} s: raise --long-tokens to test cancelling")
    except BackendError as exc:
        print(f"cancelled after {time.monotonic() - started:.1f} s: {str(exc)[:120]}")
    started = time.monotonic()
    client.complete([QUESTION.__class__(messages=(("user", QUESTION.messages[0][1] + " "),), max_tokens=8, logprobs=True)])
    print(f"the next short request was answered after {time.monotonic() - started:.2f} s")
    started = time.monotonic()
    (full,) = ChatClient(LLMOptions(**{**options, "timeout": 600}), store).complete([long])
    print(f"the long request in full: {len(full.content)} characters in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
