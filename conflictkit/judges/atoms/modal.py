"""Modality, negation and who acts.

Each modal phrase becomes one atom whose key is its deontic class, whatever the wording:

| class | examples |
|---|---|
| obligation | shall, will, must, agrees to, undertakes to, is required to |
| permission | may, can, is entitled to, is permitted to, has the right to, reserves the right to |
| prohibition | shall not, may not, must not, will not, cannot, neither party shall, in no event will, is prohibited from |
| no_obligation | is not required to, need not, shall have no obligation to, is under no obligation to |
| recommendation / discouraged | should / should not |

A negator that belongs to a modal ("shall not", "Neither party shall", "in no event will") is
part of that atom and is not counted again as a free negation. The atom remembers the verb it
governs (to align the two clauses) and the side of the party that acts: the subject before it,
or the agent of a passive ("shall be paid by Customer"). Free negations ("is not liable",
"without cause", "no refund") are atoms of their own, anchored on the word they negate.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

from conflictkit.judges.atoms.parties import find_named_parties, find_parties
from conflictkit.judges.atoms.text import Atom, Mask, stem, tokenize
from conflictkit.lexicon import Lexicon

_NOT_AUX_BEFORE = {"at", "the", "its", "his", "her", "their", "free", "good", "ill", "last", "whose", "a"}
_BE = {"is", "are", "be", "was", "were", "am", "being"}
_HAVE = {"has", "have", "had"}
# "free to act" is a permission, "free from defects" is not; "prohibited from acting" is a prohibition.
_PREDICATE_LINK = {"duty": {"to"}, "permission": {"to"}, "prohibited": {"from", "to"}, "recommendation": {"to"}}
_STOP_LOOKBACK = {".", ";", ":", ",", "if", "where", "when", "unless", "that", "which", "who", "and", "or", "but"}
_SKIP_TO_VERB = {"not", "be", "have", "been", "also", "only", "at", "all", "times", "in", "no", "event", "then",
                 "thereafter", "to", "for", "from", "the", "a", "an", "its", "their", "any", "under", "circumstances",
                 "hereby", "thereby", "always", "still", "further", "itself", "themselves", "and", "or", "(", ")", ",", "-"}
_POSSESSIVES = {"its", "their", "his", "her", "our", "your", "my"}
_APPOSITIVE = re.compile(r"\bas\s+(?:the\s+|a\s+)?$")
_JUST_THE = re.compile(r"\s*(?:the\s+)?")


def _words(lex: Lexicon) -> SimpleNamespace:
    """The modality section of the lexicon (``modality.yaml``) as sets and tables."""
    def build() -> SimpleNamespace:
        m = lex.section("modality")
        free = (lex.words("words.negators") | {"never", "none", "nothing", "neither", "without", "no", "not"}) - {
            "nor", "n't", "cannot"}
        return SimpleNamespace(
            aux=dict(m["auxiliaries"]), predicates=dict(m["predicates"]), nouns=dict(m["right_nouns"]),
            verb_heads=dict(m["verb_heads"]), subject_negators=frozenset(m["subject_negators"]),
            # verbs only: the noun ("delay or failure to perform") names an event and negates nothing
            fail=frozenset(m["failure_verbs"]), outside_verbs=frozenset(m["outside_verbs"]),
            passive_irregular=frozenset(m["irregular_participles"]), participle_prefixes=tuple(m["participle_prefixes"]),
            ly_verbs=frozenset(m["ly_verbs"]), free_negators=free)
    return lex.memo("modality.words", build)


def _combine(base: str, negated: bool) -> str:
    if base in ("obligation", "permission"):
        return "prohibition" if negated else base
    if base == "duty":
        return "no_obligation" if negated else "obligation"
    if base == "prohibited":
        return "permission" if negated else "prohibition"
    if base == "contingent":
        return "contingent_no_obligation" if negated else "contingent_obligation"
    return "discouraged" if negated else base


class _Scanner:
    """Walks the free tokens of a clause and emits modal atoms, then free negation atoms."""

    def __init__(self, text: str, low: str, mask: Mask, lex: Lexicon) -> None:
        self.text, self.low, self.mask, self.w = text, low, mask, _words(lex)
        self.tokens = [t for t in tokenize(low) if mask.free(t.start, t.end)]
        known = find_parties(text, low, lex)
        self.parties = sorted(known + find_named_parties(text, known, lex), key=lambda p: p.start)
        self.used: set[int] = set()

    def _adverb(self, word: str) -> bool:
        """"promptly", "fully": skipped between a modal and its verb; "comply", "supply" are verbs."""
        return word.endswith("ly") and len(word) > 4 and word not in self.w.ly_verbs

    def word(self, i: int) -> str:
        return self.tokens[i].word if 0 <= i < len(self.tokens) else ""

    def modal_atoms(self) -> list[Atom]:
        atoms = []
        i = 0
        while i < len(self.tokens):
            found = self._modal_at(i)
            if found is None:
                i += 1
                continue
            atom, end = found
            atoms.append(atom)
            i = end
        return atoms

    def _modal_at(self, i: int) -> tuple[Atom, int] | None:
        w = self.word(i)
        noun_use = w in ("will", "may", "can") and self.word(i + 1) in (".", ";", "")  # "the will.", "in May."
        if w in self.w.aux and self.word(i - 1) not in _NOT_AUX_BEFORE and not noun_use:
            if w == "may" and self.text[self.tokens[i].start].isupper() and self.word(i + 1).isdigit():
                return None
            return self._build(i, self.w.aux[w], i + 1)
        if w in _BE or w in _HAVE:
            j, neg = self._negators(i + 1)
            base, end = self._predicate(j)
            if base:
                return self._build(i, base, end, negated=neg)
            return None
        if w in self.w.verb_heads and self.word(i + 1) == "to":
            return self._build(i, self.w.verb_heads[w], i + 2)
        if w == "need" and self.word(i + 1) == "not":
            return self._build(i, "duty", i + 2, negated=True)
        if w in ("reserves", "reserve") and self.word(i + 1) == "the" and self.word(i + 2) == "right":
            return self._build(i, "permission", i + 3)
        if w in ("refrain", "refrains") and self.word(i + 1) == "from":
            return self._build(i, "prohibited", i + 2)
        return None

    def _negators(self, j: int) -> tuple[int, bool]:
        """Skip "not", "never", "in no event", adverbs after a modal; say whether one negated it."""
        neg = False
        while j < len(self.tokens):
            w = self.word(j)
            if w in ("not", "never"):
                neg = not neg
            elif w == "in" and self.word(j + 1) == "no" and self.word(j + 2) in ("event", "case"):
                neg, j = not neg, j + 2
            elif w == "under" and self.word(j + 1) == "no" and self.word(j + 2) == "circumstances":
                neg, j = not neg, j + 2
            elif not self._adverb(w) and w not in ("also", "at", "all", "times", "then", "hereby"):
                break
            j += 1
        return j, neg

    def _predicate(self, j: int) -> tuple[str, int]:
        """A predicate after be/have: "required to", "entitled to", "no obligation to", "the right to"."""
        w = self.word(j)
        if w in self.w.predicates and self.word(j + 1) in _PREDICATE_LINK[self.w.predicates[w]]:
            return self.w.predicates[w], j + 2
        if w in ("under",) and self.word(j + 1) in ("no", "an", "any") and self.word(j + 2) in self.w.nouns:
            return ("duty!" if self.word(j + 1) == "no" else "duty"), j + 3
        k = j + 1 if w in ("no", "the", "a", "an", "any", "sole") else j
        if self.word(k) in self.w.nouns and self.word(k + 1) in ("to", "of"):
            base = self.w.nouns[self.word(k)]
            return (base + "!" if w == "no" else base), k + 2
        return "", j

    def _build(self, i: int, base: str, j: int, negated: bool = False) -> tuple[Atom, int]:
        j, neg = self._negators(j)
        negated ^= neg
        if self.word(j) in ("be", "have") and base in ("obligation", "permission", "recommendation"):
            k, neg2 = self._negators(j + 1)
            inner, end = self._predicate(k)
            if inner:
                # "may be required to" is an obligation that may arise, not an obligation
                contingent = base == "permission" and inner.startswith("duty")
                if contingent:
                    inner = "contingent" + ("!" if inner.endswith("!") else "")
                base, j, negated = inner, end, negated ^ neg2
        if base.endswith("!"):
            base, negated = base[:-1], not negated
        modal_start = start = self.tokens[i].start
        sub = self._subject_negator(i)
        if sub is not None:
            negated = not negated
            sub -= 1 if self.word(sub - 1) in ("in", "under") else 0
            start = self.tokens[sub].start
        self.used.update(range(sub if sub is not None else i, j))
        end_tok = max(j - 1, i)
        after = self.tokens[end_tok].end
        inverted = next((p for p in self.parties if 0 <= p.start - after <= 5
                         and _JUST_THE.fullmatch(self.low, after, p.start)), None)
        if inverted is not None:  # "in no event will Provider be liable": the subject follows the modal
            j = next((k for k in range(j, len(self.tokens)) if self.tokens[k].start >= inverted.end), j)
            j, neg = self._negators(j)
            negated ^= neg
            actor, actor_start, actor_end = inverted.side, inverted.start, inverted.end
        else:
            actor, actor_start, actor_end = self._actor(modal_start, j)
        verb_i = self._verb(j)
        verb = stem(self.word(verb_i)) if verb_i is not None else ""
        verb_end = self.tokens[verb_i].end if verb_i is not None else self.tokens[end_tok].end
        end = self.tokens[end_tok].end
        attrs = (("actor", actor), ("actor_start", str(actor_start)), ("actor_end", str(actor_end)),
                 ("verb_end", str(verb_end)))
        atom = Atom("modality", "modal", _combine(base, negated), self.text[start:end], start, end, verb, attrs)
        return atom, j

    def _subject_negator(self, i: int) -> int | None:
        """"Neither party shall", "No Confidential Information may", "in no event shall": the negator before."""
        first = self._sentence_negator(i)
        if first is not None:
            return first
        for k in range(i - 1, max(-1, i - 5), -1):
            w = self.word(k)
            if w in _STOP_LOOKBACK:
                return None
            if w in self.w.subject_negators and k not in self.used:
                return k
        return None

    def _sentence_negator(self, i: int) -> int | None:
        """"No failure or delay by either party in exercising any right shall operate as a waiver": a
        sentence that opens with "No" / "Nothing" / "Neither" negates its first modal, however long the
        subject, when no comma, semicolon or other modal comes between."""
        k = i - 1
        while k >= 0 and self.word(k) not in (".", ";", ":", ",") and k not in self.used and self.word(k) not in self.w.aux:
            k -= 1
        start = k + 1
        if start >= i - 4 or self.word(k) == "," or (k >= 0 and k in self.used):
            return None  # short subjects are read by the lookback; a comma may open a new clause
        return start if self.word(start) in ("no", "nothing", "neither") and start not in self.used else None

    def _verb(self, j: int) -> int | None:
        for k in range(j, min(len(self.tokens), j + 6)):
            w = self.word(k)
            if w.isalpha() and w not in _SKIP_TO_VERB and not self._adverb(w):
                return k
        return None

    def _actor(self, start: int, j: int) -> tuple[str, int, int]:
        """The side that acts: a passive's "by" agent, else the last party named before the modal."""
        if self.word(j) == "be":
            nxt = self.word(j + 1)
            if self._participle(nxt):
                return self._agent(j + 2)
        boundary = max(self.low.rfind(c, 0, start) for c in ".;:")
        before = [p for p in self.parties if boundary < p.start and p.end <= start and start - p.end < 120
                  and not _APPOSITIVE.search(self.low, max(0, p.start - 8), p.start)]  # "Each party, as Recipient, shall"
        if not before:
            return "", start, start
        return before[-1].side, before[-1].start, before[-1].end

    def _participle(self, word: str) -> bool:
        if word.endswith(("ed", "en")) or word in self.w.passive_irregular:
            return True
        return any(word.startswith(p) and word[len(p):] in self.w.passive_irregular for p in self.w.participle_prefixes)

    def _agent(self, j: int) -> tuple[str, int, int]:
        for k in range(j, min(len(self.tokens), j + 10)):
            w = self.word(k)
            if w in (".", ";", ","):
                break
            if w == "by":
                after = self.tokens[k].end
                party = next((p for p in self.parties if 0 <= p.start - after <= 5), None)
                if party is not None:
                    return party.side, party.start, party.end
        return "", -1, -1

    def negation_atoms(self) -> list[Atom]:
        atoms = []
        for i, t in enumerate(self.tokens):
            # "fails to cure" == "does not cure"; the noun only with its party ("the Buyer's failure to inspect"):
            # "any delay or failure to perform" names an event and negates nothing
            owned = t.word != "failure" or self.word(i - 1).endswith("'s") or self.word(i - 1) in _POSSESSIVES
            if t.word in self.w.fail and self.word(i + 1) == "to" and owned:
                verb_i = self._verb(i + 2)
                if verb_i is not None:
                    atoms.append(Atom("negation", "negation", "not", self.text[t.start:self.tokens[verb_i].end],
                                      t.start, self.tokens[verb_i].end, stem(self.word(verb_i)), (("negator", t.word),)))
                continue
            if t.word == "outside" and self.word(i - 1) in self.w.outside_verbs and i not in self.used:
                atoms.append(Atom("negation", "negation", "not", self.text[self.tokens[i - 1].start:t.end],
                                  self.tokens[i - 1].start, t.end, "", (("negator", t.word),)))
                continue
            if i in self.used or t.word not in self.w.free_negators:
                continue
            if t.word == "no" and self.word(i + 1) in (".", "-"):
                continue  # "No. 5": a number sign
            verb_i = self._verb(i + 1)
            anchor = stem(self.word(verb_i)) if verb_i is not None else ""
            end = self.tokens[verb_i].end if verb_i is not None and verb_i - i <= 3 else t.end
            atoms.append(Atom("negation", "negation", "not", self.text[t.start:end], t.start, end, anchor,
                              (("negator", t.word),)))
        return atoms


