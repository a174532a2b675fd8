"""The prompts the ``llm`` backends send. Plain words; markers (``PREMISE:``...) on their own lines."""

from __future__ import annotations

import json

NLI_SYSTEM = (
    "You are a careful contract lawyer. You compare two passages of legal text and say whether the second "
    "follows from the first (ENTAILMENT), contradicts it in legal effect (CONTRADICTION), or neither (NEUTRAL). "
    "A different number, party, duty, permission, condition or scope is a contradiction; a pure rewording is "
    "entailment. Answer with exactly one word."
)
NLI_SYSTEM_QUOTE = NLI_SYSTEM + (
    " After CONTRADICTION, add one line that quotes the words that change the effect, each copied exactly: "
    'QUOTE: "<words of the HYPOTHESIS>" <> "<the words of the PREMISE they replace>"'
)
QUOTE_MARKER = "QUOTE:"


def nli_user(premise: str, hypothesis: str, context: str | None = None) -> str:
    parts = []
    if context:
        parts += ["CONTEXT:", context, ""]
    parts += ["PREMISE:", premise, "", "HYPOTHESIS:", hypothesis, "",
              "ANSWER:", "ENTAILMENT, CONTRADICTION or NEUTRAL"]
    return "\n".join(parts)


EXPLAIN_SYSTEM = (
    "You help a lawyer review a draft agreement (the INPUT) against a reference (the REFERENCE: a template, "
    "the previous version or a playbook). You answer with one JSON object and nothing else."
)

PARTIES_TASK = """TASK: parties
Name the parties of the agreement below, each once, with a short id (p1, p2, ...) and the name the
agreement uses for it (e.g. "Provider", "Customer"). Answer as JSON: {"parties": [{"id": "p1", "name": "..."}]}.

DOCUMENT:
"""

EXPLAIN_RULES = """For each finding, give:
- "id": the finding's id, exactly as given;
- "summary": one or two plain sentences saying what changed and what it means, naming the parties (no finding ids);
- "comment": a comment the reviewer could leave on the draft;
- "actions": for each party id, one of "ignore", "remove", "rewrite", or null for a commercial choice;
  never "remove" for a missing finding;
- "reasons": for each party id, one short sentence;
- "quotes": short exact quotes (copied character for character) from the INPUT or REFERENCE that support it;
- "rewrite": for a deviation, the input passage rewritten to the reference position, going no further than
  the reference and keeping the input's numbering, list markers and line breaks; for a missing clause, the
  text to insert; omit it for an added passage that the reference has no position on;
- "insert_after": for a missing clause only, an exact quote of the input passage it should follow.
Answer as JSON: {"findings": [...]}."""


def explain_user(reference: str, input: str, parties: list[dict], findings: list[dict]) -> str:
    """The explain task: rules, parties, both documents (when given), the findings, and the answer's shape.

    The shape is shown with the batch's own first id and the parties' ids: small models copy the
    request back when they are shown only its data.
    """
    ids = [p["id"] for p in parties] or ["p1"]
    example = {"findings": [{
        "id": findings[0]["id"] if findings else "F0001", "summary": "...", "comment": "...",
        "actions": {pid: "rewrite" if k == 0 else None for k, pid in enumerate(ids)},
        "reasons": {pid: "..." for pid in ids}, "quotes": ["..."], "rewrite": "...",
    }]}
    documents = []
    if reference:
        documents += ["REFERENCE:", reference, ""]
    if input:
        documents += ["INPUT:", input, ""]
    return "\n".join([
        "TASK: explain", EXPLAIN_RULES, "",
        "PARTIES:", json.dumps(parties, ensure_ascii=False), "",
        *documents,
        "FINDINGS:", json.dumps(findings, ensure_ascii=False, indent=0), "",
        "ANSWER FORMAT:", json.dumps(example, ensure_ascii=False),
        "Write your own words for every finding; do not copy the findings back.",
    ])
