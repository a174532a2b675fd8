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

from conflictkit.context import EMPTY, DocumentContext
from conflictkit.grounding.tokens import Tokens, tokenize
from conflictkit.lexicon import Lexicon

_JOIN_GAP = 1  # tokens between two changed regions that still make them one edit


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
    lexicon: Lexicon
    headings: tuple[str | None, str | None] = (None, None)
    """The headings the two clauses stand under (a run-in title in one may be a heading line in the other)."""

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
        return sentence_around(self.ref.words, e.i1, e.i2)

    def inp_sentence(self, e: TextEdit) -> tuple[int, int]:
        return sentence_around(self.inp.words, e.j1, e.j2)


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


def clause_tokens(source: str) -> Tokens:
    """The tokens of a clause's original text as the redline reads it: no markup, offsets into ``source``."""
    from conflictkit.segmenters.markup import markup_free

    clean, to_source = markup_free(source)
    tokens = tokenize(clean)
    return dataclasses.replace(tokens, original=source, offsets=to_source[tokens.offsets])


def split_edits(a: Tokens, b: Tokens) -> list[TextEdit]:
    """The edits between two token lists: changed regions, joined when one token apart."""
    from conflictkit.grounding.material import token_opcodes

    edits: list[TextEdit] = []
    for tag, i1, i2, j1, j2 in token_opcodes(a, b):
        if tag == "equal":
            continue
        part = TextEdit(i1, i2, j1, j2)
        if edits and i1 - edits[-1].i2 <= _JOIN_GAP and j1 - edits[-1].j2 <= _JOIN_GAP:
            last = edits.pop()
            edits.append(TextEdit(last.i1, i2, last.j1, j2, (*last.pieces, part)))
        else:
            edits.append(part)
    return edits


def view_of(ref_source: str, ref_origin: int, inp_source: str, inp_origin: int, context: DocumentContext | None,
            lexicon: Lexicon, headings: tuple[str | None, str | None] = (None, None)) -> PairView:
    """The edit-level view of a pair, from each clause's original text and its offset in its file."""
    a, b = clause_tokens(ref_source), clause_tokens(inp_source)
    return PairView(a, b, ref_origin, inp_origin, split_edits(a, b), context or EMPTY, lexicon, headings)


def assemble(tokens_a: Tokens, tokens_b: Tokens, edits: list[TextEdit], applied: set[int]) -> tuple[str, list[tuple[int, int]]]:
    """The reference text with the edits numbered in ``applied`` taken from the input, and where each
    edit's text (the version used) lies in the result (a point for an empty one).

    Tokens keep the spacing of the text they come from; where the two texts meet, the input's
    spacing around the applied edit decides."""
    out: list[str] = []
    length = 0

    def emit(tokens: Tokens, i: int, j: int, spaced: bool | None = None) -> int | None:
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
            length += len(tokens.words[k])
        return first

    spans: list[tuple[int, int]] = []
    pos, lead = 0, None
    for n, e in enumerate(edits):
        emit(tokens_a, pos, e.i1, lead)
        if n in applied:
            start = emit(tokens_b, e.j1, e.j2, tokens_b.spaced_before(e.j1) if e.j1 < len(tokens_b.words) else None)
            lead = tokens_b.spaced_before(e.j2) if e.j2 < len(tokens_b.words) else None
        else:
            start = emit(tokens_a, e.i1, e.i2, lead if e.i1 == pos else None)
            lead = None
        spans.append((length, length) if start is None else (start, length))
        pos = e.i2
    emit(tokens_a, pos, len(tokens_a.words), lead)
    return "".join(out), spans


def text_of(tokens: Tokens) -> str:
    """The tokens joined with their own spacing: the clause's flattened, markup-free text."""
    return assemble(tokens, tokens, [], set())[0]


def token_spans(tokens: Tokens) -> list[tuple[int, int]]:
    """Where each token lies in :func:`text_of` ``(tokens)``."""
    spans, length = [], 0
    for k, word in enumerate(tokens.words):
        if k and tokens.spaced_before(k):
            length += 1
        spans.append((length, length + len(word)))
        length += len(word)
    return spans


@dataclass
class EditRuling:
    """The verdict on one edit before it becomes a :class:`conflictkit.model.Edit`."""

    verdict: str  # editorial / same-effect / substantive
    kind: str
    detail: str | None = None
    differences: list = field(default_factory=list)


