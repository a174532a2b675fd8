"""Which tokens changed between two versions of a clause, and which of them carry meaning.

``material_difference(a, b)`` compares word tokens after typographic normalization and reports
every changed token with its class (negator, modal, exception, condition, quantifier, number) and
its offsets in both original strings. It does not decide what a change means: that is a judge's job.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Literal

from pydantic import BaseModel, ConfigDict

from conflictkit.errors import UserError
from conflictkit.lexicon import LanguagePack
from conflictkit.grounding.tokens import Tokens, token_class, tokenize

_PRIORITY = ("negator", "number", "modal", "exception", "condition", "quantifier")


class Change(BaseModel):
    """One changed token: deleted from ``a``, inserted in ``b``, or replaced by a token of ``b``.

    ``a_text``/``b_text`` are the normalized tokens ("" on the side that lacks one);
    ``a_start``/``a_end`` and ``b_start``/``b_end`` are half-open offsets into the original
    strings (an empty span is the point where the token would go). ``kind`` is the token's class,
    ``None`` for a token that carries no listed meaning (and for a change of letter case only).
    """

    model_config = ConfigDict(frozen=True)

    op: Literal["delete", "insert", "replace"]
    kind: str | None
    a_text: str
    b_text: str
    a_start: int
    a_end: int
    b_start: int
    b_end: int

    @property
    def material(self) -> bool:
        """Whether the changed token belongs to a class that can reverse or shift meaning."""
        return self.kind is not None

    def describe(self, a_name: str = "a", b_name: str = "b") -> str:
        """One phrase: ``negator "not" in a is missing from b`` or ``"30" in a is "60" in b (number)``."""
        label = f"{self.kind} " if self.kind else ""
        if self.op == "delete":
            return f'{label}"{self.a_text}" in {a_name} is missing from {b_name}'
        if self.op == "insert":
            return f'{label}"{self.b_text}" in {b_name} is not in {a_name}'
        kind = f" ({self.kind})" if self.kind else ""
        return f'"{self.a_text}" in {a_name} is "{self.b_text}" in {b_name}{kind}'

    def shifted(self, a_by: int = 0, b_by: int = 0) -> Change:
        """The same change with offsets moved, for a string that was a slice of a longer one."""
        return self.model_copy(update={
            "a_start": self.a_start + a_by, "a_end": self.a_end + a_by,
            "b_start": self.b_start + b_by, "b_end": self.b_end + b_by,
        })


class MaterialDifference(BaseModel):
    """Whether two texts differ beyond typography, and every changed token."""

    model_config = ConfigDict(frozen=True)

    differs: bool
    changes: list[Change]

    @property
    def material(self) -> list[Change]:
        """The changes of tokens that can reverse or shift meaning."""
        return [c for c in self.changes if c.material]

    @property
    def reversing(self) -> bool:
        """Whether any changed token can reverse or shift meaning."""
        return any(c.material for c in self.changes)

    def to_dict(self) -> dict:
        """JSON-friendly form, with ``reversing`` added."""
        data = self.model_dump()
        data["reversing"] = self.reversing
        return data


def pair_kind(a_token: str, b_token: str, pack: LanguagePack | None = None) -> str | None:
    """The class of a one-for-one token replacement; a change of letter case only has none."""
    if a_token.lower() == b_token.lower():
        return None
    kinds = {token_class(a_token, pack), token_class(b_token, pack)} - {None}
    return next((k for k in _PRIORITY if k in kinds), None)


def opcode_changes(ta: Tokens, tb: Tokens, i1: int, i2: int, j1: int, j2: int,
                   pack: LanguagePack | None = None) -> list[Change]:
    """The per-token changes of one non-equal opcode of a token diff of ``ta`` and ``tb`` (classes in the
    pack's language, the default pack's when none is given)."""
    if i2 - i1 == j2 - j1:  # same length: token k replaced by token k
        return [_change("replace", ta, tb, i, i + 1, j, j + 1, pack) for i, j in zip(range(i1, i2), range(j1, j2))]
    changes = [_change("delete", ta, tb, i, i + 1, j1, j1, pack) for i in range(i1, i2)]
    changes += [_change("insert", ta, tb, i2, i2, j, j + 1, pack) for j in range(j1, j2)]
    return changes


def _change(op, ta: Tokens, tb: Tokens, i1: int, i2: int, j1: int, j2: int, pack: LanguagePack | None = None) -> Change:
    a_text, b_text = ta.text(i1, i2), tb.text(j1, j2)
    if op == "replace":
        kind = pair_kind(a_text, b_text, pack)
    else:
        kind = token_class(a_text or b_text, pack)
    a_start, a_end = ta.original_span(i1, i2)
    b_start, b_end = tb.original_span(j1, j2)
    return Change(op=op, kind=kind, a_text=a_text, b_text=b_text,
                  a_start=a_start, a_end=a_end, b_start=b_start, b_end=b_end)


def token_opcodes(ta: Tokens, tb: Tokens) -> list[tuple[str, int, int, int, int]]:
    """difflib opcodes of two token lists (no junk heuristic: legal text repeats its words)."""
    return SequenceMatcher(None, ta.words, tb.words, autojunk=False).get_opcodes()


def check_text(value: object, name: str) -> str:
    """``value`` if it is a string, else a :class:`UserError` naming the argument."""
    if not isinstance(value, str):
        raise UserError(f"{name} must be a string, got {type(value).__name__}")
    return value


def material_difference(a: str, b: str, pack: LanguagePack | None = None) -> MaterialDifference:
    """Compare two versions of a clause word by word after typographic normalization.

    Returns every changed token with its class and its offsets in ``a`` and in ``b``. Typography
    (quotes, dashes, ligatures, spacing, line breaks) is never a change; letter case, punctuation
    and every word are.
    """
    ta, tb = tokenize(check_text(a, "a"), pack), tokenize(check_text(b, "b"), pack)
    changes: list[Change] = []
    for tag, i1, i2, j1, j2 in token_opcodes(ta, tb):
        if tag != "equal":
            changes.extend(opcode_changes(ta, tb, i1, i2, j1, j2, pack))
    return MaterialDifference(differs=bool(changes), changes=changes)
