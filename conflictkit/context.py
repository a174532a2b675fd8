"""Facts read once from both whole documents, before any pair is judged.

A judge that sees one pair of clauses at a time cannot tell a rename from a change: "Basecamp" ->
"37signals" in one clause looks like a new party, and a defined term shortened throughout ("Terms of
Service" -> "Terms") like a narrowed scope. Read across the whole comparison, the same substitution
made consistently in many places is a rename. :class:`DocumentContext` holds such facts:

- **renames**: substitutions of a name or term made consistently across the pair (at least twice,
  the old wording gone from the input and the new one new to the reference), never of a word that
  carries meaning by itself (a negator, a modal, a number, a qualifier, a place);
- **aliases**: names one document defines as the same party or thing ("When we say 'Company', 'we',
  'our' or 'us', we mean Basecamp, LLC"), so "The Company does not" -> "We do not" is a rename;
- **moved passages**: a passage cut from one clause and added, with most of its words, to another
  (a sentence moved to the next paragraph): both ends are a move, not a deletion and an addition.

It is built by :func:`build_context` from the two indexed documents and the candidate pairs
retrieval kept (the pairs a rename shows in); judges read it from ``Comparison.context`` and may
ignore it. Words come from the language's lexicon (``editorial.yaml``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from conflictkit.lexicon import LanguagePack, load
from conflictkit.model import CandidatePair, IndexedDocument

_WORD = re.compile(r"[^\W_]+(?:['\u2019-][^\W_]+)*|[^\w\s]")
_MAX_PHRASE = 4  # words on either side of a substitution
_MIN_SUBSTITUTIONS = 2
_PAIR_OVERLAP = 0.6  # share of words two clauses must have in common for their diff to show renames
_MOVE_OVERLAP = 0.4  # ... to show a passage that left or joined them
_HELD = 0.8  # ... or share of the shorter one's words the longer one holds
_MOVED_WORDS = 8  # words of a passage that moved between clauses, at least
_MOVED_SHARE = 0.75  # Dice overlap of the content words of where it left and where it arrived


def words_of(text: str) -> list[str]:
    """The words and punctuation marks of a text, lower-cased (what renames are read in)."""
    return [w.lower() for w in _WORD.findall(text)]


@dataclass(frozen=True)
class Rename:
    """A substitution made consistently across the comparison: ``old`` words -> ``new`` words."""

    old: tuple[str, ...]
    new: tuple[str, ...]
    count: int
    why: str

    def describe(self) -> str:
        return f"'{' '.join(self.old)}' -> '{' '.join(self.new)}' ({self.why})"


@dataclass(frozen=True)
class Moved:
    """A passage cut from reference clause ``reference`` and added to input clause ``input`` (as written there)."""

    reference: str
    old: str
    input: str
    new: str


@dataclass
class DocumentContext:
    """What both whole documents say about names and text: renames, aliases, moved passages (see the
    module docstring)."""

    renames: dict[tuple[tuple[str, ...], tuple[str, ...]], Rename] = field(default_factory=dict)
    aliases: list[frozenset[str]] = field(default_factory=list)
    moved: list[Moved] = field(default_factory=list)
    language: str = "en"

    def rename(self, old: Sequence[str], new: Sequence[str]) -> Rename | None:
        """The rename that turns the words ``old`` into ``new`` (lower-cased), if the comparison shows one."""
        return self.renames.get((tuple(old), tuple(new)))

    def same_party(self, old: Iterable[str], new: Iterable[str]) -> bool:
        """Whether every name in ``old`` and in ``new`` is one alias of the same group."""
        names = set(old) | set(new)
        return bool(names) and any(names <= group for group in self.aliases)

    def describe(self) -> list[str]:
        """One line per fact, for logs and the pairs file."""
        lines = [r.describe() for r in self.renames.values()]
        lines += [f"aliases: {', '.join(sorted(group))}" for group in self.aliases]
        lines += [f"moved: '{m.old[:40]}...' ({m.reference} -> {m.input})" for m in self.moved]
        return lines


EMPTY = DocumentContext()
"""The context of a pair judged on its own (benchmarks, ``judge_texts``): no document-wide facts."""


def build_context(reference: IndexedDocument, input: IndexedDocument, pairs: Sequence[CandidatePair],
                  language: str = "en") -> DocumentContext:
    """Read renames and aliases from both documents and the candidate pairs retrieval kept."""
    lexicon = load(language)
    ref_text = " ".join(c.text for c in reference.clauses)
    inp_text = " ".join(c.text for c in input.clauses)
    context = DocumentContext(language=language)
    ref_aliases, inp_aliases = _aliases(reference, lexicon), _aliases(input, lexicon)
    context.aliases = [group for group, _ in ref_aliases + inp_aliases]
    for rename in _renamed_referents(ref_aliases, inp_aliases):
        context.renames[(rename.old, rename.new)] = rename
    edited = list(_edited_pairs(reference, input, pairs, _MOVE_OVERLAP))
    seen, named = _substitutions(edited)
    context.moved = _moved_text(edited, lexicon)
    ref_words, inp_words = words_of(ref_text), words_of(inp_text)
    for (old, new), count in seen.items():
        why = _consistent(old, new, count, (old, new) in named, ref_words, inp_words, lexicon)
        if why:
            context.renames[(old, new)] = Rename(old, new, count, why)
    return context


Substitution = tuple[tuple[str, ...], tuple[str, ...]]


def _edited_pairs(reference: IndexedDocument, input: IndexedDocument, pairs: Sequence[CandidatePair],
                  overlap: float) -> Iterator[tuple[str, str, list[str], list[str], list]]:
    """The clause pairs that are one clause edited (at least ``overlap`` of the longer one's words
    kept), one per reference clause (the pair retrieval ranks highest): ids, words as written, and
    the opcodes of their lower-cased word diff."""
    from difflib import SequenceMatcher

    best: dict[str, CandidatePair] = {}
    for p in pairs:
        if p.reference_id not in best or p.relevance > best[p.reference_id].relevance:
            best[p.reference_id] = p
    for p in best.values():
        raw_a, raw_b = _WORD.findall(reference.clause(p.reference_id).text), _WORD.findall(input.clause(p.input_id).text)
        a, b = [w.lower() for w in raw_a], [w.lower() for w in raw_b]
        shared = sum((Counter(a) & Counter(b)).values()) if a and b else 0
        if shared < overlap * max(len(a), len(b)) and shared < _HELD * min(len(a), len(b)):
            continue  # neither one clause edited nor one clause held in another (a passage added to it)
        yield p.reference_id, p.input_id, raw_a, raw_b, SequenceMatcher(None, a, b, autojunk=False).get_opcodes()


def _substitutions(edited: list) -> tuple[Counter[Substitution], set[Substitution]]:
    """Every short substitution in the word diffs of the edited clause pairs, and those seen at least
    once written as a name (a capital letter or a digit in a changed word)."""
    found: Counter[Substitution] = Counter()
    named: set[Substitution] = set()
    for _, _, raw_a, raw_b, opcodes in edited:
        a, b = [w.lower() for w in raw_a], [w.lower() for w in raw_b]
        if sum((Counter(a) & Counter(b)).values()) < _PAIR_OVERLAP * max(len(a), len(b)):
            continue
        for tag, i1, i2, j1, j2 in opcodes:
            if tag == "equal" or i2 - i1 > _MAX_PHRASE or j2 - j1 > _MAX_PHRASE:
                continue
            if tag != "replace":  # words cut or added: with the word before them ("terms of service" -> "terms")
                if i1 == 0 or j1 == 0:
                    continue
                i1, j1 = i1 - 1, j1 - 1
            name = any(w[:1].isupper() or w[:1].isdigit() for w in raw_a[i1:i2] + raw_b[j1:j2])
            for sub in _trimmed(tuple(a[i1:i2]), tuple(b[j1:j2])):
                found[sub] += 1
                if name:
                    named.add(sub)
    return found, named


def _moved_text(edited: list, lexicon: LanguagePack) -> list[Moved]:
    """Passages cut from one edited clause and added to another, with most of their content words:
    text that moved between paragraphs."""
    stop = _stopwords(lexicon)
    cut, added = [], []
    for ref_id, inp_id, raw_a, raw_b, opcodes in edited:
        for tag, i1, i2, j1, j2 in opcodes:
            if tag == "equal":
                continue
            if i2 - i1 >= _MOVED_WORDS:
                cut.append((ref_id, inp_id, " ".join(raw_a[i1:i2])))
            if j2 - j1 >= _MOVED_WORDS:
                added.append((ref_id, inp_id, " ".join(raw_b[j1:j2])))
    moved = []
    for ref_id, from_pair, old in cut:
        words_old = _content(old, stop)
        for to_pair, inp_id, new in added:
            if to_pair == ref_id and from_pair == inp_id:
                continue  # the same pair: a passage rewritten in place
            words_new = _content(new, stop)
            if words_old and words_new and 2 * len(words_old & words_new) / (len(words_old) + len(words_new)) >= _MOVED_SHARE:
                moved.append(Moved(ref_id, old, inp_id, new))
    return moved


def _content(text: str, stop: frozenset[str]) -> frozenset[str]:
    return frozenset(w for w in words_of(text) if w[0].isalnum() and w not in stop)


def _trimmed(old: tuple[str, ...], new: tuple[str, ...]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The substitution as the diff found it, and without punctuation at its edges ("basecamp ," -> "37signals ,")."""
    out = [(old, new)]
    while old and new and not old[-1].isalnum() and old[-1] == new[-1]:
        old, new = old[:-1], new[:-1]
    while old and new and not old[0].isalnum() and old[0] == new[0]:
        old, new = old[1:], new[1:]
    if old and new and (old, new) != out[0]:
        out.append((old, new))
    return out