EditorialRule = Callable[[PairView, TextEdit], "tuple[str, str] | None"]


# -- judging edits ---------------------------------------------------------------------------------

@dataclass
class EditJudgement:
    """What the edit-level judge found in one pair: the differences behind P(differs), the text the
    reference was compared as (editorial edits applied), and a ruling per edit."""

    differences: list
    base: object  # the ClauseAtoms of the reference read with the editorial edits applied
    rulings: list[EditRuling]


def judge_edits(view: PairView, ref_atoms, inp_atoms, language: str) -> EditJudgement:
    """Judge every edit of a pair: editorial by rule, then the atoms of the reference (read with the
    editorial edits applied) compared with the input's, each difference attributed to its edits."""
    from conflictkit.judges.atoms.compare import compare
    from conflictkit.judges.atoms.editorial import classify
    from conflictkit.judges.atoms.extract import extract
    from conflictkit.judges.atoms.families.content import gives_up

    lexicon = view.lexicon
    classes = [classify(view, e) for e in view.edits]
    editorial = {n for n, found in enumerate(classes) if found is not None}
    base_text, base_spans = assemble(view.ref, view.inp, view.edits, editorial)
    base = ref_atoms if not editorial else extract(base_text, language)
    differences = compare(base, inp_atoms, lexicon) if base.text != inp_atoms.text else []
    owners = attribute(differences, base_text, base_spans, inp_atoms.text, _input_spans(view), editorial,
                       len(view.edits))
    for n, d in version_differences(view, classes, base_text, inp_atoms.text):
        # the stamp's date or number is its version, not a term: it replaces the date or number difference
        replaced = [x for x in owners.get(n, []) if not any(x in others for m, others in owners.items() if m != n)]
        differences = [x for x in differences if x not in replaced] + [d]
        owners[n] = [d]
    if gives_up(base, inp_atoms, lexicon):  # words differ in many places: the content family reads each edit alone
        for n in range(len(view.edits)):
            if n in editorial:
                continue
            variant, _ = assemble(view.ref, view.inp, view.edits, editorial | {n})
            for d in compare(base, extract(variant, language), lexicon):
                if _is_content(d) and d not in differences:
                    differences.append(d)
                    owners.setdefault(n, []).append(d)
    for n, d in unexplained_differences(view, owners, editorial, base, inp_atoms, base_spans):
        differences.append(d)
        owners.setdefault(n, []).append(d)
    rulings = []
    for n, e in enumerate(view.edits):
        if n in editorial:
            verdict, kind, detail = classes[n]  # type: ignore[misc]
            rulings.append(EditRuling(verdict, kind, detail))
        elif owners.get(n):
            ranked = owners[n]
            rulings.append(EditRuling("substantive", ranked[0].type, ranked[0].detail, ranked))
        else:
            rulings.append(EditRuling("same-effect", same_effect_kind(view, e), None))
    return EditJudgement(differences, base, rulings)


def _input_spans(view: PairView) -> list[tuple[int, int]]:
    spans = token_spans(view.inp)
    out = []
    for e in view.edits:
        if e.j2 > e.j1:
            out.append((spans[e.j1][0], spans[e.j2 - 1][1]))
        else:
            point = spans[e.j1][0] if e.j1 < len(spans) else (spans[-1][1] if spans else 0)
            out.append((point, point))
    return out


def _touches(start: int, end: int, span: tuple[int, int]) -> bool:
    a, b = span
    if a == b:
        return start <= a <= end
    return start < b and a < end


def _occurrences(quote: str | None, text: str) -> list[tuple[int, int]]:
    if not quote:
        return []
    found, k = [], text.find(quote)
    while k >= 0:
        found.append((k, k + len(quote)))
        k = text.find(quote, k + 1)
    return found


def attribute(differences: list, base_text: str, base_spans: list[tuple[int, int]], inp_text: str,
              inp_spans: list[tuple[int, int]], editorial: set[int], count: int) -> dict[int, list]:
    """Each difference's edits: those its quotes overlap (in the reference read with the editorial
    edits applied, and in the input). A difference placed nowhere belongs to every non-editorial edit."""
    owners: dict[int, list] = {}
    open_edits = [n for n in range(count) if n not in editorial]
    for d in differences:
        hits = set()
        for start, end in _occurrences(d.reference, base_text):
            hits |= {n for n in open_edits if _touches(start, end, base_spans[n])}
        for start, end in _occurrences(d.input, inp_text):
            hits |= {n for n in open_edits if _touches(start, end, inp_spans[n])}
        for n in sorted(hits or open_edits):
            owners.setdefault(n, []).append(d)
    return owners


