"""Rules that recognise an editorial edit: it changes how a clause reads, not what it binds anyone to.

Each rule reads one edit of a pair (:class:`conflictkit.judges.atoms.edits.PairView`) and returns
its class and a detail, or None. Classes, in the order the rules are tried:

- ``typography``: the same letters and digits (case, punctuation, hyphens, a word split in two);
  ``extraction`` when words are glued or split as a PDF's text layer does ("todata" / "to data");
- ``link``: only link labels or addresses changed, a link added to or cut from a list of links,
  a label made descriptive ("here" -> the page's title);
- ``rename``: a substitution the document context shows to be made consistently throughout, a
  corporate suffix dropped or added ("37signals, LLC" -> "37signals"), a party named by another of
  the aliases a definition gives it ("The Company does" -> "We do");
- ``grammar``: a word for its plural or another form of the same verb, an article or demonstrative
  for another ("the" -> "these", "the" -> "your");
- ``cross-reference``: only the number of a cross-reference ("Section 12" -> "Section 10");
- ``illustration``: items added to or cut from a non-exhaustive "such as / for example / including"
  list, in the same sentence as its marker;
- ``pointer``: a sentence that only sends the reader elsewhere ("For details, see our policy").

A rule never fires on an edit that changes a word which carries meaning by itself (a negator, a
modal, a number) unless its class is about exactly that (typography keeps digits as they are).
Words come from the language's lexicon (``editorial.yaml``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from conflictkit.context import corporate_suffixes, words_of
from conflictkit.judges.atoms.compare import compare
from conflictkit.judges.atoms.edits import PairView, TextEdit
from conflictkit.judges.atoms.extract import extract
from conflictkit.judges.atoms.families.content import is_typo
from conflictkit.judges.atoms.text import stem
from conflictkit.lexicon import LanguagePack
from conflictkit.lexicon.regex import compile_pattern

Rule = Callable[[PairView, TextEdit], "tuple[str, str] | None"]


def classify(view: PairView, edit: TextEdit) -> tuple[str, str, str] | None:
    """``(verdict, class, detail)`` of an edit a rule recognises: verdict ``editorial`` (class from
    :data:`RULES`) or ``same-effect`` (a rewording :data:`SAME_EFFECT_RULES` show to change nothing);
    None when no rule does.

    An edit joined from nearby changes ("this Terms of Service" -> "these Terms": a determiner and a
    shortened name) is recognised when each of its parts is; it is named by the first part that is
    not typography, and it is same-effect when any part is."""
    whole = _first_rule(view, edit)
    if whole is not None or not edit.parts:
        return whole
    found = [_first_rule(view, part) for part in edit.parts]
    if any(f is None for f in found):
        return None
    telling = [f for f in found if f[1] != "typography"] or found
    verdict = "same-effect" if any(f[0] == "same-effect" for f in found) else "editorial"
    return verdict, telling[0][1], "; ".join(detail for _, _, detail in telling)


def _first_rule(view: PairView, edit: TextEdit) -> tuple[str, str, str] | None:
    if _turns_meaning(view, edit):  # a negator or a modal changed: only its spelling or where it stands is editorial
        found = typography(view, edit) or spelling(view, edit) or heading(view, edit) or moved(view, edit)
        return ("editorial", *found) if found else None
    for verdict, rules in (("editorial", _rules(view, RULES)), ("same-effect", _rules(view, SAME_EFFECT_RULES))):
        for rule in rules:
            found = rule(view, edit)
            if found is not None:
                return verdict, found[0], found[1]
    return None


def _turns_meaning(view: PairView, e: TextEdit) -> bool:
    """Whether the edit adds or drops a negator or a modal verb (never one for a copy of itself)."""
    turners = view.lexicon.memo("editorial.turners", lambda: frozenset(
        view.lexicon.words("words.negators") | view.lexicon.words("words.modals")))
    old = {w.lower() for w in view.ref_words(e)} & turners
    new = {w.lower() for w in view.inp_words(e)} & turners
    return old != new


def _rules(view: PairView, rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    """The rules that can fire on this pair at all (no link in either clause: no link rule...), read once per pair."""
    memo = view.__dict__.setdefault("_rules", {})
    if rules not in memo:
        memo[rules] = tuple(r for r in rules if _NEEDS.get(r, lambda v: True)(view))
    return memo[rules]


def _has(view: PairView, words: frozenset[str]) -> bool:
    return bool(words & view.word_set("ref")) or bool(words & view.word_set("inp"))


def _has_abbreviation(view: PairView) -> bool:
    keys = view.lexicon.memo("editorial.abbreviation_keys", lambda: frozenset(view.lexicon.data.editorial.abbreviations))
    return _has(view, keys)


# -- typography -----------------------------------------------------------------------------------

_NOT_ALNUM = re.compile(r"[\W_]+")


def _skeleton(words: list[str]) -> str:
    """Letters and digits only, lower-cased; punctuation between two digits is kept ("1,000" != "1.000")."""
    text = " ".join(words).lower()
    text = re.sub(r"(?<=\d)\s*([.,'])\s*(?=\d)", r"\1", text)
    return re.sub(r"(?<!\d)[\W_]+|[\W_]+(?!\d)", "", text)


def spelling(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    """One word for its misspelling or its correction ("reoccurring" -> "recurring", "recieve" -> "receive")."""
    old, new = view.ref_words(e), view.inp_words(e)
    if len(old) != 1 or len(new) != 1:
        return None
    x, y = old[0].lower(), new[0].lower()
    if abs(len(x) - len(y)) > 2 or (x[:1] != y[:1] and x[-1:] != y[-1:]) or not is_typo(x, y, view.lexicon):
        return None  # a misspelling keeps its first or its last letter
    return "typography", f"'{old[0]}' -> '{new[0]}': spelling"


def spelling_variant(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    """The same words in another country's spelling ("abschließend" -> "abschliessend")."""
    variants = view.lexicon.data.tokens.letter_variants
    if not variants:
        return None
    old, new = " ".join(view.ref_words(e)).lower(), " ".join(view.inp_words(e)).lower()
    for letter, written in variants.items():
        old, new = old.replace(letter, written), new.replace(letter, written)
    if not old or old != new:
        return None
    return "typography", f"'{view.ref.text(e.i1, e.i2)}' -> '{view.inp.text(e.j1, e.j2)}': another country's spelling"