def _count(phrase: tuple[str, ...], words: list[str]) -> int:
    """How many times the words of ``phrase`` occur in a row in ``words``."""
    n, first = len(phrase), phrase[0]
    return sum(1 for k, w in enumerate(words) if w == first and tuple(words[k:k + n]) == phrase)


def _meaningful(words: Iterable[str], lexicon: LanguagePack) -> bool:
    """Whether any word carries meaning by itself (a negator, a modal, a qualifier, a unit, a bare
    number): then a substitution of it is never a rename."""
    fixed = _meaning_words(lexicon)
    return any(w in fixed or any(c.isdigit() for c in w) and not any(c.isalpha() for c in w) for w in words)


def _meaning_words(lexicon: LanguagePack) -> frozenset[str]:
    def build() -> frozenset[str]:
        lists = ("words.negators", "words.modals", "words.exceptions", "words.conditions", "words.quantifiers",
                 "words.scope_words", "words.qualifiers", "numbers.units", "numbers.scales", "numbers.ordinals")
        return frozenset(w.lower() for name in lists for w in lexicon.words(name))
    return lexicon.memo("context.meaning_words", build)


def _stopwords(lexicon: LanguagePack) -> frozenset[str]:
    return lexicon.memo("context.stopwords", lambda: frozenset(lexicon.words("words.stopwords"))
                        | frozenset(lexicon.get("editorial.determiners")))


