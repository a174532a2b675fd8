"""The edit as the unit of judgement: every edit of an aligned pair gets a verdict.

A clause pair's word-level edit script (the same tokens the redline shows: typography normalized,
markup gone) is split into *edits*, regions of changed tokens (two regions one token apart are one
edit: "thirty (30)" -> "sixty (60)"). Each edit is judged in three steps:

1. **editorial** edits are recognised by rules that read the pair and the document context
   (:mod:`conflictkit.judges.atoms.editorial`): typography, extraction noise, links, renames,
   grammar, cross-references, illustrations, pointers;
2. the reference is read with every editorial edit applied (so "Basecamp" -> "37signals" or a
   fixed typo leave no trace) and its atoms are compared with the input's, as the clause-level
   judge always did: every typed difference is then **attributed** to the edits its quotes overlap;
3. an edit with a difference is **substantive** (its reasons, its probability); one without is
   **same-effect** (the comparison of the whole clause shows it changes no atom).

Where the content family gives up on the whole pair (the words differ in more than a few places),
each remaining edit is also compared alone against the reference, so nine editorial edits and one
substantive one still give a finding for that one edit. Edits are reported with spans of the
original files (:class:`conflictkit.model.Edit`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from conflictkit.context import EMPTY, DocumentContext
from conflictkit.grounding.tokens import Tokens, tokenize
from conflictkit.lexicon import DEFAULT_LANGUAGE, LanguagePack, load

_MARKUP_SIGNS = "<[*_~`\\&#|>"  # characters every markup the redline strips starts with
_JOIN_GAP = 1  # tokens between two changed regions that still make them one edit
_PAREN_GAP = 3  # tokens of a figure restated in parentheses between two changed regions ("5 %", "1.000 EUR")


@dataclass(frozen=True)
class TextEdit:
    """Tokens ``[i1, i2)`` of the reference replaced by tokens ``[j1, j2)`` of the input; ``parts`` are
    the changed regions it was joined from (itself when it is one)."""

    i1: int
    i2: int
    j1: int
    j2: int
    parts: tuple[TextEdit, ...] = ()

    @property
    def pieces(self) -> tuple[TextEdit, ...]:
        return self.parts or (self,)


@dataclass
class PairView:
    """Both clauses of a pair as the edit-level judge reads them: tokens with offsets into the
    original files, the edits between them, the document context and the lexicon."""

    ref: Tokens
    inp: Tokens
    ref_origin: int
    inp_origin: int
    edits: list[TextEdit]
    context: DocumentContext
    lexicon: LanguagePack
    headings: tuple[str | None, str | None] = (None, None)
    """The headings the two clauses stand under (a run-in title in one may be a heading line in the other)."""

    def word_set(self, side: str) -> frozenset[str]:
        """The lower-cased words of one side ("ref" or "inp"), read once."""
        memo = self.__dict__.setdefault("_word_sets", {})
        if side not in memo:
            memo[side] = frozenset(w.lower() for w in (self.ref if side == "ref" else self.inp).words)
        return memo[side]

    def ref_words(self, e: TextEdit) -> list[str]:
        return list(self.ref.words[e.i1:e.i2])

    def inp_words(self, e: TextEdit) -> list[str]:
        return list(self.inp.words[e.j1:e.j2])

    def ref_span(self, e: TextEdit) -> tuple[int, int]:
        """The edit's reference side in the original file (a point for an insertion)."""
        start, end = self.ref.original_span(e.i1, e.i2)
        return start + self.ref_origin, end + self.ref_origin

    def inp_span(self, e: TextEdit) -> tuple[int, int]:
        start, end = self.inp.original_span(e.j1, e.j2)
        return start + self.inp_origin, end + self.inp_origin

    def ref_sentence(self, e: TextEdit) -> tuple[int, int]:
        """Token range of the reference sentence around the edit."""
        return self._sentence("ref", e.i1, e.i2)

    def inp_sentence(self, e: TextEdit) -> tuple[int, int]:
        return self._sentence("inp", e.j1, e.j2)

    def _sentence(self, side: str, i: int, j: int) -> tuple[int, int]:
        memo = self.__dict__.setdefault("_sentences", {})
        key = (side, i, j)
        if key not in memo:
            memo[key] = sentence_around((self.ref if side == "ref" else self.inp).words, i, j)
        return memo[key]


