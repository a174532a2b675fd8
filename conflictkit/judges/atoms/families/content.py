"""Content edits and typo fixes: the words two clauses do not share, where no atom accounts for them.

An added or removed content word changes what operative text covers: "use, copy and modify" ->
"use, copy, modify and sublicense" widens a licence, "sell, resell, lease" -> "sell, lease"
narrows a prohibition, "customers" -> "customers in the same region" narrows an object, a notice
of any fee "change" -> any fee "increase" changes its trigger. Not counted: function words and
drafting filler (``content.yaml``), words inside atoms (compared by their families), words moved
within the clause (a reordered list), synonyms (``synonyms``), and a pronoun standing for a party.

Weighted by where the words sit: an item of an enumeration (``content_list``), words of a
condition or exception (``content_condition``), a word swapped for another in an otherwise
unchanged clause (``content_swap``), other objects and modifiers (``content``), an adverb alone
(``content_minor``). A clause reworded throughout is left to the residual of P(differs).

A typo fix is an edit of one or two letters (a transposition, a doubled letter, a vowel, or a
misspelt lexicon word: "expect" -> "except"), or two words joined ("all together" ->
"altogether"): the reference is read with the fix applied, so the fixed word changes no atom, and
the fix is one low-weight ``typo`` reason.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from difflib import SequenceMatcher

from conflictkit.judges.atoms.compare import Correction, Difference
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family, no_atoms
from conflictkit.judges.atoms.families.modality import opposites
from conflictkit.judges.atoms.families.parties import pronoun_count
from conflictkit.judges.atoms.synonyms import forms, groups_of
from conflictkit.judges.atoms.text import words_of
from conflictkit.lexicon import LanguagePack

Word = tuple[str, int, int]
_MAX_SWAP_WORDS = 3
_KEPT_IN_ORDER = 0.8  # share of the shorter clause the other repeats in order: below it, a rewording
_MAX_STRETCHES = 3  # edits in more places than this: a rewording


@dataclass(frozen=True)
class _Vocabulary:
    filler: frozenset[str]
    pronouns: frozenset[str]
    known: frozenset[str]
    not_typos: frozenset[frozenset[str]]
    doublets: dict[str, frozenset[str]]
    act_lines: dict[str, frozenset[int]]
    """Each word of ``content.different_acts``: the lines it is in."""
    timing: dict[str, str]
    """Each word of ``content.timing``: the first word of its line."""
    timing_apart: frozenset[frozenset[str]]
    list_joins: frozenset[str]
    condition_words: frozenset[str]
    stopwords: frozenset[str]
    adverb_endings: tuple[str, ...]
    lex: LanguagePack


def _vocabulary(lex: LanguagePack) -> _Vocabulary:
    def build() -> _Vocabulary:
        known = set()
        for name in ("negators", "modals", "exceptions", "conditions", "quantifiers", "scope_words", "qualifiers"):
            known |= lex.words(f"words.{name}")
        numbers = lex.words("numbers.units") | lex.words("numbers.scales") | lex.words("numbers.ordinals")
        for side in lex.get("parties.sides").values():
            known |= {w for name in side for w in name.split()}
        known |= set(lex.get("parties.own_roles"))
        doublets: dict[str, set[str]] = {}
        for line in lex.get("content.doublets"):
            for w in line.split():
                doublets.setdefault(w, set()).update(set(line.split()) - {w})
        filler = lex.words("content.filler")
        # number words are compared as numbers (or are a cross-reference: "Schedule One"), never as content
        filler = filler | numbers
        act_lines: dict[str, set[int]] = {}
        for n, line in enumerate(lex.get("content.different_acts")):
            for w in line.split():
                act_lines.setdefault(w, set()).add(n)
        timing = {w: line.split()[0] for line in lex.get("content.timing") for w in line.split()}
        return _Vocabulary(filler | {root(w, lex) for w in filler}, lex.words("content.pronouns"), frozenset(known),
                           frozenset(frozenset(p) for p in lex.get("content.not_typos")),
                           {k: frozenset(v) for k, v in doublets.items()},
                           {k: frozenset(v) for k, v in act_lines.items()}, timing,
                           frozenset(frozenset(p) for p in lex.get("content.timing_apart")),
                           lex.words("content.list_joins"), lex.words("content.condition_words"),
                           words_of(lex).stopwords, tuple(lex.data.morphology.adverb_endings), lex)
    return lex.memo("content.vocabulary", build)


def root(word: str, lex: LanguagePack) -> str:
    """A word without its inflection or derivation, six letters at most (``morphology.yaml``):
    "cancellation" == "cancel", "terminating" == "termination"; "transfer" != "transmit" and
    "compensate" != "compete" (five letters would make each pair one word, and its swap no edit)."""
    cache = lex.memo("content.roots", dict)
    found = cache.get(word)
    if found is None:
        found = cache[word] = _root(word, lex.data.morphology)
    return found


def _root(word: str, m) -> str:
    for suffix in m.root_suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            after = m.root_ending_after.get(suffix)
            if after is not None and not word.endswith(tuple(after)):
                suffix = suffix[1:]  # "takes" is "take" + s, "taxes" is "tax" + es
            word = word[: -len(suffix)]
            break
    return word[: m.root_length]


@dataclass(frozen=True)
class _Reading:
    """What the content family reads of one clause, once: each word's root, its content words."""

    roots: tuple[str, ...]
    content: tuple[Word, ...]
    counts: Counter[str]
    distinct: frozenset[str]
    content_counts: Counter[str]