def scanner(text: str, low: str, mask: Mask, lex: Lexicon) -> _Scanner:
    """The clause's modal scanner, shared by modality, negation and party mentions (built once, on
    the words no earlier family claimed)."""
    if "modality.scanner" not in mask.scratch:
        mask.scratch["modality.scanner"] = _Scanner(text, low, mask, lex)
    return mask.scratch["modality.scanner"]


def extract_modalities(text: str, low: str, mask: Mask, lex: Lexicon) -> list[Atom]:
    """Modal atoms with the side that acts; they absorb "shall not", "Neither party shall"."""
    atoms = scanner(text, low, mask, lex).modal_atoms()
    for a in atoms:
        mask.take(a.start, a.start + 1)
    return atoms


def extract_negations(text: str, low: str, mask: Mask, lex: Lexicon) -> list[Atom]:
    """The free negations a modal did not absorb, anchored on the word they negate."""
    atoms = scanner(text, low, mask, lex).negation_atoms()
    for a in atoms:
        mask.take(a.start, a.start + 1)
    return atoms


def extract_party_mentions(text: str, low: str, mask: Mask, lex: Lexicon) -> list[Atom]:
    """Parties the lexicon names. "each party" / "either party" are kept apart (group "both"): they
    fill roles ("notify each party") but are not a side of the deal a clause can name instead of another."""
    return [Atom("party", "both" if p.side == "both" else "mention", p.side, text[p.start:p.end], p.start, p.end)
            for p in scanner(text, low, mask, lex).parties if not p.side.startswith("name:")]