_SENTENCE_END = frozenset({".", "!", "?", ";"})


def sentence_around(words: tuple[str, ...], i: int, j: int) -> tuple[int, int]:
    """``[start, end)`` of the tokens of the sentence(s) holding tokens ``[i, j)`` (for ``i == j``, the
    sentence the point opens or lies in)."""
    start = i
    while start > 0 and words[start - 1] not in _SENTENCE_END:
        start -= 1
    k = max(i, j - 1)
    while k < len(words) and words[k] not in _SENTENCE_END:
        k += 1
    return start, min(k + 1, len(words))


@lru_cache(maxsize=8192)
def clause_tokens(source: str, language: str = DEFAULT_LANGUAGE) -> Tokens:
    """The tokens of a clause's original text as the redline reads it: no markup, offsets into ``source``.
    Cached: a clause is in several candidate pairs."""
    from conflictkit.segmenters.markup import markup_free

    pack = load(language)
    if not any(c in source for c in _MARKUP_SIGNS) and " :" not in source:
        return tokenize(source, pack)  # plain text: nothing to strip
    clean, to_source = markup_free(source)
    tokens = tokenize(clean, pack)
    return dataclasses.replace(tokens, original=source, offsets=to_source[tokens.offsets])


def split_edits(a: Tokens, b: Tokens) -> list[TextEdit]:
    """The edits between two token lists: changed regions, joined when one token apart.

    The tokens both clauses open and close with are matched first, and only what lies between is
    diffed: an edited clause changes in a few places, and difflib's cost grows with what it compares."""
    from difflib import SequenceMatcher

    x, y = a.words, b.words
    head = 0
    while head < len(x) and head < len(y) and x[head] == y[head]:
        head += 1
    tail = 0
    while tail < len(x) - head and tail < len(y) - head and x[-1 - tail] == y[-1 - tail]:
        tail += 1
    middle = SequenceMatcher(None, x[head:len(x) - tail], y[head:len(y) - tail], autojunk=False).get_opcodes()
    edits: list[TextEdit] = []
    for tag, i1, i2, j1, j2 in middle:
        if tag == "equal":
            continue
        i1, i2, j1, j2 = _slid(x, y, i1 + head, i2 + head, j1 + head, j2 + head)
        part = TextEdit(i1, i2, j1, j2)
        if edits and (i1 - edits[-1].i2 <= _JOIN_GAP and j1 - edits[-1].j2 <= _JOIN_GAP
                      or _restated_between(x, y, edits[-1], part)):
            last = edits.pop()
            edits.append(TextEdit(last.i1, i2, last.j1, j2, (*last.pieces, part)))
        else:
            edits.append(part)
    return edits


def _restated_between(x: tuple[str, ...], y: tuple[str, ...], last: TextEdit, part: TextEdit) -> bool:
    """Whether two changed regions hold a parenthesis between them: "fünf Prozent (5 %)" -> "5 %" and
    "thirty (30 %)" -> "sixty (60 %)" change one restated figure, whatever tokens it has ("5 %" is two)."""
    if part.i1 - last.i2 > _PAREN_GAP or part.j1 - last.j2 > _PAREN_GAP:
        return False
    opened = (x[last.i2 - 1:last.i2] == ("(",)) or (y[last.j2 - 1:last.j2] == ("(",))
    closed = (x[part.i1:part.i1 + 1] == (")",)) or (y[part.j1:part.j1 + 1] == (")",))
    return opened and closed


def _slid(x: tuple[str, ...], y: tuple[str, ...], i1: int, i2: int, j1: int, j2: int) -> tuple[int, int, int, int]:
    """A pure insertion or deletion moved as far right as the text allows, so that it starts a sentence
    rather than ends one ("law." + ". We provide..." is "law." + "We provide ... .")."""
    if i1 == i2:
        while j2 < len(y) and i1 < len(x) and y[j1] == y[j2] == x[i1]:
            i1, i2, j1, j2 = i1 + 1, i2 + 1, j1 + 1, j2 + 1
    elif j1 == j2:
        while i2 < len(x) and j1 < len(y) and x[i1] == x[i2] == y[j1]:
            i1, i2, j1, j2 = i1 + 1, i2 + 1, j1 + 1, j2 + 1
    return i1, i2, j1, j2