@lru_cache(maxsize=65536)
def _read(text: str, language: str) -> _Reading:
    from conflictkit.judges.atoms.extract import extract
    from conflictkit.lexicon import load

    clause, lex = extract(text, language), load(language)
    vocab = _vocabulary(lex)
    roots = tuple(root(w, lex) for w, _, _ in clause.words)
    content = tuple(w for w in clause.words if _content_word(w, clause, vocab))
    return _Reading(roots, content, Counter(roots), frozenset(roots), Counter(w for w, _, _ in content))


def _same_content(context: ComparisonContext) -> bool:
    """Both clauses have the same content words, spelt the same (whatever their order): no content
    edit, no typo fix."""
    language = context.lexicon.language
    # dict equality, the same as Counter equality for counts that are all positive, and far cheaper
    return dict.__eq__(_read(context.ref.text, language).content_counts, _read(context.inp.text, language).content_counts)


def _alignment(context: ComparisonContext) -> tuple[float, list[tuple[str, int, int, int, int]], list[tuple[int, int, int]]]:
    """How much of the shorter clause the longer one repeats in order (on roots), where they differ,
    and the blocks of words they share (start in each, length)."""
    a, b = context.ref.words, context.inp.words
    language = context.lexicon.language
    rx, ry = _read(context.ref.text, language), _read(context.inp.text, language)
    x, y = rx.roots, ry.roots
    if x == y:
        return 1.0, [], [(0, 0, len(x))]
    if len(rx.distinct & ry.distinct) < _KEPT_IN_ORDER * min(len(rx.distinct), len(ry.distinct)):
        return 0.0, [], []  # too few words in common for an edit: a rewording or another clause
    shared = sum((rx.counts & ry.counts).values()) / max(1, min(len(x), len(y)))
    if shared < _KEPT_IN_ORDER:
        return shared, [], []  # an upper bound of what the alignment keeps: too little either way
    matcher = SequenceMatcher(None, x, y, autojunk=False)
    blocks = [tuple(block) for block in matcher.get_matching_blocks() if block.size]
    kept = sum(size for _, _, size in blocks) / max(1, min(len(a), len(b)))
    return kept, [op for op in matcher.get_opcodes() if op[0] != "equal"], blocks


# -- typo fixes ---------------------------------------------------------------------------------

