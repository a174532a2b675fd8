"""What counts as evidence for raising a pair's P(conflict) over an earlier judge's verdict.

A cascade's later judge (an LLM, a small local model among them) may answer CONTRADICTION to
anything. Its word alone must not turn what the rules judge read as the same effect into a
finding, so a raise needs a reason that quotes the change: words of the reference and/or the input
clause that

- occur in that clause (typography aside, as the grounding verifier reads quotes),
- lie on a changed run of the pair's word-level redline (words both clauses share say nothing
  about what changed), and, where the earlier judge judged edit by edit, on an edit it did not
  find editorial or same-effect,
- and are not the same words on both sides.
"""

from __future__ import annotations

from collections.abc import Sequence

from conflictkit.grounding import Verifier, redline
from conflictkit.model import Edit, Reason

Span = tuple[int, int]


def changed_runs(reference: str, input: str) -> dict[str, list[Span]]:
    """Where the redline of the two clause texts changes them: deleted runs of the reference, inserted
    runs of the input, and the empty point in one side where the other side's run was cut or added."""
    runs: dict[str, list[Span]] = {"reference": [], "input": []}
    for op in redline(reference, input).ops:
        if op.op != "equal":
            runs["reference"].append((op.a_start, op.a_end))
            runs["input"].append((op.b_start, op.b_end))
    return runs


def _touches(span: Span, runs: Sequence[Span]) -> bool:
    """Whether a quoted span overlaps a changed run, or holds inside it the point where the other side's run was."""
    start, end = span
    return any(a < end and start < b if a < b else start < a < end for a, b in runs)


def _plain(text: str) -> str:
    return " ".join(text.split()).casefold()


def _on_a_substantive_edit(side: str, words: str, edits: Sequence[Edit]) -> bool:
    said = _plain(words)
    for edit in edits:
        if edit.verdict != "substantive":
            continue
        text = _plain(getattr(edit, side).text)
        if text and (text in said or said in text):
            return True
    return False


def quotes_a_change(reason: Reason, reference: str, input: str, edits: Sequence[Edit] = ()) -> bool:
    """Whether ``reason`` quotes words that changed between the two clause texts (see the module)."""
    quoted = {side: words for side, words in (("reference", reason.reference), ("input", reason.input))
              if isinstance(words, str) and words.strip()}
    if not quoted or (len(quoted) == 2 and _plain(quoted["reference"]) == _plain(quoted["input"])):
        return False
    texts = {"reference": reference, "input": input}
    runs = changed_runs(reference, input)
    on_change = False
    for side, words in quoted.items():
        span = Verifier(texts[side]).locate(words)
        if span is None:
            return False  # a quote the clause does not hold grounds nothing
        if _touches(span, runs[side]) and (not edits or _on_a_substantive_edit(side, words, edits)):
            on_change = True
    return on_change