def view_of(ref_source: str, ref_origin: int, inp_source: str, inp_origin: int, context: DocumentContext | None,
            lexicon: LanguagePack, headings: tuple[str | None, str | None] = (None, None)) -> PairView:
    """The edit-level view of a pair, from each clause's original text and its offset in its file."""
    a, b = clause_tokens(ref_source, lexicon.language), clause_tokens(inp_source, lexicon.language)
    return PairView(a, b, ref_origin, inp_origin, split_edits(a, b), context or EMPTY, lexicon, headings)


def assemble(tokens_a: Tokens, tokens_b: Tokens, edits: list[TextEdit], applied: set[int],
             origins: list[tuple[int, int, int, int]] | None = None) -> tuple[str, list[tuple[int, int]]]:
    """The reference text with the edits numbered in ``applied`` taken from the input, and where each
    edit's text (the version used) lies in the result (a point for an empty one).

    Tokens keep the spacing of the text they come from; where the two texts meet, the input's
    spacing around the applied edit decides. ``origins``, when given, receives for every token of the
    result its span there and the reference tokens it stands for (an applied edit's tokens stand for
    the whole edit's reference tokens), which :func:`in_reference` reads."""
    out: list[str] = []
    length = 0

    def emit(tokens: Tokens, i: int, j: int, spaced: bool | None = None, source: tuple[int, int] | None = None) -> int | None:
        nonlocal length
        first = None
        for k in range(i, j):
            space = tokens.spaced_before(k) if (k > i or spaced is None) else spaced
            if out and space:
                out.append(" ")
                length += 1
            if first is None:
                first = length
            out.append(tokens.words[k])
            if origins is not None:
                origins.append((length, length + len(tokens.words[k]), *(source or (k, k + 1))))
            length += len(tokens.words[k])
        return first

    spans: list[tuple[int, int]] = []
    pos, lead = 0, None
    for n, e in enumerate(edits):
        emit(tokens_a, pos, e.i1, lead)
        if n in applied:
            start = emit(tokens_b, e.j1, e.j2, tokens_b.spaced_before(e.j1) if e.j1 < len(tokens_b.words) else None,
                         (e.i1, e.i2))
            lead = tokens_b.spaced_before(e.j2) if e.j2 < len(tokens_b.words) else None
        else:
            start = emit(tokens_a, e.i1, e.i2, lead if e.i1 == pos else None)
            lead = None
        spans.append((length, length) if start is None else (start, length))
        pos = e.i2
    emit(tokens_a, pos, len(tokens_a.words), lead)
    return "".join(out), spans


def in_reference(quote: str | None, text: str, origins: list[tuple[int, int, int, int]], tokens: Tokens) -> str | None:
    """A quote of the text :func:`assemble` built, as the reference's own words: the reference tokens
    the quoted tokens stand for (a quote that spans an applied edit quotes the edit's original words),
    so every quote of the judge can be found in the clause it names. A quote the reference already
    holds, or one that stands only on inserted words, is returned unchanged."""
    if quote is None or quote in tokens.normalized or (start := text.find(quote)) < 0:
        return quote
    end = start + len(quote)
    covered = [(lo, hi) for a, b, lo, hi in origins if a < end and b > start and hi > lo]
    if not covered:
        return quote
    return tokens.text(min(lo for lo, _ in covered), max(hi for _, hi in covered))


def text_of(tokens: Tokens) -> str:
    """The tokens joined with their own spacing: the clause's flattened, markup-free text."""
    return assemble(tokens, tokens, [], set())[0]


@dataclass
class EditRuling:
    """The verdict on one edit before it becomes a :class:`conflictkit.model.Edit`."""

    verdict: str  # editorial / same-effect / substantive
    kind: str
    detail: str | None = None
    differences: list = field(default_factory=list)


EditorialRule = Callable[[PairView, TextEdit], "tuple[str, str] | None"]