def _osa(x: str, y: str) -> int:
    """Optimal string alignment distance: edits of one letter, adjacent transpositions counting one."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(y) + 1)] for i in range(len(x) + 1)]
    for i in range(1, len(x) + 1):
        for j in range(1, len(y) + 1):
            cost = x[i - 1] != y[j - 1]
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and x[i - 1] == y[j - 2] and x[i - 2] == y[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(x)][len(y)]


def _related_forms(x: str, y: str, m) -> bool:
    """A prefix or an agent suffix apart ("limited" / "unlimited", "lessor" / "lessee"): different words."""
    for p in m.related_prefixes:
        if x == p + y or y == p + x:
            return True
    roots = {w[: -len(s)] for w in (x, y) for s in m.agent_suffixes if w.endswith(s) and len(w) - len(s) >= 3}
    return any(x.startswith(r) and y.startswith(r) and len(r) >= max(len(x), len(y)) - 3 for r in roots)


def _vowel_edit(x: str, y: str, vowels: str) -> bool:
    """One word is the other with one vowel changed, added or dropped ("seperate" / "separate")."""
    if len(x) == len(y):
        diff = [(p, q) for p, q in zip(x, y, strict=True) if p != q]
        return len(diff) == 1 and diff[0][0] in vowels and diff[0][1] in vowels
    short, long_ = sorted((x, y), key=len)
    return len(long_) - len(short) == 1 and any(long_[:k] + long_[k + 1:] == short and long_[k] in vowels
                                               for k in range(len(long_)))


def _doubled(x: str, y: str) -> bool:
    """One word is the other with a letter doubled ("untill" / "until", "ocurred" / "occurred")."""
    short, long_ = sorted((x, y), key=len)
    return len(long_) - len(short) == 1 and any(
        long_[k] == long_[k - 1] and long_[:k] + long_[k + 1:] == short for k in range(1, len(long_)))


def _single(word: str) -> str:
    """The word with each run of one letter written once: "committee" -> "comite"."""
    return "".join(c for k, c in enumerate(word) if k == 0 or c != word[k - 1])


def is_typo(x: str, y: str, lex: LanguagePack) -> bool:
    """Whether ``x`` and ``y`` (lower-cased words) read as one word and its misspelling."""
    if x == y or abs(len(x) - len(y)) > 2 or not (x.isalpha() and y.isalpha()) or min(len(x), len(y)) < 3:
        return False
    distance = _osa(x, y)
    if distance > 2 or frozenset((x, y)) in _vocabulary(lex).not_typos or _related_forms(x, y, lex.data.morphology) \
            or x[0] != y[0] and distance > 1:
        return False
    if distance == 1 and (len(x) == len(y) and sorted(x) == sorted(y) or _doubled(x, y)):
        return True  # "recieve" / "receive", "untill" / "until"
    if distance <= 2 and min(len(x), len(y)) >= 5 and _single(x) == _single(y):
        return True  # a doubled letter in the wrong place: "refferal" / "referral", "comitee" / "committee"
    return _misspelt_word(x, y, distance, lex)


def _misspelt_word(x: str, y: str, distance: int, lex: LanguagePack) -> bool:
    """Two words two letters apart at most: a misspelling of a word of meaning, or a vowel changed."""
    vocab = _vocabulary(lex)
    if min(len(x), len(y)) < 6 and not ({x, y} & vocab.known):
        return False  # short real words one letter apart are often different words ("sell" / "tell")
    if (x in vocab.known) != (y in vocab.known):  # a misspelt word of meaning: "expect" / "except"
        return distance <= 2 and min(len(x), len(y)) >= 4 and x[0] == y[0]
    if not ({x, y} & vocab.known):
        return _vowel_edit(x, y, lex.data.morphology.vowels)
    return False


def _corrections(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Correction]:
    """Typo fixes between the two clauses, as corrections of the reference's text."""
    a, b = ref.words, inp.words
    if ref.word_set == inp.word_set or _same_content(context):
        return []
    kept, _, _ = context.fact("content.alignment")
    if kept < _KEPT_IN_ORDER:
        return []
    # on the words as spelt, not their roots: "unles" / "unless" share a root, "agreementexpires" /
    # "agreement expires" share the first word's
    raw = SequenceMatcher(None, [w for w, _, _ in a], [w for w, _, _ in b], autojunk=False).get_opcodes()  # a typo fix changes a word into one the other clause does not have
    fixes = []
    for tag, i1, i2, j1, j2 in raw:
        if tag != "replace" or max(i2 - i1, j2 - j1) > 2:
            continue
        old, new = "".join(w for w, _, _ in a[i1:i2]), "".join(w for w, _, _ in b[j1:j2])
        joined = (i2 - i1) != (j2 - j1)
        if joined and (old == new or _osa(old, new) == 1 and min(len(old), len(new)) >= 6):
            pass  # "all together" / "altogether", "sub licence" / "sublicence"
        elif joined or not is_typo(old, new, context.lexicon):
            continue
        start, end = a[i1][1], a[i2 - 1][2]
        new_text = inp.text[b[j1][1]:b[j2 - 1][2]]
        old_text = ref.text[start:end]
        fixes.append(Correction(start, end, new_text, Difference(
            "typo", "typo", old_text, new_text, f"typo fixed: '{old_text}' -> '{new_text}'")))
    return fixes


