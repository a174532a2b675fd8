"""Verdicts on the edits of a pair: editorial by rule, then substantive or same-effect by the atoms.

The edits come from :mod:`conflictkit.judges.atoms.edits`, the editorial rules from
:mod:`conflictkit.judges.atoms.editorial`. :func:`judge_edits` reads the reference with every
editorial edit applied, compares its atoms with the input's as the clause-level judge always did,
and attributes each typed difference to the edits its quotes overlap; what the clause-level atoms
cannot see (a value repeated, a sentence of new operative text, a name swapped for another) is read
from the edits themselves (:func:`unexplained_differences`), and a version stamp's new date is
reported apart (:func:`version_differences`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from conflictkit.filters.rules import non_binding_reason, version_stamp
from conflictkit.grounding.tokens import Tokens, token_class
from conflictkit.judges.atoms.compare import Difference, compare
from conflictkit.judges.atoms.editorial import classify, is_pointer, xref_words
from conflictkit.judges.atoms.edits import EditRuling, PairView, TextEdit, assemble, in_reference
from conflictkit.judges.atoms.extract import extract
from conflictkit.judges.atoms.families.content import FAMILY as CONTENT, gives_up, root

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
    lexicon = view.lexicon
    classes = [classify(view, e) for e in view.edits]
    editorial = {n for n, found in enumerate(classes) if found is not None}
    origins: list[tuple[int, int, int, int]] = []
    base_text, base_spans = assemble(view.ref, view.inp, view.edits, editorial, origins)
    base = ref_atoms if not editorial else extract(base_text, language)
    differences = compare(base, inp_atoms, lexicon) if base.text != inp_atoms.text else []
    owners = attribute(differences, base_text, base_spans, inp_atoms.text, _input_spans(view), editorial,
                       len(view.edits))
    differences = _versions(version_differences(view, classes, base_text, inp_atoms.text), differences, owners)
    if gives_up(base, inp_atoms, lexicon):  # words differ in many places: the content family reads each edit alone
        _own(_edits_alone(view, editorial, base, inp_atoms, language, differences), differences, owners)
    _own(unexplained_differences(view, owners, editorial, base, inp_atoms, base_spans), differences, owners)
    rulings = [_ruling(view, n, e, classes[n], owners.get(n)) for n, e in enumerate(view.edits)]
    typos = [d for n, r in enumerate(rulings) if r.kind == "typography" and n not in editorial for d in owners[n]]
    if not editorial:
        return EditJudgement([d for d in differences if d not in typos], base, rulings)

    def quoted(d):  # the base text is the reference with its editorial edits applied: quote the reference itself
        ref = in_reference(d.reference, base_text, origins, view.ref)
        return d if ref == d.reference else replace(d, reference=ref)

    for r in rulings:
        r.differences = [quoted(d) for d in r.differences]
    return EditJudgement([quoted(d) for d in differences if d not in typos], base, rulings)


def _versions(found: list[tuple[int, object]], differences: list, owners: dict[int, list]) -> list:
    """The differences with each version stamp's new date or number in place of the date or number
    difference its edit owned: the stamp's date is its version, not a term."""
    for n, d in found:
        replaced = [x for x in owners.get(n, []) if not any(x in others for m, others in owners.items() if m != n)]
        differences = [x for x in differences if x not in replaced] + [d]
        owners[n] = [d]
    return differences


def _own(found: list[tuple[int, object]], differences: list, owners: dict[int, list]) -> None:
    for n, d in found:
        differences.append(d)
        owners.setdefault(n, []).append(d)


def _edits_alone(view: PairView, editorial: set[int], base, inp_atoms, language: str,
                 differences: list) -> list[tuple[int, object]]:
    """Where the words differ in many places the content family gives up on the pair: each edit is
    read alone against the reference, and its content differences are its own."""
    found: list[tuple[int, object]] = []
    for n in range(len(view.edits)):
        if n in editorial:
            continue
        variant, _ = assemble(view.ref, view.inp, view.edits, editorial | {n})
        for d in compare(base, extract(variant, language), view.lexicon):
            if _is_content(d) and d not in differences and all(d != x for _, x in found):
                found.append((n, d))
    return found