def _boundaries(words: list[str], marks: str) -> set[int]:
    """Positions, counted in letters and digits, where ``marks`` (a space, or a hyphen) part two of them."""
    found, letters, pending = set(), 0, False
    for k, word in enumerate(words):
        if k and " " in marks:
            pending = True
        for c in word:
            if c.isalnum():
                if pending and letters:
                    found.add(letters)
                pending = False
                letters += 1
            elif c in marks:
                pending = True
    return found


def _glued(words: list[str]) -> set[int]:
    return _boundaries(words, " ")


def _hyphens(words: list[str]) -> set[int]:
    return _boundaries(words, "-\u2010\u2011")


def _letters(words: list[str]) -> str:
    return "".join(c for w in words for c in w if c.isalnum()).lower()


def typography(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    old, new = view.ref_words(e), view.inp_words(e)
    if _letters(old) != _letters(new) or _skeleton(old) != _skeleton(new):
        return None
    if _glued(old) != _glued(new) and (_glued(old) ^ _glued(new)) - (_hyphens(old) | _hyphens(new)):
        return "extraction", f"'{' '.join(old)}' / '{' '.join(new)}': words glued or split"
    return "typography", "punctuation or letter case only" if old or new else "spacing"


# -- links ----------------------------------------------------------------------------------------

_MD_LINK = re.compile(r"\[([^\[\]]+)\]\(([^()\s]*(?:\([^)]*\)[^()\s]*)*)(?:\s+\"[^\"]*\")?\)")
_HTML_LINK = re.compile(r"<a\b[^>]*>(.*?)</a>", re.IGNORECASE | re.DOTALL)
_URL = re.compile(r"(?:https?://|www\.)[^\s<>()\[\]]+|\b[\w.-]+@[\w-]+\.[\w.]+\b|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|"
                  r"md|html?|pdf)(?:/[^\s<>()\[\]]*)?", re.IGNORECASE)


def _link_spans(source: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The spans of a clause's link labels and of its addresses (URLs, e-mail addresses, file names)."""
    labels: list[tuple[int, int]] = []
    if "[" in source:
        labels += [m.span(1) for m in _MD_LINK.finditer(source)]
    if "<a" in source or "<A" in source:
        labels += [m.span(1) for m in _HTML_LINK.finditer(source)]
    urls = [m.span() for m in _URL.finditer(source)] if ("/" in source or "@" in source or "." in source) else []
    return labels, urls


def _marks(view: PairView, side: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The link spans of one side, read once per view."""
    memo = view.__dict__.setdefault("_link_spans", {})
    if side not in memo:
        memo[side] = _link_spans((view.ref if side == "ref" else view.inp).original)
    return memo[side]


def _inside(tokens, k: int, spans: list[tuple[int, int]]) -> bool:
    start, end = tokens.original_span(k, k + 1)
    return any(a <= start and end <= b for a, b in spans)


def link(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    (ref_labels, ref_urls), (inp_labels, inp_urls) = _marks(view, "ref"), _marks(view, "inp")
    if not (ref_labels or ref_urls or inp_labels or inp_urls):
        return None
    old_words, new_words = [], []
    stop = view.lexicon.words("words.stopwords")
    for tokens, lo, hi, labels, urls, words in ((view.ref, e.i1, e.i2, ref_labels, ref_urls, old_words),
                                                (view.inp, e.j1, e.j2, inp_labels, inp_urls, new_words)):
        for k in range(lo, hi):
            word = tokens.words[k]
            if not word[0].isalnum():
                continue
            if _inside(tokens, k, labels):
                words.append(word.lower())
            elif not _inside(tokens, k, urls) and word.lower() not in stop:
                return None  # a word outside any link ("see [here]" -> "in our [guide]" keeps only "in our")
    if not old_words and not new_words:
        return "link", "only a link address changed"
    if old_words and new_words and not _label_kin(old_words, new_words, view.lexicon):
        return None  # a link to another document: its label names what is referred to
    what = "a link added" if not old_words else "a link removed" if not new_words else "a link's label reworded"
    return "link", what


def _label_kin(old: list[str], new: list[str], lexicon: LanguagePack) -> bool:
    """Two labels of one link: one names nothing ("here"), or they share a content word."""
    generic = {tuple(g.split()) for g in lexicon.get("editorial.generic_link_labels")}
    if tuple(old) in generic or tuple(new) in generic:
        return True
    stop = lexicon.words("words.stopwords")
    return bool({w for w in old if w not in stop} & {w for w in new if w not in stop})


# -- renames --------------------------------------------------------------------------------------

def rename(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    context = view.context
    if not context.renames:
        return None
    old, new = [w.lower() for w in view.ref_words(e)], [w.lower() for w in view.inp_words(e)]
    # the edit itself, or with the word before it when words were cut or added ("Terms of Service" -> "Terms")
    tries = [(old, new)]
    if e.i1 > 0 and e.j1 > 0:
        tries.append(([view.ref.words[e.i1 - 1].lower(), *old], [view.inp.words[e.j1 - 1].lower(), *new]))
    if e.i2 < len(view.ref.words) and e.j2 < len(view.inp.words):
        tries.append(([*old, view.ref.words[e.i2].lower()], [*new, view.inp.words[e.j2].lower()]))
    for a, b in tries:
        found = context.rename(_strip_punctuation(a), _strip_punctuation(b)) or context.rename(a, b)
        if found is not None:
            return "rename", found.describe()
    return None


def _strip_punctuation(words: list[str]) -> list[str]:
    return [w for w in words if w[0].isalnum()]


def corporate_suffix(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    """A company's name with or without its suffix ("37signals LLC" -> "37signals", "Acme, Inc." -> "Acme")."""
    suffixes = corporate_suffixes(view.lexicon)
    old, new = view.ref_words(e), view.inp_words(e)
    changed = [w for w in old + new if w[0].isalnum()]
    if not changed or any(w.lower().rstrip(".") not in suffixes for w in changed):
        return None
    if old and new:
        return None  # one suffix for another: another company form
    tokens, start = (view.ref, e.i1) if old else (view.inp, e.j1)
    before = tokens.words[start - 1] if start > 0 else ""
    if before == "," and start > 1:
        before = tokens.words[start - 2]
    if not before[:1].isupper() and not before[:1].isdigit():
        return None
    return "rename", f"'{' '.join(old or new)}' {'dropped from' if old else 'added to'} the name '{before}'"


def alias(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    """A party named by another of its aliases ("The Company does not" -> "We do not")."""
    groups = view.context.aliases
    if not groups:
        return None
    lexicon = view.lexicon
    determiners = frozenset(lexicon.get("editorial.determiners"))
    pronouns = frozenset(lexicon.get("editorial.party_pronouns"))
    old = [w.lower() for w in view.ref_words(e) if w[0].isalnum()]
    new = [w.lower() for w in view.inp_words(e) if w[0].isalnum()]
    if any(_named_by_alias(old, new, group, determiners, pronouns, lexicon) for group in groups):
        return "rename", f"'{' '.join(old)}' -> '{' '.join(new)}': one party, named by another alias"
    return None


def _named_by_alias(old: list[str], new: list[str], group: frozenset[str], determiners: frozenset[str],
                    pronouns: frozenset[str], lexicon: LanguagePack) -> bool:
    """Whether ``new`` names a party of ``group`` where ``old`` named it (or said it with a pronoun), the
    other words being the same words in another form."""
    names_old = [w for w in old if w in group]
    if not any(w in group for w in new) or not (names_old or all(w in pronouns for w in old if w not in determiners)):
        return False
    rest_old = [w for w in old if w not in group and w not in determiners and w not in pronouns]
    rest_new = [w for w in new if w not in group and w not in determiners]
    return len(rest_old) == len(rest_new) and all(same_lemma(x, y, lexicon) for x, y in zip(rest_old, rest_new, strict=True))


def heading(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    """A heading line that became the clause's run-in title, or the reverse ("**Data.**" on its own line
    -> "**Data.** We keep..."): the words added at the start are the other clause's heading."""
    if (e.i2 > e.i1) == (e.j2 > e.j1) or (e.i1 != 0 and e.j1 != 0):
        return None
    words = view.ref_words(e) or view.inp_words(e)
    other_heading = view.headings[1] if e.i2 > e.i1 else view.headings[0]
    if not other_heading:
        return None
    said = [w for w in words_of(" ".join(words)) if w[0].isalnum()]
    title = [w for w in words_of(other_heading) if w[0].isalnum()]
    if said and said == title:
        return "heading", "a heading line made the clause's run-in title, or the reverse"
    return None


# -- grammar --------------------------------------------------------------------------------------

def same_lemma(x: str, y: str, lexicon: LanguagePack) -> bool:
    """One word, inflected for number or person: "service" / "services", "reserves" / "reserve", "policy" / "policies"."""
    if x == y:
        return True
    forms = lexicon.memo("editorial.word_forms", lambda: {frozenset(p) for p in lexicon.data.editorial.word_forms})
    if frozenset((x, y)) in forms:
        return True
    short, long_ = sorted((x, y), key=len)
    m = lexicon.data.morphology
    return len(short) >= 3 and (any(long_ == short + e for e in m.number_endings) or any(
        short.endswith(end) and long_ == short[: -len(end)] + plural for end, plural in m.number_replacements.items()))


def _articles(lexicon: LanguagePack) -> frozenset[str]:
    return lexicon.memo("editorial.articles", lambda: frozenset(lexicon.data.editorial.articles))


def grammar(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    old = [w.lower() for w in view.ref_words(e) if w[0].isalnum()]
    new = [w.lower() for w in view.inp_words(e) if w[0].isalnum()]
    if not old and not new:
        return None
    if len(old) == len(new) and all(same_lemma(x, y, view.lexicon) for x, y in zip(old, new, strict=True)):
        return "grammar", f"'{' '.join(old)}' -> '{' '.join(new)}': the same word in another form"
    determiners = frozenset(view.lexicon.get("editorial.determiners"))
    if all(w in determiners for w in old + new) and len(old) <= 1 and len(new) <= 1:
        # an article for another, or for a possessive: never one party's possessive for another's
        if not old or not new or old[0] in _articles(view.lexicon) or new[0] in _articles(view.lexicon):
            return "grammar", f"'{' '.join(old) or '-'}' -> '{' '.join(new) or '-'}': a determiner"
    return None


def _abbreviations(lexicon: LanguagePack) -> dict[str, tuple[str, ...]]:
    return lexicon.memo("editorial.abbreviations", lambda: {
        short: tuple(long.split()) for short, long in lexicon.data.editorial.abbreviations.items()})


def _written_out(words: list[str], table: dict[str, tuple[str, ...]], lexicon: LanguagePack) -> list[str]:
    """The stems of the words with every abbreviation written out and full stops dropped ("Abs." ->
    "absatz"; stems, so "des BGB" == "des Bürgerlichen Gesetzbuchs")."""
    out: list[str] = []
    for w in words:
        if w != ".":
            out += table.get(w.lower(), (w.lower(),))
    articles = _articles(lexicon)  # "BGB" -> "des Bürgerlichen Gesetzbuchs": the name takes an article
    return [stem(w, lexicon) for w in out if w not in articles]


def abbreviation(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    """An abbreviation written out or a word shortened ("Abs." -> "Absatz", "Sec." -> "Section")."""
    table = _abbreviations(view.lexicon)
    old, new = view.ref_words(e), view.inp_words(e)
    if not old or not new or _written_out(old, table, view.lexicon) != _written_out(new, table, view.lexicon):
        return None
    return "abbreviation", f"'{view.ref.text(e.i1, e.i2)}' -> '{view.inp.text(e.j1, e.j2)}': an abbreviation written out"


# -- cross-references -----------------------------------------------------------------------------

_LABEL = re.compile(r"^(?:\d+(?:\.\d+)*[a-z]?|[ivxlcdm]+|[a-z]|[().,\-])$", re.IGNORECASE)


def xref_words(lexicon: LanguagePack) -> frozenset[str]:
    """Words before a number that make it a cross-reference (``editorial.yaml``)."""
    return lexicon.memo("editorial.xref_words", lambda: frozenset(lexicon.data.editorial.xref_words))


def cross_reference(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    old, new = view.ref_words(e), view.inp_words(e)
    numbers = view.lexicon.words("numbers.number_tokens")
    if not old or not new or not all(_LABEL.match(w) or w.lower() in numbers for w in old + new):
        return None
    before_ref = [w.lower() for w in view.ref.words[max(0, e.i1 - 3):e.i1]]
    before_inp = [w.lower() for w in view.inp.words[max(0, e.j1 - 3):e.j1]]
    xrefs = xref_words(view.lexicon)
    if xrefs & set(before_ref) and xrefs & set(before_inp):
        return "cross-reference", f"'{' '.join(old)}' -> '{' '.join(new)}': the number of a cross-reference"
    if e.i1 == 0 and e.j1 == 0:
        return "renumbering", f"'{' '.join(old)}' -> '{' '.join(new)}': a list label"
    return None


# -- illustrations --------------------------------------------------------------------------------

def _markers(lexicon: LanguagePack) -> list[tuple[str, ...]]:
    return lexicon.memo("editorial.markers", lambda: sorted(
        (tuple(m.split()) for m in lexicon.get("editorial.illustration_markers")), key=len, reverse=True))


def _marker_ends(words: tuple[str, ...], lexicon: LanguagePack) -> list[int | None]:
    """For each token, where the illustration marker it ends stops (None if it ends none, or the marker
    is limited: "including only", "not including")."""
    low = [w.lower() for w in words]
    breakers = frozenset(lexicon.get("editorial.illustration_breakers"))
    ends: list[int | None] = [None] * (len(low) + 1)
    first_words = {m[0] for m in _markers(lexicon)}
    for k, w in enumerate(low):
        if w not in first_words:
            continue
        for marker in _markers(lexicon):
            n = len(marker)
            if tuple(low[k:k + n]) == marker:
                near = set(low[max(0, k - 2):k]) | set(low[k + n:k + n + 2])
                if not near & breakers:
                    ends[k + n] = k + n
                break
    return ends


def _marker_before(view: PairView, side: str, sentence_start: int, at: int) -> int | None:
    """Index just after the last illustration marker between ``sentence_start`` and ``at`` (None if none)."""
    memo = view.__dict__.setdefault("_marker_ends", {})
    if side not in memo:
        memo[side] = _marker_ends((view.ref if side == "ref" else view.inp).words, view.lexicon)
    ends = memo[side]
    for k in range(at, sentence_start, -1):
        if ends[k] is not None:
            return ends[k]
    return None


def illustration(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    lexicon = view.lexicon
    ref_start, _ = view.ref_sentence(e)
    inp_start, _ = view.inp_sentence(e)
    after_ref = _marker_before(view, "ref", ref_start, e.i1)
    after_inp = _marker_before(view, "inp", inp_start, e.j1)
    if after_ref is None or after_inp is None:
        return None
    changed = [w.lower() for w in view.ref_words(e) + view.inp_words(e)]
    if _meaning_bearing(changed, lexicon):
        return None
    return "illustration", "an example in a non-exhaustive list"


def _meaning_bearing(words: list[str], lexicon: LanguagePack) -> bool:
    fixed = lexicon.memo("editorial.meaning", lambda: frozenset(
        lexicon.words("words.negators") | lexicon.words("words.modals") | lexicon.words("words.exceptions")
        | lexicon.words("words.conditions") | lexicon.words("numbers.number_tokens")))
    return any(w in fixed or w[:1].isdigit() for w in words)  # "in drei Monaten" -> "in sechs": a figure is no example


# -- pointers -------------------------------------------------------------------------------------

def _pointer_patterns(lexicon: LanguagePack) -> list[re.Pattern[str]]:
    return lexicon.memo("editorial.pointers", lambda: [re.compile(p, re.IGNORECASE)
                                                       for p in lexicon.get("editorial.pointer_patterns")])


def is_pointer(sentence: str, lexicon: LanguagePack) -> bool:
    """Whether a sentence only sends the reader elsewhere ("For more details, see our Use Restrictions policy")."""
    words = set(lexicon.memo("editorial.word", lambda: compile_pattern(r"\p{L}+")).findall(sentence.lower()))
    if words & frozenset(lexicon.get("editorial.pointer_breakers")) or not words & _cues(lexicon):
        return False
    return any(p.search(sentence) for p in _pointer_patterns(lexicon))


def pointer(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    memo = view.__dict__.setdefault("_pointers", {})
    found = []
    for side, tokens, used in (("ref", view.ref, e.i2 > e.i1 or e.j2 == e.j1), ("inp", view.inp, e.j2 > e.j1 or e.i2 == e.i1)):
        if not used:
            continue
        span = view.ref_sentence(e) if side == "ref" else view.inp_sentence(e)
        if (side, span) not in memo:
            memo[(side, span)] = is_pointer(" ".join(tokens.words[span[0]:span[1]]), view.lexicon)
        found.append(memo[(side, span)])
    if found and all(found):
        return "pointer", "a sentence that refers the reader elsewhere"
    return None


def short_name(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    """A parenthesis that gives a short name, added or cut ('Writeboard (together, "37signals")')."""
    if (e.i2 > e.i1) == (e.j2 > e.j1):
        return None
    words = view.ref_words(e) or view.inp_words(e)
    if len(words) < 3 or words[0] != "(" or words[-1] != ")":
        return None
    leads = frozenset(view.lexicon.get("editorial.definition_leads"))
    inner = [w for w in words[1:-1] if w not in (",", ":")]
    quotes = [k for k, w in enumerate(inner) if w in ('"', "'")]
    if len(quotes) != 2 or quotes[1] - quotes[0] > 7 or quotes[1] != len(inner) - 1:
        return None
    if not all(w.lower() in leads for w in inner[:quotes[0]]):
        return None
    name = " ".join(inner[quotes[0] + 1:quotes[1]])
    return "rename", f"the short name '{name}' {'given' if e.j2 > e.j1 else 'dropped'}"


def moved(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    """A passage that moved to or from another clause, its atoms unchanged (where it left, the other
    side of the edit holds at most a connective: "but" -> "In addition,")."""
    if not view.context.moved:
        return None
    stop = view.lexicon.words("words.stopwords")
    old, new = " ".join(view.ref_words(e)), " ".join(view.inp_words(e))
    for text, other, left in ((old, new, True), (new, old, False)):
        if len([w for w in words_of(other) if w[0].isalnum()]) > 3:
            continue
        mine = {w for w in words_of(text) if w[0].isalnum() and w not in stop}
        for m in view.context.moved:
            theirs = {w for w in words_of(m.old if left else m.new) if w[0].isalnum() and w not in stop}
            if not mine or 2 * len(mine & theirs) / (len(mine) + len(theirs)) < 0.75:
                continue
            language = view.lexicon.language
            if not compare(extract(m.old, language), extract(m.new, language), view.lexicon):
                return "moved", "a passage moved " + ("to" if left else "from") + " another paragraph, unchanged in effect"
    return None


# -- same effect ----------------------------------------------------------------------------------

def distributed(view: PairView, e: TextEdit) -> tuple[str, str] | None:
    """A shared head spelled out for each item ("the EU-US and Swiss-US Framework" -> "the EU-US
    Framework and the Swiss-US Framework"): the inserted words repeat those that follow them."""
    if e.j2 <= e.j1:
        return None
    joins = frozenset(view.lexicon.get("editorial.coordinators")) | _articles(view.lexicon)
    stop = view.lexicon.words("words.stopwords")
    words = [w.lower() for w in view.inp.words[e.j1:e.j2] if w[0].isalnum()]
    inserted = [w for w in words if w not in joins]
    removed = [w.lower() for w in view.ref.words[e.i1:e.i2] if w[0].isalnum() and w.lower() not in joins]
    # only the head and the words that join list items: no verb, negator or other function word comes along
    if not inserted or removed or any(w in stop for w in inserted) or _meaning_bearing(words, view.lexicon):
        return None
    after = [w.lower() for w in view.inp.words[e.j2:e.j2 + len(inserted) + 4] if w[0].isalnum()]
    reference = {w.lower() for w in view.ref.words}
    if set(inserted) <= set(after) and set(inserted) <= reference:
        return "distributed", f"'{' '.join(inserted)}' repeated for each item of a list"
    return None


RULES: tuple[Rule, ...] = (typography, spelling, spelling_variant, heading, link, rename, corporate_suffix, alias, short_name, grammar, abbreviation,
                           cross_reference, illustration, pointer, moved)
SAME_EFFECT_RULES: tuple[Rule, ...] = (distributed,)

def _cues(lexicon: LanguagePack) -> frozenset[str]:
    return lexicon.memo("editorial.pointer_cues", lambda: frozenset(lexicon.get("editorial.pointer_cues")))


def _marker_words(lexicon: LanguagePack) -> frozenset[str]:
    return lexicon.memo("editorial.marker_words", lambda: frozenset(m[0] for m in _markers(lexicon)))


_LINK_SIGNS = ("[", "<a", "<A", "/", "@", "www")

_NEEDS: dict[Rule, Callable[[PairView], bool]] = {
    link: lambda v: any(c in v.ref.original or c in v.inp.original for c in _LINK_SIGNS),
    rename: lambda v: bool(v.context.renames),
    alias: lambda v: bool(v.context.aliases),
    moved: lambda v: bool(v.context.moved),
    corporate_suffix: lambda v: _has(v, corporate_suffixes(v.lexicon)),
    abbreviation: lambda v: _has_abbreviation(v),
    short_name: lambda v: "(" in v.word_set("ref") or "(" in v.word_set("inp"),
    heading: lambda v: bool(v.headings[0] or v.headings[1]),
    illustration: lambda v: _has(v, _marker_words(v.lexicon)),
    pointer: lambda v: _has(v, _cues(v.lexicon)),
}
"""What a pair must hold for a rule to have anything to recognise (a cheap test, read once per pair)."""