# -- content edits ------------------------------------------------------------------------------

def _content_word(word: Word, clause: ClauseAtoms, vocab: _Vocabulary) -> bool:
    w, start, _ = word
    # a name may hold digits ("37signals"); a bare number is an atom of the numbers family
    return ((w.isalpha() or w.isalnum() and not w.isdigit()) and len(w) > 2 and w not in vocab.stopwords
            and root(w, vocab.lex) not in vocab.filler
            and w not in vocab.pronouns and w not in vocab.timing and not clause.in_atom[start])


def _where(clause: ClauseAtoms, words: tuple[Word, ...], lo: int, hi: int, vocab: _Vocabulary) -> str:
    """The weight for words lo:hi of a clause: an item of a list, words of a condition, or other."""
    text = clause.text.lower()
    before = text[words[lo - 1][2]:words[lo][1]] if lo > 0 else ""
    after = text[words[hi - 1][2]:words[hi][1]] if hi < len(words) else ""
    joins = {words[lo][0], words[hi - 1][0]} | {words[k][0] for k in (lo - 1, hi) if 0 <= k < len(words)}
    if joins & vocab.list_joins or ("," in before and ("," in after or words[hi][0] in vocab.list_joins if hi < len(words) else False)):
        return "content_list"
    sentence_start = max(text.rfind(c, 0, words[lo][1]) for c in ".;:")
    lead = {w for w, s, _ in words[max(0, lo - 12):lo] if s > sentence_start}
    if lead & vocab.condition_words:
        return "content_condition"
    return "content"


def _doubled_up(word: Word, words: tuple[Word, ...], vocab: _Vocabulary) -> bool:
    """A word of a legal doublet next to its partner ("power and authority"): it adds nothing."""
    partners = vocab.doublets.get(word[0], frozenset())
    k = next(n for n, w in enumerate(words) if w[1] == word[1])
    return any(w in partners for w, _, _ in words[max(0, k - 4):k + 5])


def _same_thing(x: str, y: str, lex: LanguagePack) -> bool:
    w = words_of(lex)
    if root(x, lex) == root(y, lex) or frozenset((w.stem(x), w.stem(y))) in opposites(lex):
        return True
    return bool(groups_of(x, lex) & groups_of(y, lex)) and not _different_acts(x, y, lex)


def _different_acts(x: str, y: str, lex: LanguagePack) -> bool:
    """Two acts of one matter that differ in effect ("delete" / "return" the data): ``content.different_acts``."""
    lines = _vocabulary(lex).act_lines
    in_x = frozenset().union(*(lines.get(f, frozenset()) for f in forms(x, lex)))
    return bool(in_x) and bool(in_x & frozenset().union(*(lines.get(f, frozenset()) for f in forms(y, lex))))