def _ruling(view: PairView, n: int, e: TextEdit, rule: tuple[str, str, str] | None, owned: list | None) -> EditRuling:
    """The verdict on one edit: its editorial rule's, a typo fixed, its differences', or same-effect."""
    if rule is not None:
        verdict, kind, detail = rule
        return EditRuling(verdict, kind, detail)
    if owned and all(d.weight == "typo" for d in owned):
        return EditRuling("editorial", "typography", owned[0].detail)  # a typo fixed: its only reason
    if owned:
        return EditRuling("substantive", owned[0].type, owned[0].detail, owned)
    return EditRuling("same-effect", same_effect_kind(view, e), None)


def _input_spans(view: PairView) -> list[tuple[int, int]]:
    memo = view.__dict__.get("_input_spans")
    if memo is not None:
        return memo
    lead = len(view.inp.normalized) - len(view.inp.normalized.lstrip())  # the clause text is the tokens' text, stripped
    spans = [(a - lead, b - lead) for a, b in view.inp.spans]
    out = []
    for e in view.edits:
        if e.j2 > e.j1:
            out.append((spans[e.j1][0], spans[e.j2 - 1][1]))
        else:
            point = spans[e.j1][0] if e.j1 < len(spans) else (spans[-1][1] if spans else 0)
            out.append((point, point))
    view.__dict__["_input_spans"] = out
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
    return (difference.weight in CONTENT.weights and difference.weight != "typo") or difference.weight == "content_sentence"


def same_effect_kind(view: PairView, e: TextEdit) -> str:
    """Why an edit with no typed difference changes nothing, in one word."""
    stop = view.lexicon.words("words.stopwords")
    words = [w.lower() for w in view.ref_words(e) + view.inp_words(e) if w[0].isalnum()]
    if all(w in stop for w in words):
        return "function-words"
    return "reworded"


# -- version stamps --------------------------------------------------------------------------------

def _months(lexicon) -> frozenset[str]:
    """Month names and abbreviations (``dates.yaml``): a word that says a date."""
    return lexicon.memo("verdicts.months", lambda: frozenset(lexicon.data.dates.months) | frozenset(
        lexicon.data.dates.month_abbreviations))


def version_differences(view: PairView, classes: list, base_text: str, inp_text: str) -> list[tuple[int, object]]:
    """Each edit that changes the date or number of a version stamp, with its ``version_date`` difference:
    reported apart from the changes of terms."""
    months = _months(view.lexicon)

    def values(words: list[str]) -> Counter[str]:
        return Counter(w.lower() for w in words if w[:1].isdigit() or w.lower() in months)

    def dates(e: TextEdit) -> bool:
        return any(w[:1].isdigit() or w.lower() in months for w in view.ref_words(e) + view.inp_words(e))

    # a new date or number, not the same one written another way ("January 15, 2025" / "15 January 2025")
    dated = [n for n, e in enumerate(view.edits) if classes[n] is None and dates(e)
             and values(view.ref_words(e)) != values(view.inp_words(e))]
    if not dated or not (version_stamp(base_text, view.lexicon.language) or version_stamp(inp_text, view.lexicon.language)):
        return []
    out = []
    for n in dated:
        e = view.edits[n]
        old, new = view.ref.text(e.i1, e.i2) or None, view.inp.text(e.j1, e.j2) or None
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
    parties_read = any(d.type == "party" for found in owners.values() for d in found)
    for n, e in enumerate(view.edits):
        if n in editorial:
            continue
        if owners.get(n):
            # a name for another that its family only notes as one more party ("our [Acceptable Use Policy]" ->
            # "our [Reseller Terms]" reads "Reseller" as a party named on one side)
            if kept >= _KEPT_FOR_SENTENCES and all(d.weight == "party_presence" for d in owners[n]):
                found = _other_name(view, e)
                if found is not None:
                    out.append((n, found))
            continue
        found = _repeated_value(base, inp_atoms, base_spans[n], inp_spans[n])
        if found is None and kept >= _KEPT_FOR_SENTENCES:
            found = _new_text(view, e) or _other_name(view, e, parties_read)
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
    stop = view.lexicon.words("words.stopwords")

    def new_words(words: list[str], other: frozenset[str]) -> set[str]:
        return {w.lower() for w in words if w[0].isalpha() and len(w) > 2 and w.lower() not in stop} - other

    gone, came = new_words(view.ref_words(e), view.word_set("inp")), new_words(view.inp_words(e), view.word_set("ref"))
    if max(len(gone), len(came)) < _NEW_WORDS:
        return None
    text_old, text_new = view.ref.text(e.i1, e.i2), view.inp.text(e.j1, e.j2)
    language = view.lexicon.language
    if any(text and (is_pointer(text, view.lexicon) or non_binding_reason(text, None, language) is not None)
           for text in (text_old, text_new)):
        return None
    what = "rewritten" if came and gone else "added" if came else "removed"
    return Difference("scope", "content_sentence", text_old or None, text_new or None,
                      f"operative text {what}: '{_short(text_new or text_old)}'")


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