def _names_a_place(phrase: tuple[str, ...], lexicon: LanguagePack) -> bool:
    """Whether some words of ``phrase`` in a row are a place of the lexicon ("delaware", "new york")."""
    def build() -> frozenset[tuple[str, ...]]:
        places = lexicon.section("places")
        names = list(places["us_states"]) + list(places["countries"]) + list(places["cities"]) + list(places["aliases"])
        names += list(places["demonyms"])
        return frozenset(tuple(words_of(str(n))) for n in names)
    known = lexicon.memo("context.places", build)
    return any(phrase[i:j] in known for i in range(len(phrase)) for j in range(i + 1, min(len(phrase), i + 4) + 1))


def _consistent(old: tuple[str, ...], new: tuple[str, ...], count: int, name: bool, ref_words: list[str],
                inp_words: list[str], lexicon: LanguagePack) -> str | None:
    """Why ``old`` -> ``new`` is a rename, or None: made at least twice (three times for a word never
    written as a name), the old words gone from the input (or nearly), the new ones new to the
    reference (unless a name is shortened), and no word that carries meaning changed."""
    if count < (_MIN_SUBSTITUTIONS if name else _MIN_SUBSTITUTIONS + 1) or not any(w.isalnum() for w in old + new):
        return None
    changed = set(old) ^ set(new)
    if not changed - _stopwords(lexicon):
        return None  # "this is your" -> "you have the": a rewording, not a name
    if _meaningful(changed, lexicon) or _prefix_apart(old, new, lexicon) or _names_a_place(old, lexicon) \
            or _names_a_place(new, lexicon):
        return None
    old_left = _count(old, inp_words)
    if old_left > count:
        return None  # not a sweep: the old wording still stands in more places than it was replaced
    if _contains(old, new):
        # "Terms of Service" -> "Terms": the short form may be in use already; only a name is shortened
        return f"shortened {count} times" if name else None  # "Terms of Service" -> "Terms": the short form may be in use already
    if _count(new, ref_words) > count // 2:
        return None  # both wordings stood side by side in the reference: two things, not one renamed
    return f"replaced {count} times"