def _content_edits(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    lex = context.lexicon
    vocab = _vocabulary(lex)
    if _same_content(context):
        return []
    kept, ops, _ = context.fact("content.alignment")
    if kept < _KEPT_IN_ORDER or len(ops) > _MAX_STRETCHES:
        return []  # reworded or restructured: the residual of P(differs) speaks for it
    changed = _changed_words(ref, inp, lex, vocab)
    if changed is None:
        return []
    a, b = ref.words, inp.words
    return [_edit(ref, a, i1, i2, removed, inp, b, j1, j2, added, vocab)
            for removed, added, (i1, i2, j1, j2) in _stretches(ops, a, b, changed)]


def _stretches(ops, a: tuple[Word, ...], b: tuple[Word, ...], changed: tuple[list[Word], list[Word]]):
    """The edited stretches of the alignment with the content words each removes and adds; where more
    than one swaps words, only the stretches that add or cut alone."""
    removed_at, added_at = {w[1] for w in changed[0]}, {w[1] for w in changed[1]}
    stretches = [([w for w in a[i1:i2] if w[1] in removed_at], [w for w in b[j1:j2] if w[1] in added_at], (i1, i2, j1, j2))
                 for _, i1, i2, j1, j2 in ops]
    stretches = [s for s in stretches if s[0] or s[1]]
    if sum(bool(removed and added) for removed, added, _ in stretches) > 1:
        # several words swapped: another act on another object ("discontinuing a service" / "raising a price"),
        # a different clause or a rewording, which P(same matter) and the residual weigh; one swap is an edit
        stretches = [s for s in stretches if not (s[0] and s[1])]
    return stretches


def _changed_words(ref: ClauseAtoms, inp: ClauseAtoms, lex: LanguagePack,
                   vocab: _Vocabulary) -> tuple[list[Word], list[Word]] | None:
    """The content words one clause has more of than the other (moved words are no edit), without
    synonyms and opposites restated, doublets and names said again with a pronoun; None when none."""
    ref_content = list(_read(ref.text, lex.language).content)
    inp_content = list(_read(inp.text, lex.language).content)
    # moved words are no edit: count what one side has more of, whatever the order
    ref_roots, inp_roots = Counter(root(w, lex) for w, _, _ in ref_content), Counter(root(w, lex) for w, _, _ in inp_content)
    gone, new = ref_roots - inp_roots, inp_roots - ref_roots
    if not gone and not new:
        return None
    removed = [w for w in ref_content if gone[root(w[0], lex)] > 0]
    added = [w for w in inp_content if new[root(w[0], lex)] > 0]
    for x in list(removed):  # a synonym or an opposite restated: "supply" -> "provide", "comply" -> "not violate"
        y = next((y for y in added if _same_thing(x[0], y[0], lex)), None)
        if y is not None:
            removed.remove(x)
            added.remove(y)
    removed = _named_again([w for w in removed if not _doubled_up(w, ref.words, vocab)], ref, inp, lex)
    added = _named_again([w for w in added if not _doubled_up(w, inp.words, vocab)], inp, ref, lex)
    return removed, added


def _named_again(words: list[Word], clause: ClauseAtoms, other: ClauseAtoms, lex: LanguagePack) -> list[Word]:
    """Without the names ("the Director's working hours") the other clause still names elsewhere
    and says once more with a pronoun ("his or her working hours"): no content edit."""
    names = [w for w in words if clause.text[w[1]].isupper() and w[0] in other.word_set]
    if not names:
        return words
    pronouns = pronoun_count(other, lex) - pronoun_count(clause, lex)
    if pronouns <= 0:
        return words
    here, there = Counter(w for w, _, _ in clause.words), Counter(w for w, _, _ in other.words)
    if pronouns < sum(here[n] - there[n] for n in {w[0] for w in names}):
        return words
    return [w for w in words if w not in names]


def _trim(words: tuple[Word, ...], lo: int, hi: int, vocab: _Vocabulary) -> tuple[int, int]:
    """The stretch without the function words at its edges ("and sublicense" -> "sublicense")."""
    def function(w: str) -> bool:
        return w in vocab.stopwords or w in vocab.filler or w in vocab.list_joins
    while hi - lo > 1 and function(words[lo][0]):
        lo += 1
    while hi - lo > 1 and function(words[hi - 1][0]):
        hi -= 1
    return lo, hi


def _quote(clause: ClauseAtoms, words: tuple[Word, ...], lo: int, hi: int) -> str:
    return clause.text[words[lo][1]:words[hi - 1][2]]


def _edit(ref: ClauseAtoms, a: tuple[Word, ...], i1: int, i2: int, removed: list[Word],
          inp: ClauseAtoms, b: tuple[Word, ...], j1: int, j2: int, added: list[Word], vocab: _Vocabulary) -> Difference:
    """One typed reason for one edited stretch, quoting the words of each clause."""
    if removed and added:
        old, new = _quote(ref, a, i1, i2), _quote(inp, b, j1, j2)
        small = i2 - i1 <= _MAX_SWAP_WORDS and j2 - j1 <= _MAX_SWAP_WORDS
        weight = _where(inp, b, j1, j2, vocab) if not small else "content_swap"
        return Difference("scope", weight, old, new, f"'{old}' -> '{new}'")
    clause, words, lo, hi, what, side = ((inp, b, j1, j2, added, "added") if added else (ref, a, i1, i2, removed, "removed"))
    lo, hi = _trim(words, lo, hi, vocab)
    quote = _quote(clause, words, lo, hi)
    weight = _where(clause, words, lo, hi, vocab)
    if len(what) == 1 and what[0][0].endswith(vocab.adverb_endings) and weight in ("content", "content_list"):
        weight = "content_minor"  # an adverb alone ("diligently") shades a duty, rarely reverses it
    place = {"content_list": " to the list" if added else " from the list", "content_condition": " in the condition"}
    detail = f"'{quote}' {side}{place.get(weight, '')}"
    return Difference("scope", weight, None if added else quote, quote if added else None, detail)


def _timing_swaps(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    """A word that says when an act falls due against an event, swapped for one that says another
    time ("before the inspection" -> "after the inspection", "until" -> "from"): ``content.timing``.
    Timing words next to a number or a date belong to that atom and are compared by its family."""
    vocab = _vocabulary(context.lexicon)
    if ref.word_set == inp.word_set:
        return []
    lines_ref = {vocab.timing[w] for w in ref.word_set - inp.word_set if w in vocab.timing}
    lines_inp = {vocab.timing[w] for w in inp.word_set - ref.word_set if w in vocab.timing}
    if not any(frozenset((x, y)) in vocab.timing_apart for x in lines_ref for y in lines_inp):
        return []  # no timing word swapped for one of another line: nothing to align for
    kept, ops, _ = context.fact("content.alignment")
    if kept < _KEPT_IN_ORDER:
        return []
    a, b = ref.words, inp.words
    diffs = []
    for tag, i1, i2, j1, j2 in ops:
        if tag != "replace" or i2 - i1 != 1 or j2 - j1 != 1 or ref.in_atom[a[i1][1]] or inp.in_atom[b[j1][1]]:
            continue
        x, y = vocab.timing.get(a[i1][0]), vocab.timing.get(b[j1][0])
        if x and y and frozenset((x, y)) in vocab.timing_apart:
            old, new = ref.text[a[i1][1]:a[i1][2]], inp.text[b[j1][1]:b[j1][2]]
            diffs.append(Difference("scope", "content_swap", old, new, f"'{old}' -> '{new}': the act falls due at another time"))
    return diffs


def gives_up(ref: ClauseAtoms, inp: ClauseAtoms, lexicon: LanguagePack) -> bool:
    """Whether the family leaves a pair to the residual because its words differ in more than a few
    places though most are kept in order: each edit can then be compared alone."""
    if _same_content(ComparisonContext(ref, inp, lexicon)):
        return False
    kept, ops, _ = _alignment(ComparisonContext(ref, inp, lexicon))
    return kept >= _KEPT_IN_ORDER and len(ops) > _MAX_STRETCHES


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    return _content_edits(ref, inp, context) + _timing_swaps(ref, inp, context)


FAMILY = Family(
    name="content", claims=90, compares=70, extract=no_atoms, compare=compare, corrections=_corrections,
    weights={
        "content": (0.75, "a content word or phrase added to or cut from an object or a modifier, no atom changed"),
        "content_list": (0.85, "an item added to or cut from an enumeration of rights, duties, uses or remedies"),
        "content_condition": (0.8, "words added to or cut from a condition or an exception"),
        "content_swap": (0.8, "a word swapped for another in an otherwise unchanged clause (a fee change -> increase)"),
        "content_minor": (0.35, "an adverb added or cut alone (diligently, properly)"),
        "typo": (0.05, "a typo fixed: one or two letters, or two words joined"),
    },
    facts={"content.alignment": _alignment},
)
