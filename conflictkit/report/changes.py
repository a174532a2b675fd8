"""A finding's word-level redline as runs of the original clause text, for every renderer.

The engine stores grounding's ops with each deviation (offsets into both quotes); the terminal,
Markdown and HTML views all read them through :func:`redline_ops`, so they show the same change.
"""

from __future__ import annotations

import re
from typing import Any

_SPACES = re.compile(r"\s+")
_WORDS = re.compile(r"\s*\S+")


def redline_ops(finding: dict) -> list[dict] | None:
    """The word-level redline of a deviation: the report's own, else computed by grounding.

    Each op is ``{"op": "equal"|"delete"|"insert", "gap", "text", "reversing", "kinds"}``; None when the finding
    has one side only (missing, added), where the whole clause is the change.
    """
    ref, inp = finding.get("reference"), finding.get("input")
    if ref is None or inp is None:
        return None
    data = finding.get("redline")
    if data is None:
        from conflictkit.grounding import redline

        data = redline(ref["text"], inp["text"]).to_dict()
    return _normalise_ops(data, ref["text"], inp["text"])


def _normalise_ops(data: Any, a: str, b: str) -> list[dict]:
    """Ops as runs of original text, each with the original text between it and the previous run.

    Grounding's ops carry offsets into both originals; text is taken from there (not from the
    normalized ``text``) so the redline shows the clauses exactly as written, spacing included.
    """
    ops = data.get("ops", []) if isinstance(data, dict) else data
    out, last_a, last_b = [], 0, 0
    for op in ops:
        if op["op"] == "delete":
            gap, text = a[last_a : op["a_start"]], a[op["a_start"] : op["a_end"]]
        else:
            gap, text = b[last_b : op["b_start"]], b[op["b_start"] : op["b_end"]]
        if op["op"] != "insert":
            last_a = max(last_a, op["a_end"])
        if op["op"] != "delete":
            last_b = max(last_b, op["b_end"])
        out.append({"op": op["op"], "gap": gap, "text": text, "reversing": bool(op.get("reversing")),
                    "kinds": list(op.get("kinds") or [])})
    return out


def in_context(ops: list[dict], words: int = 4) -> list[tuple[str, str]]:
    """The changed runs with ``words`` words of unchanged text either side, as ``(op, text)`` pieces.

    Unchanged stretches longer than twice ``words`` are cut to their two ends with an ``…``
    piece (op ``"cut"``) between; whitespace is flattened to single spaces.
    """
    merged: list[tuple[str, str]] = []
    for op in ops:
        for kind, text in (("equal", op["gap"]), (op["op"], op["text"])):
            text = _SPACES.sub(" ", text)
            if not text:
                continue
            if merged and merged[-1][0] == kind:
                merged[-1] = (kind, merged[-1][1] + text)
            else:
                merged.append((kind, text))
    out: list[tuple[str, str]] = []
    for k, (kind, text) in enumerate(merged):
        if kind == "equal":
            out.extend(_trim(text, words, first=k == 0, last=k == len(merged) - 1))
        else:
            out.append((kind, text))
    return out


def _trim(text: str, words: int, *, first: bool, last: bool) -> list[tuple[str, str]]:
    """An unchanged stretch cut to the ``words`` words next to each change it touches."""
    tokens = _WORDS.findall(text)  # each word with the space before it
    trailing = text[len("".join(tokens)) :]
    head = [] if first else tokens[:words]
    tail = [] if last else tokens[-words:]
    if len(tokens) <= len(head) + len(tail):
        return [("equal", text)]
    parts = [("equal", "".join(head) + " ")] if head else []
    parts.append(("cut", "…"))
    if tail:
        parts.append(("equal", "".join(tail) + trailing))
    return parts