def _contains(outer: tuple[str, ...], inner: tuple[str, ...]) -> bool:
    n = len(inner)
    return any(outer[k:k + n] == inner for k in range(len(outer) - n + 1))


def _prefix_apart(old: tuple[str, ...], new: tuple[str, ...], lexicon: LanguagePack) -> bool:
    """"exclusive" -> "non-exclusive", "limited" -> "unlimited": an opposite, never a rename (the pack's
    negative prefixes, ``morphology.yaml``)."""
    a, b = "".join(old), "".join(new)
    return any(a == p + b or b == p + a for p in lexicon.data.morphology.negative_prefixes)


# -- aliases ------------------------------------------------------------------------------------

_QUOTED = re.compile(r"[\"\u201c\u2018']([^\"\u201c\u201d\u2018\u2019']{1,60})[\"\u201d\u2019']")


def _renamed_referents(ref: list[tuple[frozenset[str], tuple[str, ...]]],
                       inp: list[tuple[frozenset[str], tuple[str, ...]]]) -> list[Rename]:
    """The same names defined as another referent in the input ("'we' ... means Basecamp, LLC" ->
    "... 37signals, LLC"): the referent was renamed (the definition itself is still reported)."""
    out = []
    for group_a, referent_a in ref:
        for group_b, referent_b in inp:
            names_a, names_b = group_a - set(referent_a), group_b - set(referent_b)
            if referent_a and referent_b and referent_a != referent_b and names_a == names_b and len(names_a) >= 2:
                out.append(Rename(referent_a, referent_b, 1, f"the definition of {', '.join(sorted(names_a))} names it"))
    return out


def _aliases(document: IndexedDocument, lexicon: LanguagePack) -> list[tuple[frozenset[str], tuple[str, ...]]]:
    """Groups of names a definition gives one referent: two or more quoted names before "we mean",
    "means", "refers to", with the name it defines them as (each group with that referent's words)."""
    groups = []
    definition = lexicon.pattern("editorial.alias_definition", re.IGNORECASE)
    for clause in document.clauses:
        text = clause.text
        if clause.kind != "definition" and not definition.search(text):
            continue
        for sentence in re.split(r"(?<=[.;])\s+", text):
            marker = definition.search(sentence)
            if marker is None:
                continue
            names = [m.group(1).strip().lower() for m in _QUOTED.finditer(sentence, 0, marker.start())]
            if len(names) < 2:
                continue
            referent = _referent(sentence[marker.end():], lexicon)
            groups.append((frozenset(w for name in names + referent for w in name.split()), tuple(referent)))
    return groups


def _referent(rest: str, lexicon: LanguagePack) -> list[str]:
    """The name a definition's right-hand side gives ("Basecamp, LLC"), without its corporate suffix."""
    m = lexicon.pattern("editorial.referent").match(rest)
    if m is None:
        return []
    suffixes = corporate_suffixes(lexicon)
    words = [w.lower() for w in re.findall(r"[\w&'-]+", m.group(1))]
    return [w for w in words if w not in suffixes]


def corporate_suffixes(lexicon: LanguagePack) -> frozenset[str]:
    """"llc", "inc", "ltd"...: what a company's name may gain or lose without naming another company."""
    return lexicon.memo("editorial.corporate_suffixes", lambda: frozenset(
        w.lower().rstrip(".") for w in lexicon.get("editorial.corporate_suffixes")))