def _names(view: PairView, tokens: Tokens, lo: int, hi: int) -> list[str]:
    """Capitalised words that are not capitalised for opening a sentence, nor cross-reference words or
    months (a place or a date is for its own family to compare); none in a language that capitalises
    every noun."""
    lexicon = view.lexicon
    if not lexicon.data.tokens.capitals_mark_names:
        return []  # every noun is capitalised: a capital tells a name from nothing
    openers, xrefs, months = frozenset(lexicon.data.tokens.sentence_openers), xref_words(lexicon), _months(lexicon)
    return [tokens.words[k] for k in range(lo, hi) if tokens.words[k][:1].isupper() and k > 0
            and tokens.words[k - 1] not in openers and tokens.words[k].lower() not in xrefs
            and tokens.words[k].lower() not in months]


def _bare(words, lexicon) -> set[str]:
    """Lower-cased words without a possessive ending ("Provider's" -> "provider")."""
    endings = [(e, e.replace("'", "\u2019")) for e in lexicon.data.morphology.possessive_endings]
    out = set()
    for w in words:
        w = w.lower()
        for plain, typographic in endings:
            w = w.removesuffix(plain).removesuffix(typographic)
        out.add(w)
    return out


def _other_name(view: PairView, e: TextEdit, parties_read: bool = False):
    """A name replaced by another in an otherwise unchanged clause ("means the Information Commissioner's
    Office" -> "means the European Data Protection Board"): one office, body or product for another."""
    if not _names(view, view.ref, e.i1, e.i2) or not _names(view, view.inp, e.j1, e.j2):
        return None
    lexicon = view.lexicon
    stop = lexicon.words("words.stopwords")
    old = [w for w in view.ref_words(e) if w[0].isalnum() and w.lower() not in stop]
    new = [w for w in view.inp_words(e) if w[0].isalnum() and w.lower() not in stop]
    if not _named(old, lexicon) or not _named(new, lexicon) or _one_name(view, old, new, parties_read):
        return None
    text_old, text_new = view.ref.text(e.i1, e.i2), view.inp.text(e.j1, e.j2)
    return Difference("scope", "content_swap", text_old, text_new, f"'{text_old}' -> '{text_new}': another name")


def _named(words: list[str], lexicon) -> bool:
    """Whether a capitalised word that carries no meaning of its own (a number, a negator) names something."""
    return any(w[0].isupper() and token_class(w, lexicon) is None for w in words)


def _one_name(view: PairView, old: list[str], new: list[str], parties_read: bool) -> bool:
    """Whether the two names are one: the same name reworded or its parts reordered, roles the parties family has read traded
    (both names stand in both clauses), or two aliases of one party."""
    lexicon = view.lexicon
    if {root(w.lower(), lexicon) for w in old} & {root(w.lower(), lexicon) for w in new}:
        return True
    if sorted(p for w in old for p in re.split(r"[-/]", w.lower())) == sorted(p for w in new for p in re.split(r"[-/]", w.lower())):
        return True  # its parts in another order: "EU-US" / "US-EU"
    if parties_read and _bare(old, lexicon) <= _bare(view.word_set("inp"), lexicon) \
            and _bare(new, lexicon) <= _bare(view.word_set("ref"), lexicon):
        return True
    return view.context.same_party([w.lower() for w in old], [w.lower() for w in new])


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
