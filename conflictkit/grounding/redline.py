"""A word-level redline of two clauses: equal, deleted and inserted runs with offsets in both.

Typography is never an op (both texts are normalized first). A replacement is a ``delete`` then an
``insert``. Runs holding a meaning-reversing change (a negator, modal, exception, condition,
quantifier or number; see :mod:`conflictkit.grounding.material`) are marked ``reversing``.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from pydantic import BaseModel, ConfigDict

from conflictkit.grounding.material import check_text, opcode_changes, token_opcodes
from conflictkit.grounding.tokens import Tokens, tokenize
from conflictkit.lexicon import LanguagePack

REVERSING_MARK = "\u26a0"
"""Appended after a reversing run in Markdown."""


class Op(BaseModel):
    """One run of the redline. ``text`` is normalized; offsets are half-open into the originals.

    For a ``delete`` the ``b`` span is empty (where the run was in ``b``); for an ``insert`` the
    ``a`` span is. ``kinds`` lists the classes of the meaning-bearing tokens changed in the run.
    """

    model_config = ConfigDict(frozen=True)

    op: Literal["equal", "delete", "insert"]
    text: str
    a_start: int
    a_end: int
    b_start: int
    b_end: int
    reversing: bool = False
    kinds: list[str] = []
    spaced: bool = False  # whitespace precedes the run in its own text (for rendering)


class Redline(BaseModel):
    """The ops that turn ``a`` into ``b``."""

    model_config = ConfigDict(frozen=True)

    ops: list[Op]

    @property
    def changed(self) -> bool:
        """Whether ``a`` and ``b`` differ beyond typography."""
        return any(op.op != "equal" for op in self.ops)

    @property
    def reversing(self) -> bool:
        """Whether any run changes a meaning-reversing token."""
        return any(op.reversing for op in self.ops)

    def to_dict(self) -> dict:
        """JSON-friendly form."""
        data = self.model_dump()
        for op in data["ops"]:
            op.pop("spaced")
        return data

    def to_markdown(self) -> str:
        """``~~deleted~~`` and ``{+inserted+}`` runs; a reversing run is followed by ``⚠``.

        Insertions are not bold: contracts bold their own headings. The text is escaped, so a
        clause's own markup (``<script>``, ``![](url)``, ``**``) shows as written.
        """
        from conflictkit.report.escape import escape_markdown

        parts: list[str] = []
        for k, op in enumerate(self.ops):
            text = escape_markdown(op.text)
            if op.op == "delete":
                text = f"~~{text}~~"
            elif op.op == "insert":
                text = f"{{+{text}+}}"
            if op.reversing:
                text += REVERSING_MARK
            parts.append((" " if k and op.spaced else "") + text)
        return "".join(parts)


def redline(a: str, b: str, pack: LanguagePack | None = None) -> Redline:
    """Word-level redline of ``a`` (old) into ``b`` (new), after typographic normalization; the words that
    may reverse meaning are the pack's (the default pack's when none is given).

    Markup (inline HTML tags, entities, emphasis, link targets) is compared and shown as the reader
    sees it, never as source: ``<span class=...>`` is neither an op nor in one; offsets still index ``a`` and ``b``.
    """
    ta, tb = _tokens_without_markup(check_text(a, "a"), pack), _tokens_without_markup(check_text(b, "b"), pack)
    ops: list[Op] = []
    for tag, i1, i2, j1, j2 in token_opcodes(ta, tb):
        if tag == "equal":
            ops.append(_op("equal", tb, j1, j2, ta.original_span(i1, i2), tb.original_span(j1, j2)))
            continue
        changes = opcode_changes(ta, tb, i1, i2, j1, j2, pack)
        kinds = sorted({c.kind for c in changes if c.kind})
        if i2 > i1:
            ops.append(_op("delete", ta, i1, i2, ta.original_span(i1, i2), tb.original_span(j1, j1), kinds))
        if j2 > j1:
            ops.append(_op("insert", tb, j1, j2, ta.original_span(i2, i2), tb.original_span(j1, j2), kinds))
    return Redline(ops=ops)


def _tokens_without_markup(text: str, pack: LanguagePack | None = None) -> Tokens:
    from conflictkit.segmenters.markup import markup_free

    clean, to_text = markup_free(text)
    tokens = tokenize(clean, pack)
    return dataclasses.replace(tokens, original=text, offsets=to_text[tokens.offsets])


def _op(kind, source: Tokens, i: int, j: int, a_span, b_span, kinds: list[str] | None = None) -> Op:
    return Op(op=kind, text=source.text(i, j), a_start=a_span[0], a_end=a_span[1],
              b_start=b_span[0], b_end=b_span[1], reversing=bool(kinds), kinds=kinds or [],
              spaced=source.spaced_before(i))