def _is_content(difference) -> bool:
    from conflictkit.judges.atoms.families.content import FAMILY

    return (difference.weight in FAMILY.weights and difference.weight != "typo") or difference.weight == "content_sentence"


def same_effect_kind(view: PairView, e: TextEdit) -> str:
    """Why an edit with no typed difference changes nothing, in one word."""
    stop = view.lexicon.words("words.stopwords")
    words = [w.lower() for w in view.ref_words(e) + view.inp_words(e) if w[0].isalnum()]
    if all(w in stop for w in words):
        return "function-words"
    return "reworded"


# -- version stamps --------------------------------------------------------------------------------

_MONTHS = frozenset({"january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                     "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
                     "nov", "dec"})


def version_differences(view: PairView, classes: list, base_text: str, inp_text: str) -> list[tuple[int, object]]:
    """Each edit that changes the date or number of a version stamp, with its ``version_date`` difference:
    reported apart from the changes of terms."""
    from conflictkit.filters.rules import version_stamp
    from conflictkit.judges.atoms.compare import Difference

    if not (version_stamp(base_text, view.lexicon.language) or version_stamp(inp_text, view.lexicon.language)):
        return []
    out = []
    for n, e in enumerate(view.edits):
        if classes[n] is not None:
            continue
        words = [w.lower() for w in view.ref_words(e) + view.inp_words(e)]
        if any(w[:1].isdigit() or w in _MONTHS for w in words):
            old, new = " ".join(view.ref_words(e)) or None, " ".join(view.inp_words(e)) or None
            out.append((n, Difference("version_date", "version_date", old, new,
                                      f"the document's own date or version changed: '{old or ''}' -> '{new or ''}'")))
    return out


# -- what the atoms of the whole clause cannot see -------------------------------------------------

_KEPT_FOR_SENTENCES = 0.5  # share of the longer clause left as it was: one clause edited, not reworded
_NEW_WORDS = 6  # content words new to the other clause that make an edit more than a rewording
_VALUES = ("number", "date")


def unexplained_differences(view: PairView, owners: dict[int, list], editorial: set[int], base, inp_atoms,
                            base_spans: list[tuple[int, int]]) -> list[tuple[int, object]]:
    """Differences of edits the clause-level comparison leaves unexplained: a value added where the
    clause already states it elsewhere ("another 30 days" beside "30 days": values are a multiset),
    and a sentence of new operative text added, cut or rewritten in an otherwise unchanged clause."""
    out: list[tuple[int, object]] = []
    inp_spans = _input_spans(view)
    kept = _kept_share(view)
    for n, e in enumerate(view.edits):
        if n in editorial:
            continue
        if owners.get(n):
            # a name for another that its family weighs lightly (a new "party" read from a document's title)
            if kept >= _KEPT_FOR_SENTENCES and not any(_is_content(d) for d in owners[n]):
                found = _other_name(view, e)
                if found is not None:
                    out.append((n, found))
            continue
        found = _repeated_value(base, inp_atoms, base_spans[n], inp_spans[n])
        if found is None and kept >= _KEPT_FOR_SENTENCES:
            found = _new_text(view, e) or _other_name(view, e)
        if found is not None:
            out.append((n, found))
    return out


def _kept_share(view: PairView) -> float:
    changed_a = sum(e.i2 - e.i1 for e in view.edits)
    changed_b = sum(e.j2 - e.j1 for e in view.edits)
    longest = max(len(view.ref.words), len(view.inp.words), 1)
    return min(len(view.ref.words) - changed_a, len(view.inp.words) - changed_b) / longest


def _repeated_value(base, inp_atoms, base_span: tuple[int, int], inp_span: tuple[int, int]):
    """A number or date the edit adds (or cuts) although the clause states the same value elsewhere."""
    from collections import Counter

    from conflictkit.judges.atoms.compare import Difference

    def inside(atom, span: tuple[int, int]) -> bool:
        return span[0] < span[1] and span[0] <= atom.start and atom.end <= span[1]

    for atoms, other, span, added in ((inp_atoms, base, inp_span, True), (base, inp_atoms, base_span, False)):
        here = [a for a in atoms.atoms if a.family in _VALUES and inside(a, span)]
        if not here:
            continue
        mine = Counter(a.key for a in atoms.atoms if a.family in _VALUES)
        theirs = Counter(a.key for a in other.atoms if a.family in _VALUES)
        for atom in here:
            if mine[atom.key] > theirs[atom.key] >= 1:  # a value new to the clause is for its family to judge
                where = "added" if added else "removed"
                return Difference(atom.family, f"{atom.family}_presence", None if added else atom.text,
                                  atom.text if added else None,
                                  f"'{atom.text}' {where}, although the clause states the same value elsewhere")
    return None


def _new_text(view: PairView, e: TextEdit):
    """A sentence or more of operative text with words the other clause does not have."""
    from conflictkit.filters.rules import non_binding_reason
    from conflictkit.judges.atoms.compare import Difference
    from conflictkit.judges.atoms.editorial import is_pointer

    stop = view.lexicon.words("words.stopwords")
    old, new = view.ref_words(e), view.inp_words(e)
    other_a = {w.lower() for w in view.inp.words}
    other_b = {w.lower() for w in view.ref.words}
    gone = {w.lower() for w in old if w[0].isalpha() and len(w) > 2 and w.lower() not in stop} - other_a
    came = {w.lower() for w in new if w[0].isalpha() and len(w) > 2 and w.lower() not in stop} - other_b
    if max(len(gone), len(came)) < _NEW_WORDS:
        return None
    text_old, text_new = " ".join(old), " ".join(new)
    for text in (text_old, text_new):
        if text and (is_pointer(text, view.lexicon) or non_binding_reason(text) is not None):
            return None
    if came and gone:
        what = "rewritten"
    else:
        what = "added" if came else "removed"
    quote_old, quote_new = (text_old or None), (text_new or None)
    return Difference("scope", "content_sentence", quote_old, quote_new,
                      f"operative text {what}: '{_short(text_new or text_old)}'")


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


def _other_name(view: PairView, e: TextEdit):
    """A name replaced by another in an otherwise unchanged clause ("means the Information Commissioner's
    Office" -> "means the European Data Protection Board"): one office, body or product for another."""
    from conflictkit.judges.atoms.compare import Difference
    from conflictkit.judges.atoms.families.content import root

    stop = view.lexicon.words("words.stopwords")
    old = [w for w in view.ref_words(e) if w[0].isalnum() and w.lower() not in stop]
    new = [w for w in view.inp_words(e) if w[0].isalnum() and w.lower() not in stop]
    from conflictkit.grounding.tokens import token_class

    def named(words: list[str]) -> bool:
        return any(w[0].isupper() and token_class(w) is None for w in words)

    if not named(old) or not named(new):
        return None
    if {root(w.lower()) for w in old} & {root(w.lower()) for w in new}:
        return None  # the same name, reworded
    if view.context.same_party([w.lower() for w in old], [w.lower() for w in new]):
        return None
    text_old, text_new = " ".join(view.ref_words(e)), " ".join(view.inp_words(e))
    return Difference("scope", "content_swap", text_old, text_new, f"'{text_old}' -> '{text_new}': another name")


def containment(view: PairView) -> float:
    """The share of the shorter clause's content words the longer one repeats in order: a clause with a
    sentence added, or a phrase swapped, still holds all (or most) of the other one."""
    stop = view.lexicon.words("words.stopwords")

    def content(tokens: Tokens, lo: int, hi: int) -> int:
        return sum(1 for w in tokens.words[lo:hi] if w[0].isalnum() and w.lower() not in stop)

    total_a, total_b = content(view.ref, 0, len(view.ref.words)), content(view.inp, 0, len(view.inp.words))
    shorter = min(total_a, total_b)
    if shorter < _CONTAINED_MIN_WORDS:
        return 0.0
    changed_a = sum(content(view.ref, e.i1, e.i2) for e in view.edits)
    changed_b = sum(content(view.inp, e.j1, e.j2) for e in view.edits)
    kept = min(total_a - changed_a, total_b - changed_b)
    return kept / shorter


_CONTAINED_MIN_WORDS = 5  # fewer content words than this prove nothing by being contained
